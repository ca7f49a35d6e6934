//! Trains the Linez n-tuple network (`ai::ntuple`) by TD(0) on afterstates: the 1-ply player
//! plays its own games (spawns from its own generator, never the contest's cases), and after
//! each move the value of the previous afterstate moves towards the points in between plus the
//! value of the new one. Learning rates are temporal-coherence rates (`ntuple::Trainer`).
//!
//! With `--lambda` above 0 an afterstate learns, `--horizon` afterstates late, the
//! lambda-return over the afterstates after it (delayed TD(lambda), as in Jaśkowski's 2048
//! players): credit travels back further per game than TD(0)'s one step.
//!
//! With `--search-effort` the self-play player is the built-in search itself (`ai` at that
//! effort, on the network as it stood when the game began): the network learns the values of
//! the positions the player it leads reaches and of the moves it plays, at about a twentieth of
//! the greedy player's speed.
//!
//! `linez-average` writes the network whose values are the mean of the given networks' values.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use marathon_core::rng::FastRng;
use marathon_linez::ai::ntuple::{Features, MAX_STAGES, Network, Trainer};
use marathon_linez::ai::search::{SearchPlayer, Settings};
use marathon_linez::rules::{Board, COLORS, Color, PREVIEW_LEN, State, Turn, line_points};

use super::linez_mover::Mover;

#[derive(Args)]
pub struct TrainArgs {
    /// Self-play games to train on, in all (a resumed run counts the games it already played).
    #[arg(value_name = "GAMES", value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Where the network goes: written at the start, then after every `--report` games, with
    /// OUT.state (what `--resume` needs) and OUT.curve.tsv (the learning curve) beside it.
    #[arg(value_name = "OUT.bin")]
    out: PathBuf,
    /// Learning rate (scales the temporal-coherence rates).
    #[arg(long, default_value_t = 1.0, value_parser = positive)]
    rate: f32,
    /// Start from this network (restaged to `--stages`) instead of all weights zero.
    #[arg(long, value_name = "FILE")]
    init: Option<PathBuf>,
    /// Stages of the network: sets of tables for boards with more and more balls.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_STAGES as i64))]
    stages: u32,
    /// Seed of the self-play games' spawns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the mean score and write OUT every this many games.
    #[arg(long, value_name = "GAMES", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    report: u64,
    /// TD(lambda)'s lambda, 0 to 1 (0: TD(0), each afterstate learns at once).
    #[arg(long, default_value_t = 0.0, value_parser = unit)]
    lambda: f32,
    /// With `--lambda` above 0, how many afterstates an update waits for (the lambda-return is
    /// cut there).
    #[arg(long, value_name = "AFTERSTATES", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    horizon: u32,
    /// The self-play player always plays a move that clears when there is one (the best by the
    /// network), as the search's replies do; without it the network's values decide.
    #[arg(long)]
    clear_first: bool,
    /// The self-play player is the built-in search (`ai`'s settings, which clear first) at this
    /// effort, on the network as it stood when the game began, instead of the network's best
    /// move.
    #[arg(long, value_name = "EFFORT", conflicts_with = "clear_first", value_parser = clap::value_parser!(u64).range(1..))]
    search_effort: Option<u64>,
    /// Go on with the run OUT.state holds (after an interruption, or to train longer): its
    /// network, spawns, learning rates and settings, up to GAMES games in all.
    #[arg(long, conflicts_with_all = ["rate", "init", "stages", "seed", "lambda", "horizon", "clear_first", "search_effort"])]
    resume: bool,
}

#[derive(Args)]
pub struct AverageArgs {
    /// Where the mean network goes.
    #[arg(value_name = "OUT.bin")]
    out: PathBuf,
    /// The networks to average (of one stage count).
    #[arg(value_name = "IN.bin", required = true)]
    inputs: Vec<PathBuf>,
}

fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if x.is_finite() && x > 0.0 => Ok(x),
        _ => Err(format!("{text:?}: expected a number above 0")),
    }
}

fn unit(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("{text:?}: expected a number from 0 to 1")),
    }
}

/// Reads a network file; the message names `what` (the flag or argument) and the file.
pub(super) fn read_network(what: &str, path: &Path) -> Result<Network, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{what} {}: {e}", path.display()))?;
    Network::from_bytes(&bytes).map_err(|e| format!("{what} {}: {e}", path.display()))
}

