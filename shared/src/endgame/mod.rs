//! Exact Othello solving: the final disc difference under perfect play, on 4×4, 6×6 and
//! 8×8 boards.
//!
//! Scores are for the side to move: its discs minus the opponent's at the end of the game,
//! the empty squares counted for the winner ([`Board::final_margin`]). They are even on
//! every board here (the squares add up to an even number), so searches test `score ≥ v`
//! with null windows and move in steps of 2.
//!
//! The search is negamax alpha-beta on bitboards:
//! - a transposition table of fixed size (`2^bits` entries, each the position itself, so a
//!   hit is never a false one, with lower and upper bounds and the best move) in buckets of
//!   two: one entry keeps the position that stands for the most empty squares, the other
//!   the newest;
//! - principal-variation search: the first move with the full window, the others with a
//!   null window, searched again only if they beat it;
//! - move ordering: the table's move first (searched before the other moves are even
//!   generated), then "fastest first" (fewest replies for the opponent, corners counting
//!   twice; then its potential mobility, our corners and parity);
//! - move ordering from 16 empty squares on (19 with the patterns) by a short search (2
//!   plies, 3 from 19 empties) of an evaluation — the patterns of [`eval`] or mobility and
//!   corners — plus the opponent's replies, as Edax weighs them (the nodes of these short
//!   searches count in [`Solution::nodes`]); one ply above their leaves the patterns are
//!   read once and each leaf scored from them, updated at the squares its move changes;
//! - with the patterns, from 14 to 18 empty squares, ordering by the evaluation after each
//!   move (updated from the node's patterns the same way), the replies and potential
//!   mobility;
//! - enhanced transposition cutoff: before searching the moves of a node, the children
//!   already in the table may prove a cutoff;
//! - a stability cutoff from 8 empty squares on: the opponent's stable discs (full lines, or
//!   anchored to the edge by stable discs of their own colour) bound our score from above;
//! - symmetry pruning near the root (24 empty squares or more): of moves that a symmetry of
//!   the position maps onto each other, only the first is searched;
//! - positions of 7 to 9 empties, most of those stored, in a small table of their own that
//!   stays in the processor's cache;
//! - near the end (few empties) no table and no move list: the empty squares (those next
//!   to an opponent disc: no other can flip anything) are tried in
//!   parity order (squares in quadrants with an odd number of empties first, the parity
//!   kept move by move), and the last two empty squares have their own code;
//! - from 19 empty squares on, selective passes first, as Zebra and Edax do: the same
//!   search with probcut (a node is cut when a 2- or 4-ply search of the evaluation, scaled
//!   to discs, clears the window by 0.5, then 1.0 standard deviations of its error, fitted
//!   by `endgame_fit probcut`), each pass in windows two wide around the last one's score.
//!   They leave good moves in the table for every node they reached; their bounds carry
//!   how sure they are, and no search trusts bounds less sure than its own;
//! - the exact score then by the same windows around the selective guess (each window
//!   that fails moves a bound: fail-soft), or below 19 empties by one principal-variation
//!   search with a window wider than any score; then a principal variation checked move by
//!   move with null windows;
//! - under a [`Limit`] (nodes or time), the score by bisection with null-window tests
//!   instead, so that a solve stopped early still reports the [`Bounds`] it proved.
//!
//! # Examples
//!
//! ```
//! use games::endgame::Solver;
//! use games::othello::Board;
//!
//! let mut solver = Solver::new(16);
//! let solution = solver.solve(&Board::new(4).unwrap());
//! // 4x4 Othello: Black, to move first, loses by 10 (plain minimax over the whole game tree
//! // says the same; see tests/endgame.rs).
//! assert_eq!(solution.score, -10);
//! assert!(!solution.pv.is_empty());
//! ```

pub mod eval;

use crate::othello::{board_mask, flips, margin, moves, Board, Move, Square, RAYS};
use eval::{Patterns, Scorer};
use std::error::Error;
use std::fmt;
use std::sync::atomic::{AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Fewer empty squares than this: no table, no move list (see the module docs).
const SHALLOW: u32 = 7;

/// Positions with fewer empty squares than this (7 to 9: most of the positions stored) go
/// to a table of their own of 2^[`NEAR_BITS`] entries (1.5 MB), which stays in the
/// processor's cache, where the main table's random reads mostly miss it. Transpositions
/// this near the end are found soon after they arise, so the small table loses few of them.
/// FFO #50–#52, side by side with the single table: 1,309.9 M nodes against 1,303.6 M,
/// about 5% less time; 7–8 empties alike, 2^14 or 2^18 entries no better.
const NEAR_BELOW: u32 = 10;
const NEAR_BITS: u32 = 16;

/// Enhanced transposition cutoff from this many empty squares on: every node that has
/// children in the table (those with fewer than [`SHALLOW`] empties are never stored).
const ETC_FROM: u32 = SHALLOW + 1;

/// From this many empty squares on, moves are ordered by a shallow search with an evaluation
/// and the opponent's mobility (at fewer, by the opponent's mobility, potential mobility and
/// parity). Fewer nodes from 15 on with the patterns (FFO #40–#44: 180.0 M nodes from 12
/// on, 140.0 M from 14, 137.0 M from 15, 144.0 M from 16; without them 203.6 M from 15,
/// 203.0 M from 16), but less time from 16, since the evaluation costs more than a node
/// (FFO #40–#49, one thread, another job on the other core: 1,311.4 M nodes and 124.4 s
/// from 15, 1,354.9 M and 110.2 s from 16, 1,469.1 M and 112.4 s from 17, 1,589.8 M and
/// 115.3 s from 18; the 6×6 start 466.5 M and 52.2 s from 15, 489.7 M and 49.7 s from 16).
/// With the patterns, see [`SORT_BY_SEARCH_WITH_PATTERNS_FROM`].
const SORT_BY_SEARCH_FROM: u32 = 16;

/// With the patterns, the short search orders moves from this many empty squares on, and
/// the evaluation after each move below (from [`SORT_BY_EVAL_FROM`]): that band orders
/// almost as well as the 2-ply search for a fraction of its cost (the short searches'
/// nodes were 14% of FFO #52's, each a pattern evaluation). FFO #53 (28 empties), side by
/// side then swapped: from 16 2,252.1 M nodes in 167.8 and 156.3 s, from 18 2,263.4 M in
/// 149.2 and 135.3 s; from 20 2,409.0 M in 133.3 and 133.8 s against 146.5 and 139.6 s
/// from 18; from 21 2,471.7 M (the same time), from 22 2,714.2 M in 139.0 and 146.9 s
/// against 125.5 and 133.2 s. But the nodes grow on the shallower FFO positions, #40–#49:
/// 995.1 M from 18, 1,027.8 M from 19, 1,074.9 M from 20 (948.8 M from 16), and the
/// issue holds them to Edax's 1.06 G; so 19. From 20, the 6×6 start took 390.1 M nodes
/// against 331.5 M from 16, 5–7% less time.
const SORT_BY_SEARCH_WITH_PATTERNS_FROM: u32 = 19;

/// From this many empty squares on, the short search that orders moves goes 3 plies deep
/// (2 below). (FFO #40–#44 with the patterns: 176 M nodes from 19 on, 195 M from 22 on;
/// with the short search from 20, FFO #53: 2,409.0 M nodes from 19, 2,480.1 M from 22,
/// the same time.)
const SORT_DEEPER_FROM: u32 = 19;

/// With the patterns, from this many empty squares on (below
/// [`SORT_BY_SEARCH_WITH_PATTERNS_FROM`]), moves are ordered by the evaluation of the
/// position after them, read from this node's pattern indices updated by the move (no
/// search), with the opponent's replies and its potential mobility; fastest first below.
/// Fewer nodes for about the same time: FFO #40–#49 (one thread, another job on the other
/// core, before the principal variation tried the table's move first) 1,354.9 M nodes and
/// 96.9 s without
/// this band; with it from 15 1,303.0 M and 99.3 s, from 14 1,248.1 M and 95.9 s, from 13
/// 1,220.4 M and 95.9 s, from 11 1,189.7 M and 103.2 s (evaluation and replies only); with
/// potential mobility too (16 per square) from 13 1,204.7 M and 94.8 s (32: 1,221.4 M,
/// 98.3 s), from 12 1,178.1 M and 95.3 s. The 6×6 start: 489.7 M nodes and 45.2 s
/// without, 404.3 M and 45.1 s from 12. Once the last plies and the table got faster
/// (2026-12-04) the evaluation was a quarter of the time, and from 14 paid: FFO #50–#52,
/// side by side, 1,343.2 M nodes in 120.1 and 115.7 s from 14 against 1,309.9 M in 126.2
/// and 124.9 s from 12; from 13 3–6% slower than from 14, from 16 (no band) the same.
const SORT_BY_EVAL_FROM: u32 = 14;

/// In the ordering by a short search, what each of the opponent's replies after the move
/// (corners counting twice) adds to its key, in the evaluation's units: with the patterns,
/// 32 eighths of a disc on 8×8 and 16 on smaller boards; 8 of the mobility-and-corners
/// evaluation's units (two of its mobility points). Edax weighs mobility beside its
/// evaluation in the same way. Fitted on 8×8 FFO #40–#44 (235 M nodes without the term,
/// 209 M at 8, 198 M at 16, 195 M at 32 and 48, 201 M at 64) and on 6×6: twelve positions of
/// 24 empties from random openings (345 M nodes at 32, 326 M at 24, 324 M at 16, 315 M at
/// 8) and the start (632 M at 32, 517 M at 24, 466 M at 16, 485 M at 12, 517 M at 8).
const REPLY_WEIGHT_PATTERNS: i32 = 32;
const REPLY_WEIGHT_PATTERNS_SMALL: i32 = 16;
const REPLY_WEIGHT_PLAIN: i32 = 8;

/// The short search that orders moves by the patterns is exact only for moves that may
/// come within this many discs of alpha; worse ones are sorted by the bound that cut
/// them off. (FFO #40–#42, measured with the weights in `f32`: 63.8 M nodes and 3.16 M
/// pattern evaluations with every short search exact, 63.2 M and 2.58 M at 8 discs, 64.4 M
/// and 2.50 M at 4.)
const SORT_MARGIN: i32 = 8;

/// Stability cutoff from this many empty squares on (below, the search is cheap anyway).
const STABILITY_FROM: u32 = 8;

/// From this many empty squares on (the few nodes near the root), moves that a symmetry of
/// the position maps onto an earlier move are skipped: they lead to mirror images, worth the
/// same.
const SYMMETRY_FROM: u32 = 24;

/// From this many empty squares on at the root, selective passes (probcut) come before the
/// exact search: they find its score within a few discs and fill the table with good moves.
const SELECTIVE_FROM: u32 = 19;

/// The selective passes (see [`Progress::pass`]), by their probcut margin in standard
/// deviations of the short search's error: wider margins cut less and err less.
pub const SELECTIVE_PASSES: [f32; 2] = [0.5, 1.0];

/// Probcut in the selective passes from this many empty squares on.
const PROBCUT_FROM: u32 = 10;

/// The bounds of an exact search, in [`Entry::sure`].
const EXACT: u8 = u8::MAX;

/// No move stored.
const NO_MOVE: u8 = 64;

/// Above every score.
const INFINITY: i32 = 100;

/// What a long solve has done so far, updated as it runs (every 2^16 nodes), for a progress
/// display on another thread.
#[derive(Debug, Default)]
pub struct Progress {
    /// Nodes searched.
    pub nodes: AtomicU64,
    /// The score is at least this (for the side to move at the root).
    pub lower: AtomicI32,
    /// The score is at most this.
    pub upper: AtomicI32,
    /// The selective pass under way, from 1 (0: the exact search, or none yet); the bounds
    /// above are the exact search's only.
    pub pass: AtomicU32,
    /// Selective passes finished in this solve; once there is one, `guess` holds the last
    /// one's score.
    pub passes_done: AtomicU32,
    /// The score the last finished selective pass found (not proved).
    pub guess: AtomicI32,
}

/// The result of a solve.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The final disc difference for the side to move under perfect play, the empty squares
    /// counted for the winner.
    pub score: i32,
    /// A principal variation: perfect play by both sides to the end of the game, passes
    /// included.
    pub pv: Vec<Move>,
    /// Positions searched, the principal variation's extraction and the short searches that
    /// order moves included.
    pub nodes: u64,
}

