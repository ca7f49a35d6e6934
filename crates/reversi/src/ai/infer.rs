//! What the AI learns of the opponents from the boards it is sent.
//!
//! [`explain`] reads the opponents' moves off two successive boards (the board after player
//! 1's move and the next board it is sent) by replaying the rules: each opponent in turn must
//! have placed a piece on one of the newly occupied cells, legally, and the replay must end on
//! the board received.

use crate::rules::{Board, Cell, Player, State};

/// One observed decision of a computer player.
#[derive(Clone, Debug)]
pub struct Decision {
    pub board: Board,
    pub mover: Player,
    pub chosen: Cell,
}

/// The opponents' moves that lead from `after_ours` (player 1 just moved) to `observed`
/// (player 1 to move again), in order; `None` if no sequence or more than one does.
pub fn explain(after_ours: &Board, observed: &Board) -> Option<Vec<Decision>> {
    let state = State::from_board(after_ours.clone(), 2);
    let mut found = Vec::new();
    let mut path = Vec::new();
    search_moves(&state, observed, &mut path, &mut found);
    if found.len() == 1 { found.pop() } else { None }
}

fn search_moves(
    state: &State,
    observed: &Board,
    path: &mut Vec<Decision>,
    found: &mut Vec<Vec<Decision>>,
) {
    if found.len() > 1 {
        return;
    }
    match state.to_move {
        Some(1) | None => {
            if state.board == *observed {
                found.push(path.clone());
            }
        }
        Some(player) => {
            let new_cells = observed.occupied() - state.board.occupied();
            for cell in state.board.legal_moves(player) & new_cells {
                let mut next = state.clone();
                next.play_unchecked(cell);
                path.push(Decision {
                    board: state.board.clone(),
                    mover: player,
                    chosen: cell,
                });
                search_moves(&next, observed, path, found);
                path.pop();
            }
        }
    }
}
