//! Runs the hand-checked positions of `data/positions.txt` (its header describes the format).

use std::cell::Cell as Counter;

use marathon_linez::protocol::{parse_board, parse_move};
use marathon_linez::rules::{Bits, Board, Cell, Color, PREVIEW_LEN, State, Turn};

const POSITIONS: &str = include_str!("../data/positions.txt");

enum Action {
    Move(String),
    Spawn {
        preview: [Color; PREVIEW_LEN],
        cells: Vec<Cell>,
    },
}

struct Case {
    name: String,
    before: Board,
    action: Action,
    removed: u32,
    points: u32,
    after: Board,
}

fn parse_cell(text: &str) -> Cell {
    // A cell is the first half of a move text.
    parse_move(&format!("{text}A1")).expect(text).from
}

fn read_board<'a>(lines: &mut impl Iterator<Item = &'a str>, name: &str) -> Board {
    let rows: Vec<&str> = lines.take(9).collect();
    parse_board(&rows).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn parse_cases(text: &str) -> Vec<Case> {
    let mut lines = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'));
    let mut cases = Vec::new();
    while let Some(header) = lines.next() {
        let name = header
            .strip_prefix("case ")
            .unwrap_or_else(|| panic!("expected `case NAME`, got {header:?}"))
            .to_string();
        let before = read_board(&mut lines, &name);
        let action_line = lines.next().expect("action line");
        let action = if let Some(mv) = action_line.strip_prefix("move ") {
            Action::Move(mv.to_string())
        } else if let Some(rest) = action_line.strip_prefix("spawn ") {
            let mut words = rest.split_whitespace();
            let colors: Vec<Color> = words
                .next()
                .expect("preview colours")
                .bytes()
                .map(|b| b - b'0')
                .collect();
            assert_eq!(words.next(), Some("at"), "{name}: spawn COLOURS at CELLS");
            Action::Spawn {
                preview: colors.try_into().expect("three preview colours"),
                cells: words.map(parse_cell).collect(),
            }
        } else {
            panic!("{name}: unknown action {action_line:?}");
        };
        let expect: Vec<&str> = lines
            .next()
            .expect("removed/points line")
            .split_whitespace()
            .collect();
        let ["removed", removed, "points", points] = expect[..] else {
            panic!("{name}: expected `removed K points P`, got {expect:?}");
        };
        let after = read_board(&mut lines, &name);
        cases.push(Case {
            name,
            before,
            action,
            removed: removed.parse().unwrap(),
            points: points.parse().unwrap(),
            after,
        });
    }
    cases
}

/// The `pick` answers that put the spawned balls on `cells`: each cell's rank among the empty
/// cells left at its turn.
fn picks_for(board: &Board, cells: &[Cell]) -> Vec<u32> {
    let mut empty = board.empty_cells();
    cells
        .iter()
        .map(|&cell| {
            assert!(empty.contains(cell), "spawn cell {cell} is not empty");
            let below = Bits::from_raw((1u128 << cell.index()) - 1);
            empty.remove(cell);
            (empty & below).count()
        })
        .collect()
}

fn run(case: &Case) {
    let name = &case.name;
    match &case.action {
        Action::Move(text) => {
            let mv = parse_move(text).unwrap();
            let mut state = State::new(case.before, [1; PREVIEW_LEN]);
            let turn = state.play(mv).unwrap_or_else(|e| panic!("{name}: {e}"));
            let want = if case.removed == 0 {
                Turn::SpawnDue
            } else {
                Turn::Cleared {
                    removed: case.removed,
                    points: case.points,
                }
            };
            assert_eq!(turn, want, "{name}");
            assert_eq!(state.score, u64::from(case.points), "{name}");
            assert_eq!(state.moves, 1, "{name}");
            assert_eq!(state.board, case.after, "{name}");
        }
        Action::Spawn { preview, cells } => {
            let picks = picks_for(&case.before, cells);
            let mut state = State::new(case.before, *preview);
            let calls = Counter::new(0);
            let removed = state.spawn(|free| {
                let i = calls.get();
                calls.set(i + 1);
                assert!(
                    i < picks.len(),
                    "{name}: spawn wants more cells than listed"
                );
                assert_eq!(
                    free,
                    case.before.empty_cells().count() - i as u32,
                    "{name}: empty cells offered to pick {i}"
                );
                picks[i]
            });
            assert_eq!(calls.get(), picks.len(), "{name}: picks used");
            assert_eq!(removed, case.removed, "{name}");
            assert_eq!(state.score, u64::from(case.points), "{name}");
            assert_eq!(state.moves, 0, "{name}");
            assert_eq!(state.board, case.after, "{name}");
        }
    }
}

#[test]
fn hand_checked_positions() {
    let cases = parse_cases(POSITIONS);
    assert_eq!(cases.len(), 11, "cases in data/positions.txt");
    for case in &cases {
        run(case);
    }
}
