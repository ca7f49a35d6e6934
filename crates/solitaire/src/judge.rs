//! Drives a player through a Solitaire chess case exactly as the Kattis judge does: the 6 lines
//! of the board, then for each `r c` the uncovered piece or `blank`, until `0 0`. Any failure
//! (an illegal or blank cell, unreadable output, a crash, a timeout, output that ends without
//! `0 0`) scores 0 for the case (docs/rules.md#solitaire-time-and-failures), and the verdict says
//! why.

use std::ops::RangeInclusive;
use std::time::Duration;

use marathon_core::replay::{Recording, Viewer};
use marathon_core::{
    CaseId, CaseOutcome, Endpoint, Game, Metric, PlayConfig, SolveFn, Verdict, play_with_player,
};

use crate::ai;
use crate::generator::{
    Alphabet, DEFAULT_GROUP, Deal, GROUP_ALPHABETS, official_case, official_cases,
};
use crate::protocol::{Reply, format_board, format_reveal, parse_reply};
use crate::rules::{Breakdown, Cell, Piece, State};
use crate::vis;

/// Our time limit per case (docs/rules.md#solitaire-time-and-failures: 10 s).
pub const TIME_LIMIT: Duration = Duration::from_secs(10);

/// The name of the Kattis-points metric of official cases.
pub const POINTS_METRIC: &str = "points";

pub struct Solitaire;

/// The game as the CLI and the runner see it.
pub static SOLITAIRE: Solitaire = Solitaire;

/// What a case id stands for: its group, alphabet and seed. An official case (by name) takes
/// its row of official_tests.txt; otherwise the group's alphabet (the default group when none is
/// given or it is not one of the statement's).
pub fn case_setup(case: &CaseId) -> (u32, Alphabet, u64) {
    if let Some(official) = case.name.as_deref().and_then(official_case) {
        return (official.group, official.alphabet, official.seed);
    }
    let group = case
        .group
        .filter(|g| (1..=GROUP_ALPHABETS.len() as u32).contains(g))
        .unwrap_or(DEFAULT_GROUP);
    let alphabet = Alphabet::of_group(group).expect("a group of the table");
    (group, alphabet, case.seed)
}

/// The deal of a case.
pub fn case_deal(case: &CaseId) -> Deal {
    let (_, alphabet, seed) = case_setup(case);
    Deal::new(&alphabet, seed)
}

impl Game for Solitaire {
    fn name(&self) -> &'static str {
        "solitaire"
    }

    fn players(&self) -> &'static [&'static str] {
        ai::PLAYERS
    }

    fn default_time_limit(&self) -> Duration {
        TIME_LIMIT
    }

    fn groups(&self) -> Option<(RangeInclusive<u32>, u32)> {
        Some((1..=GROUP_ALPHABETS.len() as u32, DEFAULT_GROUP))
    }

    fn official_cases(&self) -> Vec<CaseId> {
        official_cases()
            .into_iter()
            .map(|c| CaseId::named(c.name, Some(c.group), c.seed))
            .collect()
    }

    fn generate(&self, case: &CaseId) -> String {
        format_board(&case_deal(case).tops())
    }

    fn play(&self, case: &CaseId, config: &PlayConfig) -> CaseOutcome {
        self.play_recorded(case, config, None)
    }

    fn record(&self, case: &CaseId, config: &PlayConfig) -> Option<Recording> {
        let mut steps = Vec::new();
        let outcome = self.play_recorded(case, config, Some(&mut steps));
        Some(vis::recording(outcome, config, &case_deal(case), &steps))
    }

    fn viewer(&self) -> Option<Viewer> {
        Some(vis::VIEWER)
    }

    fn solver(&self) -> SolveFn {
        ai::speak_protocol
    }
}

impl Solitaire {
    fn play_recorded(
        &self,
        case: &CaseId,
        config: &PlayConfig,
        steps: Option<&mut Vec<Step>>,
    ) -> CaseOutcome {
        let (_, alphabet, _) = case_setup(case);
        let deal = case_deal(case);
        let (state, verdict, time) = play_with_player(
            self.name(),
            case,
            config,
            ai::speak_protocol,
            |endpoint| run_game(&deal, endpoint, steps),
            || State::new(deal.tops()),
        );
        let score = if verdict.is_ok() {
            state.score() as f64
        } else {
            0.0
        };
        let metrics = case
            .name
            .as_deref()
            .and_then(official_case)
            .map(|official| Metric {
                name: POINTS_METRIC,
                value: official.kattis_points(score),
            })
            .into_iter()
            .collect();
        CaseOutcome {
            game: self.name(),
            case: case.clone(),
            params: vec![("alphabet", alphabet.to_string())],
            score,
            moves: state.moves() as u64,
            time,
            verdict,
            metrics,
        }
    }
}

/// One removal as a replay shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub cell: Cell,
    pub removed: Piece,
    /// The piece uncovered; `None` when the stack is used up.
    pub revealed: Option<Piece>,
    /// The points so far, kind by kind, after this removal.
    pub breakdown: Breakdown,
}

/// Plays the deal until the player says `0 0` or fails; returns the final state (its score is
/// the case's score only with `Verdict::Ok`) and the verdict. With `steps`, every removal is
/// recorded there.
pub fn run_game(
    deal: &Deal,
    endpoint: &mut Endpoint,
    mut steps: Option<&mut Vec<Step>>,
) -> (State, Verdict) {
    let mut state = State::new(deal.tops());
    if let Err(failure) = endpoint.send(&format_board(&deal.tops())) {
        return (state, failure.into());
    }
    let verdict = loop {
        let line = match endpoint.receive_line() {
            Ok(line) => line,
            Err(failure) => break failure.into(),
        };
        let invalid = |reason: String| Verdict::invalid(&line, reason);
        let cell = match parse_reply(&line) {
            Ok(Reply::Stop) => break Verdict::Ok,
            Ok(Reply::Remove(cell)) => cell,
            Err(e) => break invalid(e.to_string()),
        };
        if let Err(e) = state.check(cell) {
            break invalid(e.to_string());
        }
        let reveal = deal.piece(cell, state.removed(cell) + 1);
        let removed = state.top(cell).expect("a checked cell holds a piece");
        state
            .play(cell, reveal)
            .expect("checked above, and the deal's reveal fits the stack");
        if let Some(steps) = steps.as_deref_mut() {
            steps.push(Step {
                cell,
                removed,
                revealed: reveal,
                breakdown: state.scorer.breakdown,
            });
        }
        if let Err(failure) = endpoint.send(&format!("{}\n", format_reveal(reveal))) {
            break failure.into();
        }
    };
    (state, verdict)
}
