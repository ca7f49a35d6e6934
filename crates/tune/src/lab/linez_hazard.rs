//! Where Linez games are lost: plays a seed set in-process with a built-in player at a fixed
//! effort (the judge's very games: the same case, the same observations, the same seed for the
//! player) or with a network played greedily, and prints the scores and, for levels of empty
//! cells, how often the board fell that low and how often it never came back.
//!
//! A visit to "at most e empty cells" starts when a board before a move first has at most e
//! empty cells, and again once it has had e + [`RECOVERED`] or more since; it ends in death when
//! the game ends before the board has e + [`RECOVERED`] again.

use std::fmt::Write as _;
use std::path::PathBuf;

use clap::Args;
use marathon_core::Settings;
use marathon_core::env::{Environment, Turn};
use marathon_core::rng::seed_from_lines;
use marathon_linez::ai;
use marathon_linez::env::LinezEnv;
use marathon_linez::rules::CELLS;
use rayon::prelude::*;

use super::linez_mover::Mover;

#[derive(Args)]
pub struct HazardArgs {
    /// The seeds (`201-300`, `1,5,9`, `@file`).
    #[arg(value_name = "SEEDS")]
    seeds: String,
    /// The built-in player's sampling rounds (`--effort` of `marathon play`).
    #[arg(long, required_unless_present = "greedy", conflicts_with = "greedy")]
    effort: Option<u64>,
    /// The built-in player (`marathon players linez`).
    #[arg(long, default_value = "ai", conflicts_with = "greedy")]
    player: String,
    /// A setting of the built-in player, `NAME=VALUE` (repeatable).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = Settings::parse_pair, conflicts_with = "greedy")]
    settings: Vec<(String, String)>,
    /// Play this network file (`linez-train`'s OUT) greedily instead: its best move, no search.
    #[arg(long, value_name = "NETWORK")]
    greedy: Option<PathBuf>,
    /// With `--greedy`: 1 plays a move that clears whenever there is one (as `ai` does), 0 lets
    /// the values decide.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(0..=1))]
    clear_first: u8,
    /// Games played at once (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write every move as a line `seed, move, balls before it` and every game as `seed,
    /// score, moves` (tab-separated, `m` and `g` first).
    #[arg(long, value_name = "FILE.tsv")]
    moves: Option<PathBuf>,
}

/// Empty cells the board must regain for a visit to a level to end.
pub const RECOVERED: u32 = 5;

/// The levels of empty cells the table shows.
const LEVELS: [u32; 7] = [40, 35, 30, 25, 20, 15, 10];

/// One game: its score, and the balls on the board before each of the player's moves.
struct Game {
    seed: u64,
    score: u64,
    balls: Vec<u32>,
}

fn play(seed: u64, mut mover: Mover<'_>) -> Game {
    let mut env = LinezEnv::new(seed);
    let mut balls = Vec::new();
    loop {
        match env.turn() {
            Turn::Over => break,
            Turn::Auto => {
                env.advance();
            }
            Turn::Player => {
                let state = env.state();
                balls.push(state.board.ball_count());
                let mv = mover.choose(&state.board, state.preview);
                env.step(mv).expect("the player's moves are legal");
            }
        }
    }
    Game {
        seed,
        score: env.state().score,
        balls,
    }
}

/// Per level: visits and the visits that ended the game.
fn hazard(games: &[Game], level: u32) -> (u64, u64) {
    let (mut visits, mut deaths) = (0, 0);
    for game in games {
        let mut inside = false;
        for &balls in &game.balls {
            let empty = CELLS as u32 - balls;
            if !inside && empty <= level {
                inside = true;
                visits += 1;
            } else if inside && empty >= level + RECOVERED {
                inside = false;
            }
        }
        deaths += u64::from(inside);
    }
    (visits, deaths)
}

pub fn run(args: HazardArgs) -> Result<(), String> {
    let seeds = super::seeds(&args.seeds)?;
    let greedy = match &args.greedy {
        Some(path) => Some(super::linez_train::read_network("--greedy", path)?),
        None => None,
    };
    let given = Settings::new(args.settings.clone());
    // Refused before anything plays.
    ai::new_player(&args.player, args.effort, 0, &given).map_err(|e| e.to_string())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| format!("--threads: {e}"))?;
    let games: Vec<Game> = pool.install(|| {
        seeds
            .par_iter()
            .map(|&seed| {
                match &greedy {
                    Some(network) => play(
                        seed,
                        Mover::Greedy {
                            network,
                            clear_first: args.clear_first == 1,
                        },
                    ),
                    None => {
                        // Seeded by the first observation, as under the judge.
                        let env = LinezEnv::new(seed);
                        let message = env.message(None);
                        let lines: Vec<&str> = message.lines().collect();
                        let mut player = ai::new_player(
                            &args.player,
                            args.effort,
                            seed_from_lines(&lines),
                            &given,
                        )
                        .expect("checked above");
                        play(seed, Mover::Search(&mut *player))
                    }
                }
            })
            .collect()
    });
    if let Some(path) = &args.moves {
        let mut text = String::new();
        for game in &games {
            for (i, balls) in game.balls.iter().enumerate() {
                let _ = writeln!(text, "m\t{}\t{i}\t{balls}", game.seed);
            }
            let _ = writeln!(
                text,
                "g\t{}\t{}\t{}",
                game.seed,
                game.score,
                game.balls.len()
            );
        }
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    print!("{}", summary(&games));
    Ok(())
}

/// The scores' summary and the hazard table.
fn summary(games: &[Game]) -> String {
    let n = games.len() as f64;
    let scores: Vec<f64> = games.iter().map(|g| g.score as f64).collect();
    let (mean, spread) = crate::sweep::mean_and_error(&scores);
    let moves: usize = games.iter().map(|g| g.balls.len()).sum();
    let mut text = format!(
        "{} games: mean {mean:.1} (standard error {spread:.1}), {:.0} moves a game\n\
         deaths per 1,000 moves: {:.2}\n\
         empty cells  visits  per 1,000 moves  death per visit\n",
        games.len(),
        moves as f64 / n,
        1000.0 * n / moves.max(1) as f64,
    );
    for level in LEVELS {
        let (visits, deaths) = hazard(games, level);
        let _ = writeln!(
            text,
            "{:>11}  {visits:>6}  {:>15.2}  {:>15.3}",
            format!("<= {level}"),
            1000.0 * visits as f64 / moves.max(1) as f64,
            if visits > 0 {
                deaths as f64 / visits as f64
            } else {
                0.0
            },
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_visit_ends_in_death_only_if_the_board_never_recovers() {
        // 81 - balls empty cells: 40, 30 (visit to <= 30), 36 (recovered), 29 (second
        // visit), 20 (also a visit to <= 25), end.
        let game = Game {
            seed: 1,
            score: 0,
            balls: vec![41, 51, 45, 52, 61],
        };
        assert_eq!(hazard(std::slice::from_ref(&game), 30), (2, 1));
        assert_eq!(hazard(std::slice::from_ref(&game), 25), (1, 1));
        assert_eq!(hazard(std::slice::from_ref(&game), 40), (1, 1));
        assert_eq!(hazard(std::slice::from_ref(&game), 15), (0, 0));
    }
}
