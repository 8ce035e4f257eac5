//! tictactoe — seed 001's tic-tac-toe, judge-style: the board, its winner, and perfect play.
//!
//! Input: three lines of three characters, `X`, `O` or `.` (X moves first, so X is to move
//! when both have as many marks).
//! Output: the board drawn as the seed draws it (`X | X | X` rows between `---------`
//! rules, an empty cell a space), then `winner: X`, `O`, `draw` or `none`. While the game
//! goes on, also: the side to move, its best move (the first optimal one in cell order, as
//! an index 0..8 and as (row, col)), the minimax value for the side to move (+1 win, 0 draw,
//! −1 loss), and the positions visited by plain minimax and by alpha-beta.
//! `--trace` prints the rest of the game under perfect play to stderr.
//!
//! A board that cannot arise in a game (wrong counts, two winners, play after a win), a
//! wrong symbol or a row of the wrong length is one line on stderr and exit status 1.

use games::judge::{self, InputError, Options, Tokens};
use games::search::{alpha_beta, minimax, Game, FULL_WINDOW};
use games::tictactoe::{mark, Board, SYMBOLS};
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
tictactoe: the tutorial's tic-tac-toe (seed 001): the board, its winner and perfect play.

input:  three rows of three characters: X, O or . (X moves first).
output: the board drawn as the tutorial draws it, `winner: X`, `O`, `draw` or `none`;
        while the game goes on also the side to move, the best move as a cell index
        0..8 (row-major) and as a 0-based (row, column), the value for the side to move
        (+1 win, 0 draw, -1 loss), and the nodes of minimax and alpha-beta.
A board that cannot arise in a game or a malformed row is one line on stderr naming the
input line, exit status 1.
";

fn main() {
    judge::run("tictactoe", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let mut cells = Vec::with_capacity(9);
    for r in 0..3 {
        cells.extend(tokens.grid_row("a row of three X, O or .", Some(r), 3, &SYMBOLS)?);
    }
    let last = tokens.clone();
    tokens.finish()?;
    let board = Board::from_cells(&cells).map_err(|e| last.rule_error(e))?;

    let _ = write!(out, "{board}");
    match (board.winner(), board.is_full()) {
        (Some(winner), _) => {
            let _ = writeln!(out, "winner: {}", mark(winner));
        }
        (None, true) => {
            let _ = writeln!(out, "winner: draw");
        }
        (None, false) => {
            let _ = writeln!(out, "winner: none");
            let plain = minimax(&board);
            let pruned = alpha_beta(&board, FULL_WINDOW);
            let best = plain.best.expect("a game that goes on has a move");
            let mover = mark(board.to_move());
            let (value, verdict) = match plain.value {
                1 => ("+1", "win"),
                0 => ("0", "draw"),
                _ => ("-1", "loss"),
            };
            let _ = writeln!(out, "to move: {mover}");
            let _ = writeln!(out, "best move: {best} ({}, {})", best / 3, best % 3);
            let _ = writeln!(out, "value for {mover}: {value} ({verdict})");
            let _ = writeln!(out, "minimax nodes: {}", plain.nodes);
            let _ = writeln!(out, "alpha-beta nodes: {}", pruned.nodes);
            if options.trace {
                let mut game = board;
                while let Some(mv) = alpha_beta(&game, FULL_WINDOW).best {
                    eprintln!("{} plays {mv}", mark(game.to_move()));
                    game = game.after(mv).expect("the search's move is legal");
                    eprintln!("{game}");
                }
            }
        }
    }
    Ok(())
}
