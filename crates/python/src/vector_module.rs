//! The extension's `VectorCore`: a [`VectorDriver`] whose results are numpy arrays allocated
//! once, at construction, and written in place by every reset and step with the GIL released;
//! the Gymnasium class in `python/marathon_games/vector.py` hands them out (copied or not). A
//! step costs the Python caller one call whatever the number of sub-environments.

use numpy::ndarray::IxDyn;
use numpy::{
    Element, PyArray, PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use marathon_core::space::{Dtype, Values};

use crate::vector::{Autoreset, Batch, VectorDriver};

/// One observation array of a batch, of its field's element type.
enum Array {
    I8(Py<PyArrayDyn<i8>>),
    I32(Py<PyArrayDyn<i32>>),
}

/// An [`Array`] borrowed for writing.
enum Borrowed<'py> {
    I8(PyReadwriteArray<'py, i8, IxDyn>),
    I32(PyReadwriteArray<'py, i32, IxDyn>),
}

impl Array {
    fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            Array::I8(array) => array.bind(py).clone().into_any(),
            Array::I32(array) => array.bind(py).clone().into_any(),
        }
    }

    fn borrow<'py>(&self, py: Python<'py>) -> PyResult<Borrowed<'py>> {
        Ok(match self {
            Array::I8(array) => Borrowed::I8(array.bind(py).try_readwrite().map_err(borrowed)?),
            Array::I32(array) => Borrowed::I32(array.bind(py).try_readwrite().map_err(borrowed)?),
        })
    }
}

impl Borrowed<'_> {
    fn values(&mut self) -> PyResult<Values<'_>> {
        Ok(match self {
            Borrowed::I8(array) => Values::I8(array.as_slice_mut().map_err(value_error)?),
            Borrowed::I32(array) => Values::I32(array.as_slice_mut().map_err(value_error)?),
        })
    }
}

fn value_error(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

fn borrowed(error: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(format!(
        "the vector environment's arrays are in use elsewhere ({error})"
    ))
}

/// Many cases of one game, stepped by action numbers into arrays made once (see the vector
/// driver's doc).
#[pyclass(module = "marathon_games._core", name = "VectorCore")]
struct VectorCore {
    vector: VectorDriver,
    observation: Vec<Array>,
    last_observation: Vec<Array>,
    /// `envs x actions`, or `envs x 0` when the legal actions are listed instead.
    mask: Py<PyArrayDyn<i8>>,
    /// `envs x width` when listing (else `envs x 0`), and `envs` counts (else empty).
    legal: Py<PyArrayDyn<i32>>,
    legal_count: Py<PyArray1<i32>>,
    reward: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    invalid: Py<PyArray1<bool>>,
    score: Py<PyArray1<f64>>,
    seed: Py<PyArray1<u64>>,
    last_score: Py<PyArray1<f64>>,
    last_seed: Py<PyArray1<u64>>,
}

fn zeros<T: Element>(py: Python<'_>, shape: Vec<usize>) -> Py<PyArrayDyn<T>> {
    PyArray::<T, _>::zeros(py, IxDyn(&shape), false).unbind()
}

fn zeros1<T: Element>(py: Python<'_>, len: usize) -> Py<PyArray1<T>> {
    PyArray1::<T>::zeros(py, len, false).unbind()
}

fn slice<'a, T: Element>(
    array: &'a mut PyReadwriteArray<'_, T, impl numpy::ndarray::Dimension>,
) -> PyResult<&'a mut [T]> {
    array.as_slice_mut().map_err(value_error)
}

impl VectorCore {
    /// Borrows every array and runs `work` on them as a batch, the GIL released.
    fn with_batch(
        &mut self,
        py: Python<'_>,
        work: impl FnOnce(&mut VectorDriver, Batch<'_>) -> Result<(), String> + Send,
    ) -> PyResult<()> {
        let mut observation = self
            .observation
            .iter()
            .map(|array| array.borrow(py))
            .collect::<PyResult<Vec<_>>>()?;
        let mut last_observation = self
            .last_observation
            .iter()
            .map(|array| array.borrow(py))
            .collect::<PyResult<Vec<_>>>()?;
        let mut mask = self.mask.bind(py).try_readwrite().map_err(borrowed)?;
        let mut legal = self.legal.bind(py).try_readwrite().map_err(borrowed)?;
        let mut legal_count = self
            .legal_count
            .bind(py)
            .try_readwrite()
            .map_err(borrowed)?;
        let mut reward = self.reward.bind(py).try_readwrite().map_err(borrowed)?;
        let mut terminated = self.terminated.bind(py).try_readwrite().map_err(borrowed)?;
        let mut invalid = self.invalid.bind(py).try_readwrite().map_err(borrowed)?;
        let mut score = self.score.bind(py).try_readwrite().map_err(borrowed)?;
        let mut seed = self.seed.bind(py).try_readwrite().map_err(borrowed)?;
        let mut last_score = self.last_score.bind(py).try_readwrite().map_err(borrowed)?;
        let mut last_seed = self.last_seed.bind(py).try_readwrite().map_err(borrowed)?;
        let batch = Batch {
            observation: observation
                .iter_mut()
                .map(Borrowed::values)
                .collect::<PyResult<_>>()?,
            mask: slice(&mut mask)?,
            legal: slice(&mut legal)?,
            legal_count: slice(&mut legal_count)?,
            reward: slice(&mut reward)?,
            terminated: slice(&mut terminated)?,
            invalid: slice(&mut invalid)?,
            score: slice(&mut score)?,
            seed: slice(&mut seed)?,
            last_observation: last_observation
                .iter_mut()
                .map(Borrowed::values)
                .collect::<PyResult<_>>()?,
            last_score: slice(&mut last_score)?,
            last_seed: slice(&mut last_seed)?,
        };
        let vector = &mut self.vector;
        py.detach(move || work(vector, batch)).map_err(value_error)
    }

    fn fields_dict<'py>(&self, py: Python<'py>, arrays: &[Array]) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (field, array) in self.vector.fields().iter().zip(arrays) {
            dict.set_item(field.name, array.bind(py))?;
        }
        Ok(dict)
    }
}

