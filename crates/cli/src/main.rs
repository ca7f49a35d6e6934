//! `marathon`: one binary, the same verbs for every game. It parses flags, wires the library
//! crates together and prints what they return; everything else lives in `marathon-core`,
//! `marathon-runner` and the game crates.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use marathon_core::sandbox::{self, Sandbox};
use marathon_core::{
    CLOCK_ENV, ClockKind, Game, MemoryLimit, PlayConfig, Settings, SolveConfig, TIME_LIMIT_ENV,
    format_score, interrupt, parse_seed_set, process_tree,
};
use marathon_runner::history::History;
use marathon_runner::report;
use marathon_runner::run::{self, GamePlan, Keep, Outputs, Plan, Run};
use marathon_runner::runner::MAX_THREADS;
use marathon_runner::select::{
    self, Shard, builtin_player, case_ids, checked_settings, solve_time_limit, time_limit,
};
use marathon_runner::{breakdown, files, load_note, merge, run_report};

/// Seeds and time-limit divisor of the quick tour `marathon play` gives with no game named.
const TOUR_SEEDS: &str = "1-10";
const TOUR_TIME_DIVISOR: u32 = 10;

#[derive(Parser)]
#[command(
    name = "marathon",
    version,
    about = "Engines, judges, built-in AIs and a parallel runner for contest puzzle games"
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
    /// List a game's built-in players and their settings (`--set NAME=VALUE`).
    Players { game: String },
    /// List the runs `play` kept in `.marathon/runs/`, newest first.
    Runs,
    /// Join the `--json` files of a run's parts (`play --shard I/N`) into its tables, one file
    /// and a report; a case in two files is refused.
    Merge(MergeArgs),
    /// Run a built-in player as a program speaking the game's protocol on stdin/stdout.
    Solve {
        game: String,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Serve a page on 127.0.0.1 where a person plays a case under the judge's rules, with
    /// undo, the built-in AI's hints and a replay page of the game (docs/serve.md).
    Serve {
        /// The port (0: a free one); the page's address is printed.
        #[arg(long, default_value_t = marathon_serve::DEFAULT_PORT)]
        port: u16,
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
    /// The clock the time limit counts: `wall`, the time that passes, or `cpu`, the CPU time of
    /// the player's processes (default: the contest's; `marathon players GAME` says which).
    #[arg(long, value_name = "wall|cpu", value_parser = select::parse_clock)]
    clock: Option<ClockKind>,
    /// Fixed search effort for built-in AIs: the moves then depend on the case alone, not on
    /// the machine's speed.
    #[arg(long)]
    effort: Option<u64>,
    /// A setting of the built-in player, NAME=VALUE, repeatable (`marathon players GAME` lists
    /// them).
    #[arg(long = "set", value_name = "NAME=VALUE", value_parser = Settings::parse_pair)]
    settings: Vec<(String, String)>,
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
    #[arg(long, value_name = "CMD", conflicts_with_all = ["player", "settings"])]
    exec: Option<String>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// The memory limit of a judged program, its processes together, in MiB, or `none`
    /// (default: the contest's; `marathon players GAME` says which).
    #[arg(long, value_name = "MIB|none", value_parser = MemoryLimit::parse)]
    memory_limit: Option<MemoryLimit>,
    /// Cases played at once, 1 to 1024 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
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
    /// Also split the summary by case parameter: `--by N`, or `--by N,S` for pairs (ranges of
    /// values where a parameter takes many).
    #[arg(long, value_name = "PARAM[,PARAM]", value_delimiter = ',')]
    by: Vec<String>,
    /// Play only part I of N of the cases: every N-th case from the I-th (`--shard 3/100`);
    /// `marathon merge` joins the parts' `--json` files.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Write a run report a browser opens: summary, charts, worst and best cases.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
    /// Compare with an earlier run: `last` or `best` of the kept runs (`marathon runs`), a
    /// kept run's id, or a `--json` file: wins, losses, ties, ratios per case.
    #[arg(long, value_name = "last|best|RUN|FILE")]
    compare: Option<String>,
    /// Do not keep this run under `.marathon/runs/` (`marathon runs` lists the kept ones).
    #[arg(long)]
    no_save: bool,
    /// A name for this run in `marathon runs`.
    #[arg(long, value_name = "TEXT")]
    label: Option<String>,
}

#[derive(Args)]
struct SandboxArgs {
    /// Run the `--exec` program in a sandbox: no network, reads only the system's directories,
    /// the working directory and `--allow-read` paths, writes only in a scratch directory of its
    /// own, capped processes, open files and file size, and cannot reach marathon
    /// (docs/sandbox.md). Exits 2 where the kernel lacks what it needs.
    #[arg(long, requires = "exec")]
    sandbox: bool,
    /// A path the sandboxed program may also read and run programs from (repeatable).
    #[arg(long, value_name = "PATH", requires = "sandbox")]
    allow_read: Vec<PathBuf>,
}

#[derive(Args)]
struct MergeArgs {
    /// The parts' `--json` files.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Write every case's record to FILE, in case order.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write a run report to FILE.html.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Also split the summary by case parameter, as `play --by`.
    #[arg(long, value_name = "PARAM[,PARAM]", value_delimiter = ',')]
    by: Vec<String>,
    /// Print only the summary, not the per-case table.
    #[arg(long)]
    summary_only: bool,
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
    #[arg(long, value_name = "CMD", conflicts_with_all = ["player", "settings"])]
    exec: Option<String>,
    #[command(flatten)]
    sandbox: SandboxArgs,
    /// The memory limit of the judged program, its processes together, in MiB, or `none`
    /// (default: the contest's).
    #[arg(long, value_name = "MIB|none", value_parser = MemoryLimit::parse)]
    memory_limit: Option<MemoryLimit>,
    /// Do not pass the external program's stderr through.
    #[arg(long)]
    quiet: bool,
    /// The HTML file to write.
    #[arg(short, long, value_name = "FILE.html")]
    output: PathBuf,
}

/// Why a command stopped early, and so its exit status.
enum Stop {
    /// The command line or an input file is wrong (exit 2), said before anything is played.
    Usage(String),
    /// Something could not be written (exit 1).
    Output(String),
    /// Ctrl-C, SIGTERM or SIGHUP (exit 128 + the signal): what finished has been written out.
    Interrupted(i32),
}

impl From<String> for Stop {
    fn from(message: String) -> Self {
        Stop::Usage(message)
    }
}

/// A case or setting asked wrongly is the command line's error (the CLI checks both first).
impl From<marathon_core::PlayError> for Stop {
    fn from(error: marathon_core::PlayError) -> Self {
        Stop::Usage(error.to_string())
    }
}

fn main() -> ExitCode {
    // Before anything else (threads above all): this process may be a sandbox's launcher.
    if let Some(code) = sandbox::entry() {
        return code;
    }
    // The games come from the registry, so the help names them without a list of its own.
    let help = format!(
        "Games: {}. Run `marathon play` for a quick tour of every game.",
        marathon_games::names().join(", ")
    );
    let matches = Cli::command().after_help(help).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    let result = match cli.command {
        Command::Gen { game, seed, group } => gen_case(&game, seed, group),
        Command::Play(args) => play(args),
        Command::Replay(args) => replay(args),
        Command::Merge(args) => merge(args),
        Command::Runs => list_runs(),
        Command::Players { game } => marathon_games::lookup(&game)
            .map_err(Stop::from)
            .and_then(list_players),
        Command::Solve { game, player } => marathon_games::lookup(&game)
            .map_err(Stop::from)
            .and_then(|g| solve(g, &player)),
        Command::Serve { port } => serve(port),
    };
    let (code, message) = match result {
        Ok(()) => (0, None),
        Err(Stop::Usage(message)) => (2, Some(message)),
        Err(Stop::Output(message)) => (1, Some(message)),
        Err(Stop::Interrupted(signal)) => (128 + signal, None),
    };
    if let Some(message) = message {
        // Not `eprintln!`, which panics when stderr is a closed pipe.
        let _ = writeln!(io::stderr(), "marathon: {message}");
    }
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

/// `marathon serve`: the play page on 127.0.0.1 until the process is stopped.
fn serve(port: u16) -> Result<(), Stop> {
    let server = marathon_serve::Server::bind(port).map_err(|e| Stop::Output(e.to_string()))?;
    let mut stdout = io::stdout();
    let _ = writeln!(
        stdout,
        "marathon serve: open {} (Ctrl-C stops)",
        server.url()
    );
    let _ = stdout.flush();
    server
        .serve()
        .map_err(|e| Stop::Output(format!("the server stopped: {e}")))
}

/// Standard output that a closed pipe does not break: `marathon ... | head` stops printing
/// quietly (the run goes on, its files are written); any other write error is kept and ends
/// the command with exit 1 once its files are written.
#[derive(Default)]
struct Stdout {
    closed: bool,
    error: Option<io::Error>,
}

impl Stdout {
    fn print(&mut self, text: &str) {
        if self.closed {
            return;
        }
        let mut stdout = io::stdout().lock();
        if let Err(error) = stdout
            .write_all(text.as_bytes())
            .and_then(|()| stdout.flush())
        {
            self.closed = true;
            if error.kind() != io::ErrorKind::BrokenPipe {
                self.error = Some(error);
            }
        }
    }

    fn finish(self) -> Result<(), Stop> {
        match self.error {
            Some(error) => Err(Stop::Output(format!(
                "cannot write to standard output: {error}"
            ))),
            None => Ok(()),
        }
    }
}

fn gen_case(game: &str, seed: u64, group: Option<u32>) -> Result<(), Stop> {
    let game = marathon_games::lookup(game)?;
    let case = case_ids(game, &[seed], group)?.remove(0);
    let mut out = Stdout::default();
    out.print(&game.generate(&case)?);
    out.finish()
}

/// Ctrl-C, SIGTERM and SIGHUP (the terminal closed) stop a run cleanly: no new case starts, the
/// running ones end at once and their players are killed, what finished is written out. A
/// second Ctrl-C or SIGTERM exits at once, killing every player first; a second SIGHUP does not
/// (a closing terminal may send more than one, and nobody is there to be impatient).
fn watch_signals() -> Result<(), Stop> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| Stop::Output(format!("cannot watch for signals: {e}")))?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                if interrupt::request(signal) {
                    let again = match signal {
                        SIGHUP => "",
                        _ => " (again to stop at once)",
                    };
                    let _ = writeln!(
                        io::stderr(),
                        "marathon: {}: stopping; running cases end now, none starts, what finished \
                         is kept{again}",
                        signal_name(signal)
                    );
                } else if signal != SIGHUP {
                    process_tree::kill_every_player();
                    std::process::exit(128 + signal);
                }
            }
        })
        .map_err(|e| Stop::Output(format!("cannot watch for signals: {e}")))?;
    Ok(())
}

