//! Replays a person opens in a browser: one self-contained HTML file (inline data, script and
//! SVG; no network) per recorded game.
//!
//! A recording holds the game's start and one small event per step (a move and what it
//! caused), never whole boards per frame, so that a game of thousands of moves stays small. The
//! page rebuilds the position of any step from the start and the events; the game's viewer
//! script knows how, and the shared player script gives every game the same controls.

use serde::Serialize;
use serde_json::Value;

use crate::case::CaseOutcome;
use crate::case::format_score;

/// A game recorded through the judge.
#[derive(Clone, Debug)]
pub struct Recording {
    pub outcome: CaseOutcome,
    /// Who played (`ai`, `exec: python3 bot.py`).
    pub player: String,
    /// The game's start, as its viewer script reads it.
    pub start: Value,
    /// One event per step, as its viewer script reads it. Each carries the score after it
    /// under `score`.
    pub steps: Vec<Value>,
}

/// The game-specific half of a replay page: a script defining `const viewer = { init(start),
/// apply(state, step), draw(svg, state, step), describe(state, step) }` (and optionally
/// `clone(state)`) and its style sheet. The play page of `marathon serve` draws its boards with
/// the same viewers, and also asks them where a cell is drawn and which cell a point is in:
/// `cellBox(state, i) -> [x, y, width, height]` and `cellAt(state, x, y) -> i or -1`, in the
/// SVG's units. `apply` may change the state it is given: the page
/// clones its checkpoints before stepping forward from one.
#[derive(Clone, Copy, Debug)]
pub struct Viewer {
    pub script: &'static str,
    pub style: &'static str,
    /// The play page's controller: a script defining `const controller = {...}` that turns
    /// clicks into reply lines (see `crates/serve/src/page/play.js` for what it provides and
    /// may use), or empty for a game played there by typing its replies.
    pub play: &'static str,
}

const PAGE: &str = include_str!("replay/page.html");
const PLAYER_SCRIPT: &str = include_str!("replay/player.js");

#[derive(Serialize)]
struct PageData<'a> {
    game: &'a str,
    case: String,
    player: &'a str,
    params: Vec<(&'a str, &'a str)>,
    score: String,
    moves: u64,
    time_ms: u64,
    /// A program's peak memory in KiB (`null` for an in-process player).
    max_rss_kib: Option<u64>,
    verdict: String,
    ok: bool,
    start: &'a Value,
    steps: &'a [Value],
}

/// The replay page of `recording`.
pub fn html(recording: &Recording, viewer: &Viewer) -> String {
    let o = &recording.outcome;
    let data = PageData {
        game: o.game,
        case: o.case.to_string(),
        player: &recording.player,
        params: o.params.iter().map(|(k, v)| (*k, v.as_str())).collect(),
        score: format_score(o.score),
        moves: o.moves,
        time_ms: o.time.as_millis() as u64,
        max_rss_kib: o.max_rss_kib,
        verdict: o.verdict.to_string(),
        ok: o.verdict.is_ok(),
        start: &recording.start,
        steps: &recording.steps,
    };
    let json = serde_json::to_string(&data).expect("replay data serialises");
    let title = format!("{} {} — {}", o.game, o.case, recording.player);
    PAGE.replace("{{TITLE}}", &escape_html(&title))
        .replace("{{STYLE}}", viewer.style)
        .replace("{{PLAYER}}", PLAYER_SCRIPT)
        .replace("{{VIEWER}}", viewer.script)
        .replace("{{DATA}}", &script_safe(&json))
}

/// JSON inside `<script>`: `</` would end the element early, and U+2028/9 break old parsers.
fn script_safe(json: &str) -> String {
    json.replace("</", "<\\/")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Text for HTML element content and attribute values.
pub fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::CaseId;
    use crate::verdict::Verdict;
    use serde_json::json;
    use std::time::Duration;

    fn recording(verdict: Verdict) -> Recording {
        Recording {
            outcome: CaseOutcome {
                game: "linez",
                case: CaseId::seed(3),
                params: vec![("N", "6".into())],
                score: 42.0,
                moves: 2,
                time: Duration::from_millis(5),
                verdict,
                metrics: Vec::new(),
                cpu: None,
                max_rss_kib: Some(2048),
            },
            player: "exec: ./bot </script>".into(),
            start: json!({"board": "x"}),
            steps: vec![
                json!({"score": 10, "note": "</script><b>"}),
                json!({"score": 42}),
            ],
        }
    }

    const VIEWER: Viewer = Viewer {
        script: "const viewer = {};",
        style: ".board{}",
        play: "",
    };

    #[test]
    fn the_page_embeds_data_that_cannot_close_its_script() {
        let page = html(&recording(Verdict::invalid("Z9", "bad row")), &VIEWER);
        // Only the page's own script elements end a script: four (errors, data, viewer, player).
        assert_eq!(page.matches("</script>").count(), 4, "{page}");
        assert!(page.contains("<\\/script><b>"));
        assert!(page.contains("linez 3 — exec: ./bot &lt;/script&gt;"));
        assert!(page.contains(".board{}") && page.contains("const viewer = {};"));
        assert!(page.contains("invalid"), "the verdict is shown");
        assert!(!page.contains("{{"), "every placeholder is filled");
        let start = page.find("id=\"replay-data\">").unwrap() + "id=\"replay-data\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        let data: Value = serde_json::from_str(&page[start..end].replace("<\\/", "</")).unwrap();
        assert_eq!(data["steps"].as_array().unwrap().len(), 2);
        assert_eq!(
            data["max_rss_kib"], 2048,
            "the page shows the program's peak memory"
        );
        assert_eq!(data["score"], "42");
        assert_eq!(data["ok"], false);
    }
}
