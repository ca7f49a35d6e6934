//! Replays: the total after each step, drawn as a row of cells.

use marathon_core::replay::Viewer;
use serde_json::{Value, json};

use crate::env::Step;
use crate::protocol::format_action;
use crate::rules::TARGET;

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/dice.js"),
    style: include_str!("vis/dice.css"),
    play: include_str!("vis/dice-play.js"),
};

pub fn start_json(total: u32) -> Value {
    json!({ "total": total })
}

pub fn step_json(step: &Step) -> Value {
    let score = if step.total > TARGET { 0 } else { step.total };
    json!({ "m": format_action(step.action), "r": step.roll, "t": step.total, "score": score })
}
