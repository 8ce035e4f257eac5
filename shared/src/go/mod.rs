//! Go: captures, suicide, simple ko and positional superko, on boards up to 20×20.
//!
//! The board is a padded 1-D array (michi's layout): `cols + 1` cells per row, the extra cell
//! being a border shared by the row's right edge and the next row's left edge, with a border
//! row above and below. The four neighbours of `p` are `p ± 1` and `p ± stride`, with no
//! bounds checks. Stones of one chain form a circular linked list; each chain's head keeps
//! its size, its Zobrist hash and its *pseudo-liberties* — the number of (stone, empty
//! neighbour) pairs, which is zero exactly when the chain has no liberty. From these, a move's
//! legality, its captures and the hash of the position it makes are known in O(1) before
//! anything is changed; playing costs time in proportion to the chains it touches (merging
//! relabels the smaller chain, a capture walks the captured stones), never a flood fill.
//!
//! A move follows seed 003's order: put the stone down, remove every adjacent enemy chain
//! left without a liberty, and only then, if the stone's own chain has no liberty, refuse the
//! move as suicide (leaving the board as it was).
//!
//! # Examples
//!
//! Seed 000's ko: Black captures at (1, 2), White may not take back at once.
//!
//! ```
//! use games::go::{IllegalMove, KoRule, Move, Position};
//! use games::Color;
//!
//! let board = ". X O . .
//!              X O . O .
//!              . X O . .
//!              . . . . .
//!              . . . . .".parse().unwrap();
//! let mut game = Position::new(board, KoRule::Simple);
//! let at = |r, c| Move::Play(game.board().point(r, c).unwrap());
//! let (b12, w11) = (at(1, 2), at(1, 1));
//! let captured = game.play_as(Color::Black, b12).unwrap();
//! assert_eq!(captured, [(1, 1)]);
//! assert_eq!(game.play_as(Color::White, w11), Err(IllegalMove::Ko));
//! assert_eq!(
//!     game.board().to_string(),
//!     ". X O . .\nX . X O .\n. X O . .\n. . . . .\n. . . . .\n"
//! );
//! ```

//!
//! Files, one concern each: `board` (the core above), `position` (a game with ko,
//! superko, passes and komi), `text` (boards and rules as text), `error` (why something is
//! refused), [`playout`] (light and heavy playouts), `patterns` (the 3×3 shapes heavy playouts
//! answer) and [`perft`].

mod board;
mod error;
mod patterns;
pub mod perft;
pub mod playout;
mod position;
mod text;

pub use board::{Board, Chain, Move, Point, MAX_SIDE};
pub use error::{IllegalMove, ParseKoRuleError, SetupError, SizeError};
pub use position::{KoRule, Position};
pub use text::{SIDES, SYMBOLS};
