//! SW Expert Academy 4615 — 재미있는 오셀로 게임: replay Othello games on 4×4, 6×6 or 8×8
//! boards and count the discs.
//!
//! Input: `T` (1..=1000) cases, each `N M` (N ∈ {4, 6, 8}, 0 ≤ M ≤ N² − 4), then `M` lines
//! `x y color`: 1-based `x` is the row and `y` the column; color 1 is black, 2 white.
//! Output per case: `#t B W`, the numbers of black and white discs at the end.
//!
//! The colour on each line says who plays, so a pass shows up as one colour playing twice in
//! a row. Every placement must be legal for that colour: on the board, on an empty cell, and
//! flipping at least one disc. The judge never sends anything else, so a placement that flips
//! nothing is rejected with its line (exit status 1), as in boj15671, rather than guessed at.

use games::judge::{self, InputError, Options, Tokens};
use games::othello::{Board, Square};
use games::Color;
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
SW Expert Academy 4615 (재미있는 오셀로 게임, https://swexpertacademy.com, problem 4615):
replay Othello games on 4x4, 6x6 or 8x8 boards and count the discs.

input:  T (1..=1000), then per case `N M` (N in 4, 6, 8; 0 <= M <= N*N-4) and M lines
        `x y color`: x the row and y the column, both 1-based; color 1 black, 2 white.
        The colour on each line decides who plays (a pass is one colour playing twice).
output: per case `#t B W`: the numbers of black and white discs at the end.
An illegal placement or a malformed token is one line on stderr naming the input line,
exit status 1.
";

fn main() {
    judge::run("swea4615", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let cases = tokens.parse_in("the number of test cases", 1..=1000usize)?;
    for case in 1..=cases {
        let n = tokens.parse_in("the board size N", 4..=8usize)?;
        let mut board = Board::new(n).map_err(|e| tokens.rule_error(e))?;
        let moves = tokens.parse_in("the number of placements M", 0..=n * n - 4)?;
        if options.trace {
            eprintln!("case #{case}: {n}x{n}, {moves} placements\n{board}");
        }
        for i in 1..=moves {
            let row = tokens.parse_in("a row x", 1..=n)?;
            let col = tokens.parse_in("a column y", 1..=n)?;
            let mover = match tokens.parse_in("a colour (1 black, 2 white)", 1..=2u8)? {
                1 => Color::Black,
                _ => Color::White,
            };
            board.set_side_to_move(mover);
            let flipped = board.play(Square::new(row - 1, col - 1)).map_err(|e| {
                tokens.rule_error(format!(
                    "case {case}, placement {i}: {mover} cannot play ({row}, {col}): {e}"
                ))
            })?;
            if options.trace {
                eprintln!(
                    "{i}. {mover} ({row}, {col}) flips {}\n{board}",
                    flipped.count()
                );
            }
        }
        let (black, white) = (board.count(Color::Black), board.count(Color::White));
        // Writing to a String cannot fail.
        let _ = writeln!(out, "#{case} {black} {white}");
    }
    tokens.finish()
}
