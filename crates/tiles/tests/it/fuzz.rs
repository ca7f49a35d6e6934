//! No reply can make the judge panic: the move parser, the judge-text parsers and the judge are
//! fed huge, negative, overflowing, empty, long and non-ASCII lines, and every one ends in a
//! clear verdict.

use crate::{hostile, judged};

use std::io::BufRead;

use hostile::{
    LONG, assert_clear_error, assert_judged_as_the_rules_say, garbage_line, line_after, token,
};
use judged::{Script, read_line};
use marathon_core::Verdict;
use marathon_tiles::env::TilesEnv;
use marathon_tiles::protocol::{format_move, format_tile, parse_move, parse_params, parse_tile};
use marathon_tiles::rules::{Move, State, Tile};
use proptest::prelude::*;

/// Replies a player might send: `R C` with hostile numbers, small (often legal) cells, the
/// words in other spellings, tokens, garbage.
fn move_line() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => (token(), token()).prop_map(|(r, c)| format!("{r} {c}")),
        3 => (0u32..14, 0u32..14).prop_map(|(r, c)| format!("{r} {c}")),
        2 => line_after(Vec::new(), 3),
        1 => line_after(vec!["GIVE".into()], 2),
        1 => line_after(vec!["DISCARD".into()], 1),
        1 => prop::sample::select(vec![
            "DISCARD", "discard", "DISCARD\r", "GIVE UP", "GIVE\tUP", "GIVE UP NOW", "GIVEUP",
            "give up", "R", "W", "R C",
        ])
        .prop_map(str::to_string),
        2 => garbage_line(),
    ]
}

/// The player that places each tile on its first legal cell (or discards), keeping its own
/// board from the tiles and its replies; after the hostile line it gives up.
#[derive(Default)]
struct FirstLegal {
    state: Option<State>,
    tile: Option<Tile>,
}

impl FirstLegal {
    fn position(&mut self) -> (&mut State, Tile) {
        let state = self.state.as_mut().expect("the judge sent N S D");
        (state, self.tile.expect("the judge sent a tile"))
    }
}

impl Script for FirstLegal {
    fn observe(&mut self, input: &mut dyn BufRead) -> std::io::Result<bool> {
        if self.state.is_none() {
            let header = read_line(input)?.expect("the judge sends N S D");
            self.state = Some(State::new(
                parse_params(&header).expect("the judge's N S D"),
            ));
        }
        let Some(text) = read_line(input)? else {
            return Ok(false);
        };
        let n = self.state.as_ref().expect("read above").params.n;
        self.tile = Some(parse_tile(&text, n).expect("the judge's tile"));
        Ok(true)
    }

    /// `None` when giving up is all it could do: the hostile line goes then.
    fn legal_reply(&mut self) -> Option<String> {
        let (state, tile) = self.position();
        let legal = state.legal_moves(tile);
        let mv = legal.iter().copied().find(|&mv| mv != Move::GiveUp)?;
        state.play(tile, mv).expect("a legal move");
        Some(format_move(mv))
    }

    fn send_hostile(&mut self, received: &str) -> Option<String> {
        let (state, tile) = self.position();
        parse_move(received)
            .map_err(|e| e.to_string())
            .and_then(|mv| {
                state
                    .check(tile, mv)
                    .map_err(|e| format!("tile {}: {e}", format_tile(tile)))
            })
            .err()
    }

    fn after_hostile(&mut self) -> String {
        format_move(Move::GiveUp)
    }
}

/// Plays `seed` with a player that places each tile on its first legal cell (or discards)
/// `legal_moves` times, then sends `hostile` (earlier if giving up is all it could do), then
/// gives up if the game goes on. Returns the verdict and the rules' refusal of the hostile line.
fn play_then(seed: u64, legal_moves: usize, hostile: &str) -> (Verdict, Option<String>) {
    judged::play_then(
        TilesEnv::new(seed),
        FirstLegal::default(),
        legal_moves,
        hostile,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn moves_parse_or_fail_clearly(line in move_line()) {
        match parse_move(&line) {
            Ok(mv) => prop_assert_eq!(parse_move(&format_move(mv)), Ok(mv)),
            Err(e) => assert_clear_error(&e.to_string(), &line),
        }
    }

    /// The player's side reads the judge's text with the same care.
    #[test]
    fn judge_texts_parse_or_fail_clearly(
        line in prop_oneof![
            line_after(Vec::new(), 4),
            "[0-9WR]{1,3}",
            garbage_line(),
        ],
        n in any::<u8>(),
    ) {
        if let Err(e) = parse_params(&line) {
            assert_clear_error(&e.to_string(), &line);
        }
        if let Err(e) = parse_tile(&line, n) {
            assert_clear_error(&e.to_string(), &line);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A hostile line at a random turn of a real game: the judge refuses it exactly when the
    /// rules do on the position it answered, with their reason; a valid one plays on.
    #[test]
    fn the_judge_gives_a_clear_verdict_for_any_line(
        seed in 1u64..1000,
        legal_moves in 0usize..40,
        line in move_line(),
    ) {
        let (verdict, refusal) = play_then(seed, legal_moves, &line);
        assert_judged_as_the_rules_say(&verdict, &line, refusal);
    }
}

#[test]
fn huge_and_odd_cells_are_refused_by_name() {
    for (line, reason) in [
        ("", "empty reply (expected `R C`, DISCARD or GIVE UP)"),
        ("-1 0", "the row \"-1\" is not a cell index"),
        ("0 +0", "the column \"+0\" is not a cell index"),
        ("256 0", "the row 256 is off every board (S is at most 12)"),
        (
            "0 18446744073709551616",
            "the column 18446744073709551616 is off every board (S is at most 12)",
        ),
        ("0 1e3", "the column \"1e3\" is not a cell index"),
        // 255 fits a byte but no board: the rules say so (seed 1 is 11x11, its first tile `W`).
        ("255 0", "tile W: cell 255 0 is off the 11x11 board"),
    ] {
        let (verdict, _) = play_then(1, 0, line);
        assert_eq!(verdict, Verdict::invalid(line, reason), "{line:?}");
    }
    let long = "9".repeat(LONG);
    let (verdict, _) = play_then(1, 5, &format!("0 {long}"));
    let Verdict::Invalid { reason, .. } = verdict else {
        panic!("{verdict}")
    };
    assert!(reason.starts_with("the column 9999"), "{reason}");
    assert!(reason.len() < 400, "{}", reason.len());
}