/// When a solve gives up before it is done: after about this many nodes, or this much time
/// (both checked every 65,536 nodes). `Limit::default()` sets neither.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Stop after this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

/// What a solve stopped by its [`Limit`] had proved: the score for the side to move lies in
/// `lower..=upper` (equal when the score was found and only the principal variation was
/// cut short).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The score is at least this.
    pub lower: i32,
    /// The score is at most this.
    pub upper: i32,
    /// Positions searched.
    pub nodes: u64,
}

/// A table larger than the memory that can be had.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The table's size asked for, as a power of two entries.
    pub bits: u32,
}

/// Entries in a solver's table of `2^bits`: the main table, then the near one.
fn table_len(bits: u32) -> usize {
    (1usize << bits) + (1 << NEAR_BITS)
}

impl TableError {
    /// Bytes the table would take.
    // `size_of` is in the prelude only from Rust 1.80; judges' rustc 1.70 needs the path.
    #[allow(unused_qualifications)]
    pub fn bytes(&self) -> u64 {
        table_len(self.bits) as u64 * std::mem::size_of::<Entry>() as u64
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a table of 2^{} entries needs {:.1} GB, which cannot be allocated",
            self.bits,
            self.bytes() as f64 / 1e9
        )
    }
}

impl Error for TableError {}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    p: u64,
    o: u64,
    lower: i8,
    upper: i8,
    best: u8,
    empties: u8,
    /// How sure the bounds are: [`EXACT`], or those of a selective pass, whose probcut
    /// margin this is in tenths of a standard deviation. A search trusts bounds at least as
    /// sure as its own; the move orders in every search.
    sure: u8,
}

/// An exact solver with its transposition table; keep one to solve related positions.
pub struct Solver {
    /// The main table (`2^bits` entries), then the near one (see [`NEAR_BELOW`]).
    table: Vec<Entry>,
    shift: u32,
    near_at: usize,
    /// The board being solved: its cells (and how many), quadrants (for parity) and
    /// corners.
    mask: u64,
    cells: i32,
    quadrants: [u64; 4],
    corners: u64,
    /// Per square, its quadrant's bit (of four); per set of such bits, the squares of those
    /// quadrants (see [`Solver::parity`]).
    quadrant_bit: [u8; 64],
    quadrant_squares: [u64; 16],
    /// The seven non-identity symmetries of the board, as square permutations.
    symmetries: Vec<[u8; 64]>,
    /// Nodes with at least this many empties skip mirrored moves.
    symmetry_from: u32,
    /// Solves with at least this many empties start with selective passes.
    selective_from: u32,
    /// Empty squares at the root, to report its bounds as they improve.
    root_empties: u32,
    nodes: u64,
    progress: Arc<Progress>,
    /// Nodes at which the current solve stops ([`Limit`]), and when.
    stop_at: u64,
    deadline: Option<Instant>,
    /// Set once the limit is reached: every search then unwinds without storing anything.
    stopped: bool,
    /// The pattern evaluation for move ordering ([`Solver::with_eval`]), and whether it is
    /// for the board being solved.
    eval: Option<Arc<Scorer>>,
    use_eval: bool,
    /// What each of the opponent's replies adds to a move's ordering key on this board.
    reply_weight: i32,
    /// From this many empties on, moves are ordered by a short search on this board.
    sort_by_search_from: u32,
    /// During a selective pass, how many standard deviations of the shallow search's error
    /// a probcut asks for; `None` in the exact search.
    probcut: Option<f32>,
}

/// The cells around each cell of the 8×8 layout: a move there flips nothing unless one of
/// them holds an opponent disc, which the last few plies test before computing flips.
static NEIGHBOURS: [u64; 64] = build_neighbours();

