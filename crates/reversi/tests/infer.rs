//! The AI reads the opponents' moves off successive boards exactly, and its fit explains
//! decisions made with known weights.

use marathon_core::rng::FastRng;
use marathon_reversi::ai::infer::{Decision, Fit, explain};
use marathon_reversi::generator;
use marathon_reversi::rules::{Board, Cell, Player};

#[test]
fn opponents_moves_are_read_off_successive_boards() {
    for seed in [1, 3] {
        let case = generator::generate(seed);
        let mut state = case.initial_state();
        let mut rng = FastRng::new(seed);
        let mut after_ours: Option<Board> = None;
        let mut actual: Vec<(Player, Cell)> = Vec::new();
        let mut checked = 0;
        while let Some(mover) = state.to_move {
            if mover == 1 {
                if let Some(after) = &after_ours {
                    let read = explain(after, &state.board).expect("one explanation");
                    let read: Vec<(Player, Cell)> =
                        read.iter().map(|d| (d.mover, d.chosen)).collect();
                    assert_eq!(read, actual, "seed {seed}");
                    checked += 1;
                }
                actual.clear();
                let legal = state.board.legal_moves(1);
                let cell = legal.iter().nth(rng.below(legal.count()) as usize).unwrap();
                state.play(cell).unwrap();
                after_ours = Some(state.board.clone());
            } else {
                let cell = case.opponent_move(&state.board, mover).unwrap();
                actual.push((mover, cell));
                state.play(cell).unwrap();
            }
        }
        assert!(checked > 5, "seed {seed}: {checked}");
    }
}

#[test]
fn the_fit_learns_to_explain_observed_decisions() {
    let case = generator::generate(1);
    let mut state = case.initial_state();
    let mut decisions = Vec::new();
    while let Some(mover) = state.to_move {
        let weights = if mover == 1 {
            &case.opponents[0]
        } else {
            case.strategy(mover)
        };
        let cell = marathon_reversi::strategy::choose(&state.board, mover, weights).unwrap();
        if mover != 1 && state.board.legal_moves(mover).count() > 1 {
            decisions.push(Decision {
                board: state.board.clone(),
                mover,
                chosen: cell,
            });
        }
        state.play(cell).unwrap();
    }
    let mut rng = FastRng::new(7);
    let mut fit = Fit::new(7, &mut rng);
    for d in decisions.iter().take(12) {
        fit.observe(d);
    }
    let before = fit.hits();
    fit.climb(20_000, None, &mut rng);
    assert!(fit.hits() > before, "{} -> {}", before, fit.hits());
    assert!(
        fit.hits() * 4 >= fit.len() * 3,
        "{} of {}",
        fit.hits(),
        fit.len()
    );
}
