//! The extension's `Follower`: a game seen from the player's side of the protocol
//! ([`marathon_core::Follower`]), so that a policy trained on the environments plays as a
//! program under the judge. It reads the judge's lines, gives the observation and mask the
//! environment gives for the same position, and turns an action number into the reply line.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use marathon_core::space::Field;

use crate::convert::{action_index, field_names, filled, observation_dict, value_error};

/// The player's side of one game; see the module's doc.
#[pyclass(module = "marathon_games._core", name = "Follower")]
struct Follower {
    follower: Box<dyn marathon_core::Follower>,
    fields: &'static [Field],
    actions: usize,
    names: Vec<Py<PyString>>,
}

#[pymethods]
impl Follower {
    /// The player's side of a new game of `game`; `ValueError` for an unknown game or one
    /// without a player's side yet.
    #[new]
    fn new(py: Python<'_>, game: &str) -> PyResult<Self> {
        let found = marathon_games::find(game).ok_or_else(|| {
            value_error(format!(
                "no game {game:?}: the games are {}",
                marathon_games::names().join(", ")
            ))
        })?;
        let with: Vec<&str> = marathon_games::games()
            .iter()
            .filter(|g| g.follower().is_some())
            .map(|g| g.name())
            .collect();
        let follower = found.follower().ok_or_else(|| {
            value_error(format!(
                "{game} has no player's side yet (games with one: {})",
                with.join(", ")
            ))
        })?;
        Ok(Follower {
            follower,
            fields: found.fields(),
            actions: found.action_count(),
            names: field_names(py, found.fields()),
        })
    }

    /// Reads one line the judge wrote; returns whether a decision is now due. A line the
    /// protocol does not allow raises `ValueError`.
    fn read_line(&mut self, line: &str) -> PyResult<bool> {
        self.follower.read_line(line).map_err(value_error)
    }

    /// Whether a decision is due (a message was read and not replied to).
    #[getter]
    fn decision_due(&self) -> bool {
        self.follower.decision_due()
    }

    /// Whether the player has ended the game.
    #[getter]
    fn over(&self) -> bool {
        self.follower.is_over()
    }

    /// The observation, as the environment's: a dict of new numpy arrays.
    fn observation<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let follower = &self.follower;
        observation_dict(py, self.fields, &self.names, |field, values| {
            follower.observe(field, values)
        })
    }

    /// The legal actions of the decision due: a numpy int8 array of 0 and 1.
    fn action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        filled(py, self.actions, |slice| self.follower.action_mask(slice))
    }

    /// Plays action `action` and returns the reply line to write (no line end). `ValueError`
    /// when no decision is due or the rules refuse it (nothing changes), `TypeError` for an
    /// action that is not an int.
    fn reply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let index = action_index(action, self.actions)?;
        let index = usize::try_from(index).map_err(|_| {
            value_error(format!(
                "action {index} is outside the action space 0..{}",
                self.actions
            ))
        })?;
        self.follower.reply(index).map_err(value_error)
    }
}

pub(crate) fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Follower>()
}
