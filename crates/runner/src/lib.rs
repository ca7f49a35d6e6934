//! What only marathon's binary (and tools that run many cases) needs: the parallel runner, one
//! run with its outputs (`run`, which the CLI, Python and the tuner share), the score tables and
//! summaries, the merge of a run's parts, best-known scores, the JSON Lines record of a case,
//! run reports, whole-or-untouched output files, and the note on a busy machine. The games
//! never depend on it.
pub mod breakdown;
pub mod files;
pub mod history;
pub mod load_note;
pub mod merge;
pub mod record;
pub mod report;
pub mod run;
pub mod run_report;
pub mod runner;
pub mod select;
mod sinks;
pub mod table;
