//! Solitaire chess replays: the recorded removals as the replay page reads them, and the page's
//! viewer (the 6x6 tops on bronze, silver or gold, the path of removals, the bonuses as they
//! score).

use marathon_core::replay::Viewer;
use serde_json::{Value, json};

use crate::env::Step;
use crate::generator::Deal;
use crate::rules::Piece;

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/solitaire.js"),
    style: include_str!("vis/solitaire.css"),
    play: include_str!("vis/solitaire-play.js"),
};

/// The start of a game on `deal`: the tops by their protocol names. Cells are indices 0..36 in
/// row-major order.
pub fn start_json(deal: &Deal) -> Value {
    let tops: Vec<&str> = deal.tops().iter().map(|p| p.name()).collect();
    json!({ "tops": tops })
}

/// One removal as the viewer reads it; the closing `0 0` shows as no step.
pub fn step_json(step: &Step) -> Option<Value> {
    let Step::Removed {
        cell,
        removed,
        revealed,
        breakdown: b,
    } = step
    else {
        return None;
    };
    Some(json!({
        "c": cell.index(),
        "p": removed.name(),
        "v": revealed.map(Piece::name),
        "b": [b.runs, b.sets, b.alternation],
        "score": b.total(),
    }))
}