fn signal_name(signal: i32) -> String {
    nix::sys::signal::Signal::try_from(signal)
        .map(|s| s.as_str().to_string())
        .unwrap_or_else(|_| format!("signal {signal}"))
}

/// `marathon runs`: the kept runs, newest first.
fn list_runs() -> Result<(), Stop> {
    let text = History::here().listing()?;
    let mut out = Stdout::default();
    out.print(&text);
    out.finish()
}

/// `marathon merge`: the parts of a run, joined ([`merge::merge`]); the warnings go to standard
/// error before anything else is said.
fn merge(args: MergeArgs) -> Result<(), Stop> {
    let command: Vec<String> = std::env::args().collect();
    let order = marathon_games::names();
    let options = merge::Options {
        files: &args.files,
        json: args.json.as_deref(),
        report: args.report.as_deref(),
        by: &args.by,
        summary_only: args.summary_only,
        command: &command.join(" "),
        lookup: &marathon_games::lookup,
        order: &order,
    };
    let warn = |warnings: &[merge::Warning]| {
        for warning in warnings {
            let _ = match warning {
                merge::Warning::Torn(torn) => writeln!(io::stderr(), "marathon: {torn}"),
                merge::Warning::Parts(parts) => {
                    writeln!(io::stderr(), "marathon merge: warning: {parts}")
                }
            };
        }
    };
    let merged = match merge::merge(&options) {
        Ok(merged) => merged,
        Err(refused) => {
            warn(&refused.warnings);
            return Err(Stop::Usage(refused.error));
        }
    };
    warn(&merged.warnings);
    let mut out = Stdout::default();
    out.print(&merged.text);
    out.finish()?;
    match merged.errors.is_empty() {
        true => Ok(()),
        false => Err(Stop::Output(merged.errors.join("; "))),
    }
}

