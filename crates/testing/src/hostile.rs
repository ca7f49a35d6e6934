//! Hostile text for every game's parser and judge fuzz tests (`crates/*/tests/it/fuzz.rs`):
//! numbers at and just past every integer limit, signs, floats, empty and blank tokens,
//! non-ASCII, control characters, and tokens and lines far longer than any reply. Each game
//! builds its lines from these tokens around its own command words, and the verdicts it
//! checks come from [`crate::judged::play_then`].

use marathon_core::Verdict;
use proptest::prelude::*;

/// How long the long tokens and lines are: far beyond any reply, well within the judge's
/// 1 MB line limit, so that the parsers (not the line reader) must cope with them.
pub const LONG: usize = 100_000;

/// A parse error or a verdict may quote the reply, but only so much of it (the quote and the
/// reason are cut to a few hundred bytes; escaping can multiply that by a few).
pub const MAX_MESSAGE_BYTES: usize = 4_000;

/// Integers at and just past the limits of every integer type a parser might use: where
/// careless arithmetic overflows (`i64::MAX + 1`) and careless casts wrap (`256 as u8`).
pub fn limit_tokens() -> Vec<String> {
    [
        "127",
        "128",
        "255",
        "256",
        "-128",
        "-129",
        "65535",
        "65536",
        "2147483647",
        "2147483648",
        "-2147483648",
        "-2147483649",
        "4294967295",
        "4294967296",
        "9223372036854775807",
        "9223372036854775806",
        "9223372036854775808",
        "-9223372036854775808",
        "-9223372036854775807",
        "-9223372036854775809",
        "18446744073709551615",
        "18446744073709551616",
        "-18446744073709551616",
        "340282366920938463463374607431768211456",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Tokens that are numbers only to a lax reader, or almost: signs, zeros, floats, other
/// bases, digits of other scripts, control characters, and very long runs of digits.
pub fn odd_number_tokens() -> Vec<String> {
    let mut tokens: Vec<String> = [
        "0",
        "-0",
        "+0",
        "-1",
        "+1",
        "+5",
        "--1",
        "+-1",
        "00000000000000000000000000000000000000000001",
        "1e400",
        "-1e400",
        "1e3",
        "1.5",
        "3.",
        ".5",
        "NaN",
        "inf",
        "-inf",
        "0x10",
        "0b1",
        "1_000",
        "１",
        "٣",
        "1\u{0}",
        "\u{0}",
        "\u{feff}1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    tokens.push("9".repeat(LONG));
    tokens.push(format!("-{}", "9".repeat(LONG)));
    tokens.push(format!("{}1", "0".repeat(LONG)));
    tokens
}

/// Any token: an integer limit, an odd number, any `i64` or `u64`, a small number (often
/// valid), a few random characters, or a very long run of letters or of multi-byte characters.
pub fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        5 => prop::sample::select(limit_tokens()),
        3 => prop::sample::select(odd_number_tokens()),
        1 => any::<i64>().prop_map(|v| v.to_string()),
        1 => any::<u64>().prop_map(|v| v.to_string()),
        4 => (0i64..16).prop_map(|v| v.to_string()),
        2 => "[^\n]{0,6}",
        1 => Just("x".repeat(LONG)),
        1 => Just("é".repeat(LONG / 2)),
    ]
}

/// What goes between tokens: the usual space, or runs and mixes of blanks.
pub fn separator() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => Just(" ".to_string()),
        1 => Just("\t".to_string()),
        1 => Just("   ".to_string()),
        1 => Just(" \t\u{b} ".to_string()),
        1 => Just("\u{a0}".to_string()),
        1 => Just("\u{3000}".to_string()),
    ]
}

/// `words` (a command's fixed words, possibly none) followed by up to `max_tokens` hostile
/// tokens, with hostile separators and optional blanks around the line.
pub fn line_after(words: Vec<String>, max_tokens: usize) -> impl Strategy<Value = String> {
    (
        prop::collection::vec((separator(), token()), 0..=max_tokens),
        prop::option::of(separator()),
        prop::option::of(separator()),
    )
        .prop_map(move |(tokens, before, after)| {
            let mut line = before.unwrap_or_default();
            line.push_str(&words.join(" "));
            for (i, (separator, token)) in tokens.into_iter().enumerate() {
                if i > 0 || !words.is_empty() {
                    line.push_str(&separator);
                }
                line.push_str(&token);
            }
            line.push_str(&after.unwrap_or_default());
            line
        })
}

/// Lines no game accepts or only by chance: empty, blank, random text, a very long line of
/// many small tokens, one very long token.
pub fn garbage_line() -> impl Strategy<Value = String> {
    prop_oneof![
        1 => Just(String::new()),
        1 => Just(" \t ".to_string()),
        4 => "[^\n]{0,40}",
        2 => any::<String>().prop_map(|s| s.replace('\n', " ")),
        1 => Just("1 ".repeat(LONG / 2)),
        1 => Just("-".repeat(LONG)),
    ]
}

/// A parse error as a player would see it in a verdict: it says something, and it does not
/// repeat a huge reply.
pub fn assert_clear_error(message: &str, input: &str) {
    assert!(!message.trim().is_empty(), "empty error for {input:?}");
    assert!(
        message.len() <= MAX_MESSAGE_BYTES,
        "a {}-byte error for a {}-byte input: {}…",
        message.len(),
        input.len(),
        message.chars().take(300).collect::<String>()
    );
}

/// The verdict of a case whose player sent `line`: `Ok` exactly when `valid`, else `Invalid`
/// with a reason; either way short enough to show.
pub fn assert_clear_verdict(verdict: &Verdict, line: &str, valid: bool) {
    if valid {
        assert_eq!(verdict, &Verdict::Ok, "the valid line {line:?}");
        return;
    }
    let Verdict::Invalid {
        line: quoted,
        line_bytes,
        reason,
    } = verdict
    else {
        panic!("expected an invalid verdict for {line:?}, got {verdict}");
    };
    assert_clear_error(reason, line);
    assert!(
        quoted.len() <= 300,
        "a {}-byte quote of the reply",
        quoted.len()
    );
    // The reader drops the line's terminator and nothing else.
    let received = line.strip_suffix('\r').unwrap_or(line);
    assert_eq!(*line_bytes, received.len(), "{line:?}");
    assert!(
        verdict.to_string().len() <= MAX_MESSAGE_BYTES,
        "{}",
        verdict.to_string().len()
    );
}

/// The judge's verdict on a game whose player sent `line` after legal moves: `Ok` when the
/// rules accept the line (`refusal` is `None`), else exactly `Verdict::invalid` of the line as
/// received with the rules' reason; short enough to show either way.
pub fn assert_judged_as_the_rules_say(verdict: &Verdict, line: &str, refusal: Option<String>) {
    match refusal {
        None => assert_clear_verdict(verdict, line, true),
        Some(reason) => {
            assert_clear_verdict(verdict, line, false);
            let received = line.strip_suffix('\r').unwrap_or(line);
            assert_eq!(verdict, &Verdict::invalid(received, reason));
        }
    }
}