fn write_network(path: &Path, network: &Network) -> Result<(), String> {
    std::fs::write(path, network.to_bytes()).map_err(|e| format!("OUT {}: {e}", path.display()))
}

pub fn average(args: AverageArgs) -> Result<(), String> {
    let networks = args
        .inputs
        .iter()
        .map(|path| read_network("IN", path))
        .collect::<Result<Vec<_>, _>>()?;
    let mean = Network::mean_of(&networks).map_err(|e| format!("IN: {e}"))?;
    write_network(&args.out, &mean)
}

pub fn train(args: TrainArgs) -> Result<(), String> {
    let state_path = with_suffix(&args.out, ".state");
    let curve_path = with_suffix(&args.out, ".curve.tsv");
    let command = std::env::args().collect::<Vec<_>>().join(" ");
    let mut run = if args.resume {
        let bytes = std::fs::read(&state_path)
            .map_err(|e| format!("--resume {}: {e}", state_path.display()))?;
        let run = Run::from_bytes(&bytes)
            .map_err(|e| format!("--resume {}: {e}", state_path.display()))?;
        append(
            &curve_path,
            &format!("# resumed at {} games: {command}\n", run.games),
        )?;
        run
    } else {
        let network = match &args.init {
            Some(path) => read_network("--init", path)?.restaged(args.stages as usize),
            None => Network::new(args.stages as usize),
        };
        let trainer = Trainer::new(&network);
        let run = Run {
            network,
            trainer,
            rng: FastRng::new(args.seed),
            games: 0,
            seconds: 0.0,
            rate: args.rate,
            lambda: Lambda {
                lambda: args.lambda,
                horizon: args.horizon as usize,
            },
            policy: match args.search_effort {
                Some(effort) => Policy::Search { effort },
                None => Policy::Greedy {
                    clear_first: args.clear_first,
                },
            },
        };
        std::fs::write(
            &curve_path,
            format!("# {command}\ngames\tmean_score\tmean_moves\tseconds\n"),
        )
        .map_err(|e| format!("OUT {}: {e}", curve_path.display()))?;
        run
    };
    // OUT and its state are written before training so that a path that cannot be written
    // fails now, not after the first `--report` games.
    run.save(&args.out, &state_path)?;
    let started = Instant::now();
    let seconds_before = run.seconds;
    let (mut score_sum, mut move_sum, mut count) = (0u64, 0u64, 0u64);
    while run.games < args.games {
        let (score, moves) = train_game(
            &mut run.network,
            &mut run.trainer,
            &mut run.rng,
            run.rate,
            run.lambda,
            run.policy,
        );
        run.games += 1;
        score_sum += score;
        move_sum += moves;
        count += 1;
        if run.games % args.report == 0 || run.games == args.games {
            run.seconds = seconds_before + started.elapsed().as_secs_f64();
            let (mean, mean_moves) = (
                score_sum as f64 / count as f64,
                move_sum as f64 / count as f64,
            );
            println!(
                "games {}: mean {mean:.1}, moves {mean_moves:.1}, {:.0} s",
                run.games, run.seconds
            );
            append(
                &curve_path,
                &format!(
                    "{}\t{mean:.1}\t{mean_moves:.1}\t{:.0}\n",
                    run.games, run.seconds
                ),
            )?;
            (score_sum, move_sum, count) = (0, 0, 0);
            run.save(&args.out, &state_path)?;
        }
    }
    Ok(())
}

/// `path` with `suffix` added to its file name.
fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn append(path: &Path, text: &str) -> Result<(), String> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut file| file.write_all(text.as_bytes()))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes `bytes` to a file beside `path` and renames it there, so that an interruption leaves
/// the old file or the new one, never half of one.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let partial = with_suffix(path, ".partial");
    std::fs::write(&partial, bytes)
        .and_then(|()| std::fs::rename(&partial, path))
        .map_err(|e| format!("OUT {}: {e}", path.display()))
}

/// A training run between two games: all that resuming it needs.
struct Run {
    network: Network,
    trainer: Trainer,
    rng: FastRng,
    games: u64,
    /// Training time so far, over all sittings.
    seconds: f64,
    rate: f32,
    lambda: Lambda,
    policy: Policy,
}

