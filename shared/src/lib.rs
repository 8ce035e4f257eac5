//! Rules and search for the board games of our judge problems.
//!
//! One module per game. The crate uses only `std` (no dependencies, no build script, no
//! procedural macros), so a solver and the modules it reaches inline into one file that
//! plain `rustc` compiles on an online judge.
//!
//! - [`othello`]: Othello on 4×4, 6×6 and 8×8 bitboards, with perft.
//! - [`endgame`]: exact Othello solving (alpha-beta with a table, for 4×4, 6×6, 8×8).
//! - [`go`]: Go with captures, suicide, simple ko and positional superko, perft, playouts.
//! - [`tictactoe`]: 3×3 and 4×4 tic-tac-toe.
//! - [`search`]: the [`search::Game`] trait and exact searches over it: minimax,
//!   alpha-beta, alpha-beta with a transposition table.
//! - [`rng`]: a small seedable random number generator for playouts and searches.
//! - [`mcts`]: Monte Carlo tree search with PUCT over [`search::Game`], with network or
//!   playout evaluation.
//! - [`alphago`]: seed 004's 7×7 policy/value network and simplified game.
//! - [`judge`]: reading judge input with line numbers and typed errors; the solvers' `main`.

pub mod alphago;
pub mod color;
pub mod endgame;
pub mod go;
pub mod grid;
pub mod judge;
pub mod mcts;
pub mod othello;
pub mod rng;
pub mod search;
pub mod tictactoe;

pub use color::Color;
pub use go::Board as GoBoard;
pub use othello::Board as OthelloBoard;
