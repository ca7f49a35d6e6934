//! The JSON API end to end over HTTP: every game started, stepped, taken back and hinted, with
//! the score checked against the judge's at each step; finished games against `marathon play`
//! itself; and requests that must be refused without stopping the server.

use crate::common;

use std::time::Duration;

use common::{get, judged, legal_of, post, replies_of, request_to, start_server};
use marathon_core::{PlayConfig, format_score};
use serde_json::{Value, json};

/// Whether `reply` ends its game at once (a game's final reply); a test plays those only when
/// it means to.
fn ends(game: &str, reply: &str) -> bool {
    marathon_games::find(game).and_then(|game| game.final_reply()) == Some(reply)
}

/// A legal reply that does not end the game (the `k`-th of the listed ones, wrapping), or the
/// hint where the state lists none (Polyomino's many placements).
fn some_reply(address: std::net::SocketAddr, state: &Value, k: usize) -> String {
    let going: Vec<String> = legal_of(state)
        .into_iter()
        .filter(|r| !ends(state["game"].as_str().unwrap_or_default(), r))
        .collect();
    if !going.is_empty() {
        return going[k % going.len()].clone();
    }
    let session = state["session"].as_u64().expect("a session");
    let hint = get(address, &format!("/api/hint?session={session}")).json();
    hint["hint"].as_str().expect("a hint").to_string()
}

#[test]
fn every_game_steps_undoes_and_hints_and_scores_as_the_judge() {
    let address = start_server();
    for game in marathon_games::games() {
        let name = game.name();
        let answer = post(address, "/api/new", &json!({"game": name, "seed": 3}));
        assert_eq!(answer.status, 200, "{name}: {}", answer.body);
        let mut state = answer.json();
        let session = state["session"].as_u64().expect("a session id");
        assert_eq!(state["game"], name);
        assert_eq!(state["over"], false, "{name}");
        assert!(state["message"].as_str().is_some_and(|m| !m.is_empty()));
        let mut replies: Vec<String> = Vec::new();
        for k in 0..4 {
            let reply = some_reply(address, &state, k * 7);
            let answer = post(
                address,
                "/api/step",
                &json!({"session": session, "action": reply}),
            );
            assert_eq!(answer.status, 200, "{name} {reply}: {}", answer.body);
            state = answer.json();
            replies.push(reply);
            assert_eq!(replies_of(&state), replies, "{name}");
            assert_eq!(
                state["score"].as_f64(),
                Some(judged(*game, &state, &replies)),
                "{name} after {replies:?}"
            );
        }
        // The hint is a legal reply here.
        let hint = get(address, &format!("/api/hint?session={session}")).json();
        let hint = hint["hint"].as_str().expect("every game hints").to_string();
        let mut with_hint = replies.clone();
        with_hint.push(hint.clone());
        assert!(
            game.replay(&common::case_of(&state), &with_hint).is_ok(),
            "{name}: hint {hint:?} refused"
        );
        // A refused reply changes nothing.
        let refused = post(
            address,
            "/api/step",
            &json!({"session": session, "action": "no such move"}),
        );
        assert_eq!(refused.status, 422, "{name}: {}", refused.body);
        assert!(refused.json()["error"].as_str().is_some());
        let same = get(address, &format!("/api/state?session={session}")).json();
        assert_eq!(replies_of(&same), replies, "{name}");
        // Undo takes back the last reply, and the score follows.
        let undone = post(address, "/api/undo", &json!({"session": session})).json();
        replies.pop();
        assert_eq!(replies_of(&undone), replies, "{name}");
        assert_eq!(
            undone["score"].as_f64(),
            Some(judged(*game, &undone, &replies)),
            "{name}"
        );
        // The steps drawn are those of the game played again from its start.
        let again = post(address, "/api/new", &json!({"game": name, "seed": 3})).json();
        assert_eq!(again["start"], undone["start"], "{name}");
        // The replay page holds the game so far.
        let page = get(address, &format!("/api/replay?session={session}"));
        assert_eq!(page.status, 200);
        assert!(page.body.contains("id=\"replay-data\""), "{name}");
        assert!(page.body.contains("a person (marathon serve)"), "{name}");
        eprintln!("{name}: {replies:?} then hint {hint:?}");
    }
}

