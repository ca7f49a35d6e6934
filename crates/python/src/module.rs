//! The `marathon_games._core` extension module: the [`Driver`] of a game as a Python class whose
//! `reset` and `step` return numpy arrays, so that the Gymnasium class in
//! `python/marathon_games/env.py` is a thin shell. Every call returns fresh arrays (a caller may
//! keep an observation), filled in place; nothing else is allocated per step. Bad input from
//! Python raises `ValueError` (a value out of range) or `TypeError` (an action that is not an
//! int), never a panic.

use numpy::PyArray1;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::{PyOSError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use marathon_core::interrupt;
use marathon_core::space::Dtype;

use crate::convert::{action_index, field_names, filled, observation_dict, value_error};
use crate::driver::{self, Driver};
use crate::runs::{self, PlayRequest};

/// A game's case in play, driven by action numbers (see the driver's doc).
#[pyclass(module = "marathon_games._core", name = "Core")]
struct Core {
    driver: Driver,
    /// The fields' names as Python strings, made once.
    names: Vec<Py<PyString>>,
    /// The info dict's keys, made once.
    mask_key: Py<PyString>,
    score_key: Py<PyString>,
}

impl Core {
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let driver = &self.driver;
        observation_dict(py, driver.fields(), &self.names, |index, values| {
            driver.observe(index, values)
        })
    }

    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let info = PyDict::new(py);
        info.set_item(self.mask_key.bind(py), self.mask(py)?)?;
        info.set_item(self.score_key.bind(py), self.driver.score())?;
        Ok(info)
    }
}

#[pymethods]
impl Core {
    /// The case driver of game `game` (one of `games()`).
    #[new]
    fn new(py: Python<'_>, game: &str) -> PyResult<Self> {
        let driver = driver::driver(game).ok_or_else(|| {
            value_error(format!(
                "no game {game:?}: the games are {}",
                driver::games().join(", ")
            ))
        })?;
        let names = field_names(py, driver.fields());
        Ok(Core {
            driver,
            names,
            mask_key: PyString::intern(py, "action_mask").unbind(),
            score_key: PyString::intern(py, "score").unbind(),
        })
    }

    /// The game's name.
    #[getter]
    fn game(&self) -> &'static str {
        self.driver.name()
    }

    /// The reply line that ends a game at once and validly (`GIVE UP`), or `None` for a
    /// game whose protocol has none.
    #[getter]
    fn final_reply(&self) -> Option<&'static str> {
        self.driver.final_reply()
    }

    /// The metric of a finished case's record that holds the moves' points alone, for a game
    /// whose score counts the player's time (polyomino's `raw`), else `None`.
    #[getter]
    fn untimed_score(&self) -> Option<&'static str> {
        self.driver.untimed_score()
    }

    /// The size of the `Discrete` action space.
    #[getter]
    fn actions(&self) -> usize {
        self.driver.actions()
    }

    /// The observation's arrays: `(name, shape, dtype, low, high)` each, dtype `"int8"` or
    /// `"int32"`.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let fields: Vec<_> = self
            .driver
            .fields()
            .iter()
            .map(|field| {
                let dtype = match field.dtype {
                    Dtype::I8 => "int8",
                    Dtype::I32 => "int32",
                };
                (
                    field.name,
                    field.shape.to_vec(),
                    dtype,
                    field.low,
                    field.high,
                )
            })
            .collect();
        PyList::new(py, fields)
    }

    /// The case groups as `(first, last, default)`, or `None` for a game without groups.
    fn groups(&self) -> Option<(u32, u32, u32)> {
        self.driver
            .groups()
            .map(|(range, default)| (*range.start(), *range.end(), default))
    }

    /// Starts case `seed` (in `group`) and returns `(observation, info)`.
    #[pyo3(signature = (seed, group=None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        seed: u64,
        group: Option<u32>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        // Dealing a reversi case runs a genetic algorithm: let other Python threads run.
        let driver = &mut self.driver;
        py.detach(|| driver.reset(seed, group))
            .map_err(value_error)?;
        (self.observation(py)?, self.info(py)?).into_pyobject(py)
    }

    /// Plays action `index`; returns `(observation, reward, terminated, info)`. A refused
    /// action ends the game (`info["invalid"]` says why); an index outside the space, or a step
    /// after the end, raises `ValueError`; an index that is not an int raises `TypeError`.
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let index = action_index(index, self.driver.actions())?;
        let stepped = self.driver.step(index).map_err(value_error)?;
        let info = self.info(py)?;
        if let Some(reason) = stepped.invalid {
            info.set_item("invalid", reason)?;
        }
        (
            self.observation(py)?,
            stepped.reward,
            stepped.terminated,
            info,
        )
            .into_pyobject(py)
    }

    /// The allowed actions now: a numpy int8 array of 0 and 1.
    fn mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        filled(py, self.driver.actions(), |slice| {
            self.driver.action_mask(slice)
        })
    }

    /// The observation now, as `reset` and `step` return it.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.observation(py)
    }

    /// The contest's text the judge would write now.
    fn message(&self) -> String {
        self.driver.message()
    }

    /// The protocol's reply line for action `index` now (errors as `step`'s).
    fn action_text(&self, index: &Bound<'_, PyAny>) -> PyResult<String> {
        let index = action_index(index, self.driver.actions())?;
        self.driver.action_text(index).map_err(value_error)
    }

    /// The contest's score so far.
    #[getter]
    fn score(&self) -> f64 {
        self.driver.score()
    }

    /// The player's moves so far.
    #[getter]
    fn moves(&self) -> u64 {
        self.driver.moves()
    }

    /// Whether the game is over (or not started).
    #[getter]
    fn over(&self) -> bool {
        self.driver.is_over()
    }
}

