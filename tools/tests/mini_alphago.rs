//! mini_alphago as a program: the seed reproduced byte for byte, the seed-compatible mode on
//! other positions against the seed's own Python (answers in tests/data, made by
//! scripts/oracles/seed004.py), self-play, and bad input.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_mini_alphago")), args, b"")
}

#[test]
fn with_no_arguments_it_prints_the_seeds_expected_output() {
    let out = run(&[]);
    assert!(out.status.success());
    let expected = std::fs::read_to_string(data("seed004-expected.out")).unwrap();
    // tests/data/seed004-expected.out is the seed's printed output, copied byte for byte
    // from the tutorials' reference data (see README, Test data).
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn the_seed_compatible_mode_matches_the_seeds_python_on_other_positions() {
    for (position, iterations) in [("white-to-move", "300"), ("diagonals", "200")] {
        let file = data(&format!("{position}.position"));
        let out = run(&[
            "--seed-compatible",
            "--position",
            file.to_str().unwrap(),
            "--iterations",
            iterations,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected =
            std::fs::read_to_string(data(&format!("{position}-{iterations}.out"))).unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{position}"
        );
    }
}

#[test]
fn self_play_plays_whole_games() {
    let out = run(&["--selfplay", "--iterations", "30"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    // The seed's game lasts exactly 44 moves and always ends 22-22.
    assert!(text.contains("  44. White"), "{text}");
    assert!(!text.contains("  45."));
    assert!(
        text.ends_with("Black 22 stones, White 22 stones: a draw\n"),
        "{text}"
    );

    let out = run(&[
        "--selfplay",
        "--rules",
        "go",
        "--evaluator",
        "playout",
        "--iterations",
        "200",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    let passes = text
        .lines()
        .rev()
        .skip(9)
        .take(2)
        .filter(|l| l.ends_with(" pass"))
        .count();
    assert_eq!(passes, 2, "a Go game ends with two passes:\n{text}");
    assert!(
        text.lines().last().unwrap().starts_with("area: Black "),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line_and_status_1() {
    let bad_board = data("bad-board.position");
    std::fs::write(&bad_board, "7\n.......\n..X?...\n").unwrap();
    let five = data("five.position");
    std::fs::write(&five, "5\n.....\n.....\n.....\n.....\n.....\nX\n").unwrap();
    for args in [
        vec!["--iterations", "0"],
        vec!["--iterations", "many"],
        vec!["--rules", "chess"],
        vec!["--evaluator", "oracle"],
        vec!["--c-puct", "-1"],
        vec!["--komi", "nan"],
        vec!["--whatever"],
        vec!["--position", bad_board.to_str().unwrap()],
        vec!["--position", five.to_str().unwrap()],
        vec!["--position", "/no/such/file"],
        vec!["--seed-compatible", "--rules", "go"],
    ] {
        let out = run(&args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_file(bad_board);
    let _ = std::fs::remove_file(five);
}

#[test]
fn help_lists_the_flags_and_the_coordinate_base() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        for part in [
            "usage: mini_alphago",
            "--position",
            "--evaluator",
            "0-based",
        ] {
            assert!(text.contains(part), "{flag}: no {part:?}");
        }
    }
}
