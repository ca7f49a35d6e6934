//! The tests every registered game passes (in the spirit of OpenSpiel's basic tests and
//! playthroughs): a random legal player stays legal and every reply it writes reads back; the
//! first message is what `gen` prints; `record` plays the same game as `play`; a golden
//! playthrough per game catches any change of the rules, the draws or the text.
//!
//! `MARATHON_BLESS=1 cargo test -p marathon-games --test it conformance` rewrites the golden files
//! (`crates/GAME/tests/data/playthrough.txt`, in the game's own crate); review the diff before committing it.

use std::path::PathBuf;
use std::time::Duration;

use marathon_core::game::write_message;
use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, PlayError, Settings};
use marathon_games::games;

/// Far above what a fixed-effort game here needs: the tests never depend on the machine's speed.
const NO_HURRY: Duration = Duration::from_secs(1000);

/// A case of every game: seed `seed`, in the game's default group if it has groups.
fn case(game: &dyn Game, seed: u64) -> CaseId {
    match game.groups() {
        Some((_, group)) => CaseId::in_group(group, seed),
        None => CaseId::seed(seed),
    }
}

/// The decisions a golden playthrough shows: enough to cross a few turns of every game.
const GOLDEN_STEPS: usize = 40;

/// A game's golden playthrough, in its own crate (`crates/GAME`).
fn golden_path(game: &dyn Game) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(game.name())
        .join("tests/data/playthrough.txt")
}

#[test]
fn golden_playthroughs_are_unchanged() {
    let bless = std::env::var_os("MARATHON_BLESS").is_some();
    let mut changed = Vec::new();
    for &game in games() {
        let text = game
            .playthrough(&case(game, 1), 7, GOLDEN_STEPS)
            .unwrap_or_else(|e| panic!("{}: {e}", game.name()));
        let path = golden_path(game);
        if bless {
            std::fs::write(&path, &text).expect("the golden file is written");
            continue;
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run with MARATHON_BLESS=1 to write it",
                path.display()
            )
        });
        if golden != text {
            let line = golden
                .lines()
                .zip(text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(golden.lines().count().min(text.lines().count()));
            changed.push(format!(
                "{}: first difference at line {}",
                game.name(),
                line + 1
            ));
        }
    }
    assert!(
        changed.is_empty(),
        "playthroughs changed (MARATHON_BLESS=1 rewrites them after review):\n{}",
        changed.join("\n")
    );
}

#[test]
fn random_legal_players_stay_legal() {
    for &game in games() {
        for seed in 1..=4 {
            let text = game
                .playthrough(&case(game, seed), seed * 31, 100)
                .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", game.name()));
            assert!(text.contains("end after"), "{}", game.name());
        }
    }
}

#[test]
fn the_first_message_is_what_gen_prints() {
    for &game in games() {
        let case = case(game, 3);
        let generated = game.generate(&case).expect("a case");
        let playthrough = game.playthrough(&case, 1, 1).expect("a playthrough");
        let first: String = playthrough
            .lines()
            .skip_while(|line| line.starts_with("auto") || line.starts_with("  score"))
            .take_while(|line| line.starts_with("< "))
            .map(|line| format!("{line}\n"))
            .collect();
        let mut expected = String::new();
        write_message(&mut expected, &generated);
        assert_eq!(first, expected, "{}", game.name());
    }
}

/// `other` is `played` again: a finished game, the same verdict, moves and points.
/// (The points compared are without the player's time, where a game's score counts it.)
fn assert_same_game(game: &dyn Game, other: &CaseOutcome, played: &CaseOutcome) {
    let context = format!("{} {}", game.name(), played.case);
    assert!(played.verdict.is_ok(), "{context}: {}", played.verdict);
    assert_eq!(other.verdict, played.verdict, "{context}");
    assert_eq!(other.moves, played.moves, "{context}");
    assert_eq!(game.points(other), game.points(played), "{context}");
}

#[test]
fn record_plays_the_same_game_as_play() {
    for &game in games() {
        for &player in game.players() {
            let config = PlayConfig::builtin(player, NO_HURRY, Some(1));
            let case = case(game, 2);
            let played = game.play(&case, &config).unwrap();
            let recorded = game.record(&case, &config).unwrap().outcome;
            let context = format!("{} {player}", game.name());
            assert_same_game(game, &recorded, &played);
            let names: Vec<&str> = played.params.iter().map(|(name, _)| *name).collect();
            assert_eq!(names, game.params(), "{context}: the parameters --by reads");
        }
    }
}

