//! Color Lines on a 9x9 board (TopCoder Marathon Match 5, "Linez").
