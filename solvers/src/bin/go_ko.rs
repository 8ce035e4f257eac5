//! go_ko — the seeds' Go capture and ko scenarios as a judge-style program.
//!
//! Input:
//! ```text
//! N K RULE            board size 1..=19, number of moves 0..=100000, RULE: simple superko none
//! N lines of N chars  '.' empty, 'X' black, 'O' white
//! K lines             "X r c" or "O r c" (0-based row and column, as in the seeds), or "X pass"
//! ```
//! Colours need not alternate. The ko history starts with the initial board; a refused move
//! changes nothing and does not enter the history; a pass enters it (board unchanged).
//!
//! Output: one line per move — `X (r, c): captured [(r, c), ...]` (sorted, `[]` when none),
//! `X (r, c): ko`, `: superko`, `: suicide`, `: occupied`, or `X pass` — then the final board
//! with the points separated by single spaces, as the seeds print it.
//!
//! Bad input (a size out of range, a row of the wrong length, an unknown symbol, a chain
//! without a liberty on the initial board, a move line that is not `C r c` or `C pass`,
//! coordinates off the board, too few lines) is one line on stderr and exit status 1.

use games::go::{Board, KoRule, Move, Position, SYMBOLS};
use games::judge::{self, InputError, Options, Tokens};
use games::Color;
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
go_ko: the Go capture and ko scenarios of the tutorials (seeds 000 and 003).

input:  `N K RULE`: the board size (1..=19), the number of moves (0..=100000) and the ko
        rule: simple, superko or none. Then N rows of N characters: . empty, X black,
        O white. Then K moves `X r c`, `O r c` (row and column 0-based, as in the
        tutorials: 0 0 is the top-left point) or `X pass`; colours need not alternate.
output: one line per move: `X (r, c): captured [(r, c), ...]`, `X (r, c): ko`, `superko`,
        `suicide`, `occupied` (refused moves change nothing), or `X pass`; then the final
        board, points separated by spaces. Coordinates are 0-based.
A malformed line, a point off the board or a chain without a liberty at the start is one
line on stderr naming the input line, exit status 1.
";

fn main() {
    judge::run("go_ko", USAGE, solve)
}

const MAX_MOVES: usize = 100_000;

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let n = tokens.parse_in("the board size N", 1..=19usize)?;
    let moves = tokens.parse_in("the number of moves K", 0..=MAX_MOVES)?;
    let rule: KoRule = tokens
        .token("the ko rule (simple, superko or none)")?
        .parse()
        .map_err(|e| tokens.rule_error(e))?;

    let mut stones = Vec::new();
    let mut row_lines = Vec::with_capacity(n);
    for r in 0..n {
        let row = tokens.grid_row("a board row", Some(r), n, &SYMBOLS)?;
        row_lines.push(tokens.line());
        stones.extend(
            row.into_iter()
                .enumerate()
                .filter_map(|(c, cell)| Some((r, c, cell?))),
        );
    }
    let board = Board::with_stones(n, n, stones).map_err(|e| {
        let line = match e {
            games::go::SetupError::NoLiberty { row, .. } => row_lines[row],
            _ => tokens.line(),
        };
        InputError::new(line, judge::ErrorKind::Rule(Box::new(e)))
    })?;
    let mut game = Position::new(board, rule);

    for _ in 0..moves {
        let (color, symbol) = match tokens.token("a colour (X or O)")? {
            "X" => (Color::Black, 'X'),
            "O" => (Color::White, 'O'),
            other => {
                return Err(tokens.rule_error(format!("a move starts with X or O, not {other:?}")))
            }
        };
        let where_ = tokens.token("a row or `pass`")?;
        if where_ == "pass" {
            // Passing is always legal.
            let _ = game.play_as(color, Move::Pass);
            let _ = writeln!(out, "{symbol} pass");
        } else {
            let row = tokens.number_in(where_, "a row or `pass`", 0..=n - 1)?;
            let col = tokens.parse_in("a column", 0..=n - 1)?;
            let point = game
                .board()
                .point(row, col)
                .ok_or_else(|| tokens.rule_error("the point is off the board"))?;
            match game.play_as(color, Move::Play(point)) {
                Ok(captured) => {
                    let list: Vec<String> = captured
                        .iter()
                        .map(|(r, c)| format!("({r}, {c})"))
                        .collect();
                    let _ = writeln!(
                        out,
                        "{symbol} ({row}, {col}): captured [{}]",
                        list.join(", ")
                    );
                }
                Err(reason) => {
                    let _ = writeln!(out, "{symbol} ({row}, {col}): {reason}");
                }
            }
        }
        if options.trace {
            eprintln!("{}", out.lines().last().unwrap_or_default());
            eprintln!("{}", game.board());
        }
    }
    tokens.finish()?;
    let _ = write!(out, "{}", game.board());
    Ok(())
}
