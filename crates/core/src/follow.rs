//! A game seen from the player's side of the protocol: what a program knows, built from the
//! judge's lines and its own replies, observed in the environment's spaces. A policy trained on
//! the environments plays as a program under the judge through it: it reads the judge's lines
//! into a [`Follower`], chooses an action from the same observation and mask the environment
//! gives, and writes the follower's reply.

use crate::space::Values;

/// The player's side of one game in progress; see the module's doc.
pub trait Follower: Send + Sync {
    /// Reads one line the judge wrote (a line end, if any, is ignored). Returns whether a
    /// decision is now due: a whole message has been read. An error names what the protocol did
    /// not expect; the follower is then unusable.
    fn read_line(&mut self, line: &str) -> Result<bool, String>;
    /// Whether a decision is due: a message was read and not replied to.
    fn decision_due(&self) -> bool;
    /// Whether the player has ended the game (a final reply such as `0 0`).
    fn is_over(&self) -> bool;
    /// The legal actions of the decision due, as the environment's mask (all zeros when none is
    /// due).
    fn action_mask(&self, mask: &mut [i8]);
    /// Field `field` of the observation, exactly as the environment observes the same position.
    fn observe(&self, field: usize, out: &mut Values<'_>);
    /// Plays action `index` into what the player knows and returns the reply line to write (no
    /// line end). An error, with nothing changed, when no decision is due or the rules refuse
    /// the action.
    fn reply(&mut self, index: usize) -> Result<String, String>;
}
