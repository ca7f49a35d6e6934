//! Plays a set of cases in parallel: every case is independent and reproducible, so the order of
//! play does not matter. Each finished case is handed to the caller on the calling thread as it
//! finishes (to write it out at once); the run returns them in the order asked.
//!
//! An interruption ([`marathon_core::interrupt`]) starts no new case and ends the running ones at once;
//! those are not results and are left out: the run returns the cases that finished.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, PlayError, Verdict, interrupt};

/// The most cases played at once: far above any machine's cores (each case of an external
/// program is a process and three threads of ours), low enough that a typo is refused rather
/// than tried.
pub const MAX_THREADS: usize = 1024;

/// The worker threads that play a run's cases, started before the run (so that a machine that
/// cannot start them refuses the run before anything is written) and kept for all its games.
pub struct Workers {
    pool: rayon::ThreadPool,
}

impl Workers {
    /// `threads` workers, 0 meaning one per core; more than [`MAX_THREADS`] is refused, and so
    /// is a number the machine cannot start (a memory limit, a process limit), with the reason.
    pub fn start(threads: usize) -> Result<Self, String> {
        if threads > MAX_THREADS {
            return Err(format!(
                "{threads} threads: at most {MAX_THREADS} cases play at once"
            ));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| {
                format!("cannot start {threads} worker threads: {e} (ask for fewer threads)")
            })?;
        Ok(Workers { pool })
    }

    /// How many workers there are.
    pub fn count(&self) -> usize {
        self.pool.current_num_threads()
    }
}

pub struct RunOptions<'a> {
    pub workers: &'a Workers,
    /// Show a progress bar (only ever drawn on a terminal).
    pub progress: bool,
}

/// The cases of a run that finished, in the order asked.
#[derive(Clone, Debug)]
pub struct Run {
    pub outcomes: Vec<CaseOutcome>,
    /// The run was interrupted: some cases did not finish (or did not start).
    pub interrupted: bool,
}

/// Plays every case with `config`, calling `finished` on this thread with each outcome as soon
/// as its case ends. An error for what was asked wrongly (a case the game does not have, a
/// built-in player's bad settings): no case starts after it.
pub fn run_cases(
    game: &dyn Game,
    cases: &[CaseId],
    config: &PlayConfig,
    options: &RunOptions<'_>,
    mut finished: impl FnMut(&CaseOutcome),
) -> Result<Run, PlayError> {
    let bar = progress_bar(game.name(), cases.len(), options.progress);
    let mut slots: Vec<Option<CaseOutcome>> = vec![None; cases.len()];
    let (sender, outcomes) = mpsc::channel::<(usize, Result<CaseOutcome, PlayError>)>();
    let pool = &options.workers.pool;
    let refused = AtomicBool::new(false);
    let mut error = None;
    thread::scope(|scope| {
        let refused = &refused;
        scope.spawn(move || {
            pool.install(|| {
                cases
                    .par_iter()
                    .enumerate()
                    .for_each_with(sender, |sender, (index, case)| {
                        if interrupt::requested().is_none() && !refused.load(Ordering::Relaxed) {
                            let played = game.play(case, config);
                            if played.is_err() {
                                refused.store(true, Ordering::Relaxed);
                            }
                            let _ = sender.send((index, played));
                        }
                    })
            })
        });
        let (mut count, mut total) = (0usize, 0.0f64);
        // Ends when every worker is done and has dropped its sender.
        for (index, played) in outcomes {
            let outcome = match played {
                Ok(outcome) => outcome,
                Err(e) => {
                    error.get_or_insert(e);
                    continue;
                }
            };
            if outcome.verdict == Verdict::Interrupted {
                continue;
            }
            finished(&outcome);
            count += 1;
            total += outcome.score;
            bar.inc(1);
            bar.set_message(format!("mean {:.1}", total / count as f64));
            slots[index] = Some(outcome);
        }
    });
    bar.finish_and_clear();
    if let Some(error) = error {
        return Err(error);
    }
    let outcomes: Vec<CaseOutcome> = slots.into_iter().flatten().collect();
    Ok(Run {
        interrupted: outcomes.len() < cases.len(),
        outcomes,
    })
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
