//! Plays a set of cases in parallel: every case is independent and reproducible, so the order of
//! play does not matter and results come back in the order asked.

use std::io::IsTerminal;
use std::sync::Mutex;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::game::{CaseId, CaseOutcome, Game, PlayConfig};

#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Worker threads; 0 means one per core.
    pub threads: usize,
    /// Show a progress bar (only ever drawn on a terminal).
    pub progress: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        Self {
            threads: 0,
            progress: true,
        }
    }
}

/// Plays every case with `config` and returns the outcomes in the order of `cases`.
pub fn run_cases(
    game: &dyn Game,
    cases: &[CaseId],
    config: &PlayConfig,
    options: &RunOptions,
) -> Vec<CaseOutcome> {
    let bar = progress_bar(game.name(), cases.len(), options.progress);
    let tally = Mutex::new((0usize, 0.0f64));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads)
        .build()
        .expect("a thread pool of the requested size");
    let outcomes = pool.install(|| {
        cases
            .par_iter()
            .map(|case| {
                let outcome = game.play(case, config);
                let mut tally = tally.lock().unwrap_or_else(|e| e.into_inner());
                tally.0 += 1;
                tally.1 += outcome.score;
                bar.inc(1);
                bar.set_message(format!("mean {:.1}", tally.1 / tally.0 as f64));
                outcome
            })
            .collect()
    });
    bar.finish_and_clear();
    outcomes
}

fn progress_bar(game: &str, cases: usize, wanted: bool) -> ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(cases as u64);
    bar.set_style(
        ProgressStyle::with_template(
            "{prefix:>10} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} (eta {eta})",
        )
        .expect("a valid progress template"),
    );
    bar.set_prefix(game.to_string());
    bar
}