/// Every listed setting reads back at its own value, and a player given all of them at those
/// values plays the very game it plays without them: the settings reach the player unchanged.
#[test]
fn settings_read_back_and_a_player_at_its_defaults_plays_its_own_game() {
    for &game in games() {
        for &player in game.players() {
            let context = format!("{} {player}", game.name());
            let listed = game.settings(player, &Settings::default()).unwrap();
            let given = Settings::new(
                listed
                    .iter()
                    .map(|setting| (setting.name.to_string(), setting.value.clone()))
                    .collect(),
            );
            assert_eq!(game.settings(player, &given).unwrap(), listed, "{context}");
            let error = game
                .settings(player, &given.with("no_such_setting", "1"))
                .unwrap_err();
            assert!(error.contains("no_such_setting"), "{context}: {error}");
            for setting in &listed {
                assert!(error.contains(setting.name), "{context}: {error}");
                assert!(
                    !setting.about.is_empty(),
                    "{context}: {} undescribed",
                    setting.name
                );
            }
            // Settings tuned per case differ from the listed ones, which play another game.
            if listed.is_empty() || game.settings_tuned_per_case() {
                continue;
            }
            let case = case(game, 2);
            let plain = game
                .play(&case, &PlayConfig::builtin(player, NO_HURRY, Some(1)))
                .unwrap();
            let config = PlayConfig {
                settings: given,
                ..PlayConfig::builtin(player, NO_HURRY, Some(1))
            };
            let set = game.play(&case, &config).unwrap();
            assert_same_game(game, &set, &plain);
        }
    }
}

/// A game's legend describes what its tables show, in their order: every player, parameter and
/// metric a case shows, and how its case ids read where they are not bare seeds.
#[test]
fn the_legend_describes_every_player_parameter_and_metric() {
    for &game in games() {
        let legend = game.legend();
        let name = game.name();
        let players: Vec<&str> = legend.players.iter().map(|term| term.name).collect();
        assert_eq!(players, game.players(), "{name}: the players, in order");
        let params: Vec<&str> = legend.params.iter().map(|term| term.name).collect();
        assert_eq!(params, game.params(), "{name}: the parameters, in order");
        let abouts = legend.players.iter().map(|term| term.about);
        let mut abouts = abouts.chain(legend.params.iter().map(|param| param.about));
        assert!(abouts.all(|about| !about.is_empty()), "{name}");
        assert!(
            legend.metrics.iter().all(|figure| !figure.about.is_empty()),
            "{name}"
        );
        assert_eq!(legend.score.name, "score", "{name}");
        assert_eq!(
            legend.cases.is_some(),
            game.groups().is_some() || !game.official_cases().is_empty(),
            "{name}: case ids explained where they are not seeds"
        );
        let mut cases = vec![case(game, 1)];
        cases.extend(game.official_cases().into_iter().take(1));
        for case in cases {
            for &player in game.players() {
                let outcome = game
                    .play(&case, &PlayConfig::builtin(player, NO_HURRY, Some(1)))
                    .unwrap();
                for metric in &outcome.metrics {
                    assert!(
                        legend.metric(metric.name).is_some(),
                        "{name} {player} {case}: metric {} not in the legend",
                        metric.name
                    );
                }
                let shown: Vec<&str> = outcome.metrics.iter().map(|m| m.name).collect();
                let order: Vec<&str> = legend
                    .metrics
                    .iter()
                    .map(|figure| figure.name)
                    .filter(|name| shown.contains(name))
                    .collect();
                assert_eq!(shown, order, "{name} {player}: the legend's order");
            }
        }
    }
}

/// A built-in player given a setting it does not have does not play: the caller asked wrongly,
/// and is told so (no player failed, so there is no verdict).
#[test]
fn a_player_given_an_unknown_setting_does_not_play() {
    for &game in games() {
        let player = game.players()[0];
        let config = PlayConfig {
            settings: Settings::default().with("no_such_setting", "1"),
            ..PlayConfig::builtin(player, NO_HURRY, Some(1))
        };
        let error = game.play(&case(game, 1), &config).unwrap_err();
        assert!(
            matches!(&error, PlayError::Settings(why) if why.contains("no_such_setting")),
            "{}: {error}",
            game.name()
        );
    }
}

