//! Linez as the runner and the CLI see it: the contest's facts and scoring. The player sees the
//! board and the next three colours and answers a move ([`crate::env`]); an invalid move, a
//! crash or a timeout ends the game with the points scored so far (the statement's rule), and
//! the verdict says why.

use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::replay::Viewer;
use marathon_core::rng::seed_from_lines;
use marathon_core::{
    CaseId, Clock, ClockKind, Figure, GameSpec, Legend, Scored, Setting, Settings, Solve, Term,
    Verdict,
};
use serde_json::Value;

use crate::ai;
use crate::env::{LinezEnv, Step};
use crate::rules::Move;
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Linez;

/// The game as the CLI and the runner see it.
pub static LINEZ: Linez = Linez;

impl GameSpec for Linez {
    type Env = LinezEnv;
    const NAME: &'static str = "linez";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    /// The contest's limit: 20 s of the solution's time per case.
    const TIME_LIMIT: Duration = Duration::from_secs(20);
    /// The statement: "The memory limit is 64MB"; its 20 s count the time the judge waits (TopCoder's wall clock).
    const CLOCK: ClockKind = ClockKind::Wall;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(64);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 0,
            about: "the points scored, 10 + k(k-5)/2 for each k balls removed at once \
                    (a failure keeps them)",
        },
        params: &[],
        metrics: &[],
        players: &[
            Term {
                name: "ai",
                about: "an expectimax over sampled spawns, a few spawns deep, valued by a \
                        learned n-tuple network",
            },
            Term {
                name: "hand",
                about: "the same search on a hand-made evaluation (whose weights are \
                        settings), one spawn deep",
            },
            Term {
                name: "greedy",
                about: "the hand-made evaluation's best move, without search",
            },
            Term {
                name: "random",
                about: "a uniformly random legal move",
            },
        ],
        cases: None,
    };

    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        ai::PlayerSettings::new(player, given).map(|mut settings| settings.list(player))
    }

    fn environment(&self, case: &CaseId) -> Result<LinezEnv, String> {
        Ok(LinezEnv::new(case.seed))
    }

    /// The points scored, whatever the verdict.
    fn score(&self, _case: &CaseId, env: &LinezEnv, _verdict: &Verdict, _time: Duration) -> Scored {
        Scored {
            score: env.state().score as f64,
            ..Scored::default()
        }
    }

    fn replay_start(&self, env: &LinezEnv) -> Value {
        vis::start_json(env.state())
    }

    fn replay_step(&self, _env: &LinezEnv, step: &Step) -> Option<Value> {
        Some(vis::step_json(step))
    }

    /// The `ai` player's move for the board and preview the player is shown, seeded as in a
    /// game from that observation's text.
    fn hint(&self, env: &LinezEnv, effort: u64) -> Option<Move> {
        if env.turn() != Turn::Player {
            return None;
        }
        let message = env.message(None);
        let seed = seed_from_lines(&message.lines().collect::<Vec<_>>());
        let mut player = ai::new_player("ai", Some(effort), seed, &Settings::default()).ok()?;
        let state = env.state();
        let clock = Clock::start(Self::TIME_LIMIT, Duration::ZERO);
        let seen = ai::Observation {
            board: state.board,
            preview: state.preview,
        };
        Some(player.choose(&seen, &clock))
    }
}
