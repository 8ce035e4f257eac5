//! Go as a [`Game`]: points and the pass, two passes end the game, area scoring with komi.

use crate::go::{Move, Position};
use crate::search::Game;
use crate::Color;

impl Game for Position {
    type Move = Move;

    fn side(&self) -> Color {
        self.side_to_move()
    }

    /// The legal moves of the side to move ([`Position::legal_moves`], the pass last); none
    /// once two passes have ended the game.
    fn moves(&self) -> Vec<Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.legal_moves()
        }
    }

    fn after(&self, mv: Move) -> Option<Position> {
        if self.is_over() {
            return None;
        }
        let mut next = self.clone();
        next.play(mv).ok()?;
        Some(next)
    }

    /// [`Position::result`]: after two passes, +1 if the side to move wins on area with
    /// komi, −1 if it loses, 0 on a tie.
    fn score(&self) -> Option<i32> {
        self.result()
    }
}
