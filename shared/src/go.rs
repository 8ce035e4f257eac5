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
//! use games::go::{Game, IllegalMove, KoRule, Move};
//! use games::Color;
//!
//! let board = ". X O . .
//!              X O . O .
//!              . X O . .
//!              . . . . .
//!              . . . . .".parse().unwrap();
//! let mut game = Game::new(board, KoRule::Simple);
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

use crate::grid::{self, GridError};
use crate::rng::{self, Rng};
use crate::search::{self, Side};
use crate::Color;
use std::collections::HashSet;
use std::error::Error;
use std::fmt;
use std::ops::{Index, IndexMut};
use std::str::FromStr;

/// The largest number of rows or columns.
pub const MAX_SIDE: usize = 20;

/// Cells of the padded array of the largest board, plus the one cell past the last border row
/// that the diagonal of the bottom-right point reaches.
const MAX_CELLS: usize = (MAX_SIDE + 2) * (MAX_SIDE + 1) + 1;

/// Per-point arrays hold this many cells, a power of two above [`MAX_CELLS`]: indexing
/// through the mask `CAPACITY - 1` lets the compiler drop every bounds check in the hot
/// paths, and no valid index is changed by the mask.
const CAPACITY: usize = 512;

/// A per-cell array of [`CAPACITY`] entries, indexed modulo its length.
#[derive(Clone, Debug)]
struct Masked<T>([T; CAPACITY]);

impl<T: Copy> Masked<T> {
    /// Copies the first `n` entries of `source`: all that a board of `n` cells uses.
    fn copy_prefix(&mut self, source: &Masked<T>, n: usize) {
        self.0[..n].copy_from_slice(&source.0[..n]);
    }
}

impl<T> Index<usize> for Masked<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.0[i & (CAPACITY - 1)]
    }
}

impl<T> IndexMut<usize> for Masked<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[i & (CAPACITY - 1)]
    }
}

/// Everything a board keeps per cell, in one allocation, so that the hot loops address all
/// of it from one base pointer.
#[derive(Clone, Debug)]
struct Cells {
    color: Masked<u8>,
    /// Head of the chain of each stone; 0 (a border cell, whose `libs` entry is scratch) on
    /// empty and border cells, so that neighbour updates need not test what they touch.
    head: Masked<u16>,
    /// Next stone of the chain, circularly.
    next: Masked<u16>,
    /// At chain heads: pseudo-liberties, the count of (stone, empty neighbour) pairs.
    libs: Masked<u16>,
    /// At chain heads: number of stones.
    size: Masked<u16>,
    /// At chain heads: xor of the chain's Zobrist keys.
    chain_hash: Masked<u64>,
    /// Packed counts of each point's black, white and empty neighbours (`AROUND_*`).
    around: Masked<u16>,
    /// The empty points, in no particular order: the first `Board::empty_count` entries.
    /// Whoever fills a point knows (or looks up) its place in the list.
    empties: Masked<u16>,
}

impl Cells {
    fn new() -> Box<Cells> {
        Box::new(Cells {
            color: Masked([BORDER; CAPACITY]),
            head: Masked([0; CAPACITY]),
            next: Masked([0; CAPACITY]),
            libs: Masked([0; CAPACITY]),
            size: Masked([0; CAPACITY]),
            chain_hash: Masked([0; CAPACITY]),
            around: Masked([0; CAPACITY]),
            empties: Masked([0; CAPACITY]),
        })
    }
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// Packed neighbour counts of a point ([`Board`]'s `around`): black-or-edge neighbours in
/// bits 0..4, white-or-edge in 4..8, empty in 8..12. The edge counts for both colours, so a
/// point whose count for a colour is 4 is surrounded by that colour and the edge: eye-shaped.
const AROUND_BLACK: u16 = 1;
const AROUND_WHITE: u16 = 1 << 4;
const AROUND_EMPTY: u16 = 1 << 8;

/// The count of `around` a stone of colour code `stone` adds to each neighbour.
const fn around_unit(stone: u8) -> u16 {
    AROUND_BLACK << around_shift(stone)
}

/// Where the count of colour code `stone` sits in `around` (a shift, not a division: this
/// is on the playouts' hottest path).
const fn around_shift(stone: u8) -> u32 {
    if stone == BLACK {
        0
    } else {
        4
    }
}

/// The ko point packed for a one-instruction test: the cell and the colour code of the side
/// that may not play there; 0 for none (cell 0 is a border cell).
const fn ko_key(p: usize, stone: u8) -> u32 {
    (p as u32) << 2 | stone as u32
}

/// One random 64-bit key per cell and colour; a position's hash is the xor of its stones'
/// keys. Filled at compile time from SplitMix64.
static ZOBRIST: [[u64; 2]; MAX_CELLS] = build_zobrist();

const fn build_zobrist() -> [[u64; 2]; MAX_CELLS] {
    let mut keys = [[0; 2]; MAX_CELLS];
    let mut i = 0;
    while i < MAX_CELLS {
        keys[i][0] = rng::mix(0x5eed_0000 + 2 * i as u64);
        keys[i][1] = rng::mix(0x5eed_0000 + 2 * i as u64 + 1);
        i += 1;
    }
    keys
}

/// A point of a particular board: an index into its padded array. Get one from
/// [`Board::point`]; it means nothing on a board of another size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a stone on the point.
    Play(Point),
    /// Pass.
    Pass,
}

