//! Seed 004's simplified game as a [`Game`].

use crate::alphago::SeedGame;
use crate::search::Game;
use crate::Color;

impl Game for SeedGame {
    /// A point, row-major `0..49`.
    type Move = usize;

    fn side(&self) -> Color {
        self.side_to_move()
    }

    fn moves(&self) -> Vec<usize> {
        self.legal_moves()
    }

    fn after(&self, k: usize) -> Option<SeedGame> {
        self.place(k)
    }

    /// +1 if the side to move has more stones, −1 if fewer, 0 if as many.
    fn score(&self) -> Option<i32> {
        if !self.is_over() {
            return None;
        }
        let me = self.side_to_move();
        Some(match self.count(me).cmp(&self.count(me.opponent())) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        })
    }
}
