//! Baekjoon 15671 — 오델로: replay a 6×6 Othello game, print the final board and the winner.
//!
//! Input: `N` (1..=32), then `N` lines `R C`, 1-based row and column. Black places first and
//! the colours alternate strictly (the problem promises every placement flips a disc, no pass
//! occurs, and the game does not end in a draw).
//! Output: the 6 rows of `B`, `W` and `.`, then `Black` or `White`, whoever has more discs.
//!
//! A placement off the board, on a disc, or one that flips nothing is reported with its line
//! and exit status 1, as are a draw and any token the format does not allow.

use games::judge::{self, InputError, Options, Tokens};
use games::othello::{Board, Square};
use std::fmt::Write;

const SIZE: usize = 6;

/// What `--help` prints.
const USAGE: &str = "\
Baekjoon 15671 (오델로, https://www.acmicpc.net/problem/15671): replay a 6x6 Othello game.

input:  N (1..=32), then N lines `R C`: the row and column of each placement, 1-based
        (1 1 is the top-left cell). Black places first and the colours alternate.
output: the final board, 6 rows of B (black), W (white) and . (empty), then `Black` or
        `White`, whoever has more discs.
A placement off the board, on a disc or flipping nothing, a draw, or a malformed token is
one line on stderr naming the input line, exit status 1.
";

fn main() {
    judge::run("boj15671", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let moves = tokens.parse_in("the number of placements", 1..=SIZE * SIZE - 4)?;
    let mut board = Board::new(SIZE).map_err(|e| tokens.rule_error(e))?;
    for i in 1..=moves {
        let row = tokens.parse_in("a row", 1..=SIZE)?;
        let col = tokens.parse_in("a column", 1..=SIZE)?;
        let mover = board.side_to_move();
        let flipped = board.play(Square::new(row - 1, col - 1)).map_err(|e| {
            tokens.rule_error(format!(
                "placement {i}: {mover} cannot play ({row}, {col}): {e}"
            ))
        })?;
        if options.trace {
            eprintln!(
                "{i}. {mover} ({row}, {col}) flips {}\n{board}",
                flipped.count()
            );
        }
    }
    // A draw is reported on the last placement's line, after any trailing garbage.
    let last = tokens.clone();
    tokens.finish()?;
    let winner = board
        .leader()
        .ok_or_else(|| last.rule_error("the game ends in a draw, which the problem rules out"))?;
    // Writing to a String cannot fail.
    let _ = writeln!(out, "{board}{winner}");
    Ok(())
}
