//! What the solver tests share: the solver binaries, and running one on an input (through
//! `testkit`, which every test package uses).

// Each test file uses a part of this module; the rest would warn there.
#![allow(dead_code)]

use std::path::Path;
use std::process::Output;
use std::time::Duration;

/// The solver binaries, by problem name.
pub const SOLVERS: &[(&str, &str)] = &[
    ("boj15671", env!("CARGO_BIN_EXE_boj15671")),
    ("boj16571", env!("CARGO_BIN_EXE_boj16571")),
    ("boj16988", env!("CARGO_BIN_EXE_boj16988")),
    ("boj4664", env!("CARGO_BIN_EXE_boj4664")),
    ("boj7682", env!("CARGO_BIN_EXE_boj7682")),
    ("go_ko", env!("CARGO_BIN_EXE_go_ko")),
    ("swea4615", env!("CARGO_BIN_EXE_swea4615")),
    ("tictactoe", env!("CARGO_BIN_EXE_tictactoe")),
];

/// Runs `binary` with `input` on stdin and no arguments ([`testkit::run`]); `None` if it runs
/// longer than `limit`.
pub fn run(binary: &str, input: &[u8], limit: Duration) -> Option<Output> {
    testkit::run(Path::new(binary), &[], input, limit)
}
