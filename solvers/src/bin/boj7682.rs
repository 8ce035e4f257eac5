//! Baekjoon 7682 — 틱택토: is each board a position where a game can end?
//!
//! Input: lines of 9 characters from `X`, `O`, `.` (row-major), then a line `end`.
//! Output per line: `valid` if a game where X starts, the players alternate, and play stops
//! as soon as a line is complete or the board is full can end there; else `invalid`.
//! `--trace` gives the reason for each `invalid` on stderr.
//!
//! A line of another length, another symbol, or a missing `end` is one line on stderr and
//! exit status 1.

use games::grid;
use games::judge::{self, InputError, Options, Tokens};
use games::tictactoe::{Board, SYMBOLS};
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
Baekjoon 7682 (틱택토, https://www.acmicpc.net/problem/7682): can a game end on this board?

input:  lines of 9 characters from X, O and . (the board row by row), then `end`.
output: per line `valid` or `invalid`.
A line of another length or symbol, or a missing `end`, is one line on stderr naming the
input line, exit status 1.
";

fn main() {
    judge::run("boj7682", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    loop {
        let line = tokens.token("a board of 9 characters or `end`")?;
        if line == "end" {
            break;
        }
        // The whole board on one line, row by row.
        let cells = grid::read_row(line, None, 9, &SYMBOLS).map_err(|e| tokens.rule_error(e))?;
        let verdict = match Board::from_cells(&cells) {
            Ok(board) if board.is_over() => Ok(()),
            Ok(_) => Err("the game is not over yet".to_string()),
            Err(e) => Err(e.to_string()),
        };
        let _ = writeln!(out, "{}", if verdict.is_ok() { "valid" } else { "invalid" });
        if let (true, Err(why)) = (options.trace, verdict) {
            eprintln!("line {}: {line} is invalid: {why}", tokens.line());
        }
    }
    tokens.finish()
}
