//! What every marathon game shares: the contests' random number generators, seed sets, the
//! endpoint that talks to a player (an external program or an in-process thread) under a time
//! limit, the verdicts, the parallel runner and its reports.

pub mod case;
pub mod clock;
pub mod endpoint;
pub mod env;
pub mod files;
pub mod game;
pub mod interrupt;
pub mod machine_load;
pub mod observation;
pub mod process_tree;
pub mod record;
pub mod replay;
pub mod report;
pub mod rng;
pub mod run_report;
pub mod runner;
pub mod seeds;
pub mod verdict;

pub use case::{CaseId, CaseOutcome, Metric, PlayConfig, PlayerSpec, SolveConfig};
pub use clock::{Clock, GameClock};
pub use endpoint::{Endpoint, Failure, StderrMode, TIME_LIMIT_ENV};
pub use env::{Environment, Turn};
pub use game::{Game, GameSpec, Scored, Started, Transcript, spawn_recorded_player, start_player};
pub use observation::read_observation;
pub use seeds::parse_seed_set;
pub use verdict::Verdict;