/// Why a move was refused. The board is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The coordinates lie outside the board.
    OffBoard,
    /// A stone is already there.
    Occupied,
    /// The stone's chain would have no liberty after the captures.
    Suicide,
    /// It would recreate the position just before the previous move (simple ko).
    Ko,
    /// It would recreate an earlier position (positional superko).
    Superko,
}

/// Which repetitions a [`Game`] forbids.
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

/// A board size outside 1..=20 rows and columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// Rows asked for.
    pub rows: usize,
    /// Columns asked for.
    pub cols: usize,
}

/// A starting position that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The size is out of range.
    Size(SizeError),
    /// Text that is not a board: a row of another length, a symbol other than `X`, `O`, `.`.
    Grid(GridError),
    /// A chain without a liberty; the point is one of its stones (0-based row, column).
    NoLiberty {
        /// The 0-based row.
        row: usize,
        /// The 0-based column.
        col: usize,
    },
}

/// A chain of stones with its exact liberties, both in row-major order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The chain's colour.
    pub color: Color,
    /// Its stones.
    pub stones: Vec<Point>,
    /// The empty points next to it.
    pub liberties: Vec<Point>,
}

/// Stones and chains on a board of up to 20×20 points, and the simple-ko point.
///
/// Text form (`Display`, `FromStr`): one line per row, `X` black, `O` white, `.` empty,
/// separated by single spaces as the seeds print them (parsing also accepts no spaces).
#[derive(Debug)]
pub struct Board {
    /// Cells of the padded array this board uses.
    cells: u16,
    rows: u8,
    cols: u8,
    stride: u16,
    c: Box<Cells>,
    /// Number of empty points: the length of the list `c.empties`.
    empty_count: u16,
    hash: u64,
    /// The simple-ko point as a [`ko_key`]: where the side whose single stone was just
    /// captured may not play next. Set when a single stone captured a single stone and was
    /// left with one liberty; retaking there is exactly the move that would recreate the
    /// position before the previous move.
    ko: u32,
}

/// What playing a legal move will do, worked out before the board changes.
#[derive(Clone, Copy, Debug)]
struct Effect {
    /// Hash of the position after the move.
    hash: u64,
    /// Heads of the captured chains.
    captured: [u16; 4],
    captured_chains: usize,
}

const fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

