//! The FFO endgame test positions #40–#59 (`tests/data/othello/ffo-40-59.obf`, copied from
//! the project's reference data, which has them in Edax's format with the exact score of
//! every move), shared by the endgame test and the FFO benchmark.
//!
//! A line: 64 characters `X` (Black), `O` (White), `-` row by row from a1 (the top-left
//! corner, row 1), a space, the side to move `X` or `O`, then `move:score;` pairs, best
//! first, scores for the side to move.

// The test and the bench each use a part of this module.
#![allow(dead_code)]

use games::othello::{Bitboard, Board, Square};
use games::Color;

/// One FFO position and the exact scores of its moves.
pub struct Ffo {
    /// Its number, 40 to 59.
    pub number: usize,
    /// The position, its side to move set.
    pub board: Board,
    /// Every legal move with its exact score, best first.
    pub moves: Vec<(Square, i32)>,
}

impl Ffo {
    /// The position's exact score: its best move's.
    pub fn score(&self) -> i32 {
        self.moves[0].1
    }
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
    }
}
