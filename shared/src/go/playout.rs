//! Light playouts, michi-style: uniformly random legal moves that never fill the mover's own
//! one-point eyes, under simple ko, until two passes; and the area result of one, for Monte
//! Carlo evaluation. The hottest code of the crate: it reads the board's arrays directly.
//!
//! Heavy playouts ([`playout_heavy_recorded`]) first look at the opponent's last stone, as
//! michi and MoGo do: take a chain of the opponent's left in atari next to it, or save an
//! own chain it put in atari (by capturing a neighbour in atari, or by extending when that
//! gives two liberties); else play one of the empty points around it that fits a 3×3 shape
//! (hane, cuts, edge moves: `patterns`); else a random move as in a light playout, turning
//! down half of the self-ataris among them.

use super::board::{code, ko_key, zobrist, AROUND_EMPTY, BLACK, BORDER, EMPTY, WHITE};
use super::patterns;
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
    random_move::<true, false>(board, color, rng)
}

/// [`Board::play_random`], keeping the Zobrist hashes up to date only if `HASH`; when
/// `PICKY`, half of the self-ataris are turned down.
#[inline(always)]
fn random_move<const HASH: bool, const PICKY: bool>(
    board: &mut Board,
    color: Color,
    rng: &mut Rng,
) -> Move {
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
        if playable(board, own, p)
            && !(PICKY
                && board.c.around[p] < 2 * AROUND_EMPTY
                && self_atari(board, own, p)
                && rng.next_u64() < HALF)
        {
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
    run::<false, false>(board, color, 0, rng, max_moves, &mut Vec::new())
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
    run::<true, false>(board, color, 0, rng, max_moves, played)
}

/// [`playout_recorded`] with the heavy policy of the module's header: `last` is the
/// opponent's last stone before the playout (none after a pass or at the start).
pub fn playout_heavy_recorded(
    board: &mut Board,
    color: Color,
    last: Option<Point>,
    rng: &mut Rng,
    max_moves: usize,
    played: &mut Vec<(Color, Point)>,
) -> usize {
    played.clear();
    let last = last.map_or(0, |p| usize::from(p.0));
    run::<true, true>(board, color, last, rng, max_moves, played)
}

#[inline(always)]
fn run<const RECORD: bool, const HEAVY: bool>(
    board: &mut Board,
    mut color: Color,
    mut last: usize,
    rng: &mut Rng,
    max_moves: usize,
    record: &mut Vec<(Color, Point)>,
) -> usize {
    // No Zobrist upkeep move by move: the hashes are rebuilt once at the end.
    let mut passes = 0;
    let mut played = 0;
    while played < max_moves {
        played += 1;
        let mv = if HEAVY {
            heavy_move(board, color, last, rng)
        } else {
            random_move::<false, false>(board, color, rng)
        };
        match mv {
            Move::Pass => {
                passes += 1;
                last = 0;
                if passes == 2 {
                    break;
                }
            }
            Move::Play(p) => {
                passes = 0;
                last = usize::from(p.0);
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

/// Probabilities as thresholds on 64 random bits: michi's 0.9 for answering an atari, 0.95
/// for a shape, and one half for turning down a random self-atari.
const ATARI: u64 = u64::MAX / 10 * 9;
const SHAPE: u64 = u64::MAX / 20 * 19;
const HALF: u64 = u64::MAX / 2;

/// The heavy policy's move for `color` after the opponent's stone on `last` (0: none).
fn heavy_move(board: &mut Board, color: Color, last: usize, rng: &mut Rng) -> Move {
    let own = code(color);
    if last != 0 && board.c.color[last] != EMPTY {
        let mut candidates = Candidates::default();
        if rng.next_u64() < ATARI {
            atari_replies(board, own, last, &mut candidates);
            if let Some(m) = candidates.play_one(board, color, rng) {
                return m;
            }
        }
        if rng.next_u64() < SHAPE {
            candidates.len = 0;
            let s = usize::from(board.stride);
            // The eight points around the last stone.
            let ring = [
                last - s - 1,
                last - s,
                last - s + 1,
                last - 1,
                last + 1,
                last + s - 1,
                last + s,
                last + s + 1,
            ];
            for q in ring {
                if board.c.color[q] == EMPTY
                    && patterns::matches(board, q)
                    && !self_atari(board, own, q)
                {
                    candidates.push(q);
                }
            }
            if let Some(m) = candidates.play_one(board, color, rng) {
                return m;
            }
        }
    }
    random_move::<false, true>(board, color, rng)
}

/// A few points to choose among (more are dropped: there are rarely more than four).
#[derive(Default)]
struct Candidates {
    points: [u16; 8],
    len: usize,
}

impl Candidates {
    fn push(&mut self, p: usize) {
        if self.len < self.points.len() && !self.points[..self.len].contains(&(p as u16)) {
            self.points[self.len] = p as u16;
            self.len += 1;
        }
    }

    /// Plays one of the candidates that [`playable`] allows, chosen at random, if any.
    fn play_one(&mut self, board: &mut Board, color: Color, rng: &mut Rng) -> Option<Move> {
        let own = code(color);
        while self.len > 0 {
            let i = rng.below(self.len);
            let p = usize::from(self.points[i]);
            if playable(board, own, p) {
                let at = board.empty_index(p);
                board.apply::<false>(color, p, at);
                return Some(Move::Play(Point(p as u16)));
            }
            self.len -= 1;
            self.points[i] = self.points[self.len];
        }
        None
    }
}

/// Answers to the stone on `last` (the opponent's): the liberty of every opponent chain
/// on or next to it left in atari (a capture), and for every own chain next to it in
/// atari the liberties of the opponent's chains in atari around it (capturing to save it)
/// and its own liberty when extending there gives it two.
fn atari_replies(board: &Board, own: u8, last: usize, out: &mut Candidates) {
    let enemy = own ^ (BLACK | WHITE);
    let around = board.neighbours(last);
    for q in std::iter::once(last).chain(around) {
        let cell = board.c.color[q];
        if cell != own && cell != enemy {
            continue;
        }
        let h = usize::from(board.c.head[q]);
        let Some(liberty) = atari_liberty(board, h) else {
            continue;
        };
        if cell == enemy {
            out.push(liberty);
            continue;
        }
        // An own chain in atari: capture a neighbouring chain in atari, or extend.
        let mut s = h;
        loop {
            for n in board.neighbours(s) {
                if board.c.color[n] == enemy {
                    if let Some(l) = atari_liberty(board, usize::from(board.c.head[n])) {
                        out.push(l);
                    }
                }
            }
            s = usize::from(board.c.next[s]);
            if s == h {
                break;
            }
        }
        if !self_atari(board, own, liberty) {
            out.push(liberty);
        }
    }
}

/// The one liberty of the chain with head `h`, if it has exactly one.
///
/// # Complexity
///
/// O(1) when its pseudo-liberties show two liberties (more than 4 pairs: one point can be
/// a liberty of at most four of its stones); else proportional to its size.
#[inline]
fn atari_liberty(board: &Board, h: usize) -> Option<usize> {
    if board.c.libs[h] > 4 {
        return None;
    }
    let mut found = 0;
    let mut s = h;
    loop {
        for n in board.neighbours(s) {
            if board.c.color[n] == EMPTY {
                if found == 0 {
                    found = n;
                } else if found != n {
                    return None;
                }
            }
        }
        s = usize::from(board.c.next[s]);
        if s == h {
            break;
        }
    }
    (found != 0).then_some(found)
}

/// Whether a stone of `own` on the empty point `p` would capture nothing and leave its chain
/// with one liberty (or none).
fn self_atari(board: &Board, own: u8, p: usize) -> bool {
    let mut liberty = 0;
    let mut add = |q: usize| {
        if liberty == 0 || liberty == q {
            liberty = q;
            false
        } else {
            true
        }
    };
    let nbrs = board.neighbours(p);
    for &n in &nbrs {
        if board.c.color[n] == EMPTY && add(n) {
            return false;
        }
    }
    let enemy = own ^ (BLACK | WHITE);
    for (i, &n) in nbrs.iter().enumerate() {
        let cell = board.c.color[n];
        let h = usize::from(board.c.head[n]);
        if cell == enemy && atari_liberty(board, h).is_some() {
            // Its only liberty is `p`: the stone captures.
            return false;
        }
        if cell != own || nbrs[..i].iter().any(|&m| usize::from(board.c.head[m]) == h) {
            continue;
        }
        // More than 4 pseudo-liberties besides its pairs with `p`: two other liberties.
        let pairs = nbrs
            .iter()
            .filter(|&&m| usize::from(board.c.head[m]) == h)
            .count();
        if usize::from(board.c.libs[h]) > pairs + 4 {
            return false;
        }
        let mut s = h;
        loop {
            for q in board.neighbours(s) {
                if q != p && board.c.color[q] == EMPTY && add(q) {
                    return false;
                }
            }
            s = usize::from(board.c.next[s]);
            if s == h {
                break;
            }
        }
    }
    true
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
