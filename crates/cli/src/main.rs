//! `marathon`: one binary, the same verbs for every game. It parses flags and wires the library
//! crates together; everything else lives in `marathon-core` and the game crates.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use marathon_core::machine_load::PlayersCpu;
use marathon_core::report::{self, BestScores, Summary};
use marathon_core::run_report;
use marathon_core::runner::{RunOptions, run_cases};
use marathon_core::{
    CaseId, Game, PlayConfig, PlayerSpec, SolveConfig, TIME_LIMIT_ENV, parse_seed_set,
};

/// Every implemented game, in the order `marathon play` runs them.
fn games() -> Vec<&'static dyn Game> {
    vec![
        &marathon_linez::LINEZ,
        &marathon_tiles::TILES,
        &marathon_reversi::REVERSI,
        &marathon_polyomino::POLYOMINO,
        &marathon_solitaire::SOLITAIRE,
    ]
}

/// Seeds and time-limit divisor of the quick tour `marathon play` gives with no game named.
const TOUR_SEEDS: &str = "1-10";
const TOUR_TIME_DIVISOR: u32 = 10;
/// The built-in players' wait for a CPU, as a share of the time they wanted one, from which a
/// run's note says the machine was busy. Linez, seeds 1-6 at effort 16, two threads: 3-5% on a
/// quiet machine (the other game's judge threads), 12% beside another session's job whose
/// group was reniced to 19, 31% beside a busy loop. But TilesMatching, whose players think a
/// fraction of a millisecond between wake-ups, waited 12% on a quiet machine (seeds 1-100 at
/// 20 s), so only a clearly busy machine gets the note.
const BUSY_MACHINE_WAIT: f64 = 0.20;
/// ... and from which wait per case: a player that hardly thinks (`greedy`, `random`) waits for
/// the scheduler at every wake-up, a large share of next to nothing.
const BUSY_MACHINE_WAIT_PER_CASE: Duration = Duration::from_millis(50);

#[derive(Parser)]
#[command(
    name = "marathon",
    version,
    about = "Engines, judges, built-in AIs and a parallel runner for five contest puzzle games",
    after_help = "Games: linez, tiles, reversi, polyomino, solitaire. Run `marathon play` for a quick tour of every game."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print a case's first observation, in the protocol's text.
    Gen {
        game: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The case group, for games that have groups (solitaire).
        #[arg(long)]
        group: Option<u32>,
    },
    /// Play a seed set through the judge and print a score table.
    Play(PlayArgs),
    /// Play one case through the judge and write a replay page (self-contained HTML).
    Replay(ReplayArgs),
    /// Run a built-in player as a program speaking the game's protocol on stdin/stdout.
    Solve {
        game: String,
        #[command(flatten)]
        player: PlayerArgs,
    },
}

#[derive(Args)]
struct PlayerArgs {
    /// Built-in player (each game lists its own; the first is the default).
    #[arg(long)]
    player: Option<String>,
    /// Thinking time per case in seconds (default: the contest's limit).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Fixed search effort for built-in AIs: the moves then depend on the case alone, not on
    /// the machine's speed.
    #[arg(long)]
    effort: Option<u64>,
}

#[derive(Args)]
struct PlayArgs {
    /// The game; without one, every game plays a short tour with short time limits.
    game: Option<String>,
    /// Seeds: `1-100`, `1,5,9`, `7` or `@file`.
    #[arg(long)]
    seeds: Option<String>,
    /// The case group, for games that have groups (solitaire: 1..6).
    #[arg(long)]
    group: Option<u32>,
    /// Play the contest's official cases instead of seeds (solitaire).
    #[arg(long, conflicts_with_all = ["seeds", "group"])]
    official: bool,
    #[command(flatten)]
    player: PlayerArgs,
    /// An external program to judge, run as `sh -c CMD`.
    #[arg(long, value_name = "CMD", conflicts_with = "player")]
    exec: Option<String>,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Write one JSON object per case to FILE (JSON Lines).
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Best-known scores file: prints relative scores and records new bests.
    #[arg(long, value_name = "FILE")]
    best: Option<PathBuf>,
    /// Do not pass external programs' stderr through.
    #[arg(long)]
    quiet: bool,
    /// Print only the summary, not the per-case table.
    #[arg(long)]
    summary_only: bool,
    /// Write a run report a browser opens: summary, charts, worst and best cases.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
    /// Compare with an earlier run's `--json` file: wins, losses, ties, ratios per case.
    #[arg(long, value_name = "OTHER.jsonl")]
    compare: Option<PathBuf>,
}

