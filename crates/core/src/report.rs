//! Score tables, summaries, JSON Lines and best-known scores.
