//! Seed 004's simplified game: stones on empty points, no captures, 44 moves.

use super::{Planes, CELLS};
use crate::Color;

/// Seed 004's simplified game on 7×7: a stone may go on any empty point, nothing is ever
/// captured, and the game ends after 44 moves or when the board is full; more stones wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedGame {
    cells: [Option<Color>; CELLS],
    to_move: Color,
    moves: u8,
}

/// The seed's move limit.
pub const MOVE_LIMIT: u8 = 44;

impl SeedGame {
    /// The empty board, Black to move.
    pub fn new() -> SeedGame {
        SeedGame {
            cells: [None; CELLS],
            to_move: Color::Black,
            moves: 0,
        }
    }

    /// A position: the stones of `cells`, row-major, and the side to move; the moves made so
    /// far are the stones on the board (nothing is ever captured).
    pub fn from_cells(cells: [Option<Color>; CELLS], to_move: Color) -> SeedGame {
        let moves = cells.iter().filter(|c| c.is_some()).count() as u8;
        SeedGame {
            cells,
            to_move,
            moves,
        }
    }

    /// The stone on point `k` (row-major), if any.
    pub fn at(&self, k: usize) -> Option<Color> {
        self.cells[k]
    }

    /// Whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// Moves made so far.
    pub fn moves_made(&self) -> u8 {
        self.moves
    }

    /// Stones of `color` on the board.
    pub fn count(&self, color: Color) -> usize {
        self.cells.iter().filter(|&&c| c == Some(color)).count()
    }

    /// The network's input planes for the side to move.
    pub fn planes(&self) -> Planes {
        let mut planes = [[0.0; 3]; CELLS];
        for (plane, &cell) in planes.iter_mut().zip(&self.cells) {
            match cell {
                None => plane[2] = 1.0,
                Some(c) if c == self.to_move => plane[0] = 1.0,
                Some(_) => plane[1] = 1.0,
            }
        }
        planes
    }

    /// Whether the game is over: 44 moves made, or no empty point.
    pub fn is_over(&self) -> bool {
        self.moves >= MOVE_LIMIT || !self.cells.contains(&None)
    }

    /// Which points are empty.
    pub fn empty_mask(&self) -> [bool; CELLS] {
        let mut mask = [false; CELLS];
        for (m, c) in mask.iter_mut().zip(&self.cells) {
            *m = c.is_none();
        }
        mask
    }

    /// The legal moves: the empty points (row-major), none once the game is over.
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.is_over() {
            Vec::new()
        } else {
            (0..CELLS).filter(|&k| self.cells[k].is_none()).collect()
        }
    }

    /// The position after the side to move plays on point `k`, or `None` if that is not
    /// legal. `self` is unchanged.
    pub fn place(&self, k: usize) -> Option<SeedGame> {
        if self.is_over() || k >= CELLS || self.cells[k].is_some() {
            return None;
        }
        let mut next = *self;
        next.cells[k] = Some(self.to_move);
        next.to_move = self.to_move.opponent();
        next.moves += 1;
        Some(next)
    }
}

impl Default for SeedGame {
    fn default() -> SeedGame {
        SeedGame::new()
    }
}
