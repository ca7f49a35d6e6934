//! Lab programs: training and analysis that are not a sweep of settings (a network trained by
//! self-play, the structure of a generator's populations, what knowing the opponents buys, one
//! game's moves looked at closely). Each is a subcommand with its own arguments.

mod linez_hazard;
mod linez_mover;
mod linez_train;
mod reversi_ceiling;
mod reversi_ga_stats;
mod reversi_infer;
mod tiles_trace;

use clap::Subcommand;
use marathon_core::parse_seed_set;

#[derive(Subcommand)]
pub enum Lab {
    /// Train the Linez n-tuple network by TD learning on its own games, writing it to OUT.
    LinezTrain(linez_train::TrainArgs),
    /// Play Linez seeds in-process at a fixed effort (the judge's games) or a network greedily;
    /// print the scores and how often boards fell to few empty cells and never came back.
    LinezHazard(linez_hazard::HazardArgs),
    /// Write the Linez network whose values are the mean of the given networks' values.
    LinezAverage(linez_train::AverageArgs),
    /// What predicting the Reversi opponents buys: the oracle's search with noisy knowledge.
    ReversiCeiling(reversi_ceiling::CeilingArgs),
    /// The structure of the Reversi generator's final populations (the AI's prior).
    ReversiGaStats(reversi_ga_stats::GaStatsArgs),
    /// How well models of the Reversi opponents predict their moves, measured offline.
    ReversiInfer(reversi_infer::InferArgs),
    /// Play one TilesMatching case with the `ai` player and print why it moves as it does.
    TilesTrace(Box<tiles_trace::TraceArgs>),
}

/// Runs the lab program `lab` asks for.
pub fn run(lab: Lab) -> Result<(), String> {
    match lab {
        Lab::LinezTrain(args) => linez_train::train(args),
        Lab::LinezAverage(args) => linez_train::average(args),
        Lab::LinezHazard(args) => linez_hazard::run(args),
        Lab::ReversiCeiling(args) => reversi_ceiling::run(args),
        Lab::ReversiGaStats(args) => reversi_ga_stats::run(args),
        Lab::ReversiInfer(args) => reversi_infer::run(args),
        Lab::TilesTrace(args) => tiles_trace::run(*args),
    }
}

/// Reads the positional seed set `SEEDS` (`1-100`, `1,5,9`, `7` or `@file`).
fn seeds(text: &str) -> Result<Vec<u64>, String> {
    parse_seed_set(text).map_err(|e| format!("SEEDS: {e}"))
}
