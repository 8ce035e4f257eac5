//! The FFO endgame test positions #40–#59 solved exactly, one thread, with the score and the
//! principal variation of each checked against the published scores.
//!
//! ```text
//! cargo bench -p games --bench ffo              # #40 to #59 (hours on this machine)
//! cargo bench -p games --bench ffo -- 40 44     # a range of numbers
//! cargo bench -p games --bench ffo -- 40 49 24  # ... with a table of 2^24 entries (default 22)
//! ```
//!
//! Prints per position: empty squares, score, nodes, time, nodes per second, and whether the
//! score and the line agree with `tests/data/othello/ffo-40-59.obf`; then the totals.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/common/ffo.rs"]
mod ffo;

use games::endgame::Solver;
use std::time::Instant;

fn main() {
    let numbers: Vec<u32> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| {
            a.parse()
                .expect("arguments are FFO numbers (40..=59) and table bits")
        })
        .collect();
    let (from, to) = match numbers[..] {
        [a, b, ..] => (a as usize, b as usize),
        [a] => (a as usize, a as usize),
        [] => (40, 59),
    };
    let bits = numbers.get(2).copied().unwrap_or(22);
    println!("FFO #{from}-#{to}, one thread, table 2^{bits}");
    println!(
        "{:>4} {:>7} {:>6} {:>14} {:>10} {:>10}  check",
        "#", "empties", "score", "nodes", "time", "M nodes/s"
    );
    let (mut nodes, mut seconds, mut failed) = (0u64, 0.0, 0);
    for p in ffo::load()
        .into_iter()
        .filter(|p| (from..=to).contains(&p.number))
    {
        let mut solver = Solver::new(bits);
        let clock = Instant::now();
        let solution = solver.solve(&p.board);
        let time = clock.elapsed().as_secs_f64();
        let verdict = p.check(&solution);
        let ok = verdict.is_ok();
        failed += usize::from(!ok);
        nodes += solution.nodes;
        seconds += time;
        println!(
            "{:>4} {:>7} {:>+6} {:>14} {:>9.2}s {:>10.1}  {}",
            p.number,
            p.board.empties().count(),
            solution.score,
            solution.nodes,
            time,
            solution.nodes as f64 / time.max(1e-9) / 1e6,
            match verdict {
                Ok(()) => "ok".to_string(),
                Err(why) => format!("WRONG: {}", why.lines().next().unwrap_or_default()),
            }
        );
    }
    println!(
        "total: {nodes} nodes in {seconds:.1} s ({:.1} M nodes/s), {failed} wrong",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    assert_eq!(
        failed, 0,
        "some positions disagree with the published scores"
    );
}
