//! `marathon serve`: a local web page where a person picks a game and a seed and plays the case
//! through the same environment the judge drives, with the contest's information, the score,
//! an undo, a hint (the built-in AI's move for the position, [`marathon_core::GameSpec::hint`])
//! and a replay page of the game so far.
//!
//! [`session`] holds a game in play, generic over the game and behind one object-safe trait;
//! [`server`] answers the page and its JSON API over HTTP on 127.0.0.1 only ([`http`] reads
//! the requests, within bounds). The page is one
//! self-contained HTML file (inline script and style: each game's replay viewer draws the
//! board), so nothing is fetched from outside the machine.

pub mod http;
pub mod page;
pub mod server;
pub mod session;

pub use server::{DEFAULT_PORT, Server};
pub use session::{Session, new_session};
