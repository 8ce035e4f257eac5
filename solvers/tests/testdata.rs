//! Every case in `testdata/<problem>/`, run through the built solver binary: the same cases
//! and the same rules as `scripts/check.sh`.
//!
//! - `<case>.in` + `<case>.out`: exit status 0 and that stdout, compared like the judges
//!   compare (trailing spaces and trailing blank lines ignored).
//! - `<case>.in` + `<case>.err`: exit status 1, empty stdout, and stderr that one line.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::SOLVERS;
use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;
use testkit::{Case, Expected};

/// Generous: test builds share a noisy machine. check.sh applies the judges' 2 s.
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// At least this many cases per solver (the floor), not counting error cases.
const MIN_ACCEPTED_CASES: usize = 6;

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

fn run(binary: &str, args: &[&str], input: &[u8]) -> Run {
    let output = testkit::run(Path::new(binary), args, input, TIME_LIMIT)
        .unwrap_or_else(|| panic!("{binary} ran longer than {TIME_LIMIT:?}"));
    Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Trailing spaces on each line and trailing blank lines do not count.
fn normalize(text: &str) -> String {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let keep = lines
        .iter()
        .rposition(|l| !l.is_empty())
        .map_or(0, |i| i + 1);
    lines[..keep].join("\n")
}

/// Checks one case; `Err` describes the failure.
fn check_case(binary: &str, case: &Case) -> Result<(), String> {
    let bytes = std::fs::read(&case.input).unwrap();
    let got = run(binary, &[], &bytes);
    match &case.expected {
        Expected::Answer(want) => {
            if got.status != Some(0) {
                return Err(format!("exit {:?}, stderr {:?}", got.status, got.stderr));
            }
            if normalize(want) != normalize(&got.stdout) {
                return Err(format!(
                    "wrong answer\n--- expected\n{want}--- actual\n{}",
                    got.stdout
                ));
            }
        }
        Expected::Error(want) => {
            if got.status != Some(1) {
                return Err(format!("expected exit 1, got {:?}", got.status));
            }
            if !got.stdout.is_empty() {
                return Err(format!("stdout not empty on error: {:?}", got.stdout));
            }
            if got.stderr.lines().count() != 1 || got.stderr.contains("panicked") {
                return Err(format!("stderr is not one clean line: {:?}", got.stderr));
            }
            if normalize(want) != normalize(&got.stderr) {
                return Err(format!(
                    "wrong error\n  expected {:?}\n  actual   {:?}",
                    want.trim_end(),
                    got.stderr.trim_end()
                ));
            }
        }
    }
    Ok(())
}

fn answered(case: &Case) -> bool {
    matches!(case.expected, Expected::Answer(_))
}

/// A problem with test data but no solver in `common::SOLVERS` (or the other way round)
/// fails here.
#[test]
fn every_problem_has_a_solver_and_cases() {
    let dirs: BTreeSet<String> = testkit::problems().into_iter().collect();
    let solvers: BTreeSet<String> = SOLVERS.iter().map(|(p, _)| p.to_string()).collect();
    assert_eq!(
        dirs, solvers,
        "testdata/ directories and solver binaries differ"
    );
    for (problem, _) in SOLVERS {
        let accepted = testkit::cases(problem)
            .iter()
            .filter(|c| answered(c))
            .count();
        assert!(
            accepted >= MIN_ACCEPTED_CASES,
            "{problem}: {accepted} cases with an answer, want at least {MIN_ACCEPTED_CASES}"
        );
    }
}

#[test]
fn every_case_passes() {
    let mut failures = Vec::new();
    let mut total = 0;
    for (problem, binary) in SOLVERS {
        for case in testkit::cases(problem) {
            total += 1;
            if let Err(why) = check_case(binary, &case) {
                failures.push(format!("{}: {why}", case.input.display()));
            }
        }
    }
    assert!(total > 0, "no cases found");
    assert!(
        failures.is_empty(),
        "{} of {total} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn trace_goes_to_stderr_and_leaves_stdout_alone() {
    for (problem, binary) in SOLVERS {
        // The largest case with an answer: the longest game to follow.
        let case = testkit::cases(problem)
            .into_iter()
            // (not a copy of a sample behind a byte order mark)
            .filter(|c| answered(c) && !c.name.starts_with("bom-"))
            .max_by_key(|c| std::fs::metadata(&c.input).unwrap().len())
            .unwrap();
        let bytes = std::fs::read(&case.input).unwrap();
        let plain = run(binary, &[], &bytes);
        let traced = run(binary, &["--trace"], &bytes);
        assert_eq!(traced.status, Some(0), "{problem}");
        assert_eq!(traced.stdout, plain.stdout);
        let trace = &traced.stderr;
        assert!(
            !trace.trim().is_empty(),
            "{problem}: --trace printed nothing"
        );
        // Solvers that replay or play out a game show boards: rows of board symbols
        // (Othello, Go and tic-tac-toe drawings alike).
        let rows = trace
            .lines()
            .filter(|l| !l.trim().is_empty() && l.chars().all(|c| "BWXO.|- ".contains(c)))
            .count();
        if !["boj16988", "boj4664", "boj7682"].contains(problem) {
            assert!(rows >= 3, "{problem}: no board in the trace:\n{trace}");
        }
    }
}

#[test]
fn help_explains_usage_and_coordinates() {
    for (problem, binary) in SOLVERS {
        for flag in ["--help", "-h"] {
            let got = run(binary, &[flag], b"");
            assert_eq!(got.status, Some(0), "{problem} {flag}: {}", got.stderr);
            assert!(got.stderr.is_empty(), "{problem} {flag}: {}", got.stderr);
            for part in ["input:", "output:", &format!("usage: {problem}")] {
                assert!(got.stdout.contains(part), "{problem} {flag}: no {part:?}");
            }
        }
        // The coordinate base is stated wherever the input or output has coordinates.
        let help = run(binary, &["--help"], b"").stdout;
        if help.contains("column") || help.contains("cell") {
            assert!(help.contains("-based"), "{problem}: which base?\n{help}");
        }
    }
}
