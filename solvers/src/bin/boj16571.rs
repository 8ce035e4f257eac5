//! Baekjoon 16571 — 알파 틱택토: the result of perfect play for the side to move.
//!
//! Input: 3 lines of 3 numbers, 0 empty, 1 X, 2 O. X moves first, so X is to move when both
//! have as many marks, else O. The game is not over yet.
//! Output: `W`, `D` or `L`: what the side to move gets with perfect play by both.
//! `--trace` prints the best move and the rest of the game under perfect play to stderr.
//!
//! A board that cannot arise in a game, or one whose game is already over (the problem
//! never sends those), is one line on stderr and exit status 1.

use games::judge::{self, InputError, Options, Tokens};
use games::search::{alpha_beta, Game};
use games::tictactoe::{self, Board, O, X};
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
Baekjoon 16571 (알파 틱택토, https://www.acmicpc.net/problem/16571): the result of perfect
play for the side to move.

input:  3 rows of 3 numbers: 0 empty, 1 X, 2 O (X moves first).
output: W, D or L: what the side to move gets when both play perfectly.
--trace prints the best move and the rest of the game (cells 0..8: 0-based, row-major).
A board that cannot arise, or a finished game, is one line on stderr naming the input
line, exit status 1.
";

fn main() {
    judge::run("boj16571", USAGE, solve)
}

/// Win, draw and loss are all the search needs to tell apart.
const WINDOW: (i32, i32) = (-1, 1);

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let mut cells = Vec::with_capacity(9);
    for _ in 0..9 {
        cells.push(match tokens.parse_in("a cell (0, 1 or 2)", 0..=2u8)? {
            1 => Some(X),
            2 => Some(O),
            _ => None,
        });
    }
    let last = tokens.clone();
    tokens.finish()?;
    let board = Board::from_cells(&cells).map_err(|e| last.rule_error(e))?;
    if board.is_over() {
        return Err(last.rule_error("the game is already over"));
    }
    let result = alpha_beta(&board, WINDOW);
    let _ = writeln!(
        out,
        "{}",
        match result.value {
            1 => 'W',
            0 => 'D',
            _ => 'L',
        }
    );
    if options.trace {
        let mut game = board;
        while let Some(mv) = alpha_beta(&game, WINDOW).best {
            eprintln!(
                "{} plays ({}, {})",
                tictactoe::mark(game.to_move()),
                mv / 3,
                mv % 3
            );
            game = game.after(mv).expect("the search's move is legal");
            eprintln!("{game}");
        }
    }
    Ok(())
}