const fn build_neighbours() -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 8 && nc >= 0 && nc < 8 {
                    table[sq] |= 1u64 << (nr * 8 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    table
}

/// `LINE_FLIPS[i][m]`: how many discs a move on square `i` of a line of 8 flips when `m`
/// (bit `j` for square `j`, bit `i` clear) holds the mover's discs and every other square
/// of the line the opponent's: the opponent's run from `i` each way counts when the
/// mover's disc ends it, not the line's end.
static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut m = 0;
        while m < 256 {
            let mut count = 0;
            // Towards higher squares, then lower ones.
            let mut j = i + 1;
            while j < 8 && m >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                count += j - i - 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && m >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += i - j as usize - 1;
            }
            table[i][m] = count as u8;
            m += 1;
        }
        i += 1;
    }
    table
}

/// How many discs a move of `p` on `sq` flips when every other square of the board holds
/// a disc: then the opponent has every square of a line that `p` does not, so each line's
/// flips follow from `p`'s discs on it alone ([`LINE_FLIPS`]). The squares of the 8×8
/// layout off a smaller board read as the opponent's, which changes nothing: they lie
/// beyond the board's edge, where no disc of `p` can end a run. (Edax counts the last
/// move's flips the same way.)
fn last_flips(p: u64, sq: usize) -> i32 {
    let (r, c) = (sq / 8, sq % 8);
    let row = (p >> (8 * r)) & 0xff;
    // Bit 8k of the column to bit 56 + k, the diagonals' squares (one per column) to
    // bit 56 + column.
    let column = ((p >> c) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    // The diagonals from the rays of `flips` (SE and NW, SW and NE; `sq` itself is empty).
    let rays = &RAYS[sq];
    let down = (p & (rays[3] | rays[7])).wrapping_mul(FILE_A) >> 56;
    let up = (p & (rays[1] | rays[5])).wrapping_mul(FILE_A) >> 56;
    i32::from(LINE_FLIPS[c][row as usize])
        + i32::from(LINE_FLIPS[r][column as usize])
        + i32::from(LINE_FLIPS[c][down as usize])
        + i32::from(LINE_FLIPS[c][up as usize])
}

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;

/// The squares of the 8×8 layout whose line holds none of `empty`, by direction: rows,
/// columns, the diagonals down to the right, those down to the left. Each empty square is
/// smeared along its line both ways in three doubling steps (1, 2, 4 squares), the masks
/// keeping rows from wrapping; what the smear misses lies on a full line. A smaller board's
/// lines are the 8×8 layout's cut by its edge, so squares off the board (never in `empty`)
/// change nothing.
fn full_lines(empty: u64) -> [u64; 4] {
    // Along lines of `step` squares whose column moves by `drift` (1, 0 or -1) per square:
    // a shift by `k` such squares lands wrapped-around bits in the first (or last) `k`
    // columns, which the mask clears.
    fn smear(mut e: u64, step: u32, drift: i32) -> u64 {
        let columns = |first: u64, k: u32, towards_h: bool| {
            (0..k).fold(0u64, |m, c| {
                m | if towards_h { first << c } else { first >> c }
            })
        };
        for k in [1u32, 2, 4] {
            let shift = step * k;
            let (from_a, from_h) = (!columns(FILE_A, k, true), !columns(FILE_H, k, false));
            let (up, down) = match drift {
                1 => (from_a, from_h),
                -1 => (from_h, from_a),
                _ => (!0, !0),
            };
            e |= ((e << shift) & up) | ((e >> shift) & down);
        }
        e
    }
    [
        !smear(empty, 1, 1),
        !smear(empty, 8, 0),
        !smear(empty, 9, 1),
        !smear(empty, 7, -1),
    ]
}

/// The square of a move in [`Solver::search`]'s list of moves: the entry's low byte (the
/// key is above it).
fn square_of(entry: i64) -> u8 {
    (entry & 0xff) as u8
}

/// The cells next to `discs` (and `discs` themselves) on the 8×8 layout.
fn around(discs: u64) -> u64 {
    let row = discs | ((discs << 1) & !FILE_A) | ((discs >> 1) & !FILE_H);
    row | (row << 8) | (row >> 8)
}

/// The four quadrants of an `n`×`n` board (for parity ordering).
fn quadrants(n: usize) -> [u64; 4] {
    let h = n / 2;
    let mut q = [0u64; 4];
    for r in 0..n {
        for c in 0..n {
            q[usize::from(r >= h) * 2 + usize::from(c >= h)] |= 1 << (r * 8 + c);
        }
    }
    q
}

/// The seven symmetries of an `n`×`n` board other than the identity (rotations and
/// reflections), each as the image of every square of the 8×8 layout.
fn symmetries(n: usize) -> Vec<[u8; 64]> {
    let last = n - 1;
    // (row, column, last index) to the image's (row, column).
    type Map = fn(usize, usize, usize) -> (usize, usize);
    let maps: [Map; 7] = [
        |r, c, l| (c, l - r),     // quarter turn
        |r, c, l| (l - r, l - c), // half turn
        |r, c, l| (l - c, r),     // three-quarter turn
        |r, c, l| (r, l - c),     // mirror left-right
        |r, c, l| (l - r, c),     // mirror top-bottom
        |r, c, _| (c, r),         // main diagonal
        |r, c, l| (l - c, l - r), // anti-diagonal
    ];
    maps.iter()
        .map(|map| {
            let mut image = [0u8; 64];
            for (sq, img) in image.iter_mut().enumerate() {
                let (r, c) = (sq / 8, sq % 8);
                *img = if r < n && c < n {
                    let (rr, cc) = map(r, c, last);
                    (rr * 8 + cc) as u8
                } else {
                    sq as u8
                };
            }
            image
        })
        .collect()
}

fn transform(bits: u64, image: &[u8; 64]) -> u64 {
    let mut out = 0;
    let mut rest = bits;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        out |= 1u64 << image[sq];
    }
    out
}

/// The corners of an `n`×`n` board.
fn corners(n: usize) -> u64 {
    let last = n - 1;
    (1 << 0) | (1 << last) | (1 << (last * 8)) | (1 << (last * 8 + last))
}

