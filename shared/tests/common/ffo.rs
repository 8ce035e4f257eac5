//! The FFO endgame test positions #40–#59 (`tests/data/othello/ffo-40-59.obf`, copied from
//! the project's reference data, which has them in Edax's format with the exact score of
//! every move), shared by the endgame test and the FFO benchmark, with the check of a
//! solution and the replay of a line that both use.
//!
//! A line: 64 characters `X` (Black), `O` (White), `-` row by row from a1 (the top-left
//! corner, row 1), a space, the side to move `X` or `O`, then `move:score;` pairs, best
//! first, scores for the side to move.

// The test and the bench each use a part of this module.
#![allow(dead_code)]

use games::endgame::Solution;
use games::othello::{Bitboard, Board, Move, Square};
use games::search::Game;
use games::Color;

/// One FFO position and the exact scores of its moves.
pub struct Ffo {
    /// Its number, 40 to 59.
    pub number: usize,
    /// The position, its side to move set.
    pub board: Board,
    /// Every legal move with its exact score, best first.
    pub moves: Vec<(Square, i32)>,
    /// The position as a line of Zebra's endgame script: the 64 cells, a space, `X` or `O`.
    pub script: String,
}

impl Ffo {
    /// The position's exact score: its best move's.
    pub fn score(&self) -> i32 {
        self.moves[0].1
    }

    /// Whether `solution` is right: the published score, a line that starts with one of the
    /// moves of that score, and a line that replays to it.
    ///
    /// # Errors
    ///
    /// What is wrong.
    pub fn check(&self, solution: &Solution) -> Result<(), String> {
        if solution.score != self.score() {
            return Err(format!(
                "score {:+}, published {:+}",
                solution.score,
                self.score()
            ));
        }
        let best: Vec<Square> = self
            .moves
            .iter()
            .filter(|m| m.1 == self.score())
            .map(|m| m.0)
            .collect();
        match solution.pv.first() {
            Some(Move::Play(first)) if best.contains(first) => {}
            other => {
                return Err(format!(
                    "the line starts with {other:?}, not one of {best:?}"
                ))
            }
        }
        match line_score(&self.board, &solution.pv)? {
            end if end == solution.score => Ok(()),
            end => Err(format!(
                "the line ends on {end:+}, not {:+}",
                solution.score
            )),
        }
    }
}

/// Replays `pv` from `start` to the end of the game: the final score for the side that was
/// to move at the start.
///
/// # Errors
///
/// An illegal move of the line, or a line that stops before the end of the game.
pub fn line_score(start: &Board, pv: &[Move]) -> Result<i32, String> {
    let mut board = *start;
    for &mv in pv {
        board = board
            .after(mv)
            .ok_or_else(|| format!("{mv:?} is illegal in\n{board:?}"))?;
    }
    let end = board
        .score()
        .ok_or_else(|| format!("the line stops before the end:\n{board:?}"))?;
    Ok(if board.side() == start.side() {
        end
    } else {
        -end
    })
}

/// All twenty positions, #40 first.
///
/// # Panics
///
/// If the file is missing or a line is not in the format above.
pub fn load() -> Vec<Ffo> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/othello/ffo-40-59.obf"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, line)| parse(40 + i, line))
        .collect()
}

fn parse(number: usize, line: &str) -> Ffo {
    let fail = |why: &str| -> ! { panic!("FFO #{number}: {why}: {line}") };
    let mut fields = line.split(';');
    let head = fields.next().unwrap_or_else(|| fail("empty line"));
    let (cells, side) = head
        .split_once(' ')
        .unwrap_or_else(|| fail("no side to move"));
    if cells.len() != 64 {
        fail("not 64 cells");
    }
    let (mut black, mut white) = (Bitboard(0), Bitboard(0));
    for (i, c) in cells.chars().enumerate() {
        let sq = Square::from_index(i).bitboard();
        match c {
            'X' => black = black | sq,
            'O' => white = white | sq,
            '-' => {}
            _ => fail("a cell is not X, O or -"),
        }
    }
    let to_move = match side.trim() {
        "X" => Color::Black,
        "O" => Color::White,
        _ => fail("the side to move is not X or O"),
    };
    let board =
        Board::from_discs(8, black, white, to_move).unwrap_or_else(|e| fail(&e.to_string()));
    let moves = fields
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|pair| {
            let (sq, score) = pair
                .split_once(':')
                .unwrap_or_else(|| fail("a pair without ':'"));
            let sq: Square = sq
                .to_ascii_lowercase()
                .parse()
                .unwrap_or_else(|_| fail("a bad square"));
            let score: i32 = score
                .trim_start_matches('+')
                .parse()
                .unwrap_or_else(|_| fail("a bad score"));
            (sq, score)
        })
        .collect();
    Ffo {
        number,
        board,
        moves,
        script: format!("{cells} {}", side.trim()),
    }
}
