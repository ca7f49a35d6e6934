//! The page: one self-contained HTML file. It carries every game's replay viewer (each script
//! wrapped so that its `viewer` stays its own, each style sheet kept aside and put in place
//! when its game is chosen) and the play script, which draws the board with the chosen game's
//! viewer, turns clicks into reply lines with the game's controller (its viewer's `play`
//! script) and talks to the JSON API.

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
        .replace("{{SCRIPT}}", &SCRIPT.replace(CONTROLLERS, &controllers()))
}

/// Where the play script takes the games' controllers, inside its own scope.
const CONTROLLERS: &str = "/*{{CONTROLLERS}}*/";

/// Every game's controller (its viewer's `play` script), wrapped so that its `controller`
/// stays its own.
fn controllers() -> String {
    let mut controllers = String::new();
    for game in marathon_games::games() {
        let play = game.viewer().play;
        if !play.is_empty() {
            let name = serde_json::to_string(game.name()).expect("a name serialises");
            controllers.push_str(&format!(
                "controllers[{name}] = (() => {{\n{play}\nreturn controller;\n}})();\n"
            ));
        }
    }
    controllers
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
        // The games with a controller are played by clicking: the page holds each.
        assert!(SCRIPT.contains(CONTROLLERS));
        for game in marathon_games::games() {
            let name = game.name();
            let held = page.contains(&format!("controllers[\"{name}\"]"));
            assert_eq!(held, !game.viewer().play.is_empty(), "{name}");
        }
        for outside in ["src=\"http", "href=\"http", "url(http", "@import"] {
            assert!(!page.contains(outside), "nothing from outside: {outside}");
        }
    }
}