#[test]
fn a_case_id_a_game_does_not_have_is_refused_with_a_reason() {
    for &game in games() {
        if game.groups().is_some() {
            let error = game
                .generate(&CaseId::in_group(99, 1))
                .expect_err("no group 99");
            assert!(error.contains("99"), "{}: {error}", game.name());
            let config = PlayConfig::builtin(game.players()[0], NO_HURRY, Some(1));
            let error = game.play(&CaseId::in_group(99, 1), &config).unwrap_err();
            assert!(
                matches!(&error, PlayError::NoSuchCase { reason, .. } if reason.contains("99")),
                "{}: {error}",
                game.name()
            );
        }
    }
}

/// The documents a user reads follow the registry: each of the README's tables over the games
/// (the games, the results) lists exactly the registered games, in order, and each game has its
/// protocol section in the rules and its AI page.
#[test]
fn the_documents_list_every_registered_game() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let names: Vec<&str> = games()
        .iter()
        .filter(|game| !game.for_tests())
        .map(|game| game.name())
        .collect();
    let mut tables: Vec<Vec<&str>> = vec![Vec::new()];
    for line in readme.lines() {
        match line
            .strip_prefix("| `")
            .and_then(|rest| rest.split('`').next())
        {
            Some(name) => tables.last_mut().expect("a table").push(name),
            None if tables.last().is_some_and(|t| !t.is_empty()) => tables.push(Vec::new()),
            None => {}
        }
    }
    tables.retain(|table| !table.is_empty());
    assert_eq!(
        tables.len(),
        2,
        "the README's tables over the games: {tables:?}"
    );
    for table in tables {
        assert_eq!(table, names, "a README table of games");
    }
    let rules = std::fs::read_to_string(root.join("docs/rules.md"))
        .expect("docs/rules.md")
        .to_lowercase();
    for name in names {
        assert!(
            root.join(format!("docs/ai/{name}.md")).is_file(),
            "docs/ai/{name}.md"
        );
        assert!(
            rules.contains(&format!("\n### {name} protocol\n")),
            "docs/rules.md has no section \"{name} protocol\""
        );
    }
}

/// Every `docs/FILE.md#anchor` that a comment, a document or the README cites names a heading
/// of that file, so a reader following one lands where it points.
#[test]
fn every_cited_section_of_the_documents_exists() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut sources = vec![root.join("README.md")];
    let mut folders = vec![root.join("crates"), root.join("docs")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a folder of the repository") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|ext| ext == "rs" || ext == "md" || ext == "js")
            {
                sources.push(path);
            }
        }
    }
    let mut cited = 0;
    for source in &sources {
        let text = std::fs::read_to_string(source).expect("a source file");
        for (at, _) in text.match_indices(".md#") {
            let start = text[..at]
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || "/_-.".contains(c)))
                .map_or(0, |i| i + 1);
            let document = &text[start..at + 3];
            let anchor: String = text[at + 4..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            let Some(name) = document.rsplit('/').next().filter(|_| !anchor.is_empty()) else {
                continue;
            };
            // Relative links (`../rules.md#...`, from the citing file's folder), repository
            // paths (`docs/rules.md#...`), and bare names of documents in docs/ (code comments'
            // `rules.md#...`). A relative link comes first: `../README.md` from docs/ is the
            // top README, not docs/README.md.
            let folder = source.parent().expect("a file in a folder");
            let target = [
                folder.join(document),
                root.join(document),
                root.join("docs").join(name),
                root.join(name),
            ]
            .into_iter()
            .find(|path| path.is_file());
            let Some(target) = target else {
                continue;
            };
            let headings: Vec<String> = std::fs::read_to_string(&target)
                .expect("a document")
                .lines()
                .filter(|line| line.starts_with('#'))
                .map(|line| slug(line.trim_start_matches('#').trim()))
                .collect();
            assert!(
                headings.contains(&anchor),
                "{}: {document}#{anchor} names no heading of {}",
                source.display(),
                target.display()
            );
            cited += 1;
        }
    }
    assert!(
        cited > 50,
        "only {cited} citations found: the scan is broken"
    );
}

/// A heading's anchor as GitHub makes it: lower case, spaces to hyphens, punctuation dropped.
fn slug(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}
