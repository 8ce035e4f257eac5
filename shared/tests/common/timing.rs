//! Timing helpers for the benches.

// Each bench uses a part of this module; the benches report on stdout.
#![allow(dead_code, clippy::print_stdout)]

use std::time::{Duration, Instant};

/// The bench's first argument that is not a flag (cargo passes `--bench`) as a number of
/// runs, or `default`.
pub fn runs(default: usize) -> usize {
    std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(default, |a| {
            a.parse().expect("the argument is the number of runs")
        })
}

/// Times `ours` and the peer's `theirs` (both counting leaves) alternately, `runs` times
/// each, so that machine noise hits both alike; fails if they disagree; prints each run, the
/// medians with their leaves per second, and the ratio ours/peer next to `target`.
pub fn versus(
    runs: usize,
    peer: &str,
    target: &str,
    ours: impl Fn() -> u64,
    theirs: impl Fn() -> u64,
) {
    let (mut t_ours, mut t_theirs) = (Vec::new(), Vec::new());
    let mut leaves = 0;
    for run in 1..=runs {
        let (a, ta) = timed(&ours);
        let (b, tb) = timed(&theirs);
        assert_eq!(a, b, "games and {peer} disagree");
        leaves = a;
        println!(
            "  run {run}: games {:.3} s, {peer} {:.3} s ({a} leaves)",
            ta.as_secs_f64(),
            tb.as_secs_f64()
        );
        t_ours.push(ta);
        t_theirs.push(tb);
    }
    let (a, b) = (median(&mut t_ours), median(&mut t_theirs));
    println!(
        "median: games {:.3} s ({:.1} M leaves/s), {peer} {:.3} s ({:.1} M leaves/s)",
        a.as_secs_f64(),
        leaves as f64 / a.as_secs_f64() / 1e6,
        b.as_secs_f64(),
        leaves as f64 / b.as_secs_f64() / 1e6
    );
    println!(
        "ratio games/{peer}: {:.3} ({target})",
        a.as_secs_f64() / b.as_secs_f64()
    );
}

/// `f`'s value and how long it took.
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let value = f();
    (value, start.elapsed())
}

/// The median of `times` (sorted in place).
pub fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}
