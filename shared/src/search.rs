//! Game-tree search over a small trait: plain minimax (seed 001's lesson), alpha-beta in
//! negamax form, and alpha-beta with a transposition table.
//!
//! **Point of view.** Every score in this module — [`Game::score`], the `value` of a
//! [`Search`] — is from the point of view of the side to move in the position it belongs
//! to: positive is good for the player about to move. The searches negate a child's value in
//! one place (`-search(child)`), which is all negamax is: the seed's "X maximises, O
//! minimises" without the two branches.
//!
//! These searches are exact: they go to the end of the game, so they suit small games
//! (tic-tac-toe, 4×4 Othello, endgames).
//!
//! # Examples
//!
//! ```
//! use games::search::{alpha_beta, minimax, FULL_WINDOW};
//! use games::tictactoe::Board;
//!
//! let empty = Board::new(3).unwrap();
//! let plain = minimax(&empty);
//! let pruned = alpha_beta(&empty, FULL_WINDOW);
//! assert_eq!(plain.value, 0); // perfect play draws
//! assert_eq!(pruned.value, 0);
//! assert!(pruned.nodes < plain.nodes / 20);
//! ```

use crate::Color;
use std::collections::HashMap;
use std::fmt::Debug;
use std::hash::Hash;

// The games made searchable: each adapter sits above its game's rules, which know nothing
// of search (a judge bundle for a replay carries no search code).
mod go;
mod othello;
mod seed_game;
mod tictactoe;

/// A two-player, zero-sum game with perfect information, as seed 001 describes it: the
/// possible moves, a move that returns a new state and leaves the old one alone, and the
/// score of a finished game.
///
/// Scores are from the point of view of the side to move (see the module docs).
pub trait Game: Clone {
    /// A move. Passing, where the rules have it, is a move too.
    type Move: Copy + Eq + Debug;

    /// Whose turn it is (Black, or X, moves first).
    fn side(&self) -> Color;

    /// The legal moves, in a fixed order; empty exactly when the game is over.
    fn moves(&self) -> Vec<Self::Move>;

    /// The position after `mv`, or `None` if `mv` is not legal here. `self` is unchanged.
    /// (Seed 001 calls this `play`; the name `after` keeps it apart from the games' own
    /// `play(&mut self, ...)` methods.)
    fn after(&self, mv: Self::Move) -> Option<Self>;

    /// The final score for the side to move when the game is over (for example +1 won,
    /// 0 drawn, −1 lost); `None` while it goes on.
    fn score(&self) -> Option<i32>;
}

/// A search result: the value of the position for the side to move, a move that achieves it
/// (the first such in move order; `None` when the game is over), and the nodes visited
/// (positions searched, the root included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Search<M> {
    /// The value for the side to move (exact, or a bound: see [`alpha_beta`]).
    pub value: i32,
    /// A best move.
    pub best: Option<M>,
    /// Positions visited, the root included.
    pub nodes: u64,
}

/// A window wide enough for any score: `alpha_beta` with it returns the exact value.
pub const FULL_WINDOW: (i32, i32) = (-INFINITY, INFINITY);

/// Larger than any score a game returns.
const INFINITY: i32 = i32::MAX / 2;

fn child<G: Game>(game: &G, mv: G::Move) -> G {
    game.after(mv).expect("a move from moves() is legal")
}

/// Plain minimax over the whole game tree: every position is visited.
///
/// # Complexity
///
/// The size of the game tree (549,946 nodes for tic-tac-toe).
pub fn minimax<G: Game>(game: &G) -> Search<G::Move> {
    let mut nodes = 0;
    let (value, best) = minimax_from(game, &mut nodes);
    Search { value, best, nodes }
}

fn minimax_from<G: Game>(game: &G, nodes: &mut u64) -> (i32, Option<G::Move>) {
    *nodes += 1;
    if let Some(score) = game.score() {
        return (score, None);
    }
    let mut best = (-INFINITY, None);
    for mv in game.moves() {
        let value = -minimax_from(&child(game, mv), nodes).0;
        if value > best.0 {
            best = (value, Some(mv));
        }
    }
    best
}

