//! The Kattis text: the board, the replies and the reveals, printed and parsed symmetrically,
//! and the parse errors naming the line or token.

use marathon_solitaire::generator::{Alphabet, Deal};
use marathon_solitaire::protocol::{
    BoardError, Reply, ReplyError, RevealError, format_board, format_reply, format_reveal,
    parse_board, parse_reply, parse_reveal,
};
use marathon_solitaire::rules::{Cell, Piece};

#[test]
fn the_board_is_six_lines_of_six_names_and_reads_back() {
    let deal = Deal::new(&Alphabet::parse("1234tlds").unwrap(), 12);
    let text = format_board(&deal.tops());
    assert!(text.starts_with("springare 3 lopare springare 3 3\n1 lopare 1 2 2 lopare\n"));
    assert_eq!(text.lines().count(), 6);
    assert!(text.ends_with('\n'));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(parse_board(&lines), Ok(deal.tops()));
    // Any whitespace between names is read.
    let spaced: Vec<String> = lines
        .iter()
        .map(|l| format!("  {}\t", l.replace(' ', "   ")))
        .collect();
    let spaced: Vec<&str> = spaced.iter().map(String::as_str).collect();
    assert_eq!(parse_board(&spaced), Ok(deal.tops()));
}

#[test]
fn board_errors_name_the_line_and_name() {
    let good = "1 1 1 1 1 1";
    assert_eq!(
        parse_board(&[good; 5]),
        Err(BoardError::LineCount { found: 5 })
    );
    let mut lines = [good; 6];
    lines[2] = "1 1 1 1 1";
    assert_eq!(
        parse_board(&lines),
        Err(BoardError::TokenCount { line: 3, found: 5 })
    );
    lines[2] = "1 1 1 queen 1 1";
    let error = parse_board(&lines).unwrap_err();
    assert_eq!(
        error,
        BoardError::UnknownPiece {
            line: 3,
            token: 4,
            found: "queen".into()
        }
    );
    assert!(error.to_string().contains("line 3"));
}

#[test]
fn replies_are_one_based_row_and_column() {
    assert_eq!(parse_reply("1 1"), Ok(Reply::Remove(Cell::new(0, 0))));
    assert_eq!(parse_reply("6 2"), Ok(Reply::Remove(Cell::new(5, 1))));
    assert_eq!(parse_reply("  3\t4 "), Ok(Reply::Remove(Cell::new(2, 3))));
    assert_eq!(parse_reply("0 0"), Ok(Reply::Stop));
    for reply in [Reply::Stop, Reply::Remove(Cell::new(4, 5))] {
        assert_eq!(parse_reply(&format_reply(reply)), Ok(reply));
    }
    assert_eq!(format_reply(Reply::Remove(Cell::new(4, 5))), "5 6");
}

#[test]
fn reply_errors() {
    assert_eq!(parse_reply(""), Err(ReplyError::TokenCount { found: 0 }));
    assert_eq!(
        parse_reply("1 2 3"),
        Err(ReplyError::TokenCount { found: 3 })
    );
    assert_eq!(
        parse_reply("a 2"),
        Err(ReplyError::NotANumber {
            token: 1,
            found: "a".into()
        })
    );
    assert_eq!(
        parse_reply("2 1.5"),
        Err(ReplyError::NotANumber {
            token: 2,
            found: "1.5".into()
        })
    );
    assert_eq!(
        parse_reply("7 1"),
        Err(ReplyError::OffBoard { row: 7, col: 1 })
    );
    assert_eq!(
        parse_reply("0 3"),
        Err(ReplyError::OffBoard { row: 0, col: 3 })
    );
    assert_eq!(
        parse_reply("-1 3"),
        Err(ReplyError::OffBoard { row: -1, col: 3 })
    );
    assert!(
        parse_reply("2 x")
            .unwrap_err()
            .to_string()
            .contains("column")
    );
    // Past 64 bits: named as no cell, not as "not an integer".
    assert_eq!(
        parse_reply("-9223372036854775809 1")
            .unwrap_err()
            .to_string(),
        "the row -9223372036854775809 is not a cell (rows and columns are 1..6; `0 0` ends)"
    );
}

#[test]
fn reveals_are_names_or_blank() {
    for piece in Piece::ALL {
        assert_eq!(parse_reveal(format_reveal(Some(piece))), Ok(Some(piece)));
    }
    assert_eq!(format_reveal(None), "blank");
    assert_eq!(parse_reveal("blank"), Ok(None));
    assert_eq!(
        parse_reveal("Blank"),
        Err(RevealError {
            found: "Blank".into()
        })
    );
}
