//! Light playouts, michi-style: uniformly random legal moves that never fill the mover's own
//! one-point eyes, under simple ko, until two passes; and the area result of one, for Monte
//! Carlo evaluation. The hottest code of the crate: it reads the board's arrays directly.

use super::board::{code, ko_key, zobrist, AROUND_EMPTY, BLACK, BORDER, WHITE};
use super::position::{area_margin, result_for};
use super::{Board, Move, Point, Position};
use crate::rng::Rng;
use crate::Color;

/// Whether a playout may play on the empty point `p`: legal under simple ko, and not
/// one of the mover's own one-point eyes.
#[inline(always)]
fn playable(board: &Board, own: u8, p: usize) -> bool {
    if board.ko == ko_key(p, own) {
        return false;
    }
    if board.c.around[p] >= AROUND_EMPTY {
        // A liberty of its own: never suicide, never an eye.
        return true;
    }
    !board.eye_shaped(p, own) && breathes_after(board, own, p)
}

/// For an empty `p` without an empty neighbour: whether a stone of `own` there keeps a
/// liberty, by capturing an enemy chain whose only liberty is `p`, or by joining an own
/// chain with a liberty besides `p`. The same answer as [`Board::effect`]'s suicide test,
/// cheaper: pseudo-liberties settle most chains without counting their pairs with `p`
/// (1 means `p` is the only liberty, 5 or more that there is another).
fn breathes_after(board: &Board, own: u8, p: usize) -> bool {
    let nbrs = board.neighbours(p);
    let heads = nbrs.map(|n| board.c.head[n]);
    let cells = nbrs.map(|n| board.c.color[n]);
    // Border neighbours read the scratch `libs[0]`; they are skipped below.
    let libs = heads.map(|h| board.c.libs[usize::from(h)]);
    // All four tests, then one branch: the outcomes are unpredictable.
    let mut breathes = false;
    for i in 0..4 {
        // Pairs of this chain with `p`: neighbours with the same head (never 0 for a stone).
        let pairs = heads.iter().filter(|&&h| h == heads[i]).count() as u16;
        let only_p = libs[i] == pairs;
        breathes |= (cells[i] != BORDER) & (only_p != (cells[i] == own));
    }
    breathes
}

/// Plays a uniformly random legal move for `color` that does not fill one of its own
/// one-point eyes ([`Board::is_eye`]), under simple ko; passes when there is none.
/// Returns the move.
///
/// # Complexity
///
/// Expected O(1) tries while most empty points are playable; every empty point is tried
/// at most once.
pub fn play_random(board: &mut Board, color: Color, rng: &mut Rng) -> Move {
    random_move::<true>(board, color, rng)
}

/// [`Board::play_random`], keeping the Zobrist hashes up to date only if `HASH`.
#[inline(always)]
fn random_move<const HASH: bool>(board: &mut Board, color: Color, rng: &mut Rng) -> Move {
    let own = code(color);
    let mut untried = usize::from(board.empty_count);
    // Each 64-bit draw gives two 32-bit ones: most moves need one or two tries.
    let mut bits = 0u64;
    let mut halves = 0;
    while untried > 0 {
        if halves == 0 {
            bits = rng.next_u64();
            halves = 2;
        }
        // Lemire's multiply-shift on 32 bits: the bias is below n / 2^32.
        let i = (((bits & 0xffff_ffff) * untried as u64) >> 32) as usize;
        bits >>= 32;
        halves -= 1;
        let p = usize::from(board.c.empties[i]);
        if playable(board, own, p) {
            board.apply::<HASH>(color, p, i);
            return Move::Play(Point(p as u16));
        }
        // Move the refused point past the end of the untried part of the list.
        untried -= 1;
        board.c.empties[i] = board.c.empties[untried];
        board.c.empties[untried] = p as u16;
    }
    board.ko = 0;
    Move::Pass
}

/// Plays random moves ([`play_random`]) for both sides in turn, `color` first,
/// until two passes in a row or `max_moves` moves (passes included); returns the number of
/// moves played.
pub fn playout(board: &mut Board, color: Color, rng: &mut Rng, max_moves: usize) -> usize {
    run::<false>(board, color, rng, max_moves, &mut Vec::new())
}

/// [`playout`], also listing the stones played, in order, in `played` (cleared first): for
/// all-moves-as-first (AMAF, RAVE) statistics.
pub fn playout_recorded(
    board: &mut Board,
    color: Color,
    rng: &mut Rng,
    max_moves: usize,
    played: &mut Vec<(Color, Point)>,
) -> usize {
    played.clear();
    run::<true>(board, color, rng, max_moves, played)
}

#[inline(always)]
fn run<const RECORD: bool>(
    board: &mut Board,
    mut color: Color,
    rng: &mut Rng,
    max_moves: usize,
    record: &mut Vec<(Color, Point)>,
) -> usize {
    // No Zobrist upkeep move by move: the hashes are rebuilt once at the end.
    let mut passes = 0;
    let mut played = 0;
    while played < max_moves {
        played += 1;
        match random_move::<false>(board, color, rng) {
            Move::Pass => {
                passes += 1;
                if passes == 2 {
                    break;
                }
            }
            Move::Play(p) => {
                passes = 0;
                if RECORD {
                    record.push((color, p));
                }
            }
        }
        color = color.opponent();
    }
    rehash(board);
    played
}

/// Recomputes the position's and every chain's Zobrist hash from the stones.
///
/// # Complexity
///
/// Linear in the number of points.
fn rehash(board: &mut Board) {
    board.hash = 0;
    for p in 0..usize::from(board.cells) {
        if matches!(board.c.color[p], BLACK | WHITE) {
            board.c.chain_hash[usize::from(board.c.head[p])] = 0;
        }
    }
    for p in 0..usize::from(board.cells) {
        let stone = board.c.color[p];
        if matches!(stone, BLACK | WHITE) {
            let key = zobrist(p, stone);
            board.hash ^= key;
            board.c.chain_hash[usize::from(board.c.head[p])] ^= key;
        }
    }
}

/// A light playout from `game` ([`playout`]: random moves that do not fill one's own
/// eyes, under simple ko, to two passes) scored on area with the game's komi: +1 if the side
/// to move in `game` wins, −1 if it loses, 0 on a tie. For [`crate::mcts::Playouts`].
pub fn light_rollout(game: &Position, rng: &mut Rng) -> f64 {
    let mut board = game.board.clone();
    let cells = board.rows() * board.cols();
    playout(&mut board, game.to_move, rng, 4 * cells + 16);
    f64::from(result_for(game.to_move, area_margin(&board, game.komi)))
}