/// Alpha-beta in negamax form, fail-soft, trying moves in the order [`Game::moves`] gives.
///
/// With `window = (alpha, beta)`: a returned value `v` with `alpha < v < beta` is exact;
/// `v <= alpha` means the true value is at most `v`; `v >= beta` that it is at least `v`.
/// [`FULL_WINDOW`] gives the exact value; a window just around the possible results (for
/// tic-tac-toe, `(-1, 1)`) prunes more and still tells win, draw and loss apart.
pub fn alpha_beta<G: Game>(game: &G, window: (i32, i32)) -> Search<G::Move> {
    let mut nodes = 0;
    let (value, best) = alpha_beta_from(game, window.0, window.1, &mut nodes);
    Search { value, best, nodes }
}

fn alpha_beta_from<G: Game>(
    game: &G,
    mut alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> (i32, Option<G::Move>) {
    *nodes += 1;
    if let Some(score) = game.score() {
        return (score, None);
    }
    let mut best = (-INFINITY, None);
    for mv in game.moves() {
        let value = -alpha_beta_from(&child(game, mv), -beta, -alpha, nodes).0;
        if value > best.0 {
            best = (value, Some(mv));
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// What a stored value says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true value is at least the stored one.
    Lower,
    /// The true value is at most the stored one.
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    value: i32,
    bound: Bound,
    best: Option<M>,
}

/// A transposition table for [`alpha_beta_tt`]: what earlier searches learnt about each
/// position. Keep one across searches of related positions to share their work.
#[derive(Clone, Debug)]
pub struct Table<G: Game + Hash + Eq> {
    entries: HashMap<G, Entry<G::Move>>,
}

impl<G: Game + Hash + Eq> Table<G> {
    /// An empty table.
    pub fn new() -> Table<G> {
        Table {
            entries: HashMap::new(),
        }
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl<G: Game + Hash + Eq> Default for Table<G> {
    fn default() -> Table<G> {
        Table::new()
    }
}

/// [`alpha_beta`] with a transposition table: a position met again (by another move order)
/// is answered from `table` when the stored bound settles it for the current window, and
/// otherwise its stored best move is tried first. Values mean the same as for
/// [`alpha_beta`]; `nodes` counts the positions searched, table hits included.
pub fn alpha_beta_tt<G: Game + Hash + Eq>(
    game: &G,
    window: (i32, i32),
    table: &mut Table<G>,
) -> Search<G::Move> {
    let mut nodes = 0;
    let (value, best) = alpha_beta_tt_from(game, window.0, window.1, table, &mut nodes);
    Search { value, best, nodes }
}

fn alpha_beta_tt_from<G: Game + Hash + Eq>(
    game: &G,
    mut alpha: i32,
    mut beta: i32,
    table: &mut Table<G>,
    nodes: &mut u64,
) -> (i32, Option<G::Move>) {
    *nodes += 1;
    if let Some(score) = game.score() {
        return (score, None);
    }
    let (alpha0, beta0) = (alpha, beta);
    let mut first = None;
    if let Some(entry) = table.entries.get(game) {
        match entry.bound {
            Bound::Exact => return (entry.value, entry.best),
            Bound::Lower => alpha = alpha.max(entry.value),
            Bound::Upper => beta = beta.min(entry.value),
        }
        if alpha >= beta {
            return (entry.value, entry.best);
        }
        first = entry.best;
    }
    let mut moves = game.moves();
    if let Some(pos) = first.and_then(|m| moves.iter().position(|&x| x == m)) {
        moves[..=pos].rotate_right(1);
    }
    let mut best = (-INFINITY, None);
    for mv in moves {
        let value = -alpha_beta_tt_from(&child(game, mv), -beta, -alpha, table, nodes).0;
        if value > best.0 {
            best = (value, Some(mv));
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
    }
    let bound = if best.0 <= alpha0 {
        Bound::Upper
    } else if best.0 >= beta0 {
        Bound::Lower
    } else {
        Bound::Exact
    };
    table.entries.insert(
        game.clone(),
        Entry {
            value: best.0,
            bound,
            best: best.1,
        },
    );
    best
}
