//! An interrupted run from Python returns what finished, and a cleared interruption lets the
//! next run play. A test binary of its own: the interruption is process-wide, so no other test
//! may run beside it.

use marathon_core::interrupt;
use marathon_python::runs::{PlayRequest, plan, play};

#[test]
fn an_interrupted_run_returns_what_finished_and_the_next_run_plays() {
    let plan = plan(&PlayRequest {
        game: "linez".into(),
        seeds: vec![1, 2],
        effort: Some(1),
        time_limit: Some(1000.0),
        threads: Some(2),
        ..PlayRequest::default()
    })
    .unwrap();
    interrupt::request(2);
    let (lines, interrupted) = play(&plan, |_| {}).unwrap();
    assert!(interrupted);
    assert!(lines.is_empty(), "no case starts once a stop is asked for");
    interrupt::clear();
    let (lines, interrupted) = play(&plan, |_| {}).unwrap();
    assert!(!interrupted);
    assert_eq!(lines.len(), 2);
}
