//! The seed-compatible search (seed 004: 500 iterations from the empty 7×7 board) against
//! the seed's own Python, in one run.
//!
//! ```text
//! cargo bench -p tools --bench mini_alphago
//! ```
//!
//! Times our search (best and median of 20), then, when python3 with numpy and the seed
//! text (../shared/seeds/004_*.txt) are here, runs the seed's own program three times, checks
//! that it prints what we print, and reports the ratios of the bests and of the medians
//! (target: ≥ 500×). This machine's speed wanders (the same binary runs in 13.5 or 19 ms
//! from one minute to the next), so both figures are printed.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use games::alphago::{Network, SeedGame};
use games::mcts::{FirstPlay, Settings, Signs, Tree};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let settings = Settings {
        iterations: 500,
        c_puct: 2.0,
        signs: Signs::Seed,
        first_play: FirstPlay::Zero,
        proofs: false,
        lcb: None,
    };
    let mut net = Network::seed();
    let mut ours: Vec<Duration> = (0..20)
        .map(|_| {
            let start = Instant::now();
            let tree = Tree::search(&SeedGame::new(), settings, &mut net);
            let time = start.elapsed();
            assert_eq!(
                tree.best_move(),
                Some(4 * 7 + 4),
                "the seed's move is (4, 4)"
            );
            time
        })
        .collect();
    let ours_median = median(&mut ours);
    println!(
        "games (Rust): seed-compatible search, 500 iterations: best {:.2} ms, median {:.2} ms",
        ours[0].as_secs_f64() * 1e3,
        ours_median.as_secs_f64() * 1e3
    );

    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/seeds");
    let seed = std::fs::read_dir(&seeds).ok().and_then(|d| {
        d.filter_map(Result::ok).map(|e| e.path()).find(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("004_"))
        })
    });
    let numpy = Command::new("python3")
        .args(["-c", "import numpy"])
        .output();
    let (Some(seed), true) = (seed, numpy.is_ok_and(|o| o.status.success())) else {
        println!(
            "seed 004 (Python): skipped (needs python3 with numpy and ../shared/seeds/004_*.txt)"
        );
        return;
    };
    let text = std::fs::read_to_string(&seed).expect("seed text");
    let code = text
        .split_once("\nPYTHON\n")
        .and_then(|(_, rest)| rest.split_once("\n출력\n"))
        .map(|(code, _)| code)
        .expect("the seed's Python code");
    let script = std::env::temp_dir().join(format!("seed004-{}.py", std::process::id()));
    std::fs::write(&script, code).expect("write the seed's program");
    let ours_output = Command::new(env!("CARGO_BIN_EXE_mini_alphago"))
        .output()
        .expect("mini_alphago");
    let mut python: Vec<Duration> = (1..=3)
        .map(|run| {
            let start = Instant::now();
            let out = Command::new("python3")
                .arg(&script)
                .output()
                .expect("python3");
            let time = start.elapsed();
            assert_eq!(
                out.stdout, ours_output.stdout,
                "the seed and mini_alphago print different things"
            );
            println!(
                "seed 004 (Python + numpy), run {run}: {:.2} s, same output",
                time.as_secs_f64()
            );
            time
        })
        .collect();
    let _ = std::fs::remove_file(&script);
    let python_median = median(&mut python);
    println!(
        "ratio seed / games: {:.0}x best to best, {:.0}x median to median (target >= 500x)",
        python[0].as_secs_f64() / ours[0].as_secs_f64(),
        python_median.as_secs_f64() / ours_median.as_secs_f64()
    );
}
