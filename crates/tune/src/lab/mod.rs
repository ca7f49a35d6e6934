//! Lab programs: training and analysis that are not a sweep of settings (a network trained by
//! self-play, the structure of a generator's populations, what knowing the opponents buys).
//! Each is a subcommand with its own arguments.

use clap::Subcommand;

#[derive(Subcommand)]
pub enum Lab {}

/// Runs the lab program `lab` asks for.
pub fn run(lab: Lab) -> Result<(), String> {
    match lab {}
}
