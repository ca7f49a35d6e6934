//! Polyomino replays: the accepted calls as the replay page reads them, and the page's viewer
//! (the board with the initial covered cells and each placed piece in its own colour, the
//! requested pieces not placed yet).

use marathon_core::replay::Viewer;
use serde_json::{Value, json};

use crate::env::Step;
use crate::generator::{PieceGenerator, PolyominoCase};
use crate::rules::Session;

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/polyomino.js"),
    style: include_str!("vis/polyomino.css"),
    play: include_str!("vis/polyomino-play.js"),
};

/// The start of a game on `case`. The board is `W*H` characters row by row, `#` covered and `.`
/// free; cells are `y * W + x`.
pub fn start_json(case: &PolyominoCase) -> Value {
    let board = case.board();
    let mut text = String::with_capacity(case.width * case.height);
    for y in 0..case.height {
        for x in 0..case.width {
            text.push(if board.is_covered(x, y) { '#' } else { '.' });
        }
    }
    json!({ "w": case.width, "h": case.height, "board": text })
}

/// One accepted call as the viewer reads it, with the raw score (before the time factor) if
/// the game ended there; `DONE` shows as no step.
pub fn step_json(after: &Session<PieceGenerator>, step: &Step) -> Option<Value> {
    let score = after.raw_score();
    match step {
        Step::Get { index, size } => Some(json!({ "g": index, "n": size, "score": score })),
        Step::Place { index, cells } => Some(json!({ "p": index, "c": cells, "score": score })),
        Step::Done => None,
    }
}
