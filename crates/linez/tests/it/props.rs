//! Properties over random boards and random games, checked against naive reference code: BFS on
//! a grid for reachability, a scan of every board line for runs.

use std::collections::{BTreeSet, VecDeque};

use marathon_core::rng::FastRng;
use marathon_linez::protocol::{format_move, format_observation, parse_move, parse_observation};
use marathon_linez::rules::{Bits, Board, CELLS, Cell, Move, SIZE, State, Turn, line_points};
use proptest::prelude::*;

/// Boards of any fill; few colours make lines common.
fn boards() -> impl Strategy<Value = Board> {
    (
        0u32..=100,
        1u8..=7,
        prop::collection::vec((0u32..100, 0u8..7), CELLS),
    )
        .prop_map(|(density, colors, cells)| {
            let mut board = Board::empty();
            for (index, (roll, color)) in cells.into_iter().enumerate() {
                if roll < density {
                    board.put(Cell::from_index(index), color % colors + 1);
                }
            }
            board
        })
}

fn neighbours(cell: Cell) -> impl Iterator<Item = Cell> {
    let (row, col) = (cell.row() as isize, cell.col() as isize);
    [(-1, 0), (1, 0), (0, -1), (0, 1)]
        .into_iter()
        .map(move |(dr, dc)| (row + dr, col + dc))
        .filter(|&(r, c)| (0..SIZE as isize).contains(&r) && (0..SIZE as isize).contains(&c))
        .map(|(r, c)| Cell::new(r as usize, c as usize))
}

