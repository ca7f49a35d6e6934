//! Linez replays: the recorded steps as the replay page reads them, and the page's viewer
//! (coloured balls on the 9x9 board, the three-ball preview, the last move and what it
//! cleared).

use marathon_core::replay::Viewer;
use serde_json::{Map, Value, json};

use crate::env::Step;
use crate::protocol::format_move;
use crate::rules::{Bits, Board, Cell, Color, State};

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/linez.js"),
    style: include_str!("vis/linez.css"),
    play: include_str!("vis/linez-play.js"),
};

/// The start of a game as the viewer reads it. Cells are indices 0..81 in row-major order;
/// colours 1..7.
pub fn start_json(start: &State) -> Value {
    json!({
        "board": board_text(&start.board),
        "preview": preview_text(&start.preview),
    })
}

/// One step as the viewer reads it.
pub fn step_json(step: &Step) -> Value {
    let mut object = Map::new();
    if let Some(mv) = step.mv {
        object.insert("m".into(), json!(format_move(mv)));
    }
    // Empty lists are left out: most steps clear nothing, and long games stay small.
    if !step.cleared.is_empty() {
        object.insert("c".into(), cells(step.cleared));
    }
    if !step.spawned.is_empty() {
        let spawned: Vec<Value> = step
            .spawned
            .iter()
            .map(|(cell, color)| json!([cell.index(), color]))
            .collect();
        object.insert("s".into(), Value::Array(spawned));
    }
    if !step.spawn_cleared.is_empty() {
        object.insert("x".into(), cells(step.spawn_cleared));
    }
    object.insert("p".into(), json!(preview_text(&step.preview)));
    object.insert("score".into(), json!(step.score));
    Value::Object(object)
}

fn cells(bits: Bits) -> Value {
    bits.iter().map(|c| c.index()).collect()
}

fn board_text(board: &Board) -> String {
    Cell::all()
        .map(|c| board.get(c).map_or('.', |color| (b'0' + color) as char))
        .collect()
}

fn preview_text(preview: &[Color]) -> String {
    preview.iter().map(|&c| (b'0' + c) as char).collect()
}
