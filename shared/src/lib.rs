//! Rules and search for the board games of our judge problems.
//!
//! One module per game. The crate uses only `std` (no dependencies, no build script, no
//! procedural macros), so a solver and the modules it reaches inline into one file that
//! plain `rustc` compiles on an online judge.
//!
//! The layers, bottom up (a module uses only those above it in this list):
//!
//! - [`color`]: the one player type, [`Color`]: Black and White, or X and O.
//! - [`checksum`]: FNV-1a, the checksum of the binary files the crate writes.
//! - [`grid`]: boards written as text, read one way for every game.
//! - [`rng`]: a small seedable random number generator for playouts and searches.
//! - Rules, one module per game, which know nothing of search:
//!   [`othello`] (4×4, 6×6, 8×8 bitboards, perft), [`go`] (captures, suicide, simple ko,
//!   positional superko; playouts and perft in their own files), [`tictactoe`] (3×3 and
//!   4×4), and [`alphago`] (seed 004's network and its simplified game).
//! - [`judge`]: reading judge input with line numbers and typed errors; the solvers' `main`.
//! - Search: [`search`] (the [`search::Game`] trait, its implementations for every game,
//!   minimax, alpha-beta, alpha-beta with a table), [`mcts`] (PUCT over the trait, with the
//!   network or playouts as evaluator) and [`endgame`] (exact Othello solving).
//! - [`nn`]: policy/value networks for any square board (the seed's architecture
//!   generalised), their weights file, and the network as an evaluator for [`mcts`].
//!
//! A judge bundle inlines only the files a solver reaches, so an Othello replay carries the
//! Othello rules and the judge reader, and no search.

pub mod alphago;
pub mod checksum;
pub mod color;
pub mod endgame;
pub mod go;
pub mod grid;
pub mod judge;
pub mod mcts;
pub mod nn;
pub mod othello;
pub mod rng;
pub mod search;
pub mod tictactoe;

pub use color::Color;
pub use go::Board as GoBoard;
pub use othello::Board as OthelloBoard;