fn naive_reachable(board: &Board, from: Cell) -> BTreeSet<Cell> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([from]);
    while let Some(cell) = queue.pop_front() {
        for next in neighbours(cell) {
            if board.get(next).is_none() && seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    seen
}

fn naive_legal_moves(board: &Board) -> BTreeSet<(Cell, Cell)> {
    let mut moves = BTreeSet::new();
    for from in Cell::all().filter(|&c| board.get(c).is_some()) {
        for to in naive_reachable(board, from) {
            if to != from {
                moves.insert((from, to));
            }
        }
    }
    moves
}

fn fast_legal_moves(board: &Board) -> Vec<(Cell, Cell)> {
    let mut moves = Vec::new();
    board.for_each_legal_move(|m| moves.push((m.from, m.to)));
    moves
}

/// Every maximal run of 5+ equal colours on the board, as found by walking each board line.
fn naive_runs(board: &Board) -> Vec<Vec<Cell>> {
    let n = SIZE as isize;
    let mut runs = Vec::new();
    for (dr, dc) in [(0isize, 1isize), (1, 0), (1, 1), (1, -1)] {
        for start in Cell::all() {
            let (r0, c0) = (start.row() as isize, start.col() as isize);
            // Only start at the first cell of each board line in this direction.
            let (pr, pc) = (r0 - dr, c0 - dc);
            if (0..n).contains(&pr) && (0..n).contains(&pc) {
                continue;
            }
            let mut line = Vec::new();
            let (mut r, mut c) = (r0, c0);
            while (0..n).contains(&r) && (0..n).contains(&c) {
                line.push(Cell::new(r as usize, c as usize));
                r += dr;
                c += dc;
            }
            for group in line.chunk_by(|&a, &b| board.get(a) == board.get(b)) {
                if group.len() >= 5 && board.get(group[0]).is_some() {
                    runs.push(group.to_vec());
                }
            }
        }
    }
    runs
}

fn naive_lines_through(board: &Board, cell: Cell) -> Bits {
    naive_runs(board)
        .into_iter()
        .filter(|run| run.contains(&cell))
        .flatten()
        .collect()
}

/// The board with the ball moved and nothing removed.
fn displaced(board: &Board, mv: Move) -> Board {
    let mut b = *board;
    let color = b.take(mv.from).unwrap();
    b.put(mv.to, color);
    b
}

fn check_moves_match_bfs(board: &Board) -> Result<(), TestCaseError> {
    let fast = fast_legal_moves(board);
    let unique: BTreeSet<_> = fast.iter().copied().collect();
    prop_assert_eq!(unique.len(), fast.len(), "a move was yielded twice");
    prop_assert_eq!(&unique, &naive_legal_moves(board));
    let legal = board.legal_moves();
    prop_assert_eq!(legal.count() as usize, fast.len());
    prop_assert_eq!(board.legal_move_count() as usize, fast.len());
    for (i, &(from, to)) in fast.iter().enumerate() {
        prop_assert_eq!(legal.nth(i as u32), Some(Move { from, to }));
    }
    Ok(())
}

fn check_move_ball(board: &Board, mv: Move) -> Result<u32, TestCaseError> {
    prop_assert_eq!(board.check_move(mv), Ok(()));
    let moved = displaced(board, mv);
    let doomed = naive_lines_through(&moved, mv.to);
    let mut after = *board;
    let removed = after.move_ball(mv);
    prop_assert_eq!(removed, doomed.count());
    prop_assert_eq!(after.ball_count(), board.ball_count() - removed);
    let mut want = moved;
    want.clear_cells(doomed);
    prop_assert_eq!(after, want);
    prop_assert!(naive_lines_through(&after, mv.to).is_empty());
    Ok(removed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn legal_moves_are_exactly_the_bfs_moves(board in boards()) {
        check_moves_match_bfs(&board)?;
    }

    #[test]
    fn check_move_agrees_with_bfs(board in boards(), from in 0..CELLS, to in 0..CELLS) {
        let (from, to) = (Cell::from_index(from), Cell::from_index(to));
        let legal = board.get(from).is_some()
            && from != to
            && naive_reachable(&board, from).contains(&to);
        prop_assert_eq!(board.check_move(Move { from, to }).is_ok(), legal);
    }

    #[test]
    fn move_ball_removes_exactly_the_runs_through_the_target(board in boards(), pick: u32) {
        let legal = board.legal_moves();
        prop_assume!(!legal.is_empty());
        let mv = legal.nth(pick % legal.count()).unwrap();
        check_move_ball(&board, mv)?;
    }

    #[test]
    fn lines_through_matches_a_scan_of_every_line(board in boards()) {
        for cell in Cell::all() {
            prop_assert_eq!(board.lines_through(cell), naive_lines_through(&board, cell), "{}", cell);
        }
    }

    #[test]
    fn nth_agrees_with_iteration(raw: u128) {
        let bits = Bits::from_raw(raw);
        let cells: Vec<Cell> = bits.iter().collect();
        prop_assert_eq!(cells.len() as u32, bits.count());
        prop_assert!(cells.windows(2).all(|w| w[0] < w[1]));
        for (i, &cell) in cells.iter().enumerate() {
            prop_assert_eq!(bits.nth(i as u32), Some(cell));
            prop_assert!(bits.contains(cell));
        }
        prop_assert_eq!(bits.nth(bits.count()), None);
        prop_assert_eq!(cells.into_iter().collect::<Bits>(), bits);
    }

    #[test]
    fn observations_round_trip(board in boards(), preview in [1u8..=7, 1u8..=7, 1u8..=7]) {
        let text = format_observation(&board, &preview);
        let lines: Vec<&str> = text.lines().collect();
        prop_assert_eq!(parse_observation(&lines), Ok((board, preview)));
    }

    #[test]
    fn moves_round_trip(from in 0..CELLS, to in 0..CELLS) {
        let mv = Move { from: Cell::from_index(from), to: Cell::from_index(to) };
        let text = format_move(mv);
        prop_assert_eq!(parse_move(&text), Ok(mv));
    }

    #[test]
    fn move_texts_round_trip(text in "[A-I][1-9][A-I][1-9]") {
        prop_assert_eq!(format_move(parse_move(&text).unwrap()), text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whole random games: every position met along the way keeps the invariants, and the
    /// score is the sum of what each turn reported.
    #[test]
    fn random_games_keep_the_invariants(seed: u64) {
        let mut rng = FastRng::new(seed);
        let mut state = State::new(Board::empty(), [1, 2, 3]);
        let mut score = 0u64;
        let mut turns = 0;
        while !state.is_over() {
            turns += 1;
            prop_assert!(turns < 10_000);
            if !state.must_pass() {
                check_moves_match_bfs(&state.board)?;
                let legal = state.board.legal_moves();
                let mv = legal.nth(rng.below(legal.count())).unwrap();
                let removed = check_move_ball(&state.board, mv)?;
                let turn = state.play(mv).unwrap();
                if removed > 0 {
                    score += u64::from(line_points(removed));
                    prop_assert_eq!(turn, Turn::Cleared {
                        removed,
                        points: line_points(removed),
                    });
                    continue;
                }
                prop_assert_eq!(turn, Turn::SpawnDue);
            }
            let before = state.board.ball_count();
            let free = state.board.empty_cells().count();
            let removed = state.spawn(|n| rng.below(n));
            score += u64::from(line_points(removed));
            prop_assert_eq!(state.board.ball_count(), before + free.min(3) - removed);
            prop_assert!(naive_runs(&state.board).is_empty(), "a run survived the spawn");
            state.preview = [0; 3].map(|_| rng.below(7) as u8 + 1);
        }
        prop_assert_eq!(state.score, score);
    }
}
