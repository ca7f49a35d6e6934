//! The deals against the official tests: every `.stacks` file of the Kattis problem comes out of
//! (alphabet, seed) with the Python `random` port, and the official table is read right.

use marathon_core::{CaseId, Game};
use marathon_solitaire::SOLITAIRE;
use marathon_solitaire::generator::{
    Alphabet, DEFAULT_GROUP, Deal, GROUP_ALPHABETS, official_case, official_cases,
};
use marathon_solitaire::rules::Piece;

fn stacks_file(name: &str) -> String {
    let path = format!("{}/tests/data/{name}.stacks", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| format!("{line}\n"))
        .collect()
}

#[test]
fn every_official_deal_is_reproduced() {
    let cases = official_cases();
    assert_eq!(cases.len(), 14);
    for case in cases {
        let deal = Deal::new(&case.alphabet, case.seed);
        assert_eq!(
            deal.to_stacks_text(),
            stacks_file(case.name),
            "official case {}",
            case.name
        );
    }
}

#[test]
fn the_official_table_is_read_as_written() {
    let names: Vec<&str> = official_cases().iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        [
            "g1", "g2", "g3-1", "g3-2", "g3-3", "g4-1", "g4-2", "g4-3", "g5-1", "g5-2", "g5-3",
            "g6-1", "g6-2", "g6-3"
        ]
    );
    let g61 = official_case("g6-1").expect("g6-1");
    assert_eq!(
        (
            g61.group,
            g61.alphabet.to_string(),
            g61.points,
            g61.seed,
            g61.best
        ),
        (6, "1234tlds".to_string(), 17, 12, 52)
    );
    let total_points: u32 = official_cases().iter().map(|c| c.points).sum();
    assert_eq!(total_points, 4 + 4 + 3 * 2 + 3 * 3 + 3 * 8 + 17 + 18 + 18);
    assert_eq!(g61.kattis_points(104.0), 34.0);
    // Every official case uses its group's alphabet.
    for case in official_cases() {
        assert_eq!(Some(case.alphabet.clone()), Alphabet::of_group(case.group));
    }
}

#[test]
fn official_cases_are_offered_by_name_and_dealt_by_it() {
    let ids = SOLITAIRE.official_cases();
    assert_eq!(ids.len(), 14);
    assert_eq!(ids[11], CaseId::named("g6-1", Some(6), 12));
    assert_eq!(SOLITAIRE.groups(), Some((1..=6, DEFAULT_GROUP)));
    // The first observation is the tops of the official deal.
    let first_row = stacks_file("g6-1").lines().next().unwrap().to_string();
    let tops: Vec<&str> = first_row
        .split(' ')
        .map(|cell| cell.split('/').next().unwrap())
        .collect();
    let board = SOLITAIRE.generate(&ids[11]).expect("an official case");
    assert_eq!(board.lines().next().unwrap(), tops.join(" "));
    // A grouped seed deals that group's alphabet; a plain seed the default group.
    assert_eq!(
        SOLITAIRE
            .generate(&CaseId::in_group(6, 12))
            .expect("a case"),
        board,
        "g6-1 is group 6, seed 12"
    );
    assert_eq!(
        SOLITAIRE.generate(&CaseId::seed(12)).expect("a case"),
        board
    );
    assert!(
        SOLITAIRE
            .generate(&CaseId::in_group(1, 5))
            .expect("group 1")
            .lines()
            .all(|l| l.split(' ').all(|name| name == "springare"))
    );
}

#[test]
fn alphabets_parse_and_print_back() {
    for (group, letters) in (1..).zip(GROUP_ALPHABETS) {
        let alphabet = Alphabet::of_group(group).expect("a group");
        assert_eq!(alphabet.to_string(), letters);
    }
    assert_eq!(Alphabet::of_group(0), None);
    assert_eq!(Alphabet::of_group(7), None);
    assert_eq!(
        Alphabet::parse("tld").unwrap().pieces(),
        [Piece::Torn, Piece::Lopare, Piece::Dam]
    );
    assert_eq!(Alphabet::parse(""), None);
    assert_eq!(Alphabet::parse("x"), None);
    assert_eq!(Alphabet::parse("11"), None);
}

#[test]
fn the_order_of_the_alphabet_matters_as_in_python() {
    let a = Deal::new(&Alphabet::parse("12").unwrap(), 1);
    let b = Deal::new(&Alphabet::parse("21").unwrap(), 1);
    assert_ne!(a, b);
    // Same draws, letters swapped.
    let swapped = a.stacks.map(|s| {
        s.map(|p| match p {
            Piece::One => Piece::Two,
            _ => Piece::One,
        })
    });
    assert_eq!(swapped, b.stacks);
}
