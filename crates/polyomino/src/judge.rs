//! Drives a player through a Polyomino case: the judge sends the board, then serves `GET`,
//! `PLACE` and `DONE` over a [`Session`], which validates every call. Any failure (a refused
//! call, unreadable text, a crash, a timeout, output closed before `DONE`) scores 0 with the
//! reason in the verdict (docs/rules.md#polyomino-time-and-failures). Built-in players run on a
//! thread behind the same pipes and line reader as external programs, so their time is counted the
//! same way.

use std::time::Duration;

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, Metric, PlayConfig, SolveFn, Verdict, play_with_player,
};

use crate::ai;
use crate::generator::{PieceGenerator, PolyominoCase};
use crate::protocol::{Command, format_case, format_piece, format_total, parse_command};
use crate::rules::{Session, TIME_LIMIT_SECONDS, final_score, upper_bound};
use crate::vis;

/// The contest's limit: 30 s of the solution's time per case.
pub const TIME_LIMIT: Duration = Duration::from_secs(TIME_LIMIT_SECONDS);

pub struct Polyomino;

/// The game as the CLI and the runner see it.
pub static POLYOMINO: Polyomino = Polyomino;

impl Game for Polyomino {
    fn name(&self) -> &'static str {
        "polyomino"
    }

    fn players(&self) -> &'static [&'static str] {
        ai::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        TIME_LIMIT
    }

    fn generate(&self, case: &CaseId) -> String {
        let case = PolyominoCase::new(case.seed);
        format_case(case.width, case.height, &case.covered)
    }

    fn play(&self, case_id: &CaseId, config: &PlayConfig) -> CaseOutcome {
        self.play_recorded(case_id, config, None)
    }

    fn record(&self, case_id: &CaseId, config: &PlayConfig) -> Option<Recording> {
        let mut steps = Vec::new();
        let outcome = self.play_recorded(case_id, config, Some(&mut steps));
        let case = PolyominoCase::new(case_id.seed);
        Some(vis::recording(outcome, config, &case, &steps))
    }

    fn viewer(&self) -> Option<Viewer> {
        Some(vis::VIEWER)
    }

    fn solver(&self) -> SolveFn {
        ai::speak_protocol
    }
}

impl Polyomino {
    fn play_recorded(
        &self,
        case_id: &CaseId,
        config: &PlayConfig,
        steps: Option<&mut Vec<Step>>,
    ) -> CaseOutcome {
        let case = PolyominoCase::new(case_id.seed);
        let (session, verdict, time) = play_with_player(
            self.name(),
            case_id,
            config,
            ai::speak_protocol,
            |endpoint| run_game(&case, endpoint, steps),
            || Session::new(case.board(), case.pieces()),
        );
        outcome(self.name(), case_id, &case, &session, verdict, time)
    }
}

/// The outcome of a finished case: the official score (0 on any failure), the case's
/// parameters and the metrics `raw` (score before the time factor, 0 on failure), `bound`
/// ([`upper_bound`] of the initial board), `ratio` (score / bound) and `covered` (fraction of
/// the free cells covered by placed pieces).
pub fn outcome(
    game: &'static str,
    case_id: &CaseId,
    case: &PolyominoCase,
    session: &Session<PieceGenerator>,
    verdict: Verdict,
    time: Duration,
) -> CaseOutcome {
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
    CaseOutcome {
        game,
        case: case_id.clone(),
        params: vec![
            ("W", case.width.to_string()),
            ("H", case.height.to_string()),
            ("K", case.covered.len().to_string()),
        ],
        score,
        moves: session.placed_count() as u64,
        time,
        verdict,
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

/// One accepted call as a replay shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `GET`: piece `index` of `size` cells was handed out.
    Get { index: usize, size: usize },
    /// `PLACE`: piece `index` now covers `cells` (`y * W + x`).
    Place { index: usize, cells: Vec<usize> },
}

/// Plays the case until `DONE` or the player's first failure; returns the session (board,
/// pieces, score) and the verdict. With `steps`, every accepted call is recorded there.
pub fn run_game(
    case: &PolyominoCase,
    endpoint: &mut Endpoint,
    steps: Option<&mut Vec<Step>>,
) -> (Session<PieceGenerator>, Verdict) {
    let mut session = Session::new(case.board(), case.pieces());
    let verdict = serve(case, &mut session, endpoint, steps)
        .err()
        .unwrap_or(Verdict::Ok);
    (session, verdict)
}

fn serve(
    case: &PolyominoCase,
    session: &mut Session<PieceGenerator>,
    endpoint: &mut Endpoint,
    mut steps: Option<&mut Vec<Step>>,
) -> Result<(), Verdict> {
    endpoint
        .send(&format_case(case.width, case.height, &case.covered))
        .map_err(Verdict::from)?;
    loop {
        let line = endpoint.receive_line().map_err(Verdict::from)?;
        let invalid = |reason: String| Verdict::invalid(&line, reason);
        let reply = match parse_command(&line).map_err(|e| invalid(e.to_string()))? {
            Command::Get { size } => {
                let (index, piece) = session.get_next(size).map_err(|e| invalid(e.to_string()))?;
                if let Some(steps) = steps.as_deref_mut() {
                    steps.push(Step::Get {
                        index,
                        size: piece.size(),
                    });
                }
                format_piece(index, piece)
            }
            Command::Place {
                index,
                x,
                y,
                rotation,
            } => {
                let total = session
                    .place_next(index, x, y, rotation)
                    .map_err(|e| invalid(e.to_string()))?;
                if let Some(steps) = steps.as_deref_mut() {
                    // Accepted, so index, rotation and position are in range.
                    let piece = session.pieces()[index as usize].rotated(rotation as u8);
                    let cells = piece
                        .cells()
                        .iter()
                        .map(|&(dx, dy)| (y as usize + dy) * case.width + x as usize + dx)
                        .collect();
                    steps.push(Step::Place {
                        index: index as usize,
                        cells,
                    });
                }
                format_total(total)
            }
            Command::Done => return Ok(()),
        };
        endpoint.send(&reply).map_err(Verdict::from)?;
    }
}
