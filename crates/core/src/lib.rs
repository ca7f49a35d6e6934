//! What every marathon game needs: the contests' random number generators, seed sets, cases and
//! their outcomes, the environment every game implements and the one judge loop that drives it,
//! the endpoint that talks to a player (an external program or an in-process thread) under a
//! time limit with its process cleanup, the verdicts, the players' clock, and the replay page.
//! What only the binary needs (the runner, tables, reports, JSON) is in `marathon-runner`.

pub mod case;
pub mod clock;
pub mod cpu;
pub mod endpoint;
pub mod env;
pub mod follow;
pub mod game;
pub mod in_play;
pub mod input;
pub mod interrupt;
mod lab;
pub mod legend;
pub mod observation;
pub mod player;
pub mod process_tree;
pub mod replay;
pub mod rng;
pub mod sandbox;
pub mod seeds;
pub mod settings;
pub mod space;
pub mod spec;
pub mod usage;
pub mod verdict;

pub use case::{
    CaseId, CaseOutcome, MemoryLimit, Metric, PlayConfig, PlayerSpec, SolveConfig, format_score,
};
pub use clock::{Clock, ClockKind, Deadline, GameClock};
pub use endpoint::{
    CLOCK_ENV, Endpoint, Failure, Limits, MEMORY_LIMIT_ENV, StderrMode, TIME_LIMIT_ENV,
};
pub use env::{Environment, Turn};
pub use follow::Follower;
pub use game::{Game, PlayError, Replayed, Transcript, spawn_recorded_player, start_player};
pub use in_play::{CaseInPlay, InPlay, Refusal};
pub use legend::{Figure, Legend, Param, ParamKind, Term, format_fixed, format_total};
pub use observation::{invalid_data, read_line, read_observation};
pub use player::Player;
pub use seeds::parse_seed_set;
pub use settings::{Setting, Settings, Tunable};
pub use spec::{GameSpec, Scored, Solve, Started};
pub use verdict::Verdict;
