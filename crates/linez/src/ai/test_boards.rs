//! Boards the scorers' tests share: every legal move of each is scored fast and checked against
//! evaluating the board after it.

/// Balls of every colour spread over the board, few lines near clearing.
pub const SCATTERED: [&str; 9] = [
    "11.1.2..3",
    "..2..2...",
    ".3.4..5..",
    "1...1...7",
    "..6..6...",
    ".....1...",
    "2.2.2....",
    "...77.7..",
    "4....4..4",
];

/// Lines of four everywhere: moves make, break and block ready lines.
pub const READY_LINES: [&str; 9] = [
    "1111.2233",
    "2..2.2..3",
    "33344.5..",
    "1.5.1..77",
    "..6..6..6",
    ".1.1.1.1.",
    "2.2.2.3.3",
    "5..77.7..",
    "4444.4..4",
];
