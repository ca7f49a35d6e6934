//! The layout the code promises: within every crate, no two modules import each other (a
//! module's `crate::other` paths, doc links included, make its edges; unit tests are left out),
//! and a game's `rules` imports nothing else of its crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir)
        .expect("a readable source tree")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            found.push(path);
        }
    }
}

/// Module -> the modules of its crate it names, for the crate whose sources are in `src`.
fn module_edges(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).expect("under src");
        let top = relative
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .expect("a file name")
            .trim_end_matches(".rs")
            .to_string();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("a readable file");
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for (at, _) in code.match_indices("crate::") {
            let name: String = code[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty()
                && name != top
                && name.chars().next().is_some_and(char::is_lowercase)
            {
                edges.entry(top.clone()).or_default().insert(name);
            }
        }
    }
    edges
}

#[test]
fn no_two_modules_import_each_other() {
    let mut cycles = Vec::new();
    for entry in std::fs::read_dir(crates_dir()).expect("crates/").flatten() {
        let src = entry.path().join("src");
        if !src.is_dir() {
            continue;
        }
        let edges = module_edges(&src);
        for (from, targets) in &edges {
            for to in targets {
                if from < to && edges.get(to).is_some_and(|back| back.contains(from)) {
                    cycles.push(format!("{}: {from} <-> {to}", entry.path().display()));
                }
            }
        }
    }
    assert!(
        cycles.is_empty(),
        "modules that import each other:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_rules_of_every_game_stand_alone() {
    for game in marathon_games::names() {
        let src = crates_dir().join(game).join("src");
        let edges = module_edges(&src);
        let used: Vec<&String> = edges.get("rules").into_iter().flatten().collect();
        assert!(
            used.is_empty(),
            "{game}: rules imports {used:?} (rules has no IO, no AI, no generator)"
        );
    }
}
