//! Polyomino replays: the accepted calls as the replay page reads them, and the page's viewer
//! (the board with the initial covered cells and each placed piece in its own colour, the
//! requested pieces not placed yet).

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{CaseOutcome, PlayConfig};
use serde_json::{Value, json};

use crate::generator::PolyominoCase;
use crate::judge::Step;

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/polyomino.js"),
    style: include_str!("vis/polyomino.css"),
};

/// The recording of a game on `case` that went through `steps`. The board is `W*H` characters
/// row by row, `#` covered and `.` free; cells are `y * W + x`.
pub fn recording(
    outcome: CaseOutcome,
    config: &PlayConfig,
    case: &PolyominoCase,
    steps: &[Step],
) -> Recording {
    let board = case.board();
    let mut text = String::with_capacity(case.width * case.height);
    for y in 0..case.height {
        for x in 0..case.width {
            text.push(if board.is_covered(x, y) { '#' } else { '.' });
        }
    }
    // The page shows the raw score (before the time factor) as it grows.
    let mut placed = 0u64;
    let mut requested = Vec::new();
    let mut is_placed = Vec::new();
    let steps = steps
        .iter()
        .map(|step| match step {
            Step::Get { index, size } => {
                requested.push(*size as u64);
                is_placed.push(false);
                json!({ "g": index, "n": size, "score": raw(placed, &requested, &is_placed) })
            }
            Step::Place { index, cells } => {
                let size = cells.len() as u64;
                placed += size * size;
                is_placed[*index] = true;
                json!({ "p": index, "c": cells, "score": raw(placed, &requested, &is_placed) })
            }
        })
        .collect();
    Recording {
        outcome,
        player: config.player.describe(),
        start: json!({ "w": case.width, "h": case.height, "board": text }),
        steps,
    }
}

/// The raw score if the game ended here: placed size^2 minus requested-but-unplaced size^2.
fn raw(placed: u64, requested: &[u64], is_placed: &[bool]) -> Value {
    let unplaced: u64 = requested
        .iter()
        .zip(is_placed)
        .filter(|(_, placed)| !**placed)
        .map(|(size, _)| size * size)
        .sum();
    json!(placed.saturating_sub(unplaced))
}
