//! Where a run's finished cases go as they finish: a line of `--json`, flushed, the `--best`
//! scores (rewritten at most once a second while they change, and at the end), and the kept
//! run (`marathon runs`). A write that fails is said at once and reported again at the end;
//! the run goes on.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use marathon_core::{CaseOutcome, Game};

use crate::history::{GameTotals, KeptRun};
use crate::record::CaseRecord;
use crate::report::BestScores;
use crate::select::Shard;

/// How often a run rewrites `--best` while it finds new bests (and once more at its end).
const BEST_SAVE_INTERVAL: Duration = Duration::from_secs(1);

/// A case as the sinks wrote it.
pub struct Recorded {
    /// 100 * score / best when best-known scores are kept ([`BestScores::relative`]).
    pub relative: Option<f64>,
    /// Its `--json` line, without the newline.
    pub line: String,
}

/// Where each finished case goes as it finishes: a line of `--json`, flushed, `--best`, and
/// the kept run.
pub struct Sinks {
    json: Option<(PathBuf, File)>,
    /// The first error writing `--json`; the run goes on and reports it at its end.
    json_error: Option<String>,
    best: Option<BestScores>,
    best_saved: Instant,
    best_changed: bool,
    kept: Option<KeptRun>,
    /// The first error keeping the run; reported at its end.
    kept_error: Option<String>,
    /// The part of the run played (`--shard`), written into every record.
    shard: Option<Shard>,
}

impl Sinks {
    /// The sinks of a run: `--json`'s file (created, empty), `--best`'s scores (loaded), the
    /// kept run (started), and the part played (`--shard`), each optional.
    pub fn new(
        json: Option<(PathBuf, File)>,
        best: Option<BestScores>,
        kept: Option<KeptRun>,
        shard: Option<Shard>,
    ) -> Self {
        Sinks {
            json,
            json_error: None,
            best,
            best_saved: Instant::now(),
            best_changed: false,
            kept,
            kept_error: None,
            shard,
        }
    }

    /// Whether best-known scores are kept (and so relative scores given).
    pub fn keeps_best(&self) -> bool {
        self.best.is_some()
    }

    /// Closes the kept run with each game's totals; `complete` unless interrupted.
    pub fn finish_kept(&mut self, totals: Vec<GameTotals>, complete: bool) {
        if let Some(kept) = &mut self.kept
            && let Err(e) = kept.finish(totals, complete)
        {
            self.kept_error.get_or_insert(format!(
                "cannot keep the run in {}: {e}",
                kept.dir().display()
            ));
        }
    }

    /// Saves the best scores a last time; returns every error the run's writing met (it went
    /// on past each, and reports them at its end).
    pub fn finish(&mut self) -> Vec<String> {
        let mut errors: Vec<String> = self.json_error.take().into_iter().collect();
        errors.extend(self.kept_error.take());
        if let Err(e) = self.save_best() {
            errors.push(e);
        }
        errors
    }

    /// Records one finished case; returns its record line and, when best scores are kept, its
    /// relative score.
    pub fn record(&mut self, game: &dyn Game, outcome: &CaseOutcome) -> Recorded {
        let relative = self.best.as_mut().map(|best| {
            if best.merge(std::slice::from_ref(outcome), game.maximize()) > 0 {
                self.best_changed = true;
            }
            best.relative(outcome, game.maximize())
        });
        let mut record = CaseRecord::new(game.legend(), outcome, relative);
        record.shard = self.shard.map(|shard| shard.to_string());
        let line = record.to_line();
        if let (Some((path, file)), None) = (&mut self.json, &self.json_error)
            && let Err(e) = file.write_all(format!("{line}\n").as_bytes())
        {
            let message = format!("cannot write {}: {e}", path.display());
            let _ = writeln!(io::stderr(), "marathon: {message}");
            self.json_error = Some(message);
        }
        if let (Some(kept), None) = (&mut self.kept, &self.kept_error)
            && let Err(e) = kept.record(&line)
        {
            let message = format!("cannot keep the run in {}: {e}", kept.dir().display());
            let _ = writeln!(io::stderr(), "marathon: {message}");
            self.kept_error = Some(message);
        }
        if self.best_changed && self.best_saved.elapsed() >= BEST_SAVE_INTERVAL {
            // Errors surface at the last save, at the end of the run.
            let _ = self.save_best();
        }
        Recorded { relative, line }
    }

    fn save_best(&mut self) -> Result<(), String> {
        if let Some(best) = &mut self.best
            && self.best_changed
        {
            best.save()
                .map_err(|e| format!("cannot write {}: {e}", best.path().display()))?;
            self.best_changed = false;
            self.best_saved = Instant::now();
        }
        Ok(())
    }
}
