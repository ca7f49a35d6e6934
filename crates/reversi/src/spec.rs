//! MultiplayerReversi as the runner and the CLI see it: the contest's facts and scoring. The
//! judge plays the computer opponents in-process with their evolved strategies, sends the board
//! to player 1 on each of its turns (skipping it when it has no move) and applies its reply
//! ([`crate::env`]). An illegal or malformed move, a crash or a timeout ends the game and scores
//! 0 (docs/rules.md#reversi-time-and-failures); the verdict says why.
//!
//! The `oracle` player knows the opponents' true weights: the judge builds it itself on a
//! thread with the case's strategies (behind the same pipes as every player), since no program
//! started from the command line could know them.

use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use marathon_core::env::{Environment, Turn};
use marathon_core::replay::Viewer;
use marathon_core::{
    CaseId, Clock, ClockKind, Figure, GameSpec, Legend, Metric, Param, ParamKind, PlayConfig,
    PlayerSpec, Scored, Solve, Started, Term, Verdict,
};
use serde_json::Value;

use crate::ai::{self, Predictions};
use crate::env::{ReversiEnv, Step};
use crate::protocol::MoveText;
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Reversi;

/// The game as the CLI and the runner see it.
pub static REVERSI: Reversi = Reversi;

impl GameSpec for Reversi {
    type Env = ReversiEnv;
    const NAME: &'static str = "reversi";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const PARAMS: &'static [&'static str] = &["N", "P"];
    /// The contest's limit: 30 s of the solution's time per case.
    const TIME_LIMIT: Duration = Duration::from_secs(30);
    /// The statement: "Time limit is 30 seconds, and memory limit is 1GB"; the time the judge waits.
    const CLOCK: ClockKind = ClockKind::Wall;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(1024);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 3,
            about: "owned * P / N^2: player 1's cells at the end, times the players, over the \
                    board's cells; 0 on a failure",
        },
        params: &[
            Param {
                name: "N",
                kind: ParamKind::Integer,
                about: "the board's side (7-12)",
            },
            Param {
                name: "P",
                kind: ParamKind::Integer,
                about: "players: 3 on odd boards, 4 on even ones",
            },
        ],
        metrics: &[
            Figure {
                name: "owned",
                decimals: 0,
                about: "player 1's cells at the end",
            },
            Figure {
                name: "predicted",
                decimals: 3,
                about: "(the built-in ai) the share of the opponents' choices among several \
                        moves that it predicted",
            },
        ],
        players: &[
            Term {
                name: "ai",
                about: "infers the opponents' weights from their moves and plays the move \
                        best on average over samples of them",
            },
            Term {
                name: "greedy",
                about: "the move that flips the most pieces",
            },
            Term {
                name: "oracle",
                about: "a beam search that knows the opponents' weights (only in-process): \
                        what knowing them is worth",
            },
        ],
        cases: None,
    };

    fn environment(&self, case: &CaseId) -> Result<ReversiEnv, String> {
        Ok(ReversiEnv::new(case.seed))
    }

    /// Player 1's score, 0 unless the verdict is ok (docs/rules.md#reversi-time-and-failures);
    /// params N and P; metric `owned` (player 1's cells at the end).
    fn score(
        &self,
        _case: &CaseId,
        env: &ReversiEnv,
        verdict: &Verdict,
        _time: Duration,
    ) -> Scored {
        let state = env.state();
        let reversi = env.case();
        Scored {
            score: if verdict.is_ok() { state.score() } else { 0.0 },
            params: vec![
                ("N", reversi.size.to_string()),
                ("P", reversi.players.to_string()),
            ],
            metrics: vec![Metric {
                name: "owned",
                value: f64::from(state.board.count(1)),
            }],
        }
    }

    /// The oracle gets the case's opponents; the other built-in players report how many of the
    /// opponents' moves they predicted (metric `predicted`).
    fn start_builtin(&self, env: &ReversiEnv, config: &PlayConfig) -> Option<io::Result<Started>> {
        let PlayerSpec::Builtin(name) = &config.player else {
            return None;
        };
        if name == ai::ORACLE {
            let started = ai::spawn_oracle(env.case(), config.limits(), config.solve_config(name));
            return Some(started.map(|endpoint| Started {
                endpoint,
                report: Box::new(Vec::new),
            }));
        }
        let predictions = Arc::new(Mutex::new(Predictions::default()));
        let started = ai::spawn_reporting(
            config.limits(),
            config.solve_config(name),
            Arc::clone(&predictions),
        );
        Some(started.map(|endpoint| Started {
            endpoint,
            report: Box::new(move || {
                let predictions = *predictions.lock().unwrap_or_else(|e| e.into_inner());
                if predictions.total > 0 {
                    vec![Metric {
                        name: "predicted",
                        value: predictions.rate(),
                    }]
                } else {
                    Vec::new()
                }
            }),
        }))
    }

    fn replay_start(&self, env: &ReversiEnv) -> Value {
        vis::start_json(env.state())
    }

    fn replay_step(&self, env: &ReversiEnv, step: &Step) -> Option<Value> {
        Some(vis::step_json(env.state(), step))
    }

    /// The `ai` player's move for the board player 1 is shown, seeded from that observation as
    /// in a game. It sees this board alone: in a game it would also have read the opponents'
    /// earlier moves off the boards before, and its model of them would be sharper.
    fn hint(&self, env: &ReversiEnv, effort: u64) -> Option<MoveText> {
        if env.turn() != Turn::Player {
            return None;
        }
        let message = env.message(None);
        let seed = ai::observation_seed(&message.lines().collect::<Vec<_>>());
        let mut player = ai::new_player("ai", Some(effort), seed, &Default::default()).ok()?;
        let clock = Clock::start(Self::TIME_LIMIT, Duration::ZERO);
        let cell = player.choose(&env.state().board, &clock);
        Some(MoveText {
            col: cell.col(),
            row: cell.row(),
        })
    }
}
