//! What the extension's classes share: Python values read as action numbers, and numpy arrays
//! made and filled in place (observations, masks). Bad input raises `ValueError` or `TypeError`,
//! never a panic.

use numpy::ndarray::{IntoDimension, IxDyn};
use numpy::{Element, PyArray, PyArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use marathon_core::space::{Dtype, Field, Values};

pub(crate) fn value_error(message: String) -> PyErr {
    PyValueError::new_err(message)
}

/// An action number from Python: an int, or anything that is one exactly (a numpy integer,
/// through `__index__`). A bool, a float or a string is a `TypeError` (`step(1.5)` and
/// `step("3")` are mistakes, not actions); an int too large for any action is outside the
/// action space, a `ValueError` like any other number outside it.
pub(crate) fn action_index(value: &Bound<'_, PyAny>, actions: usize) -> PyResult<i64> {
    let py = value.py();
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "action {value}: a bool is not an action number"
        )));
    }
    match value.extract::<i64>() {
        Ok(index) => Ok(index),
        Err(error) if error.is_instance_of::<PyOverflowError>(py) => Err(value_error(format!(
            "action {value} is outside the action space 0..{actions}"
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "action {}: expected an int, got {}",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string()),
            value
                .get_type()
                .name()
                .map_or_else(|_| "?".to_string(), |n| n.to_string())
        ))),
    }
}

/// A new zeroed array of `shape`, filled in place by `fill`: the one allocation a returned
/// array needs.
pub(crate) fn filled<'py, T: Element, D: IntoDimension>(
    py: Python<'py>,
    shape: D,
    fill: impl FnOnce(&mut [T]),
) -> PyResult<Bound<'py, PyArray<T, D::Dim>>> {
    let array = PyArray::<T, _>::zeros(py, shape, false);
    {
        let mut values = array.readwrite();
        let slice = values
            .as_slice_mut()
            .map_err(|e| value_error(e.to_string()))?;
        fill(slice);
    }
    Ok(array)
}

/// A dict of one new array per field of `fields`, each filled by `observe(field, values)`: the
/// observation of an environment or of a follower.
pub(crate) fn observation_dict<'py>(
    py: Python<'py>,
    fields: &[Field],
    names: &[Py<PyString>],
    observe: impl Fn(usize, &mut Values<'_>),
) -> PyResult<Bound<'py, PyDict>> {
    let observation = PyDict::new(py);
    for (index, (field, name)) in fields.iter().zip(names).enumerate() {
        let shape = IxDyn(field.shape);
        match field.dtype {
            Dtype::I8 => observation.set_item(
                name.bind(py),
                filled::<i8, _>(py, shape, |slice| observe(index, &mut Values::I8(slice)))?,
            )?,
            Dtype::I32 => observation.set_item(
                name.bind(py),
                filled::<i32, _>(py, shape, |slice| observe(index, &mut Values::I32(slice)))?,
            )?,
        }
    }
    Ok(observation)
}

/// The fields' names as interned Python strings, made once per object.
pub(crate) fn field_names(py: Python<'_>, fields: &[Field]) -> Vec<Py<PyString>> {
    fields
        .iter()
        .map(|field| PyString::intern(py, field.name).unbind())
        .collect()
}
