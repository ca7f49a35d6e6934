//! Drives a player through a Solitaire chess case exactly as the Kattis judge does: the 6 lines
//! of the board, then for each `r c` the uncovered piece or `blank`, until `0 0`. Any failure
//! (an illegal or blank cell, unreadable output, a crash, a timeout, output that ends without
//! `0 0`) scores 0 for the case (docs/rules.md#solitaire-time-and-failures), and the verdict says
//! why.

use std::ops::RangeInclusive;
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
use crate::env::{SolitaireEnv, Step, case_deal, case_setup};
use crate::generator::{DEFAULT_GROUP, GROUP_ALPHABETS, official_case, official_cases};
use crate::protocol::{Reply, format_board};
use crate::vis;

/// The name of the Kattis-points metric of official cases.
pub const POINTS_METRIC: &str = "points";

#[derive(Clone, Copy, Debug)]
pub struct Solitaire;

/// The game as the CLI and the runner see it.
pub static SOLITAIRE: Solitaire = Solitaire;

impl GameSpec for Solitaire {
    type Env = SolitaireEnv;
    const FINAL_REPLY: Option<&'static str> = Some("0 0");
    const NAME: &'static str = "solitaire";
    const PLAYERS: &'static [&'static str] = ai::PLAYERS;
    const PARAMS: &'static [&'static str] = &["alphabet"];
    /// Our time limit per case (docs/rules.md#solitaire-time-and-failures: 10 s).
    const TIME_LIMIT: Duration = Duration::from_secs(10);
    /// Kattis limits CPU time; the statement gives no memory limit: 2048 MiB, the Kattis problem package's default (a reading, docs/rules.md).
    const CLOCK: ClockKind = ClockKind::Cpu;
    const MEMORY_LIMIT_MIB: Option<u64> = Some(2048);
    const SOLVE: Solve = ai::speak_protocol;
    const VIEWER: Viewer = vis::VIEWER;
    const LEGEND: &'static Legend = &Legend {
        score: Figure {
            name: "score",
            decimals: 0,
            about: "removals, plus the bonuses for runs, sets and alternations; 0 on a failure",
        },
        params: &[Param {
            name: "alphabet",
            kind: ParamKind::Text,
            about: "the piece types the stacks are drawn from: 1-4, t torn, l lopare, d dam, \
                    s springare",
        }],
        metrics: &[Figure {
            name: POINTS_METRIC,
            decimals: 2,
            about: "(official cases) Kattis points P * X / Y: P the case's points, X the \
                    score, Y the best score recorded for the case",
        }],
        players: &[
            Term {
                name: "ai",
                about: "a Monte Carlo tree search with chance nodes for the hidden pieces",
            },
            Term {
                name: "flat",
                about: "each removal valued by the mean of heuristic playouts, no tree",
            },
            Term {
                name: "greedy",
                about: "the removal with the most points now",
            },
            Term {
                name: "random",
                about: "uniformly random legal removals",
            },
        ],
        cases: Some(
            "g6:3 means seed 3 of group 6 (--group 6 --seeds 3), g6-1 the first official case \
             of group 6 (--official; g1 and g2 are groups 1 and 2's only ones)",
        ),
    };

    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        Some((1..=GROUP_ALPHABETS.len() as u32, DEFAULT_GROUP))
    }

    fn official_cases(&self) -> Vec<CaseId> {
        official_cases()
            .into_iter()
            .map(|c| CaseId::named(c.name, Some(c.group), c.seed))
            .collect()
    }

    fn settings(&self, player: &str, given: &Settings) -> Result<Vec<Setting>, String> {
        let weights = ai::player_weights(player, given)?;
        Ok(list_part(ai::reads_weights(player), &weights))
    }

    fn follower(&self) -> Option<Box<dyn marathon_core::Follower>> {
        Some(Box::new(crate::follow::SolitaireFollower::new()))
    }

    fn environment(&self, case: &CaseId) -> Result<SolitaireEnv, String> {
        case_deal(case).map(SolitaireEnv::new)
    }

    /// The score (0 unless the verdict is ok, docs/rules.md#solitaire-time-and-failures), the
    /// alphabet, and for official cases the Kattis points.
    fn score(
        &self,
        case: &CaseId,
        env: &SolitaireEnv,
        verdict: &Verdict,
        _time: Duration,
    ) -> Scored {
        let score = if verdict.is_ok() {
            f64::from(env.state().score())
        } else {
            0.0
        };
        let metrics = case
            .name
            .as_deref()
            .and_then(official_case)
            .map(|official| Metric {
                name: POINTS_METRIC,
                value: official.kattis_points(score),
            })
            .into_iter()
            .collect();
        let alphabet = case_setup(case)
            .map(|(_, alphabet, _)| alphabet.to_string())
            .unwrap_or_default();
        Scored {
            score,
            params: vec![("alphabet", alphabet)],
            metrics,
        }
    }

    fn replay_start(&self, env: &SolitaireEnv) -> Value {
        vis::start_json(env.deal())
    }

    fn replay_step(&self, _env: &SolitaireEnv, step: &Step) -> Option<Value> {
        vis::step_json(step)
    }

    /// The `ai` player's removal (or `0 0`) in the position the player knows: the tops, what
    /// it removed and what that uncovered ([`SolitaireEnv::state`]); seeded from the first
    /// observation, as in a game.
    fn hint(&self, env: &SolitaireEnv, effort: u64) -> Option<Reply> {
        if env.turn() != Turn::Player {
            return None;
        }
        let board = format_board(&env.deal().tops());
        let seed = seed_from_lines(&board.lines().collect::<Vec<_>>());
        let mut player = ai::new_player("ai", Some(effort), seed, &Settings::default()).ok()?;
        let clock = Clock::start(Self::TIME_LIMIT, Duration::ZERO);
        let state = env.state();
        Some(if state.is_over() {
            Reply::Stop
        } else {
            player.choose(state, &clock)
        })
    }
}