/// Who plays the self-play games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// The network's best move; with `clear_first`, a move that clears when there is one.
    Greedy { clear_first: bool },
    /// The built-in search at this effort.
    Search { effort: u64 },
}

/// Header of OUT.state. Version 2 has no search word (its runs play greedily), version 1 no
/// policy word either (its runs do not clear first).
const STATE_MAGIC: &[u8; 8] = b"LZTRAIN3";
const STATE_MAGIC_V2: &[u8; 8] = b"LZTRAIN2";
const STATE_MAGIC_V1: &[u8; 8] = b"LZTRAIN1";

impl Run {
    /// Writes the network to `out` and the whole state to `state` (the network again, so that
    /// the state is one consistent file).
    fn save(&self, out: &Path, state: &Path) -> Result<(), String> {
        let network = self.network.to_bytes();
        write_atomically(out, &network)?;
        let trainer = self.trainer.to_bytes();
        let mut bytes = STATE_MAGIC.to_vec();
        bytes.extend_from_slice(&self.games.to_le_bytes());
        bytes.extend_from_slice(&self.seconds.to_le_bytes());
        for word in self.rng.state() {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes.extend_from_slice(&self.rate.to_le_bytes());
        bytes.extend_from_slice(&self.lambda.lambda.to_le_bytes());
        bytes.extend_from_slice(&(self.lambda.horizon as u64).to_le_bytes());
        let (clear_first, search_effort) = match self.policy {
            Policy::Greedy { clear_first } => (clear_first, 0),
            Policy::Search { effort } => (true, effort),
        };
        bytes.extend_from_slice(&u64::from(clear_first).to_le_bytes());
        bytes.extend_from_slice(&search_effort.to_le_bytes());
        bytes.extend_from_slice(&(network.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&network);
        bytes.extend_from_slice(&trainer);
        write_atomically(state, &bytes)
    }

    fn from_bytes(bytes: &[u8]) -> Result<Run, String> {
        let (mut rest, version) = if let Some(rest) = bytes.strip_prefix(STATE_MAGIC) {
            (rest, 3)
        } else if let Some(rest) = bytes.strip_prefix(STATE_MAGIC_V2) {
            (rest, 2)
        } else if let Some(rest) = bytes.strip_prefix(STATE_MAGIC_V1) {
            (rest, 1)
        } else {
            return Err("not a linez-train state (bad header)".into());
        };
        let mut word = || -> Result<[u8; 8], String> {
            let (head, tail) = rest.split_at_checked(8).ok_or("truncated state")?;
            rest = tail;
            Ok(head.try_into().expect("eight bytes"))
        };
        let games = u64::from_le_bytes(word()?);
        let seconds = f64::from_le_bytes(word()?);
        let mut rng = [0u64; 4];
        for s in &mut rng {
            *s = u64::from_le_bytes(word()?);
        }
        let pair = word()?;
        let rate = f32::from_le_bytes(pair[..4].try_into().expect("four bytes"));
        let lambda = f32::from_le_bytes(pair[4..].try_into().expect("four bytes"));
        let horizon = usize::try_from(u64::from_le_bytes(word()?)).map_err(|e| e.to_string())?;
        let clear_first = if version >= 2 {
            match u64::from_le_bytes(word()?) {
                0 => false,
                1 => true,
                other => return Err(format!("policy word {other}: expected 0 or 1")),
            }
        } else {
            false
        };
        let search_effort = if version >= 3 {
            u64::from_le_bytes(word()?)
        } else {
            0
        };
        let policy = match search_effort {
            0 => Policy::Greedy { clear_first },
            effort => Policy::Search { effort },
        };
        let network_len =
            usize::try_from(u64::from_le_bytes(word()?)).map_err(|e| e.to_string())?;
        let (network, trainer) = rest
            .split_at_checked(network_len)
            .ok_or("truncated state")?;
        let network = Network::from_bytes(network)?;
        let trainer = Trainer::from_bytes(trainer, &network)?;
        Ok(Run {
            network,
            trainer,
            rng: FastRng::from_state(rng).ok_or("a spawn generator of zeros")?,
            games,
            seconds,
            rate,
            lambda: Lambda {
                lambda,
                horizon: horizon.max(1),
            },
            policy,
        })
    }
}

fn random_preview(rng: &mut FastRng) -> [Color; PREVIEW_LEN] {
    std::array::from_fn(|_| rng.below(u32::from(COLORS)) as Color + 1)
}

/// Spawns the preview on uniform empty cells, draws the next preview, returns the points.
fn spawn(state: &mut State, rng: &mut FastRng) -> f32 {
    let removed = state.spawn(|free| rng.below(free));
    state.preview = random_preview(rng);
    line_points(removed) as f32
}

#[derive(Clone, Copy)]
struct Lambda {
    lambda: f32,
    /// Afterstates an update waits for (the lambda-return is cut there).
    horizon: usize,
}

/// The afterstates still waiting for their update: features, value when seen, and the points
/// scored between each and the next.
struct Pending {
    states: VecDeque<(Features, f32, f32)>,
    lambda: Lambda,
}

impl Pending {
    /// Adds the next afterstate (`None`: the game ended) after `reward` points, and updates the
    /// afterstates that have waited long enough.
    fn push(
        &mut self,
        next: Option<Features>,
        reward: f32,
        network: &mut Network,
        trainer: &mut Trainer,
        rate: f32,
    ) {
        if let Some(last) = self.states.back_mut() {
            last.2 = reward;
        }
        let Some(features) = next else {
            while !self.states.is_empty() {
                self.learn_oldest(0.0, network, trainer, rate);
            }
            return;
        };
        let value = network.value_of(&features);
        let waited = self.lambda.lambda == 0.0 || self.states.len() >= self.lambda.horizon;
        if waited && !self.states.is_empty() {
            self.learn_oldest(value, network, trainer, rate);
        }
        self.states.push_back((features, value, 0.0));
    }

    /// Updates the oldest afterstate towards its lambda-return, `tail` being the value after
    /// the newest one.
    fn learn_oldest(&mut self, tail: f32, network: &mut Network, trainer: &mut Trainer, rate: f32) {
        let lambda = self.lambda.lambda;
        let mut after = tail;
        let mut target = tail;
        for &(_, value, reward) in self.states.iter().rev() {
            target = reward + (1.0 - lambda) * after + lambda * target;
            after = value;
        }
        let (features, _, _) = self.states.pop_front().expect("a pending afterstate");
        trainer.learn(network, &features, target, rate);
    }
}

/// One self-play game with TD updates; returns its score and moves.
fn train_game(
    network: &mut Network,
    trainer: &mut Trainer,
    rng: &mut FastRng,
    rate: f32,
    lambda: Lambda,
    policy: Policy,
) -> (u64, u64) {
    let mut board = Board::empty();
    for _ in 0..3 {
        let empty = board.empty_cells();
        let cell = empty.nth(rng.below(empty.count())).expect("an empty cell");
        board.put(cell, rng.below(u32::from(COLORS)) as Color + 1);
    }
    let mut state = State::new(board, random_preview(rng));
    // The search plays on a copy: the network learns during the game, the search's copy waits
    // for the next one (a game's updates move its values little).
    let (mut search, clear_first) = match policy {
        Policy::Greedy { clear_first } => (None, clear_first),
        Policy::Search { effort } => {
            let player = SearchPlayer::new(
                network.clone(),
                FastRng::new(rng.next_u64()),
                Some(effort),
                Settings::AI,
            );
            (Some(player), false)
        }
    };
    let mut pending = Pending {
        states: VecDeque::new(),
        lambda,
    };
    let mut reward = 0.0f32;
    loop {
        if state.is_over() {
            pending.push(None, reward, network, trainer, rate);
            return (state.score, state.moves);
        }
        if state.must_pass() {
            reward += spawn(&mut state, rng);
            continue;
        }
        let mut mover = match &mut search {
            Some(player) => Mover::Search(player),
            None => Mover::Greedy {
                network,
                clear_first,
            },
        };
        let mv = mover.choose(&state.board, state.preview);
        let turn = state.play_unchecked(mv);
        if let Turn::Cleared { points, .. } = turn {
            reward += points as f32;
        }
        // Afterstates are the boards a spawn comes to: after a quiet move, or after a clear
        // that left no ball. After other clears the player moves again first.
        if turn != Turn::SpawnDue && !state.must_pass() {
            continue;
        }
        let features = network.features(&state.board);
        pending.push(Some(features), reward, network, trainer, rate);
        reward = 0.0;
        if turn == Turn::SpawnDue {
            reward += spawn(&mut state, rng);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(policy: Policy) -> Run {
        let network = Network::new(1);
        Run {
            trainer: Trainer::new(&network),
            network,
            rng: FastRng::new(7),
            games: 12,
            seconds: 3.5,
            rate: 0.25,
            lambda: Lambda {
                lambda: 0.3,
                horizon: 4,
            },
            policy,
        }
    }

    /// The state file as [`Run::save`] writes it.
    fn state_bytes(run: &Run) -> Vec<u8> {
        let dir = std::env::temp_dir().join(format!("linez-train-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (out, state) = (dir.join("n.bin"), dir.join("n.bin.state"));
        run.save(&out, &state).unwrap();
        let bytes = std::fs::read(&state).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        bytes
    }

    /// Where the policy word lies: after the games, seconds, four generator words, the rates'
    /// word and the horizon's.
    const POLICY_AT: usize = STATE_MAGIC.len() + 8 * 8;

    /// `bytes` (a version 3 state) with header `magic`, keeping `kept` of its two policy words
    /// (the policy word, then the search word).
    fn older(bytes: &[u8], magic: &[u8; 8], kept: usize) -> Vec<u8> {
        let mut old = magic.to_vec();
        old.extend_from_slice(&bytes[STATE_MAGIC.len()..POLICY_AT + 8 * kept]);
        old.extend_from_slice(&bytes[POLICY_AT + 8 * 2..]);
        old
    }

    #[test]
    fn a_state_keeps_its_policy_and_older_states_play_greedily() {
        for policy in [
            Policy::Greedy { clear_first: false },
            Policy::Greedy { clear_first: true },
            Policy::Search { effort: 3 },
        ] {
            let read = Run::from_bytes(&state_bytes(&run(policy))).unwrap();
            assert_eq!(read.policy, policy);
            assert_eq!((read.games, read.rate, read.lambda.horizon), (12, 0.25, 4));
        }
        let bytes = state_bytes(&run(Policy::Search { effort: 3 }));
        // Version 2: the policy word, no search word.
        let read = Run::from_bytes(&older(&bytes, STATE_MAGIC_V2, 1)).unwrap();
        assert_eq!(read.policy, Policy::Greedy { clear_first: true });
        assert_eq!(read.games, 12);
        // Version 1: neither word.
        let read = Run::from_bytes(&older(&bytes, STATE_MAGIC_V1, 0)).unwrap();
        assert_eq!(read.policy, Policy::Greedy { clear_first: false });
        assert_eq!(read.games, 12);
        // A policy word other than 0 or 1 is refused.
        let mut bad = bytes.clone();
        bad[POLICY_AT] = 2;
        let refused = Run::from_bytes(&bad)
            .err()
            .expect("a bad policy word is refused");
        assert!(refused.contains("policy word 2"), "{refused}");
    }

    /// A game of the search's self-play learns (its afterstates move the weights) and is the
    /// search's: another game than the greedy player's from the same spawns.
    #[test]
    fn a_search_game_learns_and_differs_from_a_greedy_one() {
        let lambda = Lambda {
            lambda: 0.0,
            horizon: 1,
        };
        let game = |policy| {
            let mut network = Network::builtin().clone();
            let mut trainer = Trainer::new(&network);
            let mut rng = FastRng::new(5);
            let played = train_game(&mut network, &mut trainer, &mut rng, 0.1, lambda, policy);
            (played, network.to_bytes())
        };
        let (search, learned) = game(Policy::Search { effort: 1 });
        let (greedy, _) = game(Policy::Greedy { clear_first: true });
        assert!(search.1 > 0, "the search played moves");
        assert_ne!(
            learned,
            Network::builtin().to_bytes(),
            "the game moved weights"
        );
        assert_ne!(search, greedy, "the search played its own game");
        assert_eq!(
            game(Policy::Search { effort: 1 }).0,
            search,
            "and played it again"
        );
    }
}
