//! A game in progress: the board, the ko rule and the positions seen (for superko), whose
//! turn it is, passes, komi and the area result.

use super::board::{code, Effect};
use super::{Board, IllegalMove, Move, Point};
use crate::Color;
use std::collections::HashSet;

/// Which repetitions a [`Position`] forbids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// None: positions may repeat.
    None,
    /// Simple ko (seed 000): a move may not recreate the position that stood just before the
    /// previous move, whoever played it.
    Simple,
    /// Positional superko: a move may not recreate any earlier position of the game, the
    /// starting one included. (A simple-ko violation is still reported as [`IllegalMove::Ko`].)
    PositionalSuperko,
}

/// A position in a game of Go: a board, a ko rule, the positions seen so far, whose turn it is and how many
/// passes ended the move sequence.
///
/// The history starts with the initial position; every accepted move, passes included, adds
/// the position it leaves; a refused move changes nothing.
#[derive(Clone, Debug)]
pub struct Position {
    pub(super) board: Board,
    pub(super) rule: KoRule,
    /// Hashes of every position of the game so far (for positional superko).
    pub(super) seen: HashSet<u64>,
    pub(super) to_move: Color,
    pub(super) passes: u32,
    /// Points given to White for moving second (area scoring).
    pub(super) komi: f64,
}

impl Position {
    /// A game from `board`, Black to move, no komi.
    pub fn new(board: Board, rule: KoRule) -> Position {
        let seen = std::iter::once(board.hash()).collect();
        Position {
            board,
            rule,
            seen,
            to_move: Color::Black,
            passes: 0,
            komi: 0.0,
        }
    }

    /// The same game with `komi` points for White in the final score.
    pub fn with_komi(mut self, komi: f64) -> Position {
        self.komi = komi;
        self
    }

    /// The komi.
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Black's area score minus White's and the komi: positive when Black is ahead.
    pub fn margin(&self) -> f64 {
        area_margin(&self.board, self.komi)
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The ko rule.
    pub fn rule(&self) -> KoRule {
        self.rule
    }

    /// Whose turn it is: the opponent of whoever moved last.
    pub fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// Gives the turn to `color`.
    pub fn set_side_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// Passes in a row at the end of the game so far; two end the game.
    pub fn consecutive_passes(&self) -> u32 {
        self.passes
    }

    /// Forgets the passes that ended the game, so that play can go on (a Go protocol
    /// controller may ask for more moves after two passes, to settle dead stones).
    pub fn resume(&mut self) {
        self.passes = 0;
    }

    /// Whether two passes in a row ended the game.
    pub fn is_over(&self) -> bool {
        self.passes >= 2
    }

    fn effect(&self, color: Color, p: Point) -> Result<Effect, IllegalMove> {
        self.board
            .effect_under(self.rule, code(color), usize::from(p.0), |hash| {
                self.seen.contains(&hash)
            })
    }

    /// Whether `color` may play `mv` now. Passing is always legal.
    ///
    /// # Errors
    ///
    /// The reason the move is illegal.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        match mv {
            Move::Pass => Ok(()),
            Move::Play(p) => self.effect(color, p).map(|_| ()),
        }
    }

    /// Plays `mv` for `color` (whoever's turn it was) and returns the captured points as
    /// 0-based (row, column), sorted; the turn passes to `color`'s opponent.
    ///
    /// # Errors
    ///
    /// The reason the move is illegal; nothing changes then.
    pub fn play_as(&mut self, color: Color, mv: Move) -> Result<Vec<(usize, usize)>, IllegalMove> {
        let mut captured = Vec::new();
        match mv {
            Move::Pass => {
                self.board.ko = 0;
                self.passes += 1;
            }
            Move::Play(p) => {
                let effect = self.effect(color, p)?;
                for &h in &effect.captured[..effect.captured_chains] {
                    captured.extend(
                        self.board
                            .stones_of(usize::from(h))
                            .map(|s| self.board.coords(Point(s as u16))),
                    );
                }
                captured.sort_unstable();
                let p = usize::from(p.0);
                let at = self.board.empty_index(p);
                self.board.apply::<true>(color, p, at);
                debug_assert_eq!(self.board.hash, effect.hash);
                self.passes = 0;
            }
        }
        self.seen.insert(self.board.hash());
        self.to_move = color.opponent();
        Ok(captured)
    }

    /// Plays `mv` for the side to move; see [`Position::play_as`].
    ///
    /// # Errors
    ///
    /// The reason the move is illegal; nothing changes then.
    pub fn play(&mut self, mv: Move) -> Result<Vec<(usize, usize)>, IllegalMove> {
        self.play_as(self.to_move, mv)
    }

    /// The legal moves of the side to move: points in row-major order, then the pass.
    pub fn legal_moves(&self) -> Vec<Move> {
        let color = self.to_move;
        self.board
            .points()
            .filter(|&p| self.effect(color, p).is_ok())
            .map(Move::Play)
            .chain(std::iter::once(Move::Pass))
            .collect()
    }
}

/// Black's area score on `board` minus White's and `komi`.
pub(super) fn area_margin(board: &Board, komi: f64) -> f64 {
    let (black, white) = board.area_score();
    black as f64 - white as f64 - komi
}

/// +1, 0 or −1 for `color`, given Black's margin (area minus White's area and komi).
pub(super) fn result_for(color: Color, black_margin: f64) -> i32 {
    let black = if black_margin > 0.0 {
        1
    } else if black_margin < 0.0 {
        -1
    } else {
        0
    };
    match color {
        Color::Black => black,
        Color::White => -black,
    }
}

impl Position {
    /// Once two passes have ended the game: +1 if the side to move wins on area with komi,
    /// −1 if it loses, 0 on a tie; `None` while it goes on.
    pub fn result(&self) -> Option<i32> {
        self.is_over()
            .then(|| result_for(self.to_move, self.margin()))
    }
}
