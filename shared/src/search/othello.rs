//! Othello as a [`Game`]: a forced pass is a move, and a finished game scores the disc
//! difference with the empty squares counted for the winner.

use crate::othello::{Board, Move};
use crate::search::Game;
use crate::Color;

impl Game for Board {
    type Move = Move;

    fn side(&self) -> Color {
        self.side_to_move()
    }

    /// [`Board::legal_moves`]: the placements, `[Pass]` when there are none, nothing once
    /// neither side can move.
    fn moves(&self) -> Vec<Move> {
        self.legal_moves()
    }

    fn after(&self, mv: Move) -> Option<Board> {
        self.with_move(mv)
    }

    /// [`Board::final_margin`] once neither player can move.
    fn score(&self) -> Option<i32> {
        self.is_game_over().then(|| self.final_margin())
    }
}
