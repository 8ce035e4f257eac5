//! The board core: the padded array, chains with pseudo-liberties and Zobrist hashes, a
//! move's effect worked out before anything changes, captures, merging, the ko point, eyes
//! and the area count. Everything else in `go` is built on these.

use super::{IllegalMove, KoRule, SetupError, SizeError};
use crate::rng;
use crate::Color;
use std::ops::{Index, IndexMut};

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
pub(super) struct Masked<T>(pub(super) [T; CAPACITY]);

impl<T: Copy> Masked<T> {
    /// Copies the first `n` entries of `source`: all that a board of `n` cells uses.
    pub(super) fn copy_prefix(&mut self, source: &Masked<T>, n: usize) {
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
pub(super) struct Cells {
    pub(super) color: Masked<u8>,
    /// Head of the chain of each stone; 0 (a border cell, whose `libs` entry is scratch) on
    /// empty and border cells, so that neighbour updates need not test what they touch.
    pub(super) head: Masked<u16>,
    /// Next stone of the chain, circularly.
    pub(super) next: Masked<u16>,
    /// At chain heads: pseudo-liberties, the count of (stone, empty neighbour) pairs.
    pub(super) libs: Masked<u16>,
    /// At chain heads: number of stones.
    pub(super) size: Masked<u16>,
    /// At chain heads: xor of the chain's Zobrist keys.
    pub(super) chain_hash: Masked<u64>,
    /// Packed counts of each point's black, white and empty neighbours (`AROUND_*`).
    pub(super) around: Masked<u16>,
    /// The empty points, in no particular order: the first `Board::empty_count` entries.
    /// Whoever fills a point knows (or looks up) its place in the list.
    pub(super) empties: Masked<u16>,
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

pub(super) const EMPTY: u8 = 0;
pub(super) const BLACK: u8 = 1;
pub(super) const WHITE: u8 = 2;
pub(super) const BORDER: u8 = 3;

/// Packed neighbour counts of a point ([`Board`]'s `around`): black-or-edge neighbours in
/// bits 0..4, white-or-edge in 4..8, empty in 8..12. The edge counts for both colours, so a
/// point whose count for a colour is 4 is surrounded by that colour and the edge: eye-shaped.
pub(super) const AROUND_BLACK: u16 = 1;
pub(super) const AROUND_WHITE: u16 = 1 << 4;
pub(super) const AROUND_EMPTY: u16 = 1 << 8;

/// The count of `around` a stone of colour code `stone` adds to each neighbour.
#[inline]
pub(super) const fn around_unit(stone: u8) -> u16 {
    AROUND_BLACK << around_shift(stone)
}

/// Where the count of colour code `stone` sits in `around` (a shift, not a division: this
/// is on the playouts' hottest path).
#[inline]
pub(super) const fn around_shift(stone: u8) -> u32 {
    if stone == BLACK {
        0
    } else {
        4
    }
}

/// The ko point packed for a one-instruction test: the cell and the colour code of the side
/// that may not play there; 0 for none (cell 0 is a border cell).
#[inline]
pub(super) const fn ko_key(p: usize, stone: u8) -> u32 {
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
pub struct Point(pub(super) u16);

impl Point {
    /// Its index in the board's padded array: below the largest index of
    /// [`Board::points`] plus one, so a table per point can be a slice.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a stone on the point.
    Play(Point),
    /// Pass.
    Pass,
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
    pub(super) cells: u16,
    pub(super) rows: u8,
    pub(super) cols: u8,
    pub(super) stride: u16,
    pub(super) c: Box<Cells>,
    /// Number of empty points: the length of the list `c.empties`.
    pub(super) empty_count: u16,
    pub(super) hash: u64,
    /// The simple-ko point as a [`ko_key`]: where the side whose single stone was just
    /// captured may not play next. Set when a single stone captured a single stone and was
    /// left with one liberty; retaking there is exactly the move that would recreate the
    /// position before the previous move.
    pub(super) ko: u32,
}

/// What playing a legal move will do, worked out before the board changes.
#[derive(Clone, Copy, Debug)]
pub(super) struct Effect {
    /// Hash of the position after the move.
    pub(super) hash: u64,
    /// Heads of the captured chains.
    pub(super) captured: [u16; 4],
    pub(super) captured_chains: usize,
}

#[inline]
pub(super) const fn code(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

#[inline]
pub(super) const fn color_of(code: u8) -> Option<Color> {
    match code {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

#[inline]
pub(super) fn zobrist(p: usize, stone: u8) -> u64 {
    ZOBRIST[p][usize::from(stone - 1)]
}

// The small helpers that the position, the playouts and perft call from their own files
// are `#[inline]`: each file may land in its own codegen unit, and without the hint a
// call across units is never inlined (perft measured 29% slower without them).
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

    pub(super) fn check_liberties(&self) -> Result<(), SetupError> {
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

    #[inline]
    pub(super) fn point_unchecked(&self, r: usize, c: usize) -> Point {
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
    #[inline]
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

    #[inline]
    pub(super) fn neighbours(&self, p: usize) -> [usize; 4] {
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
    #[inline]
    pub(super) fn stones_of(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        let mut s = Some(p);
        std::iter::from_fn(move || {
            let cur = s?;
            let nxt = usize::from(self.c.next[cur]);
            s = (nxt != p).then_some(nxt);
            Some(cur)
        })
    }

    /// Works out what a stone of colour code `stone` (`BLACK` or `WHITE`) on `p` would do,
    /// without the ko rules.
    #[inline]
    pub(super) fn effect(&self, stone: u8, p: usize) -> Result<Effect, IllegalMove> {
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
    #[inline(always)]
    pub(super) fn effect_under(
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
    /// Without `HASH` the Zobrist hashes are left stale (see `playout::playout`).
    #[inline(always)]
    pub(super) fn put<const CAPTURE: bool, const HASH: bool>(
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
    pub(super) fn merge<const HASH: bool>(&mut self, a: usize, b: usize) {
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
    pub(super) fn remove_chain<const HASH: bool>(&mut self, h: usize) {
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
    pub(super) fn apply<const HASH: bool>(&mut self, color: Color, p: usize, at: usize) -> u32 {
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
    #[inline]
    pub(super) fn remove_empty(&mut self, at: usize) {
        self.empty_count -= 1;
        self.c.empties[at] = self.c.empties[usize::from(self.empty_count)];
    }

    #[inline]
    pub(super) fn add_empty(&mut self, p: usize) {
        self.c.empties[usize::from(self.empty_count)] = p as u16;
        self.empty_count += 1;
    }

    /// Where the empty point `p` stands in the empty list.
    ///
    /// # Complexity
    ///
    /// Linear in the number of empty points; only moves from outside the searches need it.
    pub(super) fn empty_index(&self, p: usize) -> usize {
        self.empty_list()
            .iter()
            .position(|&e| usize::from(e) == p)
            .expect("the point is empty")
    }

    /// The empty points, in no particular order.
    #[inline]
    pub(super) fn empty_list(&self) -> &[u16] {
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
    #[inline]
    pub(super) fn eye_shaped(&self, p: usize, own: u8) -> bool {
        (self.c.around[p] >> around_shift(own)) & 0xf == 4 && self.diagonals_allow_eye(p, own)
    }

    /// Whether the diagonals of `p` leave it a real eye of `own`: at most one enemy stone
    /// on them, none when `p` is on the edge.
    #[inline]
    pub(super) fn diagonals_allow_eye(&self, p: usize, own: u8) -> bool {
        let s = usize::from(self.stride);
        let diagonals = [p - s - 1, p - s + 1, p + s - 1, p + s + 1].map(|d| self.c.color[d]);
        let enemy = own ^ (BLACK | WHITE);
        let enemies = diagonals.iter().filter(|&&c| c == enemy).count();
        let edge = usize::from(diagonals.contains(&BORDER));
        enemies + edge < 2
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
    #[inline]
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
