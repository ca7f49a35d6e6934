//! The structure of the Reversi generator's final populations, for the AI's prior: per cell,
//! how often two strategies share an ancestral weight (they then differ by the accumulated
//! noise only), how far apart they are otherwise, and how the cells' weights spread around the
//! population. One line per seed, then the histogram of the weight differences over all seeds.

use clap::Args;
use marathon_core::rng::JavaSecureRandom;
use marathon_reversi::generator::{case_size, evolve};
use marathon_reversi::rules::Cell;
use marathon_reversi::strategy::Weights;
use rayon::prelude::*;

#[derive(Args)]
pub struct GaStatsArgs {
    /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
    #[arg(value_name = "SEEDS")]
    seeds: String,
}

const BOUNDS: [f64; 9] = [0.5, 1.0, 2.0, 3.0, 5.0, 8.0, 12.0, 20.0, 40.0];

struct CaseStats {
    seed: u64,
    size: usize,
    /// Histogram of |w_i - w_j| over pairs and cells (last bin: beyond the bounds).
    diffs: [u64; BOUNDS.len() + 1],
    mean: f64,
    sd: f64,
    /// Mean over cells of the largest cluster's share (values within 6 of its centre).
    top_share: f64,
    /// Spread of the values in the largest cluster around its centre.
    cluster_sd: f64,
    /// Spread of the cluster centres over cells.
    centre_sd: f64,
    /// Mean of corner centres minus the case mean, in units of the case's spread.
    corner: f64,
}

fn population(seed: u64) -> (usize, Vec<Weights>) {
    let mut rng = JavaSecureRandom::new(seed as i64);
    let size = case_size(seed, &mut rng);
    (size, evolve(size, &mut rng))
}

fn stats(seed: u64) -> CaseStats {
    let (size, pop) = population(seed);
    let cells: Vec<Cell> = (0..size)
        .flat_map(|r| (0..size).map(move |c| Cell::new(r, c)))
        .collect();
    let mut diffs = [0u64; BOUNDS.len() + 1];
    for i in 0..pop.len() {
        for j in i + 1..pop.len() {
            for &c in &cells {
                let d = (pop[i].get(c) - pop[j].get(c)).abs();
                let bin = BOUNDS.iter().position(|&b| d < b).unwrap_or(BOUNDS.len());
                diffs[bin] += 1;
            }
        }
    }
    let all: Vec<f64> = pop
        .iter()
        .flat_map(|w| cells.iter().map(|&c| w.get(c)))
        .collect();
    let mean = all.iter().sum::<f64>() / all.len() as f64;
    let sd = (all.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / all.len() as f64).sqrt();
    let mut top_share = 0.0;
    let mut within = (0.0, 0usize);
    let mut centres = Vec::new();
    let mut corner = 0.0;
    for &c in &cells {
        let values: Vec<f64> = pop.iter().map(|w| w.get(c)).collect();
        // The value with the most others within 6: the dominant ancestral weight.
        let (centre, _) = values
            .iter()
            .map(|&v| (v, values.iter().filter(|&&x| (x - v).abs() < 6.0).count()))
            .max_by_key(|&(_, n)| n)
            .expect("values");
        let members: Vec<f64> = values
            .iter()
            .copied()
            .filter(|x| (x - centre).abs() < 6.0)
            .collect();
        let m = members.iter().sum::<f64>() / members.len() as f64;
        top_share += members.len() as f64 / values.len() as f64;
        within.0 += members.iter().map(|x| (x - m).powi(2)).sum::<f64>();
        within.1 += members.len();
        centres.push(m);
        let last = size - 1;
        if (c.row() == 0 || c.row() == last) && (c.col() == 0 || c.col() == last) {
            corner += (m - mean) / sd / 4.0;
        }
    }
    let cm = centres.iter().sum::<f64>() / centres.len() as f64;
    let centre_sd =
        (centres.iter().map(|x| (x - cm).powi(2)).sum::<f64>() / centres.len() as f64).sqrt();
    CaseStats {
        seed,
        size,
        diffs,
        mean,
        sd,
        top_share: top_share / cells.len() as f64,
        cluster_sd: (within.0 / within.1 as f64).sqrt(),
        centre_sd,
        corner,
    }
}

pub fn run(args: GaStatsArgs) -> Result<(), String> {
    let seeds = super::seeds(&args.seeds)?;
    let results: Vec<CaseStats> = seeds.par_iter().map(|&s| stats(s)).collect();
    let mut total = [0u64; BOUNDS.len() + 1];
    for r in &results {
        let n: u64 = r.diffs.iter().sum();
        let shares: Vec<String> = r
            .diffs
            .iter()
            .map(|&d| format!("{:.2}", d as f64 / n as f64))
            .collect();
        println!(
            "seed {:3} n {:2} mean {:6.1} sd {:5.1} top {:.2} in-sd {:.2} centres-sd {:5.1} corner {:5.2} |d|: {}",
            r.seed,
            r.size,
            r.mean,
            r.sd,
            r.top_share,
            r.cluster_sd,
            r.centre_sd,
            r.corner,
            shares.join(" ")
        );
        for (t, d) in total.iter_mut().zip(&r.diffs) {
            *t += d;
        }
    }
    let n: u64 = total.iter().sum();
    let mut cumulative = 0;
    for (i, &d) in total.iter().enumerate() {
        cumulative += d;
        let bound = BOUNDS.get(i).map_or("inf".to_string(), |b| format!("{b}"));
        println!(
            "|d| < {bound:>4}: {:.3} (cumulative {:.3})",
            d as f64 / n as f64,
            cumulative as f64 / n as f64
        );
    }
    Ok(())
}