#[pymethods]
impl VectorCore {
    /// `envs` sub-environments of `game` stepped by `threads` threads, with same-step autoreset
    /// or, if `next_step`, next-step autoreset; with `repeat_cases`, each plays its reset's case
    /// again and again; with `legal_width`, the batches list at most that many allowed actions
    /// a sub-environment (and their count) instead of writing masks.
    #[new]
    #[pyo3(signature = (game, envs, threads, next_step=false, repeat_cases=false, legal_width=None))]
    fn new(
        py: Python<'_>,
        game: &str,
        envs: usize,
        threads: usize,
        next_step: bool,
        repeat_cases: bool,
        legal_width: Option<usize>,
    ) -> PyResult<Self> {
        let autoreset = if next_step {
            Autoreset::NextStep
        } else {
            Autoreset::SameStep
        };
        let vector = VectorDriver::new(game, envs, threads, autoreset)
            .map_err(value_error)?
            .repeating_cases(repeat_cases)
            .listing_legal(legal_width)
            .map_err(value_error)?;
        let (mask_width, listed) = match legal_width {
            Some(width) => (0, width),
            None => (vector.actions(), 0),
        };
        let arrays = || {
            vector
                .fields()
                .iter()
                .map(|field| {
                    let shape = std::iter::once(envs)
                        .chain(field.shape.iter().copied())
                        .collect();
                    match field.dtype {
                        Dtype::I8 => Array::I8(zeros(py, shape)),
                        Dtype::I32 => Array::I32(zeros(py, shape)),
                    }
                })
                .collect()
        };
        Ok(VectorCore {
            observation: arrays(),
            last_observation: arrays(),
            mask: zeros(py, vec![envs, mask_width]),
            legal: zeros(py, vec![envs, listed]),
            legal_count: zeros1(py, if legal_width.is_some() { envs } else { 0 }),
            reward: zeros1(py, envs),
            terminated: zeros1(py, envs),
            invalid: zeros1(py, envs),
            score: zeros1(py, envs),
            seed: zeros1(py, envs),
            last_score: zeros1(py, envs),
            last_seed: zeros1(py, envs),
            vector,
        })
    }

    /// The number of sub-environments.
    #[getter]
    fn envs(&self) -> usize {
        self.vector.envs()
    }

    /// The arrays every reset and step writes, made once: `observation` and `last_observation`
    /// (dicts of the fields' batched arrays), `action_mask` (or, listing, `legal_actions` and
    /// `legal_count`; the other's arrays have no columns), `reward`, `terminated`,
    /// `invalid`, `score`, `seed`, `last_score`, `last_seed`.
    fn arrays<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("observation", self.fields_dict(py, &self.observation)?)?;
        dict.set_item(
            "last_observation",
            self.fields_dict(py, &self.last_observation)?,
        )?;
        dict.set_item("action_mask", self.mask.bind(py))?;
        dict.set_item("legal_actions", self.legal.bind(py))?;
        dict.set_item("legal_count", self.legal_count.bind(py))?;
        dict.set_item("reward", self.reward.bind(py))?;
        dict.set_item("terminated", self.terminated.bind(py))?;
        dict.set_item("invalid", self.invalid.bind(py))?;
        dict.set_item("score", self.score.bind(py))?;
        dict.set_item("seed", self.seed.bind(py))?;
        dict.set_item("last_score", self.last_score.bind(py))?;
        dict.set_item("last_seed", self.last_seed.bind(py))?;
        Ok(dict)
    }

    /// Starts case `seeds[i]` (in `group`) in every sub-environment `i`.
    #[pyo3(signature = (seeds, group=None))]
    fn reset(&mut self, py: Python<'_>, seeds: Vec<u64>, group: Option<u32>) -> PyResult<()> {
        self.with_batch(py, move |vector, batch| vector.reset(&seeds, group, batch))
    }

    /// Plays `actions[i]` (an int64 array) in every sub-environment `i`.
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let actions = actions.as_slice().map_err(value_error)?;
        self.with_batch(py, move |vector, batch| vector.step(actions, batch))
    }

    /// Why the rules refused each sub-environment's last action (`None` where they did not).
    fn invalid_reasons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let reasons: Vec<Option<&str>> = (0..self.vector.envs())
            .map(|env| self.vector.invalid_reason(env))
            .collect();
        PyList::new(py, reasons)
    }

    /// The contest's text the judge would write now in sub-environment `env`.
    fn message(&self, env: usize) -> PyResult<String> {
        self.vector
            .driver(env)
            .map(|driver| driver.message())
            .ok_or_else(|| {
                value_error(format!(
                    "no environment {env}: there are {}",
                    self.vector.envs()
                ))
            })
    }
}

/// Adds the class to the module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<VectorCore>()
}
