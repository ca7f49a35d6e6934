//! Properties over random games, checked against naive reference code (walking each of the 8
//! directions cell by cell on a plain grid; the opponents' choice written plainly), and the
//! built-in players never choosing an illegal move.

use std::time::Duration;

use marathon_core::rng::FastRng;
use marathon_reversi::ai::{Clock, PLAYERS, new_player};
use marathon_reversi::protocol::{format_observation, parse_observation};
use marathon_reversi::rules::{Bits, Board, Cell, State};
use marathon_reversi::strategy::{self, Weights};
use proptest::prelude::*;

/// The flips of `player` at (`row`, `col`) by walking a grid.
fn naive_flips(board: &Board, player: u8, row: usize, col: usize) -> Bits {
    let n = board.size() as isize;
    let mut flips = Bits::NONE;
    if board.get(Cell::new(row, col)).is_some() {
        return flips;
    }
    for dr in -1..=1isize {
        for dc in -1..=1isize {
            if dr == 0 && dc == 0 {
                continue;
            }
            let mut run = Vec::new();
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while (0..n).contains(&r) && (0..n).contains(&c) {
                match board.get(Cell::new(r as usize, c as usize)) {
                    None => break,
                    Some(p) if p == player => {
                        for &cell in &run {
                            flips.insert(cell);
                        }
                        break;
                    }
                    Some(_) => run.push(Cell::new(r as usize, c as usize)),
                }
                r += dr;
                c += dc;
            }
        }
    }
    flips
}

/// The position after `turns` random moves on an `size x size` board.
fn random_game(size: usize, seed: u64, turns: u32) -> State {
    let mut rng = FastRng::new(seed);
    let mut state = State::new(size);
    for _ in 0..turns {
        let Some(player) = state.to_move else { break };
        let legal = state.board.legal_moves(player);
        let pick = rng.below(legal.count());
        let cell = legal.iter().nth(pick as usize).expect("a legal move");
        state.play(cell).expect("legal");
    }
    state
}

/// Weights of one of three kinds: `kind` 0 uniform in [-50, 50) as the GA starts; 1 small
/// integers, so that values tie exactly and sums cancel to 0 (NaN, infinities); 2 all zero but
/// a few cells (most values NaN).
fn random_weights(size: usize, kind: u8, rng: &mut FastRng) -> Weights {
    let mut w = Weights::default();
    for row in 0..size {
        for col in 0..size {
            let x = match kind {
                0 => rng.next_f64() * 100.0 - 50.0,
                1 => rng.below(5) as f64 - 2.0,
                _ if rng.below(10) == 0 => rng.below(3) as f64 - 1.0,
                _ => 0.0,
            };
            w.set(Cell::new(row, col), x);
        }
    }
    w
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_fast_choice_plays_as_the_plain_rule(
        size in 7usize..=12,
        seed in any::<u64>(),
        turns in 0u32..150,
        kind in 0u8..3,
    ) {
        let state = random_game(size, seed, turns);
        let mut rng = FastRng::new(seed ^ 0x5eed);
        for player in 1..=state.board.players() as u8 {
            let weights = random_weights(size, kind, &mut rng);
            let plain = strategy::plain::choose(&state.board, player, &weights);
            prop_assert_eq!(strategy::choose(&state.board, player, &weights), plain);
            let (mut fast_board, mut plain_board) = (state.board.clone(), state.board.clone());
            prop_assert_eq!(strategy::choose_and_play(&mut fast_board, player, &weights), plain);
            strategy::plain::choose_and_play(&mut plain_board, player, &weights);
            prop_assert_eq!(fast_board, plain_board);
        }
    }

    #[test]
    fn legal_moves_and_flips_match_the_naive_walk(
        size in 7usize..=12,
        seed in any::<u64>(),
        turns in 0u32..150,
    ) {
        let state = random_game(size, seed, turns);
        let board = &state.board;
        for player in 1..=board.players() as u8 {
            let legal = board.legal_moves(player);
            for row in 0..size {
                for col in 0..size {
                    let cell = Cell::new(row, col);
                    let naive = naive_flips(board, player, row, col);
                    prop_assert_eq!(board.flips(player, cell), naive);
                    prop_assert_eq!(legal.contains(cell), !naive.is_empty());
                }
            }
        }
        // Pieces are never lost: each move adds one.
        let pieces: u32 = (1..=board.players() as u8).map(|p| board.count(p)).sum();
        prop_assert_eq!(pieces as usize, board.players().pow(2) + state.moves as usize);
        prop_assert_eq!(pieces + board.empty_cells().count(), (size * size) as u32);
        // The text round-trips.
        let text = format_observation(board);
        let lines: Vec<&str> = text.lines().collect();
        prop_assert_eq!(&parse_observation(&lines).unwrap(), board);
    }

    #[test]
    fn built_in_players_only_choose_legal_moves(
        size in 7usize..=12,
        seed in any::<u64>(),
        turns in 0u32..120,
    ) {
        let state = random_game(size, seed, turns);
        prop_assume!(state.to_move.is_some());
        let board = &state.board;
        prop_assume!(board.has_move(1));
        for &name in PLAYERS.iter().filter(|&&n| n != "oracle") {
            let mut player = new_player(name, Some(1), seed, &Default::default()).expect("a built-in player");
            let clock = Clock::start(Duration::from_secs(30), Duration::ZERO);
            let cell = player.choose(board, &clock);
            prop_assert!(board.legal_moves(1).contains(cell), "{} chose {:?}", name, cell);
        }
    }
}
