//! Dice as the runner and the CLI see it.

use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::replay::Viewer;
use marathon_core::{CaseId, ClockKind, Figure, GameSpec, Legend, Scored, Solve, Term, Verdict};
use serde_json::Value;

use crate::ai;
use crate::env::{DiceEnv, Step};
use crate::rules::Action;
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Dice;

pub static DICE: Dice = Dice;

impl GameSpec for Dice {
    type Env = DiceEnv;
    const NAME: &'static str = "dice";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const TIME_LIMIT: Duration = Duration::from_secs(10);
    const CLOCK: ClockKind = ClockKind::Wall;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(256);
    const FINAL_REPLY: Option<&'static str> = Some("STOP");
    const FOR_TESTS: bool = true;
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 0,
            about: "the total at the end, 0 over 100 or after a failure",
        },
        params: &[],
        metrics: &[],
        players: &[
            Term {
                name: "ai",
                about: "rolls below 90",
            },
            Term {
                name: "random",
                about: "rolls or stops at random",
            },
        ],
        cases: None,
    };

    fn environment(&self, case: &CaseId) -> Result<DiceEnv, String> {
        Ok(DiceEnv::new(case.seed))
    }

    fn score(&self, _case: &CaseId, env: &DiceEnv, verdict: &Verdict, _time: Duration) -> Scored {
        Scored {
            score: if verdict.is_ok() { env.score() } else { 0.0 },
            ..Scored::default()
        }
    }

    fn replay_start(&self, env: &DiceEnv) -> Value {
        vis::start_json(env.state().total)
    }

    fn replay_step(&self, _env: &DiceEnv, step: &Step) -> Option<Value> {
        Some(vis::step_json(step))
    }

    fn hint(&self, env: &DiceEnv, _effort: u64) -> Option<Action> {
        (env.turn() == Turn::Player).then(|| ai::decide(env.state().total))
    }
}
