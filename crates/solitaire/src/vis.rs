//! Solitaire chess replays: the recorded removals as the replay page reads them, and the page's
//! viewer (the 6x6 tops on bronze, silver or gold, the path of removals, the bonuses as they
//! score).

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{CaseOutcome, PlayConfig};
use serde_json::{Value, json};

use crate::generator::Deal;
use crate::judge::Step;
use crate::rules::Piece;

pub const VIEWER: Viewer = Viewer {
    script: include_str!("vis/solitaire.js"),
    style: include_str!("vis/solitaire.css"),
};

/// The recording of a game on `deal` that went through `steps`. Cells are indices 0..36 in
/// row-major order; pieces by their protocol names.
pub fn recording(
    outcome: CaseOutcome,
    config: &PlayConfig,
    deal: &Deal,
    steps: &[Step],
) -> Recording {
    let tops: Vec<&str> = deal.tops().iter().map(|p| p.name()).collect();
    Recording {
        outcome,
        player: config.player.describe(),
        start: json!({ "tops": tops }),
        steps: steps.iter().map(step_json).collect(),
    }
}

fn step_json(step: &Step) -> Value {
    let b = step.breakdown;
    json!({
        "c": step.cell.index(),
        "p": step.removed.name(),
        "v": step.revealed.map(Piece::name),
        "b": [b.runs, b.sets, b.alternation],
        "score": b.total(),
    })
}
