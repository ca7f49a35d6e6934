//! The AI reads the opponents' moves off successive boards exactly, and its fit explains
//! decisions made with known weights.

use marathon_core::rng::FastRng;
use marathon_reversi::ai::infer::{Decision, explain};
use marathon_reversi::ai::lineage::{Chain, PRIOR, Workspace};
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
fn the_posterior_chain_learns_to_explain_observed_decisions() {
    let case = generator::generate(1);
    let mut state = case.initial_state();
    let mut decisions = Vec::new();
    while let Some(mover) = state.to_move {
        let cell = case.stand_in_move(&state.board, mover).unwrap();
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
    let mut chain = Chain::new(case.size, case.players, PRIOR, &mut rng);
    for d in decisions.iter().take(16) {
        chain.observe(d);
    }
    let before = chain.hits();
    chain.run(20, &mut Workspace::default(), &mut rng);
    assert!(chain.hits() > before, "{} -> {}", before, chain.hits());
    assert!(
        chain.hits() * 4 >= chain.len() * 3,
        "{} of {}",
        chain.hits(),
        chain.len()
    );
}