/// `marathon players GAME` ([`select::players`]).
fn list_players(game: &dyn Game) -> Result<(), Stop> {
    let text = select::players(game)?;
    let mut out = Stdout::default();
    out.print(&text);
    out.finish()
}

fn solve(game: &dyn Game, args: &PlayerArgs) -> Result<(), Stop> {
    let from_env = std::env::var(TIME_LIMIT_ENV).ok();
    let limit = solve_time_limit(game, args.time_limit, from_env.as_deref())?;
    let player = builtin_player(game, args.player.as_deref())?;
    let from_env = std::env::var(CLOCK_ENV).ok();
    let clock = select::solve_clock(game, args.clock, from_env.as_deref())?;
    let config = SolveConfig {
        settings: checked_settings(game, &player, Settings::new(args.settings.clone()))?,
        player,
        time_limit: limit,
        clock,
        effort: args.effort,
    };
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut output = BufWriter::new(io::stdout().lock());
    match game.solve(&config, &mut input, &mut output) {
        Ok(()) => Ok(()),
        // The judge went away: the game is over for us.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Stop::Output(format!("solve {}: {e}", game.name()))),
    }
}

fn play_config(
    game: &dyn Game,
    player: &PlayerArgs,
    exec: Option<&str>,
    limit: Duration,
    memory: Option<MemoryLimit>,
    quiet: bool,
    sandbox: Option<&Arc<Sandbox>>,
) -> Result<PlayConfig, String> {
    let settings = Settings::new(player.settings.clone());
    select::play_config(
        game,
        player.player.as_deref(),
        exec,
        settings,
        limit,
        player.effort,
    )
    .map(|config| PlayConfig {
        quiet,
        clock: player.clock,
        memory: memory.unwrap_or_default(),
        sandbox: sandbox.cloned(),
        ..config
    })
}

