//! An interrupted run from Python returns what finished, and a cleared interruption lets the
//! next run play. A test binary of its own: the interruption is process-wide, so no other test
//! may run beside it.

use marathon_core::interrupt;
use marathon_python::runs::{PlayRequest, play, start};

#[test]
fn an_interrupted_run_returns_what_finished_and_the_next_run_plays() {
    let request = PlayRequest {
        game: "linez".into(),
        seeds: vec![1, 2],
        effort: Some(1),
        time_limit: Some(1000.0),
        threads: Some(2),
        ..PlayRequest::default()
    };
    interrupt::request(2);
    let played = play(start(&request).unwrap(), |_| {}).unwrap();
    assert!(played.interrupted);
    assert!(
        played.lines.is_empty(),
        "no case starts once a stop is asked for"
    );
    interrupt::clear();
    let played = play(start(&request).unwrap(), |_| {}).unwrap();
    assert!(!played.interrupted);
    assert_eq!(played.lines.len(), 2);
}
