//! `marathon-tune`: the tools that make the built-in players stronger. `sweep` plays a seed set
//! through the judge under every combination of some settings' values (`marathon players GAME`
//! lists the settings); the lab programs train and analyse. Strength claims still come from
//! `marathon play` on stated seeds (docs/results.md).

mod lab;
mod sweep;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "marathon-tune",
    about = "Tune and study marathon's built-in players"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play a seed set under every combination of some settings' values; one row each.
    Sweep(Box<sweep::SweepArgs>),
    #[command(flatten)]
    Lab(lab::Lab),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Sweep(args) => sweep::run(*args),
        Command::Lab(lab) => lab::run(lab),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("marathon-tune: {message}");
            ExitCode::from(2)
        }
    }
}