/// `--sandbox`: the sandbox the programs run in, once it has run a program here (exit 2
/// naming what is missing otherwise).
fn sandbox(args: &SandboxArgs) -> Result<Option<Arc<Sandbox>>, Stop> {
    if !args.sandbox {
        return Ok(None);
    }
    // This very binary, even if a rebuild replaces its file during the run.
    let launcher = PathBuf::from("/proc/self/exe");
    let sandbox =
        Sandbox::new(launcher, &args.allow_read).map_err(|e| format!("--sandbox: {e}"))?;
    sandbox
        .probe()
        .map_err(|e| format!("--sandbox: programs cannot be sandboxed here: {e}"))?;
    if let Some(home) = sandbox.exposed_home() {
        let _ = writeln!(
            io::stderr(),
            "marathon: warning: --sandbox: the program can read your home directory {} (it is \
             in the working directory or an --allow-read path); run marathon from the program's \
             folder",
            home.display()
        );
    }
    Ok(Some(Arc::new(sandbox)))
}

fn replay(args: ReplayArgs) -> Result<(), Stop> {
    let game = marathon_games::lookup(&args.game)?;
    let viewer = game.viewer();
    let case = case_ids(game, &[args.seed], args.group)?.remove(0);
    let limit = time_limit(game, args.player.time_limit)?;
    let sandbox = sandbox(&args.sandbox)?;
    let config = play_config(
        game,
        &args.player,
        args.exec.as_deref(),
        limit,
        args.memory_limit,
        args.quiet,
        sandbox.as_ref(),
    )?;
    files::check_outputs(&[("--output", Some(&args.output))])?;
    watch_signals()?;
    process_tree::adopt_orphans();
    let recording = game.record(&case, &config);
    process_tree::kill_adopted();
    let recording = recording?;
    if let Some(signal) = interrupt::requested() {
        return Err(Stop::Interrupted(signal));
    }
    let page = marathon_core::replay::html(&recording, &viewer);
    files::write_atomically(&args.output, page.as_bytes())
        .map_err(|e| Stop::Output(format!("cannot write {}: {e}", args.output.display())))?;
    let o = &recording.outcome;
    let mut out = Stdout::default();
    out.print(&format!(
        "{}: {} {} scored {} in {} moves ({}); {} steps, {} KB\n",
        args.output.display(),
        game.name(),
        case,
        format_score(o.score),
        o.moves,
        o.verdict,
        recording.steps.len(),
        page.len().div_ceil(1024)
    ));
    out.finish()
}

