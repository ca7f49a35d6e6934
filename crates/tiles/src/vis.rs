//! TilesMatching replays: every move as the replay page reads it, and the page's viewer (the
//! board of colour x shape tiles, the current tile, the discard counter, cleared lines
//! flashing).

use marathon_core::replay::Viewer;
use serde_json::{Map, Value, json};

use crate::env::Step;
use crate::protocol::{format_move, format_tile};
use crate::rules::{Outcome, Params};

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/tiles.js"),
    style: include_str!("vis/tiles.css"),
    play: include_str!("vis/tiles-play.js"),
};

/// The start of a game with `params` (the board starts empty).
pub fn start_json(params: Params) -> Value {
    json!({ "n": params.n, "s": params.s, "d": params.d })
}

/// `t` the tile, `m` the reply, `x` the lines cleared (`r`, `c` or `rc`), `k` the discard
/// counter; empty fields are left out, as most moves clear nothing.
pub fn step_json(step: &Step) -> Value {
    let mut object = Map::new();
    object.insert("t".into(), json!(format_tile(step.tile)));
    object.insert("m".into(), json!(format_move(step.mv)));
    if let Outcome::Placed { row, col } = step.outcome
        && (row || col)
    {
        let lines = match (row, col) {
            (true, true) => "rc",
            (true, false) => "r",
            _ => "c",
        };
        object.insert("x".into(), json!(lines));
    }
    object.insert("k".into(), json!(step.counter));
    object.insert("score".into(), json!(step.score));
    Value::Object(object)
}