const fn color_of(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

fn zobrist(p: usize, stone: u8) -> u64 {
    ZOBRIST[p][usize::from(stone - 1)]
}

impl Board {
    /// An empty board of `rows` × `cols` points.
    ///
    /// # Errors
    ///
    /// [`SizeError`] unless both are in `1..=20`.
    pub fn new(rows: usize, cols: usize) -> Result<Board, SizeError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        let stride = cols + 1;
        let cells = (rows + 2) * stride + 1;
        let mut board = Board {
            cells: cells as u16,
            rows: rows as u8,
            cols: cols as u8,
            stride: stride as u16,
            c: Cells::new(),
            empty_count: 0,
            hash: 0,
            ko: 0,
        };
        for r in 0..rows {
            for c in 0..cols {
                let p = (r + 1) * stride + c + 1;
                board.c.color[p] = EMPTY;
                board.add_empty(p);
            }
        }
        for p in 0..cells - stride {
            if board.c.color[p] == EMPTY {
                board.c.around[p] = board
                    .neighbours(p)
                    .iter()
                    .map(|&n| match board.c.color[n] {
                        BORDER => AROUND_BLACK | AROUND_WHITE,
                        _ => AROUND_EMPTY,
                    })
                    .sum();
            }
        }
        Ok(board)
    }

    /// A board with stones already on it (no captures happen while they are put down).
    ///
    /// # Errors
    ///
    /// [`SetupError::Size`] for a bad size, [`SetupError::NoLiberty`] when a chain has no
    /// liberty.
    ///
    /// # Panics
    ///
    /// If a point is off the board or given twice.
    pub fn with_stones(
        rows: usize,
        cols: usize,
        stones: impl IntoIterator<Item = (usize, usize, Color)>,
    ) -> Result<Board, SetupError> {
        let mut board = Board::new(rows, cols).map_err(SetupError::Size)?;
        for (r, c, color) in stones {
            let p = board.point(r, c).expect("stone off the board");
            assert!(board.at(p).is_none(), "two stones on one point");
            let at = board.empty_index(usize::from(p.0));
            board.put::<false, true>(code(color), p.0.into(), at);
        }
        board.check_liberties()?;
        Ok(board)
    }

    fn check_liberties(&self) -> Result<(), SetupError> {
        match self.points().find(|&p| {
            let i = usize::from(p.0);
            self.c.color[i] != EMPTY && self.c.libs[usize::from(self.c.head[i])] == 0
        }) {
            Some(p) => {
                let (row, col) = self.coords(p);
                Err(SetupError::NoLiberty { row, col })
            }
            None => Ok(()),
        }
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        usize::from(self.rows)
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        usize::from(self.cols)
    }

    /// The point at 0-based `row` and `col`, or `None` off the board.
    pub fn point(&self, row: usize, col: usize) -> Option<Point> {
        (row < self.rows() && col < self.cols()).then(|| self.point_unchecked(row, col))
    }

    /// 0-based (row, column) of `p`.
    pub fn coords(&self, p: Point) -> (usize, usize) {
        let stride = usize::from(self.stride);
        let i = usize::from(p.0);
        (i / stride - 1, i % stride - 1)
    }

    /// All points, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.rows())
            .flat_map(move |r| (0..self.cols()).map(move |c| self.point_unchecked(r, c)))
    }

    fn point_unchecked(&self, r: usize, c: usize) -> Point {
        Point(((r + 1) * usize::from(self.stride) + c + 1) as u16)
    }

    /// The stone on `p`, if any.
    pub fn at(&self, p: Point) -> Option<Color> {
        color_of(self.c.color[usize::from(p.0)])
    }

    /// Zobrist hash of the stones (not of the side to move).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The simple-ko point: where the given colour may not play next, if anywhere.
    pub fn ko(&self) -> Option<(Point, Color)> {
        let stone = (self.ko & 3) as u8;
        color_of(stone).map(|color| (Point((self.ko >> 2) as u16), color))
    }

    /// Number of empty points.
    pub fn empty_count(&self) -> usize {
        usize::from(self.empty_count)
    }

    /// Number of stones of `color`.
    pub fn count(&self, color: Color) -> usize {
        let code = code(color);
        self.points()
            .filter(|p| self.c.color[usize::from(p.0)] == code)
            .count()
    }

    fn neighbours(&self, p: usize) -> [usize; 4] {
        let s = usize::from(self.stride);
        [p - s, p - 1, p + 1, p + s]
    }

    /// The chain through `p` with its exact liberties, or `None` on an empty point.
    ///
    /// # Complexity
    ///
    /// Proportional to the chain's size.
    pub fn chain(&self, p: Point) -> Option<Chain> {
        let color = self.at(p)?;
        let mut stones = Vec::new();
        let mut liberties = Vec::new();
        for s in self.stones_of(usize::from(p.0)) {
            stones.push(Point(s as u16));
            for n in self.neighbours(s) {
                if self.c.color[n] == EMPTY {
                    liberties.push(Point(n as u16));
                }
            }
        }
        stones.sort_unstable();
        liberties.sort_unstable();
        liberties.dedup();
        Some(Chain {
            color,
            stones,
            liberties,
        })
    }

    /// Every chain on the board, ordered by its first stone in row-major order.
    ///
    /// # Complexity
    ///
    /// Proportional to the number of points.
    pub fn chains(&self) -> Vec<Chain> {
        let mut chains: Vec<Chain> = self
            .points()
            .filter(|&p| {
                let i = usize::from(p.0);
                self.c.color[i] != EMPTY && usize::from(self.c.head[i]) == i
            })
            .filter_map(|p| self.chain(p))
            .collect();
        chains.sort_unstable_by_key(|chain| chain.stones[0]);
        chains
    }

    /// The stones of the chain through `p` (a stone), as padded indices.
    fn stones_of(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let mut s = Some(p);
        std::iter::from_fn(move || {
            let cur = s?;
            let nxt = usize::from(self.c.next[cur]);
            s = (nxt != p).then_some(nxt);
            Some(cur)
        })
    }

    /// Works out what `color` playing on `p` would do, without the ko rules.
    fn effect(&self, stone: u8, p: usize) -> Result<Effect, IllegalMove> {
        match self.c.color[p] {
            EMPTY => {}
            BORDER => return Err(IllegalMove::OffBoard),
            _ => return Err(IllegalMove::Occupied),
        }
        let nbrs = self.neighbours(p);
        // 0 for empty and border neighbours, which no chain head equals.
        let heads = nbrs.map(|n| self.c.head[n]);
        // How many of the chain's (stone, empty) pairs are pairs with `p`.
        let pairs_with_p = |h: u16| heads.iter().filter(|&&x| x == h).count() as u16;
        let mut effect = Effect {
            hash: self.hash ^ zobrist(p, stone),
            captured: [0; 4],
            captured_chains: 0,
        };
        let mut breathes = false;
        for (i, &n) in nbrs.iter().enumerate() {
            let cell = self.c.color[n];
            if cell == EMPTY {
                breathes = true;
            } else if cell == stone {
                // An own chain gives a liberty if it has one besides `p`.
                breathes |= self.c.libs[usize::from(heads[i])] > pairs_with_p(heads[i]);
            } else if cell != BORDER {
                let h = heads[i];
                let fresh = !effect.captured[..effect.captured_chains].contains(&h);
                if fresh && self.c.libs[usize::from(h)] == pairs_with_p(h) {
                    effect.captured[effect.captured_chains] = h;
                    effect.captured_chains += 1;
                    effect.hash ^= self.c.chain_hash[usize::from(h)];
                }
            }
        }
        if !breathes && effect.captured_chains == 0 {
            return Err(IllegalMove::Suicide);
        }
        Ok(effect)
    }

    /// [`Board::effect`] under `rule`, where `seen(hash)` tells whether the position with
    /// that hash stood earlier in the game (for positional superko).
    fn effect_under(
        &self,
        rule: KoRule,
        stone: u8,
        p: usize,
        seen: impl Fn(u64) -> bool,
    ) -> Result<Effect, IllegalMove> {
        let effect = self.effect(stone, p)?;
        if rule != KoRule::None && self.ko == ko_key(p, stone) {
            return Err(IllegalMove::Ko);
        }
        if rule == KoRule::PositionalSuperko && seen(effect.hash) {
            return Err(IllegalMove::Superko);
        }
        Ok(effect)
    }

    /// Puts a stone down on `p`, entry `at` of the empty list, joins it to its own
    /// neighbours and, when `CAPTURE`, removes the
    /// enemy chains left without a liberty (setting up a position does not capture). Returns
    /// the number of captured stones and the last captured chain's head.
    ///
    /// All pseudo-liberty decrements happen before any capture test, so one pass can then
    /// merge and capture in either order: a capture credits its liberties to whatever chain
    /// the neighbouring stones belong to at that moment, and merging adds the counts up.
    /// Without `HASH` the Zobrist hashes are left stale (see [`Board::playout`]).
    #[inline(always)]
    fn put<const CAPTURE: bool, const HASH: bool>(
        &mut self,
        stone: u8,
        p: usize,
        at: usize,
    ) -> (u32, usize) {
        self.remove_empty(at);
        self.c.color[p] = stone;
        if HASH {
            let key = zobrist(p, stone);
            self.hash ^= key;
            self.c.chain_hash[p] = key;
        }
        self.c.head[p] = p as u16;
        self.c.next[p] = p as u16;
        self.c.size[p] = 1;
        self.c.libs[p] = (self.c.around[p] / AROUND_EMPTY) & 0xf;
        let nbrs = self.neighbours(p);
        let unit = around_unit(stone).wrapping_sub(AROUND_EMPTY);
        for &n in &nbrs {
            // Counts on border cells and the scratch `libs[0]` wrap harmlessly: nothing
            // reads them. Branch-free, because neighbour colours are unpredictable.
            self.c.around[n] = self.c.around[n].wrapping_add(unit);
            let h = usize::from(self.c.head[n]);
            self.c.libs[h] = self.c.libs[h].wrapping_sub(1);
        }
        let enemy = stone ^ (BLACK | WHITE);
        let (mut captured, mut last_captured) = (0, 0);
        if self.c.around[p] >= 4 * AROUND_EMPTY {
            // Four empty neighbours: nothing to join, nothing to capture.
            return (0, 0);
        }
        for &n in &nbrs {
            let cell = self.c.color[n];
            let h = usize::from(self.c.head[n]);
            if cell == stone && h != usize::from(self.c.head[p]) {
                self.merge::<HASH>(h, usize::from(self.c.head[p]));
            } else if CAPTURE && cell == enemy && self.c.libs[h] == 0 {
                captured += u32::from(self.c.size[h]);
                last_captured = h;
                self.remove_chain::<HASH>(h);
            }
        }
        (captured, last_captured)
    }

    /// Joins two chains, relabelling the smaller one.
    fn merge<const HASH: bool>(&mut self, a: usize, b: usize) {
        let (big, small) = if self.c.size[a] >= self.c.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = small;
        loop {
            self.c.head[s] = big as u16;
            s = usize::from(self.c.next[s]);
            if s == small {
                break;
            }
        }
        let (a, b) = (self.c.next[big], self.c.next[small]);
        self.c.next[big] = b;
        self.c.next[small] = a;
        self.c.size[big] += self.c.size[small];
        self.c.libs[big] += self.c.libs[small];
        if HASH {
            self.c.chain_hash[big] ^= self.c.chain_hash[small];
        }
    }

    /// Removes the chain with head `h` and gives its neighbours their liberties back.
    fn remove_chain<const HASH: bool>(&mut self, h: usize) {
        let stone = self.c.color[h];
        let unit = AROUND_EMPTY.wrapping_sub(around_unit(stone));
        let mut s = h;
        loop {
            self.c.color[s] = EMPTY;
            self.c.head[s] = 0;
            self.add_empty(s);
            if HASH {
                self.hash ^= zobrist(s, stone);
            }
            for n in self.neighbours(s) {
                self.c.around[n] = self.c.around[n].wrapping_add(unit);
                // A liberty back for each neighbouring chain. Empty and border cells, and
                // the stones of this chain already removed, add to the scratch `libs[0]`;
                // the ones not yet removed add to this chain's own count, which dies with it.
                let nh = usize::from(self.c.head[n]);
                self.c.libs[nh] = self.c.libs[nh].wrapping_add(1);
            }
            s = usize::from(self.c.next[s]);
            if s == h {
                break;
            }
        }
    }

    /// Plays a legal move on `p`, entry `at` of the empty list: puts the stone down, removes the enemy chains left without a
    /// liberty, and sets the ko point. Returns the number of stones captured.
    #[inline(always)]
    fn apply<const HASH: bool>(&mut self, color: Color, p: usize, at: usize) -> u32 {
        let stone = code(color);
        let (captured, last_captured) = self.put::<true, HASH>(stone, p, at);
        let own = usize::from(self.c.head[p]);
        self.ko = if captured == 1 && self.c.size[own] == 1 && self.c.libs[own] == 1 {
            ko_key(last_captured, stone ^ (BLACK | WHITE))
        } else {
            0
        };
        captured
    }

    /// Takes entry `at` out of the empty list (the last entry moves into its place).
    fn remove_empty(&mut self, at: usize) {
        self.empty_count -= 1;
        self.c.empties[at] = self.c.empties[usize::from(self.empty_count)];
    }

    fn add_empty(&mut self, p: usize) {
        self.c.empties[usize::from(self.empty_count)] = p as u16;
        self.empty_count += 1;
    }

    /// Where the empty point `p` stands in the empty list.
    ///
    /// # Complexity
    ///
    /// Linear in the number of empty points; only moves from outside the searches need it.
    fn empty_index(&self, p: usize) -> usize {
        self.empty_list()
            .iter()
            .position(|&e| usize::from(e) == p)
            .expect("the point is empty")
    }

    /// The empty points, in no particular order.
    fn empty_list(&self) -> &[u16] {
        &self.c.empties.0[..usize::from(self.empty_count)]
    }

    /// Whether `p` is a one-point eye of `color`: every neighbour is a `color` stone or the
    /// edge, and at most one diagonal (none on the edge) holds an enemy stone, so that the
    /// eye is not false. Playouts never fill these.
    pub fn is_eye(&self, p: Point, color: Color) -> bool {
        let p = usize::from(p.0);
        self.c.color[p] == EMPTY && self.eye_shaped(p, code(color))
    }

    /// Whether every neighbour of `p` is an `own` stone or the edge, and the diagonals make
    /// it a real eye.
    fn eye_shaped(&self, p: usize, own: u8) -> bool {
        (self.c.around[p] >> around_shift(own)) & 0xf == 4 && self.diagonals_allow_eye(p, own)
    }

    /// Whether the diagonals of `p` leave it a real eye of `own`: at most one enemy stone
    /// on them, none when `p` is on the edge.
    fn diagonals_allow_eye(&self, p: usize, own: u8) -> bool {
        let s = usize::from(self.stride);
        let diagonals = [p - s - 1, p - s + 1, p + s - 1, p + s + 1].map(|d| self.c.color[d]);
        let enemy = own ^ (BLACK | WHITE);
        let enemies = diagonals.iter().filter(|&&c| c == enemy).count();
        let edge = usize::from(diagonals.contains(&BORDER));
        enemies + edge < 2
    }

    /// Whether a playout may play on the empty point `p`: legal under simple ko, and not
    /// one of the mover's own one-point eyes.
    #[inline(always)]
    fn playable(&self, own: u8, p: usize) -> bool {
        if self.ko == ko_key(p, own) {
            return false;
        }
        if self.c.around[p] >= AROUND_EMPTY {
            // A liberty of its own: never suicide, never an eye.
            return true;
        }
        !self.eye_shaped(p, own) && self.breathes_after(own, p)
    }

    /// For an empty `p` without an empty neighbour: whether a stone of `own` there keeps a
    /// liberty, by capturing an enemy chain whose only liberty is `p`, or by joining an own
    /// chain with a liberty besides `p`. The same answer as [`Board::effect`]'s suicide test,
    /// cheaper: pseudo-liberties settle most chains without counting their pairs with `p`
    /// (1 means `p` is the only liberty, 5 or more that there is another).
    fn breathes_after(&self, own: u8, p: usize) -> bool {
        let nbrs = self.neighbours(p);
        let heads = nbrs.map(|n| self.c.head[n]);
        let cells = nbrs.map(|n| self.c.color[n]);
        // Border neighbours read the scratch `libs[0]`; they are skipped below.
        let libs = heads.map(|h| self.c.libs[usize::from(h)]);
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
    pub fn play_random(&mut self, color: Color, rng: &mut Rng) -> Move {
        self.random_move::<true>(color, rng)
    }

    /// [`Board::play_random`], keeping the Zobrist hashes up to date only if `HASH`.
    #[inline(always)]
    fn random_move<const HASH: bool>(&mut self, color: Color, rng: &mut Rng) -> Move {
        let own = code(color);
        let mut untried = usize::from(self.empty_count);
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
            let p = usize::from(self.c.empties[i]);
            if self.playable(own, p) {
                self.apply::<HASH>(color, p, i);
                return Move::Play(Point(p as u16));
            }
            // Move the refused point past the end of the untried part of the list.
            untried -= 1;
            self.c.empties[i] = self.c.empties[untried];
            self.c.empties[untried] = p as u16;
        }
        self.ko = 0;
        Move::Pass
    }

    /// Plays random moves ([`Board::play_random`]) for both sides in turn, `color` first,
    /// until two passes in a row or `max_moves` moves (passes included); returns the number of
    /// moves played.
    pub fn playout(&mut self, mut color: Color, rng: &mut Rng, max_moves: usize) -> usize {
        // No Zobrist upkeep move by move: the hashes are rebuilt once at the end.
        let mut passes = 0;
        let mut played = 0;
        while played < max_moves {
            played += 1;
            if self.random_move::<false>(color, rng) == Move::Pass {
                passes += 1;
                if passes == 2 {
                    break;
                }
            } else {
                passes = 0;
            }
            color = color.opponent();
        }
        self.rehash();
        played
    }

    /// Recomputes the position's and every chain's Zobrist hash from the stones.
    ///
    /// # Complexity
    ///
    /// Linear in the number of points.
    fn rehash(&mut self) {
        self.hash = 0;
        for p in 0..usize::from(self.cells) {
            if matches!(self.c.color[p], BLACK | WHITE) {
                self.c.chain_hash[usize::from(self.c.head[p])] = 0;
            }
        }
        for p in 0..usize::from(self.cells) {
            let stone = self.c.color[p];
            if matches!(stone, BLACK | WHITE) {
                let key = zobrist(p, stone);
                self.hash ^= key;
                self.c.chain_hash[usize::from(self.c.head[p])] ^= key;
            }
        }
    }

    /// Area score: stones plus empty regions that touch only one colour, (black, white).
    pub fn area_score(&self) -> (usize, usize) {
        let mut score = [0usize; 2];
        let mut seen = vec![false; usize::from(self.cells)];
        let mut stack = Vec::new();
        for p in self.points() {
            let p = usize::from(p.0);
            match self.c.color[p] {
                BLACK => score[0] += 1,
                WHITE => score[1] += 1,
                _ if !seen[p] => {
                    // Flood the empty region, noting which colours it touches.
                    let (mut region, mut touches) = (0, 0u8);
                    seen[p] = true;
                    stack.push(p);
                    while let Some(q) = stack.pop() {
                        region += 1;
                        for n in self.neighbours(q) {
                            match self.c.color[n] {
                                EMPTY if !seen[n] => {
                                    seen[n] = true;
                                    stack.push(n);
                                }
                                BLACK => touches |= 1,
                                WHITE => touches |= 2,
                                _ => {}
                            }
                        }
                    }
                    match touches {
                        1 => score[0] += region,
                        2 => score[1] += region,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        (score[0], score[1])
    }
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            cells: self.cells,
            rows: self.rows,
            cols: self.cols,
            stride: self.stride,
            c: self.c.clone(),
            empty_count: self.empty_count,
            hash: self.hash,
            ko: self.ko,
        }
    }

    /// Copies into the existing buffers, only the cells the board uses: searches keep one
    /// board per ply and never allocate.
    fn clone_from(&mut self, source: &Board) {
        let n = usize::from(source.cells);
        let (to, from) = (&mut *self.c, &*source.c);
        to.color.copy_prefix(&from.color, n);
        to.head.copy_prefix(&from.head, n);
        to.next.copy_prefix(&from.next, n);
        to.libs.copy_prefix(&from.libs, n);
        to.size.copy_prefix(&from.size, n);
        to.chain_hash.copy_prefix(&from.chain_hash, n);
        to.around.copy_prefix(&from.around, n);
        to.empties
            .copy_prefix(&from.empties, usize::from(source.empty_count));
        self.cells = source.cells;
        self.rows = source.rows;
        self.cols = source.cols;
        self.stride = source.stride;
        self.empty_count = source.empty_count;
        self.hash = source.hash;
        self.ko = source.ko;
    }
}

impl PartialEq for Board {
    /// Same size and same stones (chain bookkeeping and the ko point aside).
    fn eq(&self, other: &Board) -> bool {
        let n = usize::from(self.cells);
        self.rows == other.rows
            && self.cols == other.cols
            && self.c.color.0[..n] == other.c.color.0[..n]
    }
}

impl Eq for Board {}

impl fmt::Display for Board {
    /// One line per row, points separated by single spaces: `X`, `O`, `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                let symbol = match self.at(self.point_unchecked(r, c)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                if c > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{symbol}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The sides a board may have: 1 to [`MAX_SIDE`].
pub const SIDES: [usize; MAX_SIDE] = sides();

const fn sides() -> [usize; MAX_SIDE] {
    let mut out = [0; MAX_SIDE];
    let mut i = 0;
    while i < MAX_SIDE {
        out[i] = i + 1;
        i += 1;
    }
    out
}

/// The characters of a board's text, as the seeds print it: `X` black, `O` white, `.` empty.
pub const SYMBOLS: [(char, Option<Color>); 3] = [
    ('X', Some(Color::Black)),
    ('O', Some(Color::White)),
    ('.', None),
];

impl FromStr for Board {
    type Err = SetupError;

    /// Rows of `X`, `O` and `.` ([`SYMBOLS`]; spaces between points allowed, blank lines
    /// ignored). Every row needs as many points as the first.
    fn from_str(s: &str) -> Result<Board, SetupError> {
        let (rows, cols, cells) =
            grid::read_rectangle(s, true, &SIDES, &SYMBOLS).map_err(SetupError::Grid)?;
        let stones = cells
            .into_iter()
            .enumerate()
            .filter_map(|(i, cell)| Some((i / cols, i % cols, cell?)));
        Board::with_stones(rows, cols, stones)
    }
}

/// A game of Go: a board, a ko rule, the positions seen so far, whose turn it is and how many
/// passes ended the move sequence.
///
/// The history starts with the initial position; every accepted move, passes included, adds
/// the position it leaves; a refused move changes nothing.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rule: KoRule,
    /// Hashes of every position of the game so far (for positional superko).
    seen: HashSet<u64>,
    to_move: Color,
    passes: u32,
    /// Points given to White for moving second (area scoring).
    komi: f64,
}

impl Game {
    /// A game from `board`, Black to move, no komi.
    pub fn new(board: Board, rule: KoRule) -> Game {
        let seen = std::iter::once(board.hash()).collect();
        Game {
            board,
            rule,
            seen,
            to_move: Color::Black,
            passes: 0,
            komi: 0.0,
        }
    }

    /// The same game with `komi` points for White in the final score.
    pub fn with_komi(mut self, komi: f64) -> Game {
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

    /// Plays `mv` for the side to move; see [`Game::play_as`].
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

impl search::Game for Game {
    type Move = Move;

    fn side(&self) -> Side {
        self.to_move.into()
    }

    /// The legal moves of the side to move ([`Game::legal_moves`], the pass last); none once
    /// two passes have ended the game.
    fn moves(&self) -> Vec<Move> {
        if self.is_over() {
            Vec::new()
        } else {
            self.legal_moves()
        }
    }

    fn after(&self, mv: Move) -> Option<Game> {
        if self.is_over() {
            return None;
        }
        let mut next = self.clone();
        next.play(mv).ok()?;
        Some(next)
    }

    /// After two passes: +1 if the side to move wins on area with komi, −1 if it loses,
    /// 0 on a tie.
    fn score(&self) -> Option<i32> {
        if !self.is_over() {
            return None;
        }
        Some(result_for(self.to_move, self.margin()))
    }
}

/// Black's area score on `board` minus White's and `komi`.
fn area_margin(board: &Board, komi: f64) -> f64 {
    let (black, white) = board.area_score();
    black as f64 - white as f64 - komi
}

/// +1, 0 or −1 for `color`, given Black's margin (area minus White's area and komi).
fn result_for(color: Color, black_margin: f64) -> i32 {
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

/// A light playout from `game` ([`Board::playout`]: random moves that do not fill one's own
/// eyes, under simple ko, to two passes) scored on area with the game's komi: +1 if the side
/// to move in `game` wins, −1 if it loses, 0 on a tie. For [`crate::mcts::Playouts`].
pub fn light_rollout(game: &Game, rng: &mut Rng) -> f64 {
    let mut board = game.board.clone();
    let cells = board.rows() * board.cols();
    board.playout(game.to_move, rng, 4 * cells + 16);
    f64::from(result_for(game.to_move, area_margin(&board, game.komi)))
}

/// Counts the leaves of the game tree `depth` plies deep from `game`, under its ko rule.
///
/// Convention (the `board-game` crate's, used for the values in ../shared/reference/go.md):
/// a pass is a move and always legal; two passes in a row end the game; a line that ended
/// before the horizon counts 0, one that ends exactly on it counts 1.
///
/// # Examples
///
/// ```
/// use games::go::{perft, Board, Game, KoRule};
///
/// let game = Game::new(Board::new(3, 3).unwrap(), KoRule::PositionalSuperko);
/// assert_eq!(perft(&game, 2), 91);
/// ```
pub fn perft(game: &Game, depth: u32) -> u64 {
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

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "off the board",
            IllegalMove::Occupied => "occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::Superko => "superko",
        })
    }
}

impl Error for IllegalMove {}

/// A word that names no [`KoRule`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseKoRuleError(pub String);

impl FromStr for KoRule {
    type Err = ParseKoRuleError;

    /// `none`, `simple` or `superko`.
    fn from_str(s: &str) -> Result<KoRule, ParseKoRuleError> {
        match s {
            "none" => Ok(KoRule::None),
            "simple" => Ok(KoRule::Simple),
            "superko" => Ok(KoRule::PositionalSuperko),
            _ => Err(ParseKoRuleError(s.to_string())),
        }
    }
}

impl fmt::Display for ParseKoRuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ko rule must be simple, superko or none, not {:?}",
            self.0
        )
    }
}

impl Error for ParseKoRuleError {}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a board has 1 to {MAX_SIDE} rows and columns, not {}x{}",
            self.rows, self.cols
        )
    }
}

impl Error for SizeError {}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::Size(e) => e.fmt(f),
            SetupError::Grid(e) => e.fmt(f),
            SetupError::NoLiberty { row, col } => write!(
                f,
                "the chain through the {} row, {} point has no liberty",
                grid::ordinal(*row),
                grid::ordinal(*col)
            ),
        }
    }
}

impl Error for SetupError {}
