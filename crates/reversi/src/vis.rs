//! Reversi replays: every player's moves as the replay page reads them, and the page's viewer
//! (the board in the players' colours, whose turn, the counts, the last move and its flips).

use marathon_core::replay::Viewer;
use serde_json::{Value, json};

use crate::env::Step;
use crate::protocol::format_rows;
use crate::rules::{Cell, State};

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/reversi.js"),
    style: include_str!("vis/reversi.css"),
    play: include_str!("vis/reversi-play.js"),
};

/// The start of a game as the viewer reads it: the size, the players and the protocol's rows.
pub fn start_json(start: &State) -> Value {
    json!({
        "n": start.board.size(),
        "players": start.board.players(),
        "rows": format_rows(&start.board),
    })
}

/// One move as the viewer reads it; `after` is the game after it. Cells are `row * n + col`;
/// the score is player 1's (docs/rules.md#reversi-scoring: owned * P / n^2), to three
/// decimals.
pub fn step_json(after: &State, step: &Step) -> Value {
    let n = after.board.size();
    let index = |cell: Cell| cell.row() * n + cell.col();
    let flipped: Vec<usize> = step.flipped.iter().map(index).collect();
    json!({
        "p": step.player,
        "c": index(step.cell),
        "f": flipped,
        "score": (after.score() * 1000.0).round() / 1000.0,
    })
}
