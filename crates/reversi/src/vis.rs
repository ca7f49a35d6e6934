//! Reversi replays: every player's moves as the replay page reads them, and the page's viewer
//! (the board in the players' colours, whose turn, the counts, the last move and its flips).

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{CaseOutcome, PlayConfig};
use serde_json::json;

use crate::judge::Step;
use crate::protocol::format_rows;
use crate::rules::{Cell, Player, State};

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/reversi.js"),
    style: include_str!("vis/reversi.css"),
};

/// The recording of a game that started at `start` and went through `steps`. Cells are
/// `row * n + col`; the board is the protocol's rows.
pub fn recording(
    outcome: CaseOutcome,
    config: &PlayConfig,
    start: &State,
    steps: &[Step],
) -> Recording {
    let n = start.board.size();
    let players = start.board.players();
    let index = |cell: Cell| cell.row() * n + cell.col();
    // Player 1's score as the game goes (docs/rules.md#reversi-scoring: owned * P / n^2), from the
    // owners so far.
    let mut owner: Vec<Player> = (0..n * n)
        .map(|i| start.board.get(Cell::new(i / n, i % n)).unwrap_or(0))
        .collect();
    Recording {
        outcome,
        player: config.player.describe(),
        start: json!({
            "n": n,
            "players": start.board.players(),
            "rows": format_rows(&start.board),
        }),
        steps: steps
            .iter()
            .map(|step| {
                let flipped: Vec<usize> = step.flipped.iter().map(index).collect();
                for &cell in flipped.iter().chain(&[index(step.cell)]) {
                    owner[cell] = step.player;
                }
                let owned = owner.iter().filter(|&&p| p == 1).count();
                let score = owned as f64 * players as f64 / (n * n) as f64;
                json!({
                    "p": step.player,
                    "c": index(step.cell),
                    "f": flipped,
                    "score": (score * 1000.0).round() / 1000.0,
                })
            })
            .collect(),
    }
}
