//! The judge with the built-in players: they never make an illegal move, every game runs to
//! its end, and the judge's score and move count are what the rules give for the moves played.
//!
//! Each case is played twice: through `Game::play` (what the runner does) and through the
//! judge's loop (`marathon_core::env::judge`) with a player whose replies are recorded, so the
//! moves can be replayed through the environment, apart from the judge.

use std::time::Duration;

use crate::judged;

use marathon_core::Environment;
use marathon_core::{CaseId, CaseOutcome, Game, PlayConfig, SolveConfig, Verdict};
use marathon_linez::LINEZ;
use marathon_linez::ai;
use marathon_linez::env::{LinezEnv, Step};
use marathon_linez::generator::LinezCase;
use marathon_linez::protocol::{format_move, format_observation};
use marathon_linez::rules::{Board, State};

/// Far more than any built-in player needs here; a timeout would be a bug worth seeing.
const LIMIT: Duration = Duration::from_secs(20);

/// Seeds for the quick players: small ones, and the extremes of the `long` the generator reads.
fn seeds(count: u64) -> Vec<u64> {
    let mut seeds: Vec<u64> = (1..=count - 3).collect();
    seeds.extend([0, 1 << 40, u64::MAX]);
    seeds
}

fn config(player: &str, effort: Option<u64>) -> PlayConfig {
    PlayConfig::builtin(player, LIMIT, effort)
}

/// Plays the case through the judge's loop with `player` speaking the protocol on a thread;
/// returns the final state, the verdict, the replies the player wrote and the judge's steps.
fn recorded_game(
    seed: u64,
    player: &str,
    effort: Option<u64>,
) -> (State, Verdict, Vec<String>, Vec<Step>) {
    let solve = SolveConfig::new(player, LIMIT, effort);
    let game = judged::record(LinezEnv::new(seed), solve, ai::speak_protocol);
    (*game.env.state(), game.verdict, game.replies, game.events)
}

/// Rebuilds the final board from the start and the recorded steps alone, the way a replay page
/// does, checking that every step's events fit the board they apply to.
fn board_from_steps(seed: u64, steps: &[Step]) -> Board {
    let mut board = LinezCase::new(seed).initial_state().board;
    for (i, step) in steps.iter().enumerate() {
        if let Some(mv) = step.mv {
            let color = board.take(mv.from).expect("a move starts at a ball");
            assert_eq!(board.get(mv.to), None, "step {i}: the target is empty");
            board.put(mv.to, color);
        }
        assert!(step.cleared - board.occupied() == Default::default());
        board.clear_cells(step.cleared);
        for &(cell, color) in &step.spawned {
            assert_eq!(board.get(cell), None, "step {i}: spawned on a ball");
            board.put(cell, color);
        }
        board.clear_cells(step.spawn_cleared);
    }
    board
}

/// Replays `replies` through the environment (not the judge), checking each observation the
/// player was owed; returns the final state.
fn replay(seed: u64, replies: &[String]) -> State {
    let game = LinezEnv::new(seed);
    assert_eq!(
        game.message(None),
        LINEZ.generate(&CaseId::seed(seed)).expect("a case"),
        "seed {seed}: the first observation is the generated case"
    );
    let context = format!("seed {seed}");
    let game = judged::replay(game, replies, &context, |game, _| {
        let state = game.state();
        assert_eq!(
            game.message(None),
            format_observation(&state.board, &state.preview)
        );
    });
    *game.state()
}

/// Plays `seed` both ways and checks everything; returns the runner's outcome.
fn check_case(seed: u64, player: &str, effort: Option<u64>) -> CaseOutcome {
    let outcome = LINEZ
        .play(&CaseId::seed(seed), &config(player, effort))
        .unwrap();
    let context = format!("{player} on seed {seed}");
    assert_eq!(
        outcome.verdict,
        Verdict::Ok,
        "{context}: {}",
        outcome.verdict
    );
    assert_eq!(outcome.case, CaseId::seed(seed));
    assert_eq!(outcome.game, "linez");
    assert!(outcome.moves > 0, "{context}: no move played");
    assert!(outcome.time < LIMIT, "{context}: {:?}", outcome.time);

    let (state, verdict, replies, steps) = recorded_game(seed, player, effort);
    assert_eq!(verdict, Verdict::Ok, "{context} (recorded): {verdict}");
    assert!(state.is_over(), "{context}: ok before the board is full");
    // Built-in players depend on the case alone (`effort` fixes the AI's search).
    assert_eq!(
        (state.score as f64, state.moves),
        (outcome.score, outcome.moves),
        "{context}: the runner and the recorded run disagree"
    );
    assert_eq!(
        replies.len() as u64,
        state.moves,
        "{context}: one reply per move"
    );

    // The replay's events rebuild the game: its moves are the replies, and its last step has
    // the final board and score.
    let step_moves: Vec<String> = steps.iter().filter_map(|s| s.mv).map(format_move).collect();
    assert_eq!(step_moves, replies, "{context}: recorded moves");
    assert_eq!(board_from_steps(seed, &steps), state.board, "{context}");
    assert_eq!(
        steps.last().map(|s| s.score),
        Some(state.score),
        "{context}"
    );
    assert_eq!(
        steps.last().map(|s| s.preview),
        Some(state.preview),
        "{context}"
    );

    let replayed = replay(seed, &replies);
    assert!(
        replayed.is_over(),
        "{context}: the replayed game is not over"
    );
    assert_eq!(
        replayed, state,
        "{context}: the judge and the rules disagree"
    );
    outcome
}

#[test]
fn random_player_only_plays_legal_moves_and_scores_little() {
    let outcomes: Vec<CaseOutcome> = seeds(30)
        .into_iter()
        .map(|seed| check_case(seed, "random", None))
        .collect();
    let mean = outcomes.iter().map(|o| o.score).sum::<f64>() / outcomes.len() as f64;
    // Random play fills the board in a few dozen moves and rarely completes a line.
    assert!(mean < 50.0, "random play scored {mean} on average");
}

#[test]
fn greedy_player_only_plays_legal_moves() {
    let outcomes: Vec<CaseOutcome> = seeds(30)
        .into_iter()
        .map(|seed| check_case(seed, "greedy", None))
        .collect();
    // Sanity only: greedy completes lines at least somewhere.
    assert!(outcomes.iter().any(|o| o.score > 0.0));
}

#[test]
fn ai_player_only_plays_legal_moves() {
    for seed in [1, 2, 3, 4, u64::MAX] {
        check_case(seed, "ai", Some(1));
    }
}

#[test]
fn recording_plays_the_same_game_as_play() {
    let case = CaseId::seed(9);
    let recording = LINEZ.record(&case, &config("greedy", None)).unwrap();
    let played = LINEZ.play(&case, &config("greedy", None)).unwrap();
    assert_eq!(recording.outcome.score, played.score);
    assert_eq!(recording.outcome.moves, played.moves);
    assert_eq!(recording.player, "greedy");
    let steps = recording.steps;
    assert!(steps.len() as u64 >= played.moves);
    assert_eq!(steps.last().unwrap()["score"], played.score as u64);
    assert_eq!(recording.start["board"].as_str().unwrap().len(), 81);
}