fn play(args: PlayArgs) -> Result<(), Stop> {
    let tour = args.game.is_none();
    let plan = play_plan(&args)?;
    let history = History::here();
    let earlier = match &args.compare {
        Some(which) => Some(run_report::EarlierRun::find(&history, which, &plan)?),
        None => None,
    };
    if let Some(torn) = earlier.as_ref().and_then(|earlier| earlier.torn.as_ref()) {
        let _ = writeln!(io::stderr(), "marathon: --compare: {torn}");
    }
    // What the report's replay commands play: the first game's player.
    let player = plan.games.first().map(|game| game.config.player.clone());
    let outputs = Outputs {
        json: args.json.clone(),
        best: args.best.clone(),
        report: args.report.clone(),
        keep: (!args.no_save).then(|| Keep {
            history,
            label: args.label.clone(),
            command: std::env::args().collect(),
            commit: option_env!("MARATHON_COMMIT").map(str::to_owned),
        }),
        shard: args.shard,
        progress: true,
    };
    let checked = Run::check(plan, outputs, &run::FLAGS)?;
    // Caught from here on only: a signal before this ends marathon at once, nothing written.
    watch_signals()?;
    let mut run = checked.open()?;
    process_tree::adopt_orphans();
    let mut out = Stdout::default();
    while let Some(played) = run.play_next(|_| {})? {
        if !tour && !args.summary_only {
            let table = report::case_table(
                played.game.legend(),
                &played.outcomes,
                played.relative.as_deref(),
            );
            out.print(&table);
            out.print("\n");
        }
        out.print(&breakdown::text(played.game, &played.outcomes, &args.by));
    }
    process_tree::kill_adopted();
    let ended = run.finish();
    let played = &ended.games;
    out.print(&run_report::summary_text(
        played,
        Some((ended.wall, ended.threads)),
    ));
    if let Some(signal) = interrupt::requested() {
        let finished: usize = played.iter().map(|game| game.outcomes.len()).sum();
        out.print(&format!(
            "\ninterrupted by {}: {finished} of {} cases finished{}; \
             the table and the files hold those\n",
            signal_name(signal),
            ended.total,
            if ended.asked < ended.total {
                format!(" ({} of them never started)", ended.total - ended.asked)
            } else {
                String::new()
            }
        ));
    }
    if let Some(note) = load_note::busy_machine_note(played.iter().flat_map(|g| &g.outcomes)) {
        out.print(&format!("\n{note}\n"));
    }
    let runs = run_report::game_runs(played);
    if let Some(earlier) = &earlier {
        out.print("\n");
        for run in &runs {
            let comparison = run_report::Comparison::of(run, earlier);
            out.print(&format!("{}\n", comparison.line(run.game, &earlier.name)));
        }
    }
    let mut errors = Vec::new();
    if let (Some(path), Some(player)) = (&args.report, &player) {
        let command: Vec<String> = std::env::args().collect();
        let setup = run_report::RunSetup {
            player: Some(player),
            replay_flags: &replay_flags(&args),
            command: &command.join(" "),
            by: &args.by,
        };
        let page = run_report::html(&runs, &setup, earlier.as_ref());
        if let Err(e) = files::write_atomically(path, page.as_bytes()) {
            errors.push(format!("cannot write {}: {e}", path.display()));
        }
    }
    if tour {
        let seeds = args.seeds.as_deref().unwrap_or(TOUR_SEEDS);
        let limits = match args.player.time_limit {
            Some(seconds) => format!("{seconds} s per case"),
            None => format!("1/{TOUR_TIME_DIVISOR} of each contest's time limit"),
        };
        out.print(&format!(
            "\n(a quick tour: seeds {seeds}, {limits}; \
             `marathon play GAME --seeds 1-100` for the real thing)\n"
        ));
    }
    errors.extend(ended.errors);
    let printed = out.finish();
    if !errors.is_empty() {
        return Err(Stop::Output(errors.join("; ")));
    }
    // An interrupted run exits as interrupted even if the table could not be printed: after a
    // SIGHUP the terminal is gone, and that is no news.
    if let Some(signal) = interrupt::requested() {
        return Err(Stop::Interrupted(signal));
    }
    printed
}

