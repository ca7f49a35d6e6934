//! The built-in players' internals, shown to the lab programs (`crates/tune`: training,
//! tracing, measuring a search) and to nothing else. A game crate declares the AI modules that
//! only they, the benches and the tests of those internals reach with [`lab_modules!`]: public
//! under the crate's `lab` cargo feature, the crate's own without it, so that what the registry
//! and the spec use stays the game's whole API and the players' internals can change freely.

/// Declares each `mod NAME;` public when the invoking crate's `lab` feature is on and
/// `pub(crate)` otherwise (the crate must declare a `lab` feature; attributes such as doc
/// comments carry over).
///
/// ```ignore
/// marathon_core::lab_modules! {
///     mod search;
///     mod eval;
/// }
/// ```
#[macro_export]
macro_rules! lab_modules {
    ($($(#[$attr:meta])* mod $name:ident;)*) => {$(
        $(#[$attr])*
        #[cfg(feature = "lab")]
        pub mod $name;
        $(#[$attr])*
        #[cfg(not(feature = "lab"))]
        pub(crate) mod $name;
    )*};
}
