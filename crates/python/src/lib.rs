//! marathon's games for Python: the `marathon_games._core` extension module (built by maturin
//! from `python/`, with the `python` feature) over [`driver`], which plays any game by action
//! numbers and is plain Rust.

#[cfg(feature = "python")]
mod convert;
pub mod driver;
#[cfg(feature = "python")]
mod follow_module;
#[cfg(feature = "python")]
mod module;
pub mod runs;
pub mod vector;
#[cfg(feature = "python")]
mod vector_module;