#[derive(Args)]
struct ReplayArgs {
    game: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The case group, for games that have groups (solitaire).
    #[arg(long)]
    group: Option<u32>,
    #[command(flatten)]
    player: PlayerArgs,
    /// An external program to judge, run as `sh -c CMD`.
    #[arg(long, value_name = "CMD", conflicts_with = "player")]
    exec: Option<String>,
    /// Do not pass the external program's stderr through.
    #[arg(long)]
    quiet: bool,
    /// The HTML file to write.
    #[arg(short, long, value_name = "FILE.html")]
    output: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen { game, seed, group } => find_game(&game).and_then(|g| {
            let case = case_ids(g, &[seed], group)?.remove(0);
            print!("{}", g.generate(&case));
            Ok(())
        }),
        Command::Play(args) => play(args),
        Command::Replay(args) => replay(args),
        Command::Solve { game, player } => find_game(&game).and_then(|g| solve(g, &player)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("marathon: {message}");
            ExitCode::from(2)
        }
    }
}

fn find_game(name: &str) -> Result<&'static dyn Game, String> {
    let all = games();
    let names: Vec<&str> = all.iter().map(|g| g.name()).collect();
    all.into_iter()
        .find(|g| g.name() == name)
        .ok_or_else(|| format!("unknown game {name:?} (games: {})", names.join(", ")))
}

/// The cases of `seeds`, in `group` if given (or the game's default group).
fn case_ids(game: &dyn Game, seeds: &[u64], group: Option<u32>) -> Result<Vec<CaseId>, String> {
    let group = match (game.groups(), group) {
        (None, None) => None,
        (None, Some(_)) => return Err(format!("{} has no case groups", game.name())),
        (Some((_, default)), None) => Some(default),
        (Some((range, _)), Some(g)) if range.contains(&g) => Some(g),
        (Some((range, _)), Some(g)) => {
            return Err(format!(
                "--group {g}: {} has groups {}..{}",
                game.name(),
                range.start(),
                range.end()
            ));
        }
    };
    Ok(seeds
        .iter()
        .map(|&seed| match group {
            Some(group) => CaseId::in_group(group, seed),
            None => CaseId::seed(seed),
        })
        .collect())
}

fn time_limit(game: &dyn Game, seconds: Option<f64>) -> Result<Duration, String> {
    match seconds {
        None => Ok(game.default_time_limit()),
        Some(s) if s.is_finite() && s > 0.0 && s < 1e6 => Ok(Duration::from_secs_f64(s)),
        Some(s) => Err(format!(
            "--time-limit {s}: expected a positive number of seconds"
        )),
    }
}

fn builtin_player(game: &dyn Game, name: Option<&str>) -> Result<String, String> {
    let players = game.players();
    match name {
        None => Ok(players[0].to_string()),
        Some(name) if players.contains(&name) => Ok(name.to_string()),
        Some(name) => Err(format!(
            "{} has no player {name:?} (players: {})",
            game.name(),
            players.join(", ")
        )),
    }
}

