//! TilesMatching as the runner and the CLI see it: the contest's facts and scoring. The player
//! reads `N S D`, then one tile per turn, and answers a placement, `DISCARD` or `GIVE UP`
//! ([`crate::env`]). The game ends at `GIVE UP` (the score so far counts) or after
//! [`crate::rules::MAX_MOVES`] moves. An invalid reply, a crash or a timeout scores 0 for the
//! case (the statement: "Invalid return of any kind will result in zero absolute score"), and
//! the verdict says why.

use std::time::Duration;

use marathon_core::replay::Viewer;
use marathon_core::rng::seed_from_lines;
use marathon_core::settings::list_part;
use marathon_core::{
    CaseId, Clock, ClockKind, Figure, GameSpec, Legend, Metric, Param, ParamKind, Scored, Setting,
    Settings, Solve, Term, Verdict,
};
use serde_json::Value;

use crate::ai;
use crate::env::{Step, TilesEnv};
use crate::protocol::format_params;
use crate::rules::{MAX_MOVES, Move, State};
use crate::vis;

#[derive(Clone, Copy, Debug)]
pub struct Tiles;

/// The game as the CLI and the runner see it.
pub static TILES: Tiles = Tiles;

/// The official score of a finished game: the rules' score if the verdict is ok, else 0
/// (docs/rules.md#tiles-time-and-failures: any invalid reply, crash or timeout scores 0 for the
/// case).
pub fn official_score(state: &State, verdict: &Verdict) -> u32 {
    if verdict.is_ok() { state.score() } else { 0 }
}

impl GameSpec for Tiles {
    type Env = TilesEnv;
    const FINAL_REPLY: Option<&'static str> = Some("GIVE UP");
    // The listed weights are where each case's tuned weights (by N, S and D) start.
    const SETTINGS_TUNED_PER_CASE: bool = true;
    const NAME: &'static str = "tiles";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const PARAMS: &'static [&'static str] = &["N", "S", "D"];
    /// The contest's limit: 20 s of the solution's time per case.
    const TIME_LIMIT: Duration = Duration::from_secs(20);
    /// The statement: "The memory limit is 1024 MB and the time limit is 20 seconds (which includes only time spent in your code)": CPU time.
    const CLOCK: ClockKind = ClockKind::Cpu;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(1024);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 0,
            about: "tiles used (placed, or R applied), + S for each line cleared, + 3S for a \
                    row and a column cleared at once; 0 on a failure",
        },
        params: &[
            Param {
                name: "N",
                kind: ParamKind::Integer,
                about: "colours, and shapes (4-10)",
            },
            Param {
                name: "S",
                kind: ParamKind::Integer,
                about: "the board's side (8-12)",
            },
            Param {
                name: "D",
                kind: ParamKind::Integer,
                about: "the discard limit (2-4)",
            },
        ],
        metrics: &[
            Figure {
                name: "clears",
                decimals: 0,
                about: "placements that cleared a line (or two)",
            },
            Figure {
                name: "doubles",
                decimals: 0,
                about: "placements that cleared a row and a column at once",
            },
            Figure {
                name: "10k",
                decimals: 0,
                about: "1 when the game reached the cap of 10,000 moves (discards count), so \
                        its total counts such games",
            },
        ],
        players: &[
            Term {
                name: "ai",
                about: "an expectimax over the next tile (two tiles deep for its best \
                        replies), weights tuned per N, S and D",
            },
            Term {
                name: "greedy",
                about: "the first legal cell with the most neighbours; discards a tile that \
                        fits nowhere",
            },
            Term {
                name: "random",
                about: "a uniformly random legal reply",
            },
        ],
        cases: None,
    };

    /// The settings of the weights every case's tuned weights start from (a case's own
    /// weights differ by its kinds, board and discards: `ai::search::tuned_weights`).
    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        let weights = ai::player_weights(player, ai::Weights::default(), given)?;
        Ok(list_part(ai::reads_weights(player), &weights))
    }

    fn follower(&self) -> Option<Box<dyn marathon_core::Follower>> {
        Some(Box::new(crate::follow::TilesFollower::new()))
    }

    fn environment(&self, case: &CaseId) -> Result<TilesEnv, String> {
        Ok(TilesEnv::new(case.seed))
    }

    /// The official score; params N, S, D; metrics `clears` (placements that cleared lines),
    /// `doubles` (row and column at once) and `10k` (1 if the game reached the move cap, so its
    /// total counts such games).
    fn score(&self, _case: &CaseId, env: &TilesEnv, verdict: &Verdict, _time: Duration) -> Scored {
        let state = env.state();
        let p = state.params;
        Scored {
            score: f64::from(official_score(state, verdict)),
            params: vec![
                ("N", p.n.to_string()),
                ("S", p.s.to_string()),
                ("D", p.d.to_string()),
            ],
            metrics: vec![
                Metric {
                    name: "clears",
                    value: f64::from(state.single_clears + state.double_clears),
                },
                Metric {
                    name: "doubles",
                    value: f64::from(state.double_clears),
                },
                Metric {
                    name: "10k",
                    value: f64::from(u8::from(state.moves >= MAX_MOVES)),
                },
            ],
        }
    }

    fn replay_start(&self, env: &TilesEnv) -> Value {
        vis::start_json(env.state().params)
    }

    fn replay_step(&self, _env: &TilesEnv, step: &Step) -> Option<Value> {
        Some(vis::step_json(step))
    }

    /// The `ai` player's reply to the tile in hand. The protocol never shows the board, but
    /// every player keeps it from the tiles and its replies, as [`TilesEnv::state`] has it;
    /// seeded from the first line, as in a game.
    fn hint(&self, env: &TilesEnv, effort: u64) -> Option<Move> {
        let tile = env.tile()?;
        let state = env.state();
        let seed = seed_from_lines(&[format_params(state.params)]);
        let mut player =
            ai::new_player("ai", state, Some(effort), seed, &Settings::default()).ok()?;
        let clock = Clock::start(Self::TIME_LIMIT, Duration::ZERO);
        let seen = ai::Observation {
            state: state.clone(),
            tile,
        };
        Some(player.choose(&seen, &clock))
    }
}
