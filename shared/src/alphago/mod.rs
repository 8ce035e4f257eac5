//! Seed 004's mini AlphaGo: a 7×7 policy/value network with the seed's random weights, and
//! the seed's simplified game. Files: `numpy` (numpy's generator), `network` (the network and
//! its numpy-order arithmetic), `seed_game` (the seed's game). The search over them is
//! [`crate::mcts`], which also holds the adapters that make the network an evaluator.
//!
//! **The weights.** The seed draws them with `np.random.seed(42)` and `np.random.randn`:
//! numpy's legacy `RandomState`, MT19937 and the polar Box–Muller Gaussian that keeps its
//! second value for the next call. [`NumpyRandom`] is that generator, so [`Network::seed`]
//! holds exactly the seed's weights.
//!
//! **The arithmetic.** The seed sums each convolution window with `np.sum`, which adds
//! pairwise: eight running sums over blocks of eight, combined as a tree, arrays of more than
//! 128 terms split in two halves first. [`Network::policy_value`] adds in that order, and
//! multiplies before adding as numpy does (no fused multiply-add), so the convolutions and
//! the policy are bit-for-bit numpy's. Terms whose input is zero (padding, empty planes,
//! ReLU zeros) are skipped: adding `±0` never changes a sum that is not itself zero. Only
//! the last dense layer differs: numpy hands `Wd.T @ h` to OpenBLAS, whose summation order
//! is its own; ours is left to right, a difference in the last bits of the value.
//!
//! **The network.** Input: three 7×7 planes (the side to move's stones, the opponent's,
//! the empty points). Two 3×3 same-padding convolutions with ReLU (16 channels) give shared
//! features, computed once per position; a policy head (3×3 convolution to one channel,
//! illegal points masked by adding `ln(1e-10)`, softmax) and a value head (3×3 convolution
//! to 4 channels, ReLU, dense, tanh).
//!
//! # Examples
//!
//! ```
//! use games::alphago::{Network, SeedGame};
//!
//! let net = Network::seed();
//! let (priors, value) = net.policy_value(&SeedGame::new().planes(), &[true; 49]);
//! assert!((priors.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! assert!(value.abs() < 1.0);
//! ```

mod network;
mod numpy;
mod seed_game;

pub use network::{Network, Planes, CELLS, SIDE};
pub use numpy::NumpyRandom;
pub use seed_game::{SeedGame, MOVE_LIMIT};
