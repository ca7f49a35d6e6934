//! Random number generators: the contests' own (exact ports, for case generation) and a fast one
//! for AIs.

mod fast;
mod java;
pub mod python;

pub use fast::{FastRng, LineSeed, seed_from_lines};
pub use java::JavaSecureRandom;
pub use python::PythonRandom;
