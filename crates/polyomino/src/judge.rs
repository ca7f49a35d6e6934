//! Polyomino as the runner and the CLI see it: the contest's facts and scoring. The judge sends
//! the board, then serves `GET`, `PLACE` and `DONE` ([`crate::env`]), validating every call. Any failure (a refused
//! call, unreadable text, a crash, a timeout, output closed before `DONE`) scores 0 with the
//! reason in the verdict (docs/rules.md#polyomino-time-and-failures). Built-in players run on a
//! thread behind the same pipes and line reader as external programs, so their time is counted the
//! same way.

use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::replay::Viewer;
use marathon_core::rng::seed_from_lines;
use marathon_core::settings::list_part;
use marathon_core::{CaseId, GameSpec, Metric, Scored, Settings, Solve, Verdict};
use serde_json::Value;

use crate::ai;
use crate::env::{PolyominoEnv, Step};
use crate::protocol::{Command, format_case};
use crate::rules::{TIME_LIMIT_SECONDS, final_score, upper_bound};
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Polyomino;

/// The game as the CLI and the runner see it.
pub static POLYOMINO: Polyomino = Polyomino;

impl GameSpec for Polyomino {
    type Env = PolyominoEnv;
    const NAME: &'static str = "polyomino";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const PARAMS: &'static [&'static str] = &["W", "H", "K"];
    /// The contest's limit: 30 s of the solution's time per case.
    const TIME_LIMIT: Duration = Duration::from_secs(TIME_LIMIT_SECONDS);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;

    fn settings(
        &self,
        player: &str,
        given: &Settings,
    ) -> Result<Vec<(&'static str, String)>, String> {
        let params = ai::player_params(player, given)?;
        Ok(list_part(ai::reads_params(player), &params))
    }

    fn environment(&self, case: &CaseId) -> Result<PolyominoEnv, String> {
        Ok(PolyominoEnv::new(case.seed))
    }

    /// The official score (0 on any failure, the time factor applied), the case's parameters
    /// and the metrics `raw` (score before the time factor, 0 on failure), `bound`
    /// ([`upper_bound`] of the initial board), `ratio` (score / bound) and `covered` (fraction
    /// of the free cells covered by placed pieces).
    fn score(
        &self,
        _case: &CaseId,
        env: &PolyominoEnv,
        verdict: &Verdict,
        time: Duration,
    ) -> Scored {
        let (case, session) = (env.case(), env.session());
        let raw = if verdict.is_ok() {
            session.raw_score()
        } else {
            0
        };
        let score = final_score(raw, time);
        let bound = upper_bound(&case.board());
        let ratio = if bound == 0 {
            0.0
        } else {
            score / bound as f64
        };
        Scored {
            score,
            params: vec![
                ("W", case.width.to_string()),
                ("H", case.height.to_string()),
                ("K", case.covered.len().to_string()),
            ],
            metrics: vec![
                Metric {
                    name: "raw",
                    value: raw as f64,
                },
                Metric {
                    name: "bound",
                    value: bound as f64,
                },
                Metric {
                    name: "ratio",
                    value: ratio,
                },
                Metric {
                    name: "covered",
                    value: session.covered_fraction(),
                },
            ],
        }
    }

    fn replay_start(&self, env: &PolyominoEnv) -> Value {
        vis::start_json(env.case())
    }

    fn replay_step(&self, env: &PolyominoEnv, step: &Step) -> Option<Value> {
        vis::step_json(env.session(), step)
    }

    /// The `ai` player's next call ([`ai::hint`]) on the board as it stands, holding the piece
    /// requested last if it is not placed; seeded from the case's text, as in a game.
    fn hint(&self, env: &PolyominoEnv, effort: u64) -> Option<Command> {
        if env.turn() != Turn::Player {
            return None;
        }
        let case = env.case();
        let text = format_case(case.width, case.height, &case.covered);
        let seed = seed_from_lines(&text.lines().collect::<Vec<_>>());
        Some(ai::hint(env.session(), env.pending(), effort, seed))
    }
}
