//! Monte Carlo tree search with chance nodes: each removal of the tree leads to one child
//! position per piece the removal may reveal (sampled uniformly from the alphabet, as the game
//! draws them), moves are selected by UCB1 on the mean points gained from the position on, and
//! new leaves are valued by a playout of the noisy heuristic.

use marathon_core::rng::FastRng;

use super::policy::{Weights, playout, sample_reveal};
use crate::rules::{Cell, Piece, State, cells_of};

const NO_CHILD: u32 = u32::MAX;

struct Edge {
    cell: Cell,
    visits: u32,
    total: f64,
    /// The position after the removal, per revealed piece (alphabet index; 0 when nothing is
    /// revealed).
    children: [u32; 8],
}

struct Node {
    edges: Vec<Edge>,
    visits: u32,
    total: f64,
}

/// One search from a position.
pub struct Tree<'a> {
    nodes: Vec<Node>,
    alphabet: &'a [Piece],
    weights: &'a Weights,
    exploration: f64,
    /// (node, edge) per step of the current descent, and the points of each step.
    path: Vec<(u32, u32, u32)>,
}

impl<'a> Tree<'a> {
    pub fn new(
        root: &State,
        alphabet: &'a [Piece],
        weights: &'a Weights,
        exploration: f64,
    ) -> Self {
        let mut tree = Tree {
            nodes: Vec::new(),
            alphabet,
            weights,
            exploration,
            path: Vec::new(),
        };
        tree.add_node(root);
        tree
    }

    fn add_node(&mut self, state: &State) -> u32 {
        let edges = cells_of(state.legal())
            .map(|cell| Edge {
                cell,
                visits: 0,
                total: 0.0,
                children: [NO_CHILD; 8],
            })
            .collect();
        self.nodes.push(Node {
            edges,
            visits: 0,
            total: 0.0,
        });
        (self.nodes.len() - 1) as u32
    }

    /// The edge to follow from `node`: an untried one first, else the best by UCB1 with the
    /// exploration scaled to the node's mean return.
    fn select(&self, node: u32, rng: &mut FastRng) -> usize {
        let n = &self.nodes[node as usize];
        let untried = n.edges.iter().filter(|e| e.visits == 0).count();
        if untried > 0 {
            let pick = rng.below(untried as u32) as usize;
            return n
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.visits == 0)
                .nth(pick)
                .map(|(i, _)| i)
                .expect("an untried edge");
        }
        let scale = self.exploration * (n.total / n.visits.max(1) as f64 + 1.0);
        let log_n = (n.visits as f64).ln();
        let mut best = 0;
        let mut best_value = f64::NEG_INFINITY;
        for (i, e) in n.edges.iter().enumerate() {
            let value = e.total / e.visits as f64 + scale * (log_n / e.visits as f64).sqrt();
            if value > best_value {
                best_value = value;
                best = i;
            }
        }
        best
    }

    /// One descent, expansion, playout and backup; returns the removals from the root to the
    /// end of the playout.
    pub fn iterate(&mut self, root: &State, rng: &mut FastRng) -> u32 {
        let mut state = root.clone();
        let mut node = 0u32;
        self.path.clear();
        let mut leaf_points = 0;
        loop {
            if self.nodes[node as usize].edges.is_empty() {
                break;
            }
            let edge = self.select(node, rng);
            let cell = self.nodes[node as usize].edges[edge].cell;
            let reveal = sample_reveal(&state, cell, self.alphabet, rng);
            let outcome = reveal
                .and_then(|p| self.alphabet.iter().position(|&a| a == p))
                .unwrap_or(0);
            let points = state.play_unchecked(cell, reveal);
            self.path.push((node, edge as u32, points));
            let child = self.nodes[node as usize].edges[edge].children[outcome];
            if child == NO_CHILD {
                let child = self.add_node(&state);
                self.nodes[node as usize].edges[edge].children[outcome] = child;
                leaf_points = playout(&mut state, self.alphabet, self.weights, rng, None);
                break;
            }
            node = child;
        }
        let mut ret = leaf_points as f64;
        for &(node, edge, points) in self.path.iter().rev() {
            ret += points as f64;
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.total += ret;
            let e = &mut n.edges[edge as usize];
            e.visits += 1;
            e.total += ret;
        }
        state.moves() - root.moves()
    }

    /// The most visited removal of the root (ties: the better mean), its mean and visits.
    pub fn best(&self) -> Option<(Cell, f64, u32)> {
        self.nodes[0]
            .edges
            .iter()
            .filter(|e| e.visits > 0)
            .max_by(|a, b| {
                a.visits
                    .cmp(&b.visits)
                    .then((a.total / a.visits as f64).total_cmp(&(b.total / b.visits as f64)))
            })
            .map(|e| (e.cell, e.total / e.visits as f64, e.visits))
    }
}