/// The games' names, in the order `marathon play` runs them.
#[pyfunction]
fn games() -> Vec<&'static str> {
    driver::games()
}

/// The seeds of a seed set (`1-100`, `1,5,9`, `7`, `@file`).
#[pyfunction]
fn seeds(text: &str) -> PyResult<Vec<u64>> {
    runs::seeds(text).map_err(value_error)
}

/// What `marathon play` would play, checked with its outputs (the best scores readable, every
/// path writable; nothing is written): raises `ValueError` naming what is wrong.
#[pyfunction]
#[pyo3(signature = (game, seeds, player=None, effort=None, time_limit=None, exec=None, group=None, threads=None, settings=Vec::new(), json=None, best=None, save=false, label=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per flag of `marathon play`.
fn check(
    game: String,
    seeds: Vec<u64>,
    player: Option<String>,
    effort: Option<u64>,
    time_limit: Option<f64>,
    exec: Option<String>,
    group: Option<u32>,
    threads: Option<usize>,
    settings: Vec<(String, String)>,
    json: Option<PathBuf>,
    best: Option<PathBuf>,
    save: bool,
    label: Option<String>,
) -> PyResult<()> {
    let request = PlayRequest {
        game,
        seeds,
        player,
        effort,
        time_limit,
        exec,
        group,
        threads,
        settings,
        json,
        best,
        save,
        label,
    };
    runs::check(&request).map_err(value_error)
}

/// What the thread playing a run tells the Python thread waiting for it.
enum Event {
    /// A case ended: its `--json` line.
    Case(String),
    /// The run ended: every line in seed order and the errors writing its outputs, or the
    /// error that stopped it.
    End(Result<runs::Played, String>),
}

/// Plays the cases as `marathon play` does and returns each case's `--json` line, in seed
/// order; `json`, `best`, `save` and `label` are `marathon play`'s outputs (a run refused
/// raises `ValueError` before anything is written). The GIL is released while the cases play;
/// `progress`, if given, is called on the calling thread as `progress(done, total, line)` after
/// each case, with that case's line. Ctrl-C (`KeyboardInterrupt`) stops the run as it stops
/// `marathon play` (no new case, the running ones' players killed, what finished kept in the
/// outputs) and is raised once the run has ended; so is an exception raised by `progress`. An
/// output that could not be written raises `OSError` once the run has ended.
#[pyfunction]
#[pyo3(signature = (game, seeds, player=None, effort=None, time_limit=None, exec=None, group=None, threads=None, settings=Vec::new(), json=None, best=None, save=false, label=None, progress=None))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per flag of `marathon play`.
fn play(
    py: Python<'_>,
    game: String,
    seeds: Vec<u64>,
    player: Option<String>,
    effort: Option<u64>,
    time_limit: Option<f64>,
    exec: Option<String>,
    group: Option<u32>,
    threads: Option<usize>,
    settings: Vec<(String, String)>,
    json: Option<PathBuf>,
    best: Option<PathBuf>,
    save: bool,
    label: Option<String>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Vec<String>> {
    let total = seeds.len();
    let request = PlayRequest {
        game,
        seeds,
        player,
        effort,
        time_limit,
        exec,
        group,
        threads,
        settings,
        json,
        best,
        save,
        label,
    };
    // Reading the best scores and starting the workers may take a moment: other threads run.
    let run = py.detach(|| runs::start(&request)).map_err(value_error)?;
    let (sender, mut receiver) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let result = runs::play(run, |line| {
            let _ = sender.send(Event::Case(line));
        });
        let _ = sender.send(Event::End(result));
    });
    let mut done = 0usize;
    // Stops the run and waits for its end, then clears the stop for the next run.
    let stop = |receiver: mpsc::Receiver<Event>, worker: std::thread::JoinHandle<()>| {
        interrupt::request(SIGINT);
        py.detach(move || while receiver.recv().is_ok() {});
        let _ = worker.join();
        interrupt::clear();
    };
    // Python handles signals only between its own steps: wake up now and then to let it.
    loop {
        // The receiver goes to the detached closure and back: it may move, not be shared.
        let (received, back) = py.detach(move || (receiver.recv_timeout(SIGNAL_CHECK), receiver));
        receiver = back;
        // Also between cases that end faster than the check's interval.
        if let Err(error) = py.check_signals() {
            stop(receiver, worker);
            return Err(error);
        }
        match received {
            Ok(Event::Case(line)) => {
                done += 1;
                if let Some(callback) = &progress
                    && let Err(error) = callback.call1(py, (done, total, line))
                {
                    stop(receiver, worker);
                    return Err(error);
                }
            }
            Ok(Event::End(Ok(played))) => {
                let _ = worker.join();
                if !played.errors.is_empty() {
                    return Err(PyOSError::new_err(played.errors.join("; ")));
                }
                return Ok(played.lines);
            }
            Ok(Event::End(Err(error))) => {
                let _ = worker.join();
                return Err(value_error(error));
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = worker.join();
                return Err(PyRuntimeError::new_err("the run stopped without a result"));
            }
        }
    }
}

/// How often a run from Python lets Python look at its signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(100);
/// The signal a `KeyboardInterrupt` stands for.
const SIGINT: i32 = 2;

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Core>()?;
    crate::vector_module::register(module)?;
    crate::follow_module::register(module)?;
    module.add_function(wrap_pyfunction!(games, module)?)?;
    module.add_function(wrap_pyfunction!(seeds, module)?)?;
    module.add_function(wrap_pyfunction!(check, module)?)?;
    module.add_function(wrap_pyfunction!(play, module)?)?;
    module.add("PLAY_ARGUMENTS", runs::PLAY_ARGUMENTS.to_vec())?;
    Ok(())
}
