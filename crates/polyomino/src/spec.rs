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
use marathon_core::{
    CaseId, Clock, ClockKind, Figure, GameSpec, Legend, Metric, Param, ParamKind, Scored, Setting,
    Settings, Solve, Term, Verdict,
};
use serde_json::Value;

use crate::ai;
use crate::env::{PolyominoEnv, Step};
use crate::protocol::{Command, format_case};
use crate::rules::{TIME_LIMIT_SECONDS, final_score};
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Polyomino;

/// The game as the CLI and the runner see it.
pub static POLYOMINO: Polyomino = Polyomino;

impl GameSpec for Polyomino {
    type Env = PolyominoEnv;
    const FINAL_REPLY: Option<&'static str> = Some("DONE");
    const UNTIMED_SCORE: Option<&'static str> = Some("raw");
    const NAME: &'static str = "polyomino";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const PARAMS: &'static [&'static str] = &["W", "H", "K"];
    /// The contest's limit: 30 s of the solution's time per case.
    const TIME_LIMIT: Duration = Duration::from_secs(TIME_LIMIT_SECONDS);
    /// The statement charges "seconds of processor time": CPU time. It gives no memory limit: 1024 MiB, TopCoder's usual limit for marathon matches of its time (a reading, docs/rules.md).
    const CLOCK: ClockKind = ClockKind::Cpu;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(1024);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 1,
            about: "raw * (1 - 0.01 * seconds counted): 1% off per second; 0 on a failure",
        },
        params: &[
            Param {
                name: "W",
                kind: ParamKind::Integer,
                about: "the board's width (20-200)",
            },
            Param {
                name: "H",
                kind: ParamKind::Integer,
                about: "the board's height (20-200)",
            },
            Param {
                name: "K",
                kind: ParamKind::Integer,
                about: "cells covered at the start",
            },
        ],
        metrics: &[
            Figure {
                name: "raw",
                decimals: 0,
                about: "the placed pieces' size^2 minus the unplaced ones', at least 0 (0 on a \
                        failure)",
            },
            Figure {
                name: "covered",
                decimals: 3,
                about: "the share of the free cells (W * H - K) that placed pieces cover",
            },
            Figure {
                name: "mean_size",
                decimals: 2,
                about: "the placed pieces' mean size",
            },
            Figure {
                name: "points_per_cell",
                decimals: 2,
                about: "placed size^2 per covered cell (the size of a covered cell's piece, on \
                        average)",
            },
            Figure {
                name: "unplaced",
                decimals: 0,
                about: "pieces requested and never placed",
            },
            Figure {
                name: "lost",
                decimals: 0,
                about: "the unplaced pieces' size^2, what they cost",
            },
        ],
        players: &[
            Term {
                name: "ai",
                about: "asks for the size of best expected gain per cell (from how often \
                        sampled pieces still fit) and places pieces against covered cells",
            },
            Term {
                name: "baseline",
                about: "sizes 12, 8, 6, 5, 4, 3 in turn, each piece at its first fit",
            },
        ],
        cases: None,
    };

    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        let params = ai::player_params(player, given)?;
        Ok(list_part(ai::reads_params(player), &params))
    }

    fn environment(&self, case: &CaseId) -> Result<PolyominoEnv, String> {
        Ok(PolyominoEnv::new(case.seed))
    }

    /// The official score (0 on any failure, the time factor applied), the case's parameters
    /// and the metrics (docs/rules.md#polyomino-scoring):
    ///
    /// - `raw`: the score before the time factor (0 on failure);
    /// - `covered`: the share of the initially free cells that placed pieces cover;
    /// - `mean_size`: the mean size of the placed pieces;
    /// - `points_per_cell`: placed size^2 per covered cell, the size of the piece on a covered
    ///   cell averaged over the covered cells;
    /// - `unplaced`: the pieces requested and never placed;
    /// - `lost`: their size^2, what they cost.
    ///
    /// They take the raw score apart: `raw = free cells * covered * points_per_cell - lost`,
    /// floored at 0, so a table shows whether a player lacks coverage, large pieces, or wastes
    /// requests. The figures but `raw` describe the calls the judge accepted, also when the
    /// case failed; with nothing placed, the sizes are 0. There is no upper bound among them:
    /// one valid whatever the pieces are must let each free region take pieces as large as
    /// itself (up to 1000 cells), while the random pieces that fit random boards are small (the
    /// `ai` placed none above 48 cells on seeds 1-20), so such a bound lay 1.7 to 100 times
    /// above its score.
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
                    name: "covered",
                    value: session.covered_fraction(),
                },
                Metric {
                    name: "mean_size",
                    value: session.mean_placed_size(),
                },
                Metric {
                    name: "points_per_cell",
                    value: session.points_per_cell(),
                },
                Metric {
                    name: "unplaced",
                    value: session.unplaced_count() as f64,
                },
                Metric {
                    name: "lost",
                    value: session.unplaced_penalty() as f64,
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

    /// The `ai` player's next call on the board as it stands, holding the piece requested last
    /// if it is not placed: its decision at a turn, started there; seeded from the case's text,
    /// as in a game.
    fn hint(&self, env: &PolyominoEnv, effort: u64) -> Option<Command> {
        if env.turn() != Turn::Player {
            return None;
        }
        let case = env.case();
        let text = format_case(case.width, case.height, &case.covered);
        let seed = seed_from_lines(&text.lines().collect::<Vec<_>>());
        let mut player = ai::new_player("ai", Some(effort), seed, &Settings::default()).ok()?;
        let session = env.session();
        let seen = ai::Observation {
            board: session.board().clone(),
            requested: session.requested(),
            pending: env.pending().map(|(index, piece)| (index, piece.clone())),
        };
        let clock = Clock::start(Self::TIME_LIMIT, Duration::ZERO);
        Some(player.choose(&seen, &clock))
    }
}