/// What `play`'s flags ask for, checked before anything is played or written: the games (one,
/// or every game for the tour), each one's cases (seeds in a group, or the official cases, then
/// the shard's part) and how to play them.
fn play_plan(args: &PlayArgs) -> Result<Plan, Stop> {
    let tour = args.game.is_none();
    let selected = match &args.game {
        Some(name) => vec![marathon_games::lookup(name)?],
        None => marathon_games::games().to_vec(),
    };
    let seeds =
        parse_seed_set(args.seeds.as_deref().unwrap_or(TOUR_SEEDS)).map_err(|e| e.to_string())?;
    if args.official && tour {
        return Err(Stop::Usage(
            "--official needs a game (e.g. `marathon play solitaire --official`)".into(),
        ));
    }
    let sandbox = sandbox(&args.sandbox)?;
    let mut games = Vec::new();
    for game in selected {
        let mut limit = time_limit(game, args.player.time_limit)?;
        if tour && args.player.time_limit.is_none() {
            limit /= TOUR_TIME_DIVISOR;
        }
        let config = play_config(
            game,
            &args.player,
            args.exec.as_deref(),
            limit,
            args.memory_limit,
            args.quiet,
            sandbox.as_ref(),
        )?;
        breakdown::check(game.name(), game.params(), &args.by)?;
        let cases = if args.official {
            let cases = game.official_cases();
            if cases.is_empty() {
                return Err(Stop::Usage(format!(
                    "{} has no official cases",
                    game.name()
                )));
            }
            cases
        } else {
            case_ids(game, &seeds, args.group)?
        };
        let cases = match args.shard {
            Some(shard) => shard.select(cases),
            None => cases,
        };
        games.push(GamePlan {
            game,
            config,
            cases,
        });
    }
    Ok(Plan {
        games,
        threads: args.threads.map_or(0, usize::from),
    })
}

/// The flags the report's replay commands repeat, so that a case replays as it played.
fn replay_flags(args: &PlayArgs) -> String {
    let mut flags = String::new();
    if let Some(effort) = args.player.effort {
        flags.push_str(&format!(" --effort {effort}"));
    }
    if let Some(seconds) = args.player.time_limit {
        flags.push_str(&format!(" --time-limit {seconds}"));
    }
    if let Some(clock) = args.player.clock {
        flags.push_str(&format!(" --clock {clock}"));
    }
    match args.memory_limit {
        Some(MemoryLimit::Mib(mib)) => flags.push_str(&format!(" --memory-limit {mib}")),
        Some(MemoryLimit::Unlimited) => flags.push_str(" --memory-limit none"),
        Some(MemoryLimit::Contest) | None => {}
    }
    // A program judged in the sandbox is replayed in it, never outside.
    if args.sandbox.sandbox {
        flags.push_str(" --sandbox");
        for path in &args.sandbox.allow_read {
            let path = path.to_string_lossy().replace('\'', r"'\''");
            flags.push_str(&format!(" --allow-read '{path}'"));
        }
    }
    flags
}
