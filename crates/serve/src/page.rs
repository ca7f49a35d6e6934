//! The page: one self-contained HTML file. It carries every game's replay viewer (each script
//! wrapped so that its `viewer` stays its own, each style sheet kept aside and put in place
//! when its game is chosen) and the play script, which draws the board with the chosen game's
//! viewer, turns clicks into reply lines and talks to the JSON API.

use serde_json::{Map, Value};

const PAGE: &str = include_str!("page/page.html");
const SCRIPT: &str = include_str!("page/play.js");

/// The page, with every registered game's viewer.
pub fn html() -> String {
    let mut viewers = String::new();
    let mut styles = Map::new();
    for game in marathon_games::games() {
        let viewer = game.viewer();
        let name = serde_json::to_string(game.name()).expect("a name serialises");
        viewers.push_str(&format!(
            "viewers[{name}] = (() => {{\n{}\nreturn viewer;\n}})();\n",
            viewer.script
        ));
        styles.insert(game.name().into(), Value::String(viewer.style.into()));
    }
    let styles = Value::Object(styles).to_string();
    PAGE.replace("{{VIEWERS}}", &viewers)
        .replace("{{STYLES}}", &script_safe(&styles))
        .replace("{{SCRIPT}}", SCRIPT)
}

/// JSON inside `<script>`: `</` would end the element early.
fn script_safe(json: &str) -> String {
    json.replace("</", "<\\/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_holds_every_viewer_and_no_placeholder() {
        let page = html();
        assert!(!page.contains("{{"), "every placeholder is filled");
        for name in marathon_games::names() {
            assert!(page.contains(&format!("viewers[\"{name}\"]")), "{name}");
        }
        // Every game is played by clicking: the play script has its controller.
        for name in marathon_games::names() {
            assert!(
                SCRIPT.contains(&format!("\n    {name}: (")),
                "no controller for {name}"
            );
        }
        for outside in ["src=\"http", "href=\"http", "url(http", "@import"] {
            assert!(!page.contains(outside), "nothing from outside: {outside}");
        }
    }
}