impl Solver {
    /// A solver with a table of `2^bits` entries (24 bytes each), and the near table of
    /// 2^16 for the last plies stored.
    ///
    /// # Panics
    ///
    /// If `bits` is not in `4..=32`, or the table cannot be allocated (see
    /// [`Solver::try_new`]).
    pub fn new(bits: u32) -> Solver {
        Solver::try_new(bits).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A solver with a table of `2^bits` entries (24 bytes each), and the near table of
    /// 2^16, if the memory can be had.
    ///
    /// # Errors
    ///
    /// [`TableError`] when the allocator refuses the table.
    ///
    /// # Panics
    ///
    /// If `bits` is not in `4..=32`.
    pub fn try_new(bits: u32) -> Result<Solver, TableError> {
        assert!((4..=32).contains(&bits), "table bits must be in 4..=32");
        let mut table = Vec::new();
        table
            .try_reserve_exact(table_len(bits))
            .map_err(|_| TableError { bits })?;
        table.resize(table_len(bits), Entry::default());
        Ok(Solver {
            table,
            shift: 64 - bits,
            near_at: 1 << bits,
            mask: 0,
            cells: 0,
            quadrants: [0; 4],
            corners: 0,
            quadrant_bit: [0; 64],
            quadrant_squares: [0; 16],
            symmetries: Vec::new(),
            symmetry_from: SYMMETRY_FROM,
            selective_from: SELECTIVE_FROM,
            root_empties: 0,
            nodes: 0,
            progress: Arc::new(Progress::default()),
            stop_at: u64::MAX,
            deadline: None,
            stopped: false,
            eval: None,
            use_eval: false,
            reply_weight: REPLY_WEIGHT_PLAIN,
            sort_by_search_from: SORT_BY_SEARCH_FROM,
            probcut: None,
        })
    }

    /// The same solver, ordering moves near the root by the pattern evaluation `eval`
    /// (fitted by `endgame_fit`) on boards of its size, instead of mobility and corners. The
    /// scores stay exact: only the order of the search changes.
    pub fn with_eval(self, eval: Arc<Patterns>) -> Solver {
        self.with_scorer(Arc::new(Scorer::new(eval)))
    }

    /// [`Solver::with_eval`] with the patterns already made fast, to share among solvers
    /// (making a [`Scorer`] takes some milliseconds).
    pub fn with_scorer(mut self, scorer: Arc<Scorer>) -> Solver {
        self.eval = Some(scorer);
        self
    }

    /// The same solver, skipping mirrored moves at nodes with at least `empties` empty
    /// squares (default 24: only near the root, where checking is cheap next to the work
    /// saved). Lower values test the symmetry code on small boards.
    pub fn symmetry_from(mut self, empties: u32) -> Solver {
        self.symmetry_from = empties;
        self
    }

    /// The value of the short search that orders moves (and that probcut reads in the
    /// selective passes) for the side to move, `depth` plies deep, in the evaluation's
    /// units: mobility and corners, or eighths of a disc with a pattern evaluation. For
    /// fitting the probcut model (`endgame_fit probcut`).
    pub fn ordering_value(&mut self, board: &Board, depth: u32) -> i32 {
        let (p, o) = board.sides();
        self.set_size(board.size());
        self.evaluate(p, o, depth, -INFINITY * 100, INFINITY * 100)
    }

    /// The same solver, starting solves of at least `empties` empty squares with selective
    /// passes (default 19; see the module docs). Lower values test the passes on small
    /// boards; the answer never changes, only the work.
    pub fn selective_from(mut self, empties: u32) -> Solver {
        self.selective_from = empties;
        self
    }

    /// The progress counters, to watch a solve from another thread.
    pub fn progress(&self) -> Arc<Progress> {
        Arc::clone(&self.progress)
    }

    /// Solves `board` exactly: its score for the side to move and a principal variation.
    ///
    /// # Complexity
    ///
    /// Exponential in the empty squares: instant below 20 on any size, seconds to minutes
    /// for the 32 empties of the 6×6 start.
    pub fn solve(&mut self, board: &Board) -> Solution {
        let (start, p, o) = self.begin(board, Limit::default());
        let score = self.exact(p, o);
        let pv = self.principal_variation(p, o, score);
        Solution {
            score,
            pv,
            nodes: self.nodes - start,
        }
    }

    /// The outcome of `board` under perfect play for the side to move, without the margin
    /// (a win/loss/draw solve, cheaper than [`Solver::solve`] in lopsided positions): the
    /// sign of its exact score (−1, 0 or 1), and the nodes searched.
    ///
    /// One null-window search around 0 (scores are even, so it cannot land between them).
    pub fn outcome(&mut self, board: &Board) -> (i32, u64) {
        let (start, p, o) = self.begin(board, Limit::default());
        self.probcut = None;
        let limit = self.at_root(p, o);
        let v = self.search(p, o, -1, 1);
        // Fail-soft: a score outside the window is a bound on that side.
        let (lower, upper) = match v.signum() {
            1 => (v, limit),
            0 => (0, 0),
            _ => (-limit, v),
        };
        self.progress.lower.store(lower, Ordering::Relaxed);
        self.progress.upper.store(upper, Ordering::Relaxed);
        (v.signum(), self.nodes - start)
    }

    /// Solves `board` as [`Solver::solve`] does, unless `limit` stops it first; then returns
    /// the bounds proved so far. Under a limit the score is found by bisection, a null-window
    /// test at a time, so that each finished test narrows the bounds (a solve that finishes
    /// may then take more nodes than [`Solver::solve`]).
    ///
    /// # Errors
    ///
    /// [`Bounds`] when the limit stopped the solve.
    pub fn solve_within(&mut self, board: &Board, limit: Limit) -> Result<Solution, Bounds> {
        if limit == Limit::default() {
            return Ok(self.solve(board));
        }
        let (start, p, o) = self.begin(board, limit);
        let (lower, upper) = self.bisect(p, o);
        let bounds = |solver: &Solver| Bounds {
            lower,
            upper,
            nodes: solver.nodes - start,
        };
        if lower != upper {
            return Err(bounds(self));
        }
        let pv = self.principal_variation(p, o, lower);
        if self.stopped {
            return Err(bounds(self));
        }
        Ok(Solution {
            score: lower,
            pv,
            nodes: self.nodes - start,
        })
    }

    /// Readies a solve of `board` under `limit`: the tables of its size and the stopping
    /// rule. Returns the node count so far and the discs of the side to move and of the
    /// opponent.
    fn begin(&mut self, board: &Board, limit: Limit) -> (u64, u64, u64) {
        let start = self.nodes;
        let (p, o) = board.sides();
        self.set_size(board.size());
        self.stop_at = limit.nodes.map_or(u64::MAX, |n| start.saturating_add(n));
        self.deadline = limit.time.map(|t| Instant::now() + t);
        self.stopped = false;
        (start, p, o)
    }

    /// Bounds on the score by null-window tests at odd thresholds halfway between the bounds
    /// known (scores are even, so every test moves one bound), until they meet or the limit
    /// stops the search.
    fn bisect(&mut self, p: u64, o: u64) -> (i32, i32) {
        self.root_empties = (self.mask & !(p | o)).count_ones();
        let limit = self.cells;
        let (mut lower, mut upper) = (-limit, limit);
        self.progress.lower.store(lower, Ordering::Relaxed);
        self.progress.upper.store(upper, Ordering::Relaxed);
        while lower < upper {
            let t = ((lower + upper) / 2) | 1;
            let v = self.search(p, o, t - 1, t + 1);
            if self.stopped {
                break;
            }
            if v < t {
                upper = upper.min(v);
            } else {
                lower = lower.max(v);
            }
            self.progress.lower.store(lower, Ordering::Relaxed);
            self.progress.upper.store(upper, Ordering::Relaxed);
        }
        (lower, upper)
    }

    /// Sets up the masks and tables that depend on the board size `n` only.
    fn set_size(&mut self, n: usize) {
        self.mask = board_mask(n as u8);
        self.cells = self.mask.count_ones() as i32;
        let quadrants = quadrants(n);
        self.quadrants = quadrants;
        self.quadrant_bit = [0; 64];
        for (q, &squares) in quadrants.iter().enumerate() {
            let mut rest = squares;
            while rest != 0 {
                self.quadrant_bit[rest.trailing_zeros() as usize] = 1 << q;
                rest &= rest - 1;
            }
        }
        for (set, squares) in self.quadrant_squares.iter_mut().enumerate() {
            *squares = (0..4)
                .filter(|q| set >> q & 1 == 1)
                .fold(0, |acc, q| acc | quadrants[q]);
        }
        self.corners = corners(n);
        self.symmetries = symmetries(n);
        self.use_eval = self.eval.as_ref().is_some_and(|e| e.patterns().size() == n);
        self.reply_weight = match (self.use_eval, n) {
            (true, 8) => REPLY_WEIGHT_PATTERNS,
            (true, _) => REPLY_WEIGHT_PATTERNS_SMALL,
            (false, _) => REPLY_WEIGHT_PLAIN,
        };
        self.sort_by_search_from = if self.use_eval {
            SORT_BY_SEARCH_WITH_PATTERNS_FROM
        } else {
            SORT_BY_SEARCH_FROM
        };
    }

    /// Notes the root's empty squares and resets the progress counters to a search not yet
    /// begun (bounds as wide as the board). Returns the board's square count, the largest
    /// score.
    fn at_root(&mut self, p: u64, o: u64) -> i32 {
        self.root_empties = (self.mask & !(p | o)).count_ones();
        let limit = self.cells;
        self.progress.lower.store(-limit, Ordering::Relaxed);
        self.progress.upper.store(limit, Ordering::Relaxed);
        self.progress.pass.store(0, Ordering::Relaxed);
        self.progress.passes_done.store(0, Ordering::Relaxed);
        limit
    }

    /// The exact score: one principal-variation search with a window wider than any score
    /// (inside it, every move after the first is tried with a null window first).
    fn exact(&mut self, p: u64, o: u64) -> i32 {
        let limit = self.at_root(p, o);
        let score = if self.root_empties >= self.selective_from {
            let mut guess = 0;
            for (i, t) in SELECTIVE_PASSES.into_iter().enumerate() {
                self.progress.pass.store(i as u32 + 1, Ordering::Relaxed);
                self.probcut = Some(t);
                guess = self.aspiration(p, o, guess);
                self.progress.guess.store(guess, Ordering::Relaxed);
                self.progress
                    .passes_done
                    .store(i as u32 + 1, Ordering::Relaxed);
            }
            self.probcut = None;
            self.progress.pass.store(0, Ordering::Relaxed);
            self.aspiration(p, o, guess)
        } else {
            self.search(p, o, -limit - 1, limit + 1)
        };
        self.progress.lower.store(score, Ordering::Relaxed);
        self.progress.upper.store(score, Ordering::Relaxed);
        score
    }

    /// The score by windows two wide around `guess` (each holds one even score): a search
    /// that fails returns a bound (fail-soft), the next window is centred on it. In the exact
    /// search every window moves a bound, so this ends; a selective pass, whose bounds need
    /// not agree, stops after as many windows as there are scores.
    fn aspiration(&mut self, p: u64, o: u64, guess: i32) -> i32 {
        let limit = self.cells;
        let (mut lower, mut upper) = (-limit, limit);
        let mut centre = (guess - guess.rem_euclid(2)).clamp(-limit, limit);
        for _ in 0..=limit {
            let v = self.search(p, o, centre - 1, centre + 1);
            if self.stopped || (v > centre - 1 && v < centre + 1) {
                return v;
            }
            if v > centre {
                lower = lower.max(v);
                // Odd only in a selective pass, where probcut returns the window's edge.
                centre = v + v.rem_euclid(2);
            } else {
                upper = upper.min(v);
                centre = v - v.rem_euclid(2);
            }
            if self.probcut.is_none() {
                self.progress.lower.store(lower, Ordering::Relaxed);
                self.progress.upper.store(upper, Ordering::Relaxed);
            }
            if lower >= upper {
                return lower;
            }
            centre = centre.clamp(lower, upper);
        }
        centre
    }

    /// Probcut, in the selective passes: a shallow search of the evaluation, scaled to
    /// discs, predicts the score; when the prediction clears `beta` (or falls short of
    /// `alpha`) by `t` standard deviations of its error, the node is cut without a search.
    /// The scale and the error are fitted on positions solved exactly (see
    /// [`Solver::probcut_model`]).
    fn probcut(&mut self, p: u64, o: u64, n: u32, t: f32, alpha: i32, beta: i32) -> Option<i32> {
        let depth = if n >= 18 { 4 } else { 2 };
        let (scale, sigma) = self.probcut_model();
        let cells = self.cells;
        let margin = t * sigma;
        if beta < cells {
            let high = ((beta as f32 + margin) / scale).ceil() as i32;
            if self.evaluate(p, o, depth, high - 1, high) >= high {
                return Some(beta);
            }
        }
        if alpha > -cells {
            let low = ((alpha as f32 - margin) / scale).floor() as i32;
            if self.evaluate(p, o, depth, low, low + 1) <= low {
                return Some(alpha);
            }
        }
        None
    }

    /// Discs per unit of the evaluation and the standard deviation, in discs, of the exact
    /// score around the scaled short search (2 and 4 plies alike, rounded): least-squares
    /// lines by `endgame_fit probcut` over positions solved exactly, on 8×8 at 8–18 empty
    /// squares: 0.59–0.73 discs per unit, error 12.2–14.4. On 6×6 (8–22 empties) the lines
    /// say 0.43–0.73 and 7.7–10.1, but the 8×8 model searched fewer nodes there (6×6
    /// positions of 24 and 26 empties: 20.1 and 53.7 M nodes, against 23.5 and 59.1 M with
    /// 0.6 and 8.5), so every size takes it. The patterns are fitted in discs and read in
    /// eighths; the error is their fit's on held-out positions, as the file records it
    /// (format 2), or for a format-1 file that of the files this was measured with,
    /// rounded up (8×8 9.9, 6×6 7.1).
    fn probcut_model(&self) -> (f32, f32) {
        if self.use_eval {
            let eight = self.cells == 64;
            let recorded = self.eval.as_ref().and_then(|e| e.patterns().error());
            (0.125, recorded.unwrap_or(if eight { 10.0 } else { 7.5 }))
        } else {
            (0.7, 13.0)
        }
    }

    /// How sure the bounds of this search are (see [`Entry::sure`]).
    fn sure(&self) -> u8 {
        self.probcut.map_or(EXACT, |t| {
            (t * 10.0).round().min(f32::from(EXACT - 1)) as u8
        })
    }

    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 0xffff == 0 {
            self.progress.nodes.store(self.nodes, Ordering::Relaxed);
            if self.nodes >= self.stop_at || self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.stopped = true;
            }
        }
    }

    /// The first of the two entries where `p`, `o`, with `empties` empty squares, may be
    /// stored (an even index): in the near table below [`NEAR_BELOW`] empties.
    fn bucket(&self, p: u64, o: u64, empties: u32) -> usize {
        let h = p.wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ o.wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(29);
        if empties < NEAR_BELOW {
            return self.near_at + ((h >> (64 - NEAR_BITS)) as usize & !1);
        }
        (h >> self.shift) as usize & !1
    }

    /// The table's entry for `p`, `o` (with `empties` empty squares), if it has one.
    fn probe(&self, p: u64, o: u64, empties: u32) -> Option<Entry> {
        let b = self.bucket(p, o, empties);
        self.table[b..b + 2]
            .iter()
            .find(|e| e.p == p && e.o == o)
            .copied()
    }

    /// Stores bounds for `p`, `o`. Each position has a bucket of two entries: the first
    /// keeps the one that stands for the most work (the most empty squares), the second
    /// the newest of the others, so that a deep entry is never pushed out by the many
    /// shallow ones and a shallow one still finds room.
    fn store(&mut self, p: u64, o: u64, empties: u32, lower: i32, upper: i32, best: u8) {
        if self.stopped {
            // A search cut short proves nothing.
            return;
        }
        let b = self.bucket(p, o, empties);
        let sure = self.sure();
        let own = (b..b + 2).find(|&i| self.table[i].p == p && self.table[i].o == o);
        let at = own.unwrap_or_else(|| {
            let deep = self.table[b];
            if u32::from(deep.empties) > empties {
                b + 1
            } else {
                // At least as deep: this position takes the first entry, whose own moves
                // to the second. (An empty first entry has an empty second one.)
                self.table[b + 1] = deep;
                b
            }
        });
        let old = self.table[at];
        let same = old.p == p && old.o == o;
        if same && old.sure > sure {
            // Surer bounds already: this pass has nothing to add.
            return;
        }
        let (lower, upper) = if same && old.sure == sure {
            (
                lower.max(i32::from(old.lower)),
                upper.min(i32::from(old.upper)),
            )
        } else {
            (lower, upper)
        };
        self.table[at] = Entry {
            p,
            o,
            lower: lower as i8,
            upper: upper as i8,
            best,
            empties: empties as u8,
            sure,
        };
    }

    /// Fail-soft negamax alpha-beta: the value for the side with `p` to move.
    fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empties = self.mask & !(p | o);
        let n = empties.count_ones();
        if n < SHALLOW {
            return self.shallow(p, o, alpha, beta, empties, self.parity(empties));
        }
        self.count_node();
        let (mut alpha, mut beta) = (alpha, beta);
        let mut first = NO_MOVE;
        let selective = self.probcut.is_some();
        let sure = self.sure();
        let trusted = move |e: &Entry| e.sure >= sure;
        if let Some(e) = self.probe(p, o, n) {
            if trusted(&e) {
                let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
                if lo >= beta || lo == hi {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
                alpha = alpha.max(lo);
                beta = beta.min(hi);
            }
            first = e.best;
        }
        // Stability cutoff: the opponent keeps its stable discs, so we score at most every
        // other square. (Only worth computing when the opponent has discs enough for it.)
        if n >= STABILITY_FROM {
            let cells = self.cells;
            if cells - 2 * o.count_ones() as i32 <= alpha {
                let bound = cells - 2 * self.stable(o, p).count_ones() as i32;
                if bound <= alpha {
                    return bound;
                }
            }
        }
        let legal = moves(p, o, self.mask);
        if legal == 0 {
            if moves(o, p, self.mask) == 0 {
                return margin(p, o, n);
            }
            return -self.search(o, p, -beta, -alpha);
        }
        if let Some(t) = self.probcut {
            if n >= PROBCUT_FROM && n < self.root_empties {
                if let Some(v) = self.probcut(p, o, n, t, alpha, beta) {
                    return v;
                }
            }
        }

        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_sq = NO_MOVE;
        // The table's move first, before the others are generated and ordered: where it
        // cuts off (most nodes of a null-window search), their ordering is never needed.
        let tried = if first != NO_MOVE && legal & (1u64 << first) != 0 {
            let f = flips(p, o, usize::from(first));
            let v = -self.search(o ^ f, p | f | (1u64 << first), -beta, -alpha);
            if self.stopped {
                return 0;
            }
            best = v;
            best_sq = first;
            if v > alpha {
                alpha = v;
                if n == self.root_empties && !selective {
                    self.progress.lower.store(v, Ordering::Relaxed);
                }
                if alpha >= beta {
                    self.store(p, o, n, best, INFINITY, best_sq);
                    return best;
                }
            }
            first
        } else {
            NO_MOVE
        };

        // The other moves, by a key (low first): a short search's value and the opponent's
        // replies from 16 empties on (19 with the patterns), with the patterns the
        // evaluation after the move from 14 on, fastest first below.
        let corner = self.corners;
        let odd = empties & self.quadrant_squares[self.parity(empties)];
        let reply_weight = self.reply_weight;
        // The short search need only be exact for moves that may reach alpha: a child at
        // least `sort_beta` (in the evaluation's eighths of a disc, for the opponent) is
        // cut off early and sorted behind them by the bound it proved.
        let sort_beta = if self.use_eval {
            8 * (SORT_MARGIN - alpha)
        } else {
            INFINITY * 100
        };
        // Up to 60 empty squares, so never more than 60 legal moves (a real position can
        // have 33 or more). Each move is one word, its key above its square (the low byte),
        // so that the sort compares words; its flips are kept by square.
        let mut list = [0i64; 64];
        let mut flipped = [0u64; 64];
        let mut len = 0;
        let scorer = match &self.eval {
            Some(eval)
                if self.use_eval && (SORT_BY_EVAL_FROM..self.sort_by_search_from).contains(&n) =>
            {
                Some(Arc::clone(eval))
            }
            _ => None,
        };
        let before = scorer.as_ref().map(|s| s.indices(p, o));
        let mut rest = legal;
        while rest != 0 {
            let sq = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            let bit = 1u64 << sq;
            let f = flips(p, o, usize::from(sq));
            let (np, no) = (o ^ f, p | f | bit);
            // The opponent's replies after the move, corners counting twice: in both keys.
            let replies = moves(np, no, self.mask);
            let weighted = (replies.count_ones() + (replies & corner).count_ones()) as i32;
            let key = if sq == tried {
                // Searched already; kept at the front (below any evaluation, whatever the
                // patterns' weights) only so that its mirror images are dropped below.
                i32::MIN
            } else if n >= self.sort_by_search_from {
                // Our evaluation after the move, by a short search, and the opponent's
                // replies: best first.
                let depth = if n >= SORT_DEEPER_FROM { 3 } else { 2 };
                // The child's value is for the opponent: low is good for us, sorted first.
                let value = self.evaluate(np, no, depth, -INFINITY * 100, sort_beta);
                value + reply_weight * weighted
            } else if let (Some(scorer), Some(before)) = (&scorer, &before) {
                // The evaluation after the move (for the opponent: low first), its replies
                // and the empty squares next to our discs, where it may move later.
                let value = scorer.eighths_after(before, u32::from(sq), f, (np, no), replies);
                let potential = (around(no) & empties & !bit).count_ones() as i32;
                value + reply_weight * weighted + 16 * potential
            } else {
                // Fastest first: the opponent's replies (corners twice), then the empty
                // squares next to our discs (where it may move later: its potential
                // mobility), a corner and a move into a quadrant with an odd number of
                // empties (parity) a little better. (FFO #40–#44 with the patterns:
                // 176 M nodes on replies and corners alone, 169 M with potential mobility,
                // 168 M with parity too.)
                let potential = (around(no) & empties & !bit).count_ones();
                16 * weighted + 2 * potential as i32
                    - 8 * i32::from(bit & corner != 0)
                    - 4 * i32::from(bit & odd != 0)
            };
            list[len] = i64::from(key) << 8 | i64::from(sq);
            flipped[usize::from(sq)] = f;
            len += 1;
        }
        let mut list = &mut list[..len];
        list.sort_unstable();
        if n >= self.symmetry_from {
            len = self.drop_mirrored(p, o, list);
            list = &mut list[..len];
        }
        let list = if tried == NO_MOVE {
            list
        } else {
            &mut list[1..]
        };

        // Enhanced transposition cutoff: a child the table already knows to be bad enough
        // for the opponent settles this node.
        if n >= ETC_FROM {
            for &entry in list.iter() {
                let sq = square_of(entry);
                let f = flipped[usize::from(sq)];
                let (np, no) = (o ^ f, p | f | (1u64 << sq));
                if let Some(c) = self.probe(np, no, n - 1) {
                    if trusted(&c) && -i32::from(c.upper) >= beta {
                        return -i32::from(c.upper);
                    }
                }
            }
        }

        for (i, &entry) in list.iter().enumerate() {
            let sq = square_of(entry);
            let f = flipped[usize::from(sq)];
            let (np, no) = (o ^ f, p | f | (1u64 << sq));
            let mut v;
            if i == 0 && tried == NO_MOVE {
                v = -self.search(np, no, -beta, -alpha);
            } else {
                v = -self.search(np, no, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.search(np, no, -beta, -v);
                }
            }
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if n == self.root_empties && !selective {
                        self.progress.lower.store(v, Ordering::Relaxed);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let (lower, upper) = if best >= beta {
            (best, INFINITY)
        } else if best <= alpha0 {
            (-INFINITY, best)
        } else {
            (best, best)
        };
        self.store(p, o, n, lower, upper, best_sq);
        best
    }

    /// Discs of `me` that can never be flipped: a disc is safe along a line when the line is
    /// full, or when its neighbour on that line (either side) is the edge or a safe disc of
    /// its own colour; a disc safe along all four lines is stable. Grown from the edges in.
    fn stable(&self, me: u64, other: u64) -> u64 {
        let wall = !self.mask;
        let full = full_lines(self.mask & !(me | other));
        let mut stable = 0u64;
        loop {
            let s = stable | wall;
            // Neighbours beyond the 8x8 layout are walls too: shifted-in bits are set.
            let left = (s << 1) | FILE_A;
            let right = (s >> 1) | FILE_H;
            let up = (s << 8) | 0xff;
            let down = (s >> 8) | (0xff << 56);
            let up_left = (s << 9) | FILE_A | 0xff;
            let down_right = (s >> 9) | FILE_H | (0xff << 56);
            let up_right = (s << 7) | FILE_H | 0xff;
            let down_left = (s >> 7) | FILE_A | (0xff << 56);
            let safe = (full[0] | left | right)
                & (full[1] | up | down)
                & (full[2] | up_left | down_right)
                & (full[3] | up_right | down_left);
            let next = stable | (me & safe);
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }

    /// Keeps, of the moves in `list`, only the first of each set that a symmetry of the
    /// position maps onto one another; returns how many are left (at the front).
    fn drop_mirrored(&self, p: u64, o: u64, list: &mut [i64]) -> usize {
        let own: Vec<&[u8; 64]> = self
            .symmetries
            .iter()
            .filter(|t| transform(p, t) == p && transform(o, t) == o)
            .collect();
        if own.is_empty() {
            return list.len();
        }
        let mut kept = 0;
        for i in 0..list.len() {
            let sq = square_of(list[i]);
            let mirrored = list[..kept]
                .iter()
                .any(|&earlier| own.iter().any(|t| t[usize::from(square_of(earlier))] == sq));
            if !mirrored {
                list[kept] = list[i];
                kept += 1;
            }
        }
        kept
    }

    /// A short negamax on an evaluation, for move ordering: the value for the side with `p`
    /// to move, `depth` plies deep; the evaluation is mobility (corners weighing more) and
    /// corner discs.
    fn evaluate(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.count_node();
        let mine = moves(p, o, self.mask);
        if depth == 0 {
            if self.use_eval {
                if let Some(eval) = &self.eval {
                    // Eighths of a disc, as integers for the sort.
                    return eval.eighths(p, o, mine);
                }
            }
            let theirs = moves(o, p, self.mask);
            let c = self.corners;
            let mobility = (mine.count_ones() + (mine & c).count_ones()) as i32
                - (theirs.count_ones() + (theirs & c).count_ones()) as i32;
            let corners = (p & c).count_ones() as i32 - (o & c).count_ones() as i32;
            return 4 * mobility + 16 * corners;
        }
        if mine == 0 {
            return -self.evaluate(o, p, depth - 1, -beta, -alpha);
        }
        // One ply above the leaves, the patterns are read from this board once and each
        // child is scored from those indices, updated at the squares its move changes.
        let scorer = match &self.eval {
            Some(eval) if depth == 1 && self.use_eval => Some(Arc::clone(eval)),
            _ => None,
        };
        let before = scorer.as_ref().map(|s| s.indices(p, o));
        let mut best = -INFINITY * 100;
        let mut rest = mine;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips(p, o, sq as usize);
            let (np, no) = (o ^ f, p | f | (1u64 << sq));
            let v = match (&scorer, &before) {
                (Some(scorer), Some(before)) => {
                    // The leaf `evaluate` at depth 0 would score, counted alike.
                    self.count_node();
                    let legal = moves(np, no, self.mask);
                    -scorer.eighths_after(before, sq, f, (np, no), legal)
                }
                _ => -self.evaluate(np, no, depth - 1, -beta, -alpha),
            };
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The last few empty squares: no table, no move list; the empties are tried in parity
    /// order, the last one by [`Solver::last`]. `parity` has a bit for each quadrant with an
    /// odd number of `empties` ([`Solver::parity`]), kept up to date move by move.
    fn shallow(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        empties: u64,
        parity: usize,
    ) -> i32 {
        self.count_node();
        let rest = empties & empties.wrapping_sub(1);
        if rest & rest.wrapping_sub(1) == 0 {
            if rest != 0 {
                return self.two(p, o, alpha, beta, empties);
            }
            if empties == 0 {
                return p.count_ones() as i32 - o.count_ones() as i32;
            }
            return self.last(p, o, empties);
        }
        // Quadrants with an odd number of empties first.
        let odd = empties & self.quadrant_squares[parity];
        let mut best = -INFINITY;
        let mut moved = false;
        for group in [odd, empties & !odd] {
            let mut rest = group;
            while rest != 0 {
                let sq = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                if NEIGHBOURS[sq] & o == 0 {
                    continue;
                }
                let f = flips(p, o, sq);
                if f == 0 {
                    continue;
                }
                moved = true;
                let bit = 1u64 << sq;
                let after = parity ^ usize::from(self.quadrant_bit[sq]);
                let v = -self.shallow(o ^ f, p | f | bit, -beta, -alpha, empties ^ bit, after);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        if moved {
            return best;
        }
        // No move: pass if the opponent has one, else the game is over.
        if moves(o, p, self.mask) != 0 {
            return -self.shallow(o, p, -beta, -alpha, empties, parity);
        }
        margin(p, o, empties.count_ones())
    }

    /// Two empty squares left (`empties`): each move leaves the last one to
    /// [`Solver::last`], with no move list and no parity (either order is the same here).
    /// Nodes are counted as [`Solver::shallow`] would count them.
    fn two(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u64) -> i32 {
        let x = empties.trailing_zeros() as usize;
        let y = (empties & (empties - 1)).trailing_zeros() as usize;
        if let Some(v) = self.two_moves(p, o, beta, x, y) {
            return v;
        }
        // No move: pass if the opponent has one (a node), else the game is over.
        if let Some(v) = self.two_moves(o, p, -alpha, x, y) {
            self.count_node();
            return -v;
        }
        margin(p, o, 2)
    }

    /// The better of `p`'s moves on `x` and `y`, the last two empty squares, or the first
    /// that reaches `beta`; `None` when neither is legal.
    fn two_moves(&mut self, p: u64, o: u64, beta: i32, x: usize, y: usize) -> Option<i32> {
        let mut best = None;
        for (sq, other) in [(x, y), (y, x)] {
            if NEIGHBOURS[sq] & o == 0 {
                continue;
            }
            let f = flips(p, o, sq);
            if f == 0 {
                continue;
            }
            self.count_node();
            let v = -self.last(o ^ f, p | f | (1u64 << sq), 1u64 << other);
            if v >= beta {
                return Some(v);
            }
            best = best.max(Some(v));
        }
        best
    }

    /// Parity: a bit for each quadrant that holds an odd number of `empties` (a move there
    /// tends to leave us the last move of that region). A move flips its quadrant's bit.
    fn parity(&self, empties: u64) -> usize {
        self.quadrants
            .iter()
            .enumerate()
            .map(|(q, &squares)| ((empties & squares).count_ones() as usize & 1) << q)
            .sum()
    }

    /// The score with one empty square left, `empty`.
    fn last(&mut self, p: u64, o: u64, empty: u64) -> i32 {
        let sq = empty.trailing_zeros() as usize;
        // Every other square holds a disc: our lead before the last move follows from our
        // discs alone.
        let lead = 2 * p.count_ones() as i32 - (self.cells - 1);
        let around = NEIGHBOURS[sq];
        let f = if around & o == 0 {
            0
        } else {
            last_flips(p, sq)
        };
        if f > 0 {
            return lead + 2 * f + 1;
        }
        let g = if around & p == 0 {
            0
        } else {
            last_flips(o, sq)
        };
        if g > 0 {
            return lead - 2 * g - 1;
        }
        // Neither side can fill it: it goes to the winner.
        lead + lead.signum()
    }

    /// A line of perfect play from a position worth `score`: at each step a move whose
    /// value is `score` (checked with a null window on each side of it), passes included.
    fn principal_variation(&mut self, mut p: u64, mut o: u64, mut score: i32) -> Vec<Move> {
        let mut line = Vec::new();
        loop {
            let legal = moves(p, o, self.mask);
            if legal == 0 {
                if moves(o, p, self.mask) == 0 {
                    return line;
                }
                line.push(Move::Pass);
                std::mem::swap(&mut p, &mut o);
                score = -score;
                continue;
            }
            // The table's move first: the search that found the score left it there, and
            // proving a worse move worse can cost as much as the solve (FFO #59).
            let first = match self.probe(p, o, (self.mask & !(p | o)).count_ones()) {
                Some(e) if e.best != NO_MOVE && legal >> e.best & 1 == 1 => e.best,
                _ => NO_MOVE,
            };
            let mut order = [first; 64];
            let mut count = usize::from(first != NO_MOVE);
            let mut rest = legal;
            while rest != 0 {
                let sq = rest.trailing_zeros() as u8;
                rest &= rest - 1;
                if sq != first {
                    order[count] = sq;
                    count += 1;
                }
            }
            let mut found = None;
            for sq in order[..count].iter().map(|&sq| usize::from(sq)) {
                let f = flips(p, o, sq);
                let (np, no) = (o ^ f, p | f | (1u64 << sq));
                // The child is worth -score to the opponent iff it is neither better nor worse.
                let v = -self.search(np, no, -score - 1, -score + 1);
                if self.stopped {
                    return line;
                }
                if v == score {
                    found = Some((sq, np, no));
                    break;
                }
            }
            let (sq, np, no) = found.expect("some move achieves the position's value");
            line.push(Move::Play(Square::from_index(sq)));
            p = np;
            o = no;
            score = -score;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_moves(board: &Board) -> usize {
        let (p, o) = board.sides();
        let mut solver = Solver::new(10);
        solver.set_size(board.size());
        let legal = moves(p, o, solver.mask);
        let mut list: Vec<i64> = (0..64u8)
            .filter(|&sq| legal >> sq & 1 == 1)
            .map(i64::from)
            .collect();
        solver.drop_mirrored(p, o, &mut list)
    }

    #[test]
    fn the_four_first_moves_are_one_up_to_symmetry() {
        for n in [4, 6, 8] {
            assert_eq!(first_moves(&Board::new(n).unwrap()), 1, "{n}x{n}");
        }
        // After d3 on 8x8 no symmetry is left: White's three replies are the three distinct
        // openings (perpendicular, diagonal, parallel), all kept.
        let mut board = Board::standard();
        board.play("d3".parse().unwrap()).unwrap();
        assert_eq!(first_moves(&board), 3);
    }

    #[test]
    fn around_is_the_discs_and_their_neighbours() {
        // Single discs everywhere (edges and corners included), and a few crowds.
        let mut boards: Vec<u64> = (0..64).map(|sq| 1u64 << sq).collect();
        boards.extend([0, u64::MAX, 0x8100_0000_0000_0081, 0x0000_0018_1800_0000]);
        for b in boards {
            let mut expected = b;
            for sq in (0..64).filter(|sq| b >> sq & 1 == 1) {
                expected |= NEIGHBOURS[sq];
            }
            assert_eq!(around(b), expected, "{b:#018x}");
        }
    }

    #[test]
    fn the_last_moves_flips_are_counted_from_the_movers_discs_alone() {
        let mut rng = crate::rng::Rng::new(15);
        for n in [4u8, 6, 8] {
            let mask = board_mask(n);
            for _ in 0..2000 {
                // Every square filled at random but one.
                let empty = loop {
                    let sq = rng.below(64);
                    if mask >> sq & 1 == 1 {
                        break sq;
                    }
                };
                let p = rng.next_u64() & mask & !(1u64 << empty);
                let o = mask & !p & !(1u64 << empty);
                for (me, other) in [(p, o), (o, p)] {
                    assert_eq!(
                        last_flips(me, empty),
                        flips(me, other, empty).count_ones() as i32,
                        "{n}x{n}: {me:#018x} on {empty}"
                    );
                }
            }
        }
    }

    #[test]
    fn two_empties_give_the_exact_score_or_a_bound_on_the_right_side_of_the_window() {
        use crate::othello::Bitboard;
        use crate::Color;
        // Boards filled at random but for two squares: many positions where one side or
        // neither can move, which a game seldom reaches.
        let mut rng = crate::rng::Rng::new(29);
        let mut outcomes = [0; 3];
        for n in [4u8, 6, 8] {
            let mut solver = Solver::new(4);
            solver.set_size(usize::from(n));
            let mask = solver.mask;
            for _ in 0..3000 {
                let empties = loop {
                    let e = (1u64 << rng.below(64)) | (1u64 << rng.below(64));
                    if e.count_ones() == 2 && e & mask == e {
                        break e;
                    }
                };
                let p = rng.next_u64() & mask & !empties;
                let o = mask & !p & !empties;
                // Plain minimax over the game's rules (`search`), Black to move.
                let board =
                    Board::from_discs(usize::from(n), Bitboard(p), Bitboard(o), Color::Black)
                        .expect("a board size of 4, 6 or 8");
                let truth = crate::search::minimax(&board).value;
                let alpha = rng.below(2 * n as usize * n as usize) as i32 - i32::from(n * n);
                let beta = alpha + 1 + rng.below(8) as i32;
                let v = solver.two(p, o, alpha, beta, empties);
                // Fail-soft: inside the window the score itself; outside it, a bound that
                // the score does not cross.
                let at = if v <= alpha {
                    assert!(truth <= v, "{n}x{n}: {truth} above {v} <= {alpha}");
                    0
                } else if v >= beta {
                    assert!(truth >= v, "{n}x{n}: {truth} below {v} >= {beta}");
                    2
                } else {
                    assert_eq!(v, truth, "{n}x{n}, window ({alpha}, {beta})");
                    1
                };
                outcomes[at] += 1;
                assert_eq!(solver.two(p, o, -99, 99, empties), truth, "{n}x{n}");
            }
        }
        // Each case ran.
        assert!(outcomes.iter().all(|&k| k > 100), "{outcomes:?}");
    }

    #[test]
    fn parity_picks_the_quadrants_with_odd_empties_and_a_move_flips_its_own() {
        let mut rng = crate::rng::Rng::new(47);
        for n in [4usize, 6, 8] {
            let mut solver = Solver::new(4);
            solver.set_size(n);
            let half = n / 2;
            let quadrant =
                |sq: usize| usize::from(sq / 8 >= half) * 2 + usize::from(sq % 8 >= half);
            for _ in 0..2000 {
                let empties = rng.next_u64() & rng.next_u64() & solver.mask;
                // The odd quadrants counted square by square.
                let mut count = [0; 4];
                for sq in (0..64).filter(|sq| empties >> sq & 1 == 1) {
                    count[quadrant(sq)] += 1;
                }
                let odd = (0..64)
                    .filter(|&sq| empties >> sq & 1 == 1 && count[quadrant(sq)] % 2 == 1)
                    .fold(0u64, |acc, sq| acc | 1 << sq);
                let parity = solver.parity(empties);
                assert_eq!(empties & solver.quadrant_squares[parity], odd, "{n}x{n}");
                // Filling any empty square: the parity after it, kept move by move.
                for sq in (0..64).filter(|sq| empties >> sq & 1 == 1) {
                    let after = parity ^ usize::from(solver.quadrant_bit[sq]);
                    assert_eq!(solver.parity(empties ^ 1 << sq), after, "{n}x{n} {sq}");
                }
            }
        }
    }

    #[test]
    fn symmetries_are_permutations_of_the_board() {
        for n in [4, 6, 8] {
            let mask = board_mask(n as u8);
            for image in symmetries(n) {
                assert_eq!(transform(mask, &image), mask);
            }
        }
    }
}

#[cfg(test)]
mod stability {
    use super::*;

    fn solver_for(n: usize) -> Solver {
        let mut solver = Solver::new(10);
        solver.set_size(n);
        solver
    }

    /// The squares whose line in direction `(dr, dc)` (both ways) has no empty square, read
    /// square by square.
    fn full_by_walking(n: usize, empty: u64, (dr, dc): (i32, i32)) -> u64 {
        let on = |r: i32, c: i32| (0..n as i32).contains(&r) && (0..n as i32).contains(&c);
        let mut full = 0;
        for r in 0..n as i32 {
            for c in 0..n as i32 {
                let mut clear = true;
                for sign in [1, -1] {
                    let (mut rr, mut cc) = (r, c);
                    while on(rr, cc) {
                        clear &= empty >> (rr * 8 + cc) & 1 == 0;
                        rr += sign * dr;
                        cc += sign * dc;
                    }
                }
                if clear {
                    full |= 1 << (r * 8 + c);
                }
            }
        }
        full
    }

    #[test]
    fn full_lines_agree_with_walking_each_line() {
        let mut rng = crate::rng::Rng::new(31);
        let directions = [(0, 1), (1, 0), (1, 1), (1, -1)];
        for n in [4, 6, 8] {
            let mask = board_mask(n as u8);
            for case in 0..3000 {
                // Nearly full boards, where lines are full: 1 to 12 empty squares.
                let mut empty = 0;
                let wanted = 1 + case % 12;
                for _ in 0..wanted {
                    empty |= 1u64 << rng.below(64);
                }
                empty &= mask;
                let full = full_lines(empty);
                for (d, &dir) in directions.iter().enumerate() {
                    assert_eq!(
                        full[d] & mask,
                        full_by_walking(n, empty, dir),
                        "n {n}, empty {empty:#x}, direction {dir:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn corners_edges_and_full_boards() {
        let solver = solver_for(6);
        // A corner and the edge run it anchors are stable; a lone edge disc is not.
        let board: Board = "BBB.B.\n......\n......\n......\n......\n......"
            .parse()
            .unwrap();
        // Parsed boards have Black to move: `sides()` is (Black, White).
        let (b, w) = board.sides();
        assert_eq!(solver.stable(b, w), 0b111);
        // On a full board every disc is stable.
        let full: Board = "BWBWBW\nWBWBWB\nBWBWBW\nWBWBWB\nBWBWBW\nWBWBWB"
            .parse()
            .unwrap();
        let (b, w) = full.sides();
        assert_eq!(solver.stable(b, w), b);
        assert_eq!(solver.stable(w, b), w);
        // The start: nothing is stable.
        let start = Board::new(6).unwrap();
        let (b, w) = start.sides();
        assert_eq!(solver.stable(b, w), 0);
    }
}
