//! othello_solve as a program: the 4×4 start (-10 for Black, agreed by plain minimax in
//! shared/tests/endgame.rs), a printed line that replays to the printed score, bad input.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use games::othello::{Board, Move};
use games::search::Game;
use games::Color;
use std::path::Path;
use std::process::Output;

fn solve(input: &str) -> Output {
    solve_with(&[], input)
}

fn solve_with(args: &[&str], input: &str) -> Output {
    let binary = Path::new(env!("CARGO_BIN_EXE_othello_solve"));
    testkit::run_ok(binary, args, input.as_bytes())
}

fn field<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(name))
        .unwrap_or_else(|| panic!("no {name:?} in {out}"))
}

#[test]
fn four_by_four_from_the_start() {
    let out = solve("4\n....\n.WB.\n.BW.\n....\nB\n");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&text, "exact result for Black: "), "-10");
    assert_eq!(field(&text, "final score (Black-White): "), "3-13");

    // The line, replayed through the Othello core, ends the game 3-13.
    let mut board = Board::new(4).unwrap();
    for mv in field(&text, "principal variation: ").split_whitespace() {
        let mv = if mv == "pass" {
            Move::Pass
        } else {
            Move::Play(mv.parse().unwrap())
        };
        board = board.after(mv).unwrap();
    }
    assert!(board.is_game_over());
    let (black, white) = (board.count(Color::Black), board.count(Color::White));
    let empties = 16 - black - white;
    // Empty squares count for the winner.
    assert_eq!((black, white + empties), (3, 13));
}

#[test]
fn white_to_move_and_a_finished_game() {
    // A full board: nothing to search, the result is the count.
    let out = solve("4\nBBBB\nBBBB\nWWWW\nWWWB\nW\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(field(&text, "exact result for White: "), "-2");
    assert_eq!(field(&text, "final score (Black-White): "), "9-7");
    assert_eq!(field(&text, "principal variation: ").trim(), "");
}

#[test]
fn the_outcome_alone() {
    // The 4x4 start (Black loses 3-13, above), and full boards won, drawn and lost.
    for (input, says) in [
        ("4\n....\n.WB.\n.BW.\n....\nB\n", "outcome for Black: loss"),
        ("4\nBBBB\nBBBB\nWWWW\nWWWB\nB\n", "outcome for Black: win"),
        ("4\nBBBB\nBBBB\nWWWW\nWWWB\nW\n", "outcome for White: loss"),
        ("4\nBBBB\nBBBB\nWWWW\nWWWW\nW\n", "outcome for White: draw"),
    ] {
        let out = solve_with(&["--outcome"], input);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success() && text.contains(says),
            "{input}: {text}"
        );
        assert!(!text.contains("principal variation"), "{text}");
    }
    let out = solve_with(
        &["--outcome", "--max-nodes", "1000"],
        "4\n....\n.WB.\n.BW.\n....\nB\n",
    );
    testkit::assert_refused(&out, "othello_solve", "--outcome takes no", "--outcome");
}

#[test]
fn bad_input_is_one_line_and_status_1() {
    for (input, says) in [
        (
            "",
            "line 1: input ended, expected the board size N (4, 6 or 8)",
        ),
        ("5\n", "line 1: the board size is 4, 6 or 8, not 5"),
        ("6\n......\n", "line 3: input ended, expected a board row"),
        (
            "4\n....\n.WB.\n.BX.\n....\nB\n",
            "line 4: the 3rd row, 3rd cell: 'X' is not B, W or .",
        ),
        (
            "4\n....\n.WB.\n.BW.\n....\nX\n",
            "line 6: the side to move is B or W, not \"X\"",
        ),
        (
            "4\n....\n.WB.\n.BW.\n....\nB\nextra\n",
            "line 7: unexpected `extra` after the end of the input",
        ),
        ("\u{fffd}\u{0}", "line 1: expected the board size N"),
    ] {
        testkit::assert_refused(&solve(input), "othello_solve", says, &format!("{input:?}"));
    }
}

#[test]
fn a_limit_stops_with_bounds() {
    // The 8x8 start is far too deep to solve: the limit must stop it with bounds, exit 0.
    let start =
        "8\n........\n........\n........\n...WB...\n...BW...\n........\n........\n........\nB\n";
    let out = solve_with(&["--max-nodes", "200000", "--hash-bits", "16"], start);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let bounds = field(&text, "bounds for Black: ");
    assert!(bounds.contains("not exact"), "{bounds}");
    // A small position finishes under a generous limit and prints the exact result.
    let out = solve_with(&["--max-seconds", "60"], "4\n....\n.WB.\n.BW.\n....\nB\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&text, "exact result for Black: "), "-10");
}

#[test]
fn an_impossible_table_is_refused_before_allocating() {
    // 2^30 entries of 24 bytes: 25.8 GB, more than this project's machines have.
    let out = solve_with(&["--hash-bits", "30"], "4\n....\n.WB.\n.BW.\n....\nB\n");
    testkit::assert_refused(&out, "othello_solve", "needs 25.8 GB", "--hash-bits 30");
    let table = r#"
        --max-nodes 0 => --max-nodes must be a whole number at least 1, not "0"
        --max-seconds -1 => --max-seconds must be a number above 0 and at most 1000000000, not "-1"
        --hash-bits 31 => --hash-bits must be a whole number from 10 to 30, not "31"
    "#;
    for (args, says) in testkit::refusals(table, &[]) {
        let out = solve_with(&args, "");
        testkit::assert_refused(&out, "othello_solve", says, &format!("{args:?}"));
    }
}

#[test]
fn help_and_a_byte_order_mark() {
    let out = solve_with(&["--help"], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for part in ["usage: othello_solve", "--max-nodes", "a1 top left"] {
        assert!(text.contains(part), "no {part:?}");
    }
    let out = solve("\u{feff}4\n....\n.WB.\n.BW.\n....\nB\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(field(&text, "exact result for Black: "), "-10");
}
