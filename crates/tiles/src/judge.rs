//! Drives a player through a TilesMatching case under the contest's rules: the player reads
//! `N S D`, then one tile per turn, and answers a placement, `DISCARD` or `GIVE UP`. The game
//! ends at `GIVE UP` (the score so far counts) or after [`MAX_MOVES`] moves. An invalid reply, a
//! crash or a timeout scores 0 for the case (the statement: "Invalid return of any kind will
//! result in zero absolute score"), and the verdict says why.

use std::time::Duration;

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, Metric, PlayConfig, SolveFn, Verdict, play_with_player,
};

use crate::ai;
use crate::generator::TilesCase;
use crate::protocol::{format_params, format_tile, parse_move};
use crate::rules::{MAX_MOVES, Move, Outcome, State, Tile};
use crate::vis;

/// The contest's limit: 20 s of the solution's time per case.
pub const TIME_LIMIT: Duration = Duration::from_secs(20);

pub struct Tiles;

/// The game as the CLI and the runner see it.
pub static TILES: Tiles = Tiles;

/// The official score of a finished game: the rules' score if the verdict is ok, else 0
/// (docs/rules.md#tiles-time-and-failures: any invalid reply, crash or timeout scores 0 for the
/// case).
pub fn official_score(state: &State, verdict: &Verdict) -> u32 {
    if verdict.is_ok() { state.score() } else { 0 }
}

impl Game for Tiles {
    fn name(&self) -> &'static str {
        "tiles"
    }

    fn players(&self) -> &'static [&'static str] {
        ai::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        TIME_LIMIT
    }

    /// The first line the player reads, `N S D`.
    fn generate(&self, case: &CaseId) -> String {
        format!("{}\n", format_params(TilesCase::new(case.seed).params))
    }

    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome {
        self.play_recorded(case, config, None)
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Option<Recording> {
        let mut steps = Vec::new();
        let outcome = self.play_recorded(case, config, Some(&mut steps));
        let params = TilesCase::new(case.seed).params;
        Some(vis::recording(outcome, config, params, &steps))
    }

    fn viewer(&self) -> Option<Viewer> {
        Some(vis::VIEWER)
    }

    fn solver(&self) -> SolveFn {
        ai::speak_protocol
    }
}

impl Tiles {
    fn play_recorded(
        &self,
        case: &CaseId,
        config: &PlayConfig,
        steps: Option<&mut Vec<Step>>,
    ) -> CaseOutcome {
        let seed = case.seed;
        let (state, verdict, time) = play_with_player(
            self.name(),
            case,
            config,
            ai::speak_protocol,
            |endpoint| run_game(seed, endpoint, steps),
            || State::new(TilesCase::new(seed).params),
        );
        outcome(case.clone(), &state, verdict, time)
    }
}

/// The runner's record of a finished game: params N, S, D; metrics `clears` (placements that
/// cleared lines), `doubles` (row and column at once) and `10k` (1 if the game reached the
/// move cap, so its total counts such games).
pub fn outcome(case: CaseId, state: &State, verdict: Verdict, time: Duration) -> CaseOutcome {
    let p = state.params;
    CaseOutcome {
        game: TILES.name(),
        case,
        params: vec![
            ("N", p.n.to_string()),
            ("S", p.s.to_string()),
            ("D", p.d.to_string()),
        ],
        score: official_score(state, &verdict) as f64,
        moves: state.moves as u64,
        time,
        metrics: vec![
            Metric {
                name: "clears",
                value: (state.single_clears + state.double_clears) as f64,
            },
            Metric {
                name: "doubles",
                value: state.double_clears as f64,
            },
            Metric {
                name: "10k",
                value: f64::from(u8::from(state.moves >= MAX_MOVES)),
            },
        ],
        verdict,
    }
}

/// One move as a replay shows it: the tile, the reply, what it did, and the counters after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub tile: Tile,
    pub mv: Move,
    pub outcome: Outcome,
    /// The discard counter after the move.
    pub counter: u8,
    pub score: u32,
}

/// Plays the case to its end or to the player's first failure; returns the final state (its
/// score is the rules' score, before the failure rule) and the verdict. With `steps`, every
/// move is recorded there.
pub fn run_game(
    seed: u64,
    endpoint: &mut Endpoint,
    mut steps: Option<&mut Vec<Step>>,
) -> (State, Verdict) {
    let mut case = TilesCase::new(seed);
    let mut state = State::new(case.params);
    if let Err(failure) = endpoint.send(&format!("{}\n", format_params(case.params))) {
        return (state, failure.into());
    }
    while !state.is_over() {
        let tile = case.next_tile(state.board.is_empty());
        if let Err(failure) = endpoint.send(&format!("{}\n", format_tile(tile))) {
            return (state, failure.into());
        }
        let line = match endpoint.receive_line() {
            Ok(line) => line,
            Err(failure) => return (state, failure.into()),
        };
        let invalid = |reason: String| Verdict::invalid(&line, reason);
        let played = parse_move(&line)
            .map_err(|e| invalid(e.to_string()))
            .and_then(|mv| {
                state
                    .play(tile, mv)
                    .map(|outcome| (mv, outcome))
                    .map_err(|e| invalid(format!("tile {}: {e}", format_tile(tile))))
            });
        match played {
            Ok((mv, outcome)) => {
                if let Some(steps) = steps.as_deref_mut() {
                    steps.push(Step {
                        tile,
                        mv,
                        outcome,
                        counter: state.counter,
                        score: state.score(),
                    });
                }
            }
            Err(verdict) => return (state, verdict),
        }
    }
    (state, Verdict::Ok)
}