fn solve(game: &dyn Game, args: &PlayerArgs) -> Result<(), String> {
    // Under marathon's judge the limit comes in the environment; --time-limit overrides it.
    let limit = match (args.time_limit, std::env::var(TIME_LIMIT_ENV)) {
        (None, Ok(text)) => text
            .trim()
            .parse()
            .ok()
            .and_then(|seconds| time_limit(game, Some(seconds)).ok())
            .ok_or_else(|| {
                format!("{TIME_LIMIT_ENV}={text:?}: expected a positive number of seconds")
            })?,
        _ => time_limit(game, args.time_limit)?,
    };
    let config = SolveConfig {
        player: builtin_player(game, args.player.as_deref())?,
        time_limit: limit,
        effort: args.effort,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(io::stdout().lock());
    game.solve(&config, &mut input, &mut output)
        .map_err(|e| format!("solve {}: {e}", game.name()))
}

fn play_config(
    game: &dyn Game,
    player: &PlayerArgs,
    exec: Option<&str>,
    limit: Duration,
    quiet: bool,
) -> Result<PlayConfig, String> {
    let player_spec = match exec {
        Some(command) => PlayerSpec::Exec(command.to_string()),
        None => PlayerSpec::Builtin(builtin_player(game, player.player.as_deref())?),
    };
    Ok(PlayConfig {
        player: player_spec,
        time_limit: limit,
        effort: player.effort,
        quiet,
    })
}

fn replay(args: ReplayArgs) -> Result<(), String> {
    let game = find_game(&args.game)?;
    let viewer = game
        .viewer()
        .ok_or_else(|| format!("{} has no replays yet", game.name()))?;
    let case = case_ids(game, &[args.seed], args.group)?.remove(0);
    let limit = time_limit(game, args.player.time_limit)?;
    let config = play_config(game, &args.player, args.exec.as_deref(), limit, args.quiet)?;
    let recording = game
        .record(&case, &config)
        .ok_or_else(|| format!("{} has no replays yet", game.name()))?;
    let page = marathon_core::replay::html(&recording, &viewer);
    std::fs::write(&args.output, &page)
        .map_err(|e| format!("cannot write {}: {e}", args.output.display()))?;
    let o = &recording.outcome;
    println!(
        "{}: {} {} scored {} in {} moves ({}); {} steps, {} KB",
        args.output.display(),
        game.name(),
        case,
        report::format_score(o.score),
        o.moves,
        o.verdict,
        recording.steps.len(),
        page.len().div_ceil(1024)
    );
    Ok(())
}

fn play(args: PlayArgs) -> Result<(), String> {
    let tour = args.game.is_none();
    let selected = match &args.game {
        Some(name) => vec![find_game(name)?],
        None => games(),
    };
    let seeds =
        parse_seed_set(
            args.seeds
                .as_deref()
                .unwrap_or(if tour { TOUR_SEEDS } else { "1-10" }),
        )
        .map_err(|e| e.to_string())?;
    if args.official && tour {
        return Err("--official needs a game (e.g. `marathon play solitaire --official`)".into());
    }
    let mut best = args.best.as_deref().map(BestScores::load).transpose()?;
    let earlier = args
        .compare
        .as_deref()
        .map(run_report::EarlierRun::load)
        .transpose()?;
    let options = RunOptions {
        threads: args.threads,
        progress: true,
    };
    let players_before = PlayersCpu::so_far();
    let mut json = Vec::new();
    let mut summaries = Vec::new();
    let mut played = Vec::new();
    let mut player = None;
    for game in selected {
        let mut limit = time_limit(game, args.player.time_limit)?;
        if tour && args.player.time_limit.is_none() {
            limit /= TOUR_TIME_DIVISOR;
        }
        let config = play_config(game, &args.player, args.exec.as_deref(), limit, args.quiet)?;
        player.get_or_insert_with(|| config.player.clone());
        let cases = if args.official {
            let cases = game.official_cases();
            if cases.is_empty() {
                return Err(format!("{} has no official cases", game.name()));
            }
            cases
        } else {
            case_ids(game, &seeds, args.group)?
        };
        let outcomes = run_cases(game, &cases, &config, &options);
        let relative: Option<Vec<f64>> = best.as_mut().map(|best| {
            best.merge(&outcomes, game.maximize());
            outcomes
                .iter()
                .map(|o| best.relative(o, game.maximize()))
                .collect()
        });
        if !tour && !args.summary_only {
            print!("{}", report::case_table(&outcomes, relative.as_deref()));
            println!();
        }
        for (i, outcome) in outcomes.iter().enumerate() {
            json.push(report::json_line(outcome, relative.as_ref().map(|r| r[i])));
        }
        summaries.push((game.name(), Summary::of(&outcomes, relative.as_deref())));
        played.push((game, outcomes));
    }
    print!("{}", report::summary_table(&summaries));
    let players_cpu = PlayersCpu::so_far().since(&players_before);
    let cases_played: usize = played.iter().map(|(_, outcomes)| outcomes.len()).sum();
    let wait_per_case = players_cpu.waiting() / cases_played.max(1) as u32;
    if let Some(share) = players_cpu
        .waiting_share()
        .filter(|&share| share >= BUSY_MACHINE_WAIT && wait_per_case >= BUSY_MACHINE_WAIT_PER_CASE)
    {
        println!(
            "\nnote: the players waited for a CPU {:.0}% of the time they wanted one ({:.2} s a \
             case): other work on the machine, or more threads than cores; timed players got \
             less CPU than on a quiet machine (`--effort` results do not depend on it)",
            100.0 * share,
            wait_per_case.as_secs_f64()
        );
    }
    let runs: Vec<run_report::GameRun> = played
        .iter()
        .zip(&summaries)
        .map(|((game, outcomes), (_, summary))| run_report::GameRun {
            game: game.name(),
            maximize: game.maximize(),
            outcomes,
            summary,
        })
        .collect();
    if let (Some(earlier), Some(path)) = (&earlier, &args.compare) {
        println!();
        for run in &runs {
            let comparison = run_report::Comparison::of(run, earlier);
            println!("{}", comparison.line(run.game, &path.display().to_string()));
        }
    }
    if let (Some(path), Some(player)) = (&args.report, &player) {
        let command: Vec<String> = std::env::args().collect();
        let mut replay_flags = String::new();
        if let Some(effort) = args.player.effort {
            replay_flags.push_str(&format!(" --effort {effort}"));
        }
        if let Some(seconds) = args.player.time_limit {
            replay_flags.push_str(&format!(" --time-limit {seconds}"));
        }
        let setup = run_report::RunSetup {
            player,
            replay_flags: &replay_flags,
            command: &command.join(" "),
        };
        let page = run_report::html(&runs, &setup, earlier.as_ref());
        std::fs::write(path, page).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if tour {
        let seeds = args.seeds.as_deref().unwrap_or(TOUR_SEEDS);
        let limits = match args.player.time_limit {
            Some(seconds) => format!("{seconds} s per case"),
            None => format!("1/{TOUR_TIME_DIVISOR} of each contest's time limit"),
        };
        println!(
            "\n(a quick tour: seeds {seeds}, {limits}; \
             `marathon play GAME --seeds 1-100` for the real thing)"
        );
    }
    if let Some(path) = &args.json {
        let mut text = json.join("\n");
        text.push('\n');
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(best) = &best {
        best.save()
            .map_err(|e| format!("cannot write best-scores file: {e}"))?;
    }
    io::stdout().flush().map_err(|e| e.to_string())
}
