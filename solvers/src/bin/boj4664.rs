//! Baekjoon 4664 — Find the Winning Move (4×4 tic-tac-toe, four in a row).
//!
//! Input: cases `?` followed by 4 lines of 4 characters from `.`, `x`, `o`; a line starting
//! with `$` ends the input (the rest of the input is not read). In each case it is x's turn, each side has made at least two moves, and
//! the game is not over.
//! Output per case: `(r,c)` of the first move in row-major order after which x can force a
//! win, or `#####` if there is none.
//!
//! Each candidate is settled by a null-window alpha-beta search with a transposition table
//! shared by all candidates and cases (does o lose after this move, yes or no?), which is
//! what keeps the worst cases (four marks on the board) fast.
//! `--trace` prints each candidate's verdict and the nodes searched to stderr.
//!
//! A case that breaks the promises above, a wrong symbol or row length, or a missing `$`
//! is one line on stderr and exit status 1.

use games::judge::{self, InputError, Options, Tokens};
use games::search::{alpha_beta_tt, Game, Table};
use games::tictactoe::{Board, O, X};
use games::Color;
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
Baekjoon 4664 (Find the Winning Move, https://www.acmicpc.net/problem/4664): 4x4
tic-tac-toe, four in a row: x's first winning move.

input:  cases `?` followed by 4 rows of 4 characters from x, o and .; a line starting
        with `$` ends the input. x is to move.
output: per case `(r,c)`, the 0-based row and column of the first winning move in
        row-major order, or `#####` when x cannot force a win.
A case that breaks the statement's promises, a malformed row or a missing `$` is one line
on stderr naming the input line, exit status 1.
";

/// The problem's cells: lower-case marks.
const SYMBOLS: [(char, Option<Color>); 3] = [('x', Some(X)), ('o', Some(O)), ('.', None)];

fn main() {
    judge::run("boj4664", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let mut table = Table::new();
    loop {
        match tokens.token("`?` or `$`")? {
            // The statement: a line starting with `$` ends the input.
            end if end.starts_with('$') => return Ok(()),
            "?" => {}
            other => {
                return Err(tokens.rule_error(format!(
                    "a case starts with `?` and the input ends with `$`, not {other:?}"
                )))
            }
        }
        let mut cells = Vec::with_capacity(16);
        for r in 0..4 {
            cells.extend(tokens.grid_row("a row of four x, o or .", Some(r), 4, &SYMBOLS)?);
        }
        let board = Board::from_cells(&cells).map_err(|e| tokens.rule_error(e))?;
        let marks = |m| cells.iter().filter(|&&c| c == Some(m)).count();
        if board.to_move() != X || marks(O) < 2 || board.is_over() {
            return Err(tokens.rule_error(
                "the problem promises x to move, at least two moves each, and a game not over",
            ));
        }
        match winning_move(&board, &mut table, options.trace) {
            Some(cell) => {
                let _ = writeln!(out, "({},{})", cell / 4, cell % 4);
            }
            None => {
                let _ = writeln!(out, "#####");
            }
        }
    }
}

/// The first cell, row-major, after which x (to move) can force a win.
fn winning_move(board: &Board, table: &mut Table<Board>, trace: bool) -> Option<usize> {
    board.moves().into_iter().find(|&cell| {
        let next = board.after(cell).expect("a listed move is legal");
        // o to move: x has a forced win exactly when o's value is -1. The null window
        // (-1, 0) asks only that: a result <= -1 means a loss for o, >= 0 means not.
        let search = alpha_beta_tt(&next, (-1, 0), table);
        let wins = search.value <= -1;
        if trace {
            eprintln!(
                "({},{}): {} ({} nodes)",
                cell / 4,
                cell % 4,
                if wins {
                    "x forces a win"
                } else {
                    "no forced win"
                },
                search.nodes
            );
        }
        wins
    })
}
