//! The baseline: the legal removal with the most points now, ties broken by how many cells the
//! removed piece reaches next (a removal that ends the game comes last); first cell in
//! row-major order among equals. No look-ahead and no use of the hidden pieces. This is ours:
//! the problem's own "simple greedy" reference is not published (it totals 2,076 on the 14
//! official cases).

use marathon_core::rng::FastRng;

use super::policy::{Weights, pick};
use super::{Clock, Player};
use crate::protocol::Reply;
use crate::rules::State;

pub struct GreedyPlayer;

impl Player for GreedyPlayer {
    type Observation = State;
    type Action = Reply;

    fn choose(&mut self, state: &State, _clock: &Clock) -> Reply {
        // Without noise the generator is never drawn from.
        let cell = pick(state, &Weights::greedy(), &mut FastRng::new(0));
        cell.map_or(Reply::Stop, Reply::Remove)
    }
}
