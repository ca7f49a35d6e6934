//! Runs a seed set in parallel.