#[test]
fn a_finished_game_scores_what_marathon_play_gives_for_the_same_replies() {
    let address = start_server();
    let dir = marathon_testing::scratch::process_dir(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")),
        "serve-replies",
    );
    for game in marathon_games::games() {
        let name = game.name();
        let mut state = post(address, "/api/new", &json!({"game": name, "seed": 5})).json();
        let session = state["session"].as_u64().expect("a session id");
        let mut steps = 0;
        while state["over"] == false {
            // Ten moves, then the reply that ends the game where there is one.
            let legal = legal_of(&state);
            let ending = legal.iter().find(|r| ends(name, r));
            // The hint for forty replies (random legal replies are mostly dull: Polyomino's
            // are pieces too large to place), then random ones, which end a game sooner.
            let hint = (steps < 40)
                .then(|| get(address, &format!("/api/hint?session={session}")).json())
                .and_then(|hint| hint["hint"].as_str().map(str::to_string))
                .filter(|hint| !ends(name, hint));
            let reply = match (ending, hint) {
                (Some(ending), _) if steps >= 10 => ending.clone(),
                (_, Some(hint)) => hint,
                _ => some_reply(address, &state, steps * 13 + 5),
            };
            let answer = post(
                address,
                "/api/step",
                &json!({"session": session, "action": reply}),
            );
            assert_eq!(answer.status, 200, "{name} {reply}: {}", answer.body);
            state = answer.json();
            steps += 1;
            assert!(steps < 5_000, "{name}: the game does not end");
        }
        let shown = state["final"].as_str().expect("a final score").to_string();
        // `marathon play` with a program that prints the same replies.
        let replies = replies_of(&state);
        let file = dir.join(format!("{name}.txt"));
        std::fs::write(&file, replies.join("\n") + "\n").expect("written");
        let command = format!("cat '{}'; cat >/dev/null", file.display());
        let config = PlayConfig::exec(&command, Duration::from_secs(1000));
        let played = game.play(&common::case_of(&state), &config).unwrap();
        assert!(played.verdict.is_ok(), "{name}: {}", played.verdict);
        // A score that counts the player's time (Polyomino's): the page counts none.
        let expected = if game.untimed_score().is_some() {
            game.replay(&common::case_of(&state), &replies)
                .expect("replays")
                .score
        } else {
            played.score
        };
        assert_eq!(shown, format_score(expected), "{name}");
        assert_eq!(state["moves"].as_u64(), Some(played.moves), "{name}");
        eprintln!(
            "{name}: {steps} replies, final {shown}, marathon play {}",
            played.score
        );
    }
}

#[test]
fn bad_requests_are_refused_and_the_server_goes_on() {
    let address = start_server();
    let started = post(address, "/api/new", &json!({"game": "tiles", "seed": 1})).json();
    let session = started["session"].as_u64().expect("a session");
    let cases: Vec<(&str, &str, String, u16)> = vec![
        ("POST", "/api/new", "{not json".into(), 400),
        (
            "POST",
            "/api/new",
            json!({"game": "chess", "seed": 1}).to_string(),
            400,
        ),
        (
            "POST",
            "/api/new",
            json!({"game": "tiles", "seed": -1}).to_string(),
            400,
        ),
        (
            "POST",
            "/api/new",
            json!({"game": "linez", "seed": 1, "group": 2}).to_string(),
            400,
        ),
        (
            "POST",
            "/api/new",
            json!({"game": "solitaire", "seed": 1, "group": 99}).to_string(),
            400,
        ),
        (
            "POST",
            "/api/step",
            json!({"session": 999, "action": "0 0"}).to_string(),
            404,
        ),
        (
            "POST",
            "/api/step",
            json!({"session": session}).to_string(),
            400,
        ),
        (
            "POST",
            "/api/step",
            json!({"session": session, "action": "9 9 9"}).to_string(),
            422,
        ),
        (
            "POST",
            "/api/step",
            json!({"session": session, "action": "99 99"}).to_string(),
            422,
        ),
        (
            "POST",
            "/api/step",
            json!({"session": session, "action": "0\n0"}).to_string(),
            422,
        ),
        (
            "POST",
            "/api/undo",
            json!({"session": session}).to_string(),
            409,
        ),
        ("GET", "/api/hint", String::new(), 400),
        ("GET", "/api/hint?session=abc", String::new(), 400),
        ("GET", "/api/state?session=12345", String::new(), 404),
        ("GET", "/api/step", String::new(), 405),
        ("GET", "/nowhere", String::new(), 404),
        ("POST", "/api/new", "x".repeat(100_000), 413),
    ];
    for (method, path, body, status) in &cases {
        let answer = request_to(address, None, method, path, body);
        assert_eq!(
            answer.status, *status,
            "{method} {path} {body:.80}: {}",
            answer.body
        );
        assert!(
            answer.json()["error"].as_str().is_some(),
            "{path}: {}",
            answer.body
        );
    }
    // Another host name for this address (a page elsewhere, through DNS) is refused.
    let rebound = request_to(address, Some("evil.example:80"), "GET", "/api/games", "");
    assert_eq!(rebound.status, 403);
    let localhost = format!("localhost:{}", address.port());
    let named = request_to(address, Some(&localhost), "GET", "/api/games", "");
    assert_eq!(named.status, 200);
    // The game ended by a reply goes on refusing steps.
    let over = post(
        address,
        "/api/step",
        &json!({"session": session, "action": "GIVE UP"}),
    );
    assert_eq!(over.status, 200);
    assert_eq!(over.json()["over"], true);
    let after = post(
        address,
        "/api/step",
        &json!({"session": session, "action": "0 0"}),
    );
    assert_eq!(after.status, 422);
    assert!(get(address, &format!("/api/hint?session={session}")).json()["hint"].is_null());
    // And the server still answers.
    let games = get(address, "/api/games").json();
    assert_eq!(
        games.as_array().map(Vec::len),
        Some(marathon_games::names().len())
    );
    let page = get(address, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("viewers[\"linez\"]"));
}
