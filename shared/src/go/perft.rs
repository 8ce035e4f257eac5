//! Perft: the leaves of the game tree to a depth, the rules' own test against published
//! tables.

use super::board::{code, Effect};
use super::{Board, KoRule, Position};
use crate::Color;

/// Counts the leaves of the game tree `depth` plies deep from `game`, under its ko rule.
///
/// Convention (the `board-game` crate's, used for the CGOS tables in `tests/data/go/`):
/// a pass is a move and always legal; two passes in a row end the game; a line that ended
/// before the horizon counts 0, one that ends exactly on it counts 1.
///
/// # Examples
///
/// ```
/// use games::go::perft::perft;
/// use games::go::{Board, KoRule, Position};
///
/// let game = Position::new(Board::new(3, 3).unwrap(), KoRule::PositionalSuperko);
/// assert_eq!(perft(&game, 2), 91);
/// ```
pub fn perft(game: &Position, depth: u32) -> u64 {
    let mut search = Perft {
        boards: vec![game.board.clone(); depth as usize + 1],
        history: game.seen.iter().copied().collect(),
        rule: game.rule,
    };
    search.count(0, game.to_move, game.passes, depth)
}

struct Perft {
    /// One board per ply, reused: `boards[ply]` is the position at that ply.
    boards: Vec<Board>,
    /// Hashes of the positions so far: the game's, then the path's.
    history: Vec<u64>,
    rule: KoRule,
}

impl Perft {
    #[inline(always)]
    fn legal(&self, board: &Board, color: Color, p: usize) -> Option<Effect> {
        board
            .effect_under(self.rule, code(color), p, |hash| {
                self.history.contains(&hash)
            })
            .ok()
    }

    fn count(&mut self, ply: usize, color: Color, passes: u32, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if passes >= 2 {
            return 0;
        }
        let board = &self.boards[ply];
        if depth == 1 {
            let placements = board
                .empty_list()
                .iter()
                .filter(|&&p| self.legal(board, color, usize::from(p)).is_some())
                .count();
            return placements as u64 + 1;
        }
        let mut leaves = 0;
        for i in 0..board.empty_count() {
            let p = usize::from(self.boards[ply].c.empties[i]);
            if let Some(effect) = self.legal(&self.boards[ply], color, p) {
                self.copy_down(ply);
                self.boards[ply + 1].apply::<true>(color, p, i);
                self.history.push(effect.hash);
                leaves += self.count(ply + 1, color.opponent(), 0, depth - 1);
                self.history.pop();
            }
        }
        // The pass: same stones, so nothing new for the history; the ko point lapses.
        self.copy_down(ply);
        self.boards[ply + 1].ko = 0;
        leaves + self.count(ply + 1, color.opponent(), passes + 1, depth - 1)
    }

    /// Copies the position at `ply` into the next ply's board.
    fn copy_down(&mut self, ply: usize) {
        let (done, rest) = self.boards.split_at_mut(ply + 1);
        rest[0].clone_from(&done[ply]);
    }
}
