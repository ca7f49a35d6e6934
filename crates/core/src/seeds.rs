//! Seed sets as users type them: `1-100`, `1,5,9`, `7`, `@file` (one seed a line; blank lines
//! and `#` comments allowed), and combinations such as `1-10,20,30-32`.

use std::fmt;
use std::path::Path;

/// A seed set that could not be read; the message names the offending token (and file line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedError(pub String);

impl fmt::Display for SeedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SeedError {}

/// The largest seed set accepted; a typo like `1-1000000000` should fail fast, not run for days.
pub const MAX_SEEDS: u64 = 1_000_000;

pub fn parse_seed_set(text: &str) -> Result<Vec<u64>, SeedError> {
    let text = text.trim();
    if let Some(path) = text.strip_prefix('@') {
        return read_seed_file(Path::new(path));
    }
    let mut seeds = Vec::new();
    for token in text.split(',') {
        parse_token(token.trim(), &mut seeds).map_err(|why| {
            SeedError(format!(
                "bad seed set {text:?}: token {:?}: {why}",
                token.trim()
            ))
        })?;
    }
    Ok(seeds)
}

fn read_seed_file(path: &Path) -> Result<Vec<u64>, SeedError> {
    let mut seeds = Vec::new();
    crate::input::for_each_line(path, |line| {
        let text = line.text.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            return Ok(());
        }
        parse_token(text, &mut seeds)
            .map_err(|why| format!("{}:{}: {text:?}: {why}", path.display(), line.number))
    })
    .map_err(|message| match message.strip_prefix("cannot read ") {
        Some(rest) => SeedError(format!("cannot read seed file {rest}")),
        None => SeedError(message),
    })?;
    if seeds.is_empty() {
        return Err(SeedError(format!(
            "seed file {} holds no seed",
            path.display()
        )));
    }
    Ok(seeds)
}

fn parse_token(token: &str, seeds: &mut Vec<u64>) -> Result<(), String> {
    if token.is_empty() {
        return Err("empty".into());
    }
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|_| format!("{s:?} is not a non-negative integer"))
    };
    let (low, high) = match token.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let n = number(token)?;
            (n, n)
        }
    };
    if low > high {
        return Err(format!("range runs backwards ({low} > {high})"));
    }
    if high - low >= MAX_SEEDS || seeds.len() as u64 + (high - low) >= MAX_SEEDS {
        return Err(format!("more than {MAX_SEEDS} seeds"));
    }
    seeds.extend(low..=high);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_lists_and_singletons() {
        assert_eq!(parse_seed_set("7").unwrap(), vec![7]);
        assert_eq!(parse_seed_set("1-4").unwrap(), vec![1, 2, 3, 4]);
        assert_eq!(parse_seed_set("1,5,9").unwrap(), vec![1, 5, 9]);
        assert_eq!(parse_seed_set(" 1-2, 10 ,3-3").unwrap(), vec![1, 2, 10, 3]);
    }

    #[test]
    fn bad_syntax_names_the_token() {
        for (text, needle) in [
            ("", "\"\""),
            ("1-", "\"\""),
            ("a", "\"a\""),
            ("5-3", "backwards"),
            ("1,,2", "empty"),
            ("-3", "\"\""),
            ("1-99999999999", "more than"),
        ] {
            let err = parse_seed_set(text).unwrap_err().0;
            assert!(err.contains(needle), "{text:?} -> {err}");
        }
    }

    #[test]
    fn seed_file_with_comments_and_line_numbers_in_errors() {
        let dir = std::env::temp_dir().join(format!("marathon-seeds-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "# case list\n3\n\n10-11 # two more\n").unwrap();
        assert_eq!(
            parse_seed_set(&format!("@{}", good.display())).unwrap(),
            vec![3, 10, 11]
        );
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "3\nfour\n").unwrap();
        let err = parse_seed_set(&format!("@{}", bad.display()))
            .unwrap_err()
            .0;
        assert!(err.contains("bad.txt:2") && err.contains("four"), "{err}");
        let missing = parse_seed_set("@/nonexistent/seeds").unwrap_err().0;
        assert!(missing.contains("cannot read seed file"), "{missing}");
    }
}
