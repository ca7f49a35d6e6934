//! Finding the headless browser that the page tests run (`crates/cli/tests/it/replay.rs`,
//! `crates/serve/tests/it/play_page.rs`).

use std::path::PathBuf;

/// The Chromium to test with: `$MARATHON_BROWSER`, else the first of Chromium's usual names on
/// the PATH. Without one the caller's check is skipped with a note naming `what` it would have
/// checked, unless `MARATHON_REQUIRE_BROWSER` is set (CI sets it after installing Debian's
/// `chromium`): then the test fails.
pub fn browser_or_skip(what: &str) -> Option<PathBuf> {
    let found = match std::env::var_os("MARATHON_BROWSER") {
        Some(path) => Some(PathBuf::from(path)),
        None => std::env::var_os("PATH").and_then(|path| {
            ["chromium", "chromium-browser", "google-chrome"]
                .iter()
                .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
                .find(|candidate| candidate.is_file())
        }),
    };
    if found.is_none() {
        assert!(
            std::env::var_os("MARATHON_REQUIRE_BROWSER").is_none(),
            "MARATHON_REQUIRE_BROWSER is set but no chromium was found"
        );
        eprintln!("note: no chromium on PATH; {what} not checked in a browser");
    }
    found
}
