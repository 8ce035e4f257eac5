//! Tic-tac-toe as a [`Game`]: the seed's `TicTacToe` class, whose interface the trait is.

use crate::search::Game;
use crate::tictactoe::Board;
use crate::Color;

impl Game for Board {
    /// A cell index, row-major: `0..9` or `0..16`.
    type Move = usize;

    fn side(&self) -> Color {
        self.to_move()
    }

    /// The empty cells in row-major order, none once the game is over.
    fn moves(&self) -> Vec<usize> {
        self.legal_moves()
    }

    fn after(&self, cell: usize) -> Option<Board> {
        self.place(cell)
    }

    /// −1 when the game was won (by the player who just moved), 0 for a draw.
    fn score(&self) -> Option<i32> {
        if self.winner().is_some() {
            Some(-1)
        } else if self.is_full() {
            Some(0)
        } else {
            None
        }
    }
}
