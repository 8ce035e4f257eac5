//! boj4664 on its worst cases: 20 boards with four marks each (`testdata/boj4664/worst-20.in`),
//! solved by the release binary, as a judge would run it.
//!
//! ```text
//! cargo bench -p solvers --bench boj4664
//! ```
//!
//! Prints each of five runs and the median; the target is under 0.3 s for the file (the
//! classic judges allow 3 s).

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/boj4664/worst-20.in");
    let expected = std::fs::read_to_string(input.with_extension("out")).expect("worst-20.out");
    let mut times: Vec<Duration> = (1..=5)
        .map(|run| {
            let start = Instant::now();
            let out = Command::new(env!("CARGO_BIN_EXE_boj4664"))
                .stdin(std::fs::File::open(&input).expect("worst-20.in"))
                .stderr(Stdio::inherit())
                .output()
                .expect("run boj4664");
            let time = start.elapsed();
            assert!(out.status.success(), "boj4664 failed");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                expected,
                "wrong answers"
            );
            println!("run {run}: {:.3} s", time.as_secs_f64());
            time
        })
        .collect();
    times.sort();
    println!(
        "boj4664, 20 worst-case boards (four marks each): median {:.3} s (target < 0.3 s)",
        times[2].as_secs_f64()
    );
}
