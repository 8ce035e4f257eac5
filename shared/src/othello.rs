//! Othello (Reversi) on 4×4, 6×6 and 8×8 boards, one `u64` bitboard per colour.
//!
//! Every size uses the same 8×8 bit layout: bit `8 * row + col`, row 0 at the top, column 0
//! at the left; a smaller board is the top-left `N×N` corner and a per-size mask keeps discs
//! and moves inside it. Move generation and flipping work on whole bitboards with shifts and
//! masks (no walking cell by cell), which makes one code path serve all three sizes at full
//! speed: discs never leave the board, so a line of opponent discs always ends on the board or
//! at a masked-out cell that no move may use.
//!
//! # Examples
//!
//! ```
//! use games::othello::{Board, Square};
//! use games::Color;
//!
//! let mut board = Board::new(6).unwrap();
//! assert_eq!(board.placements().count(), 4);
//! // Black plays row 1, column 2 (0-based) and flips the white disc below it.
//! let flipped = board.play(Square::new(1, 2)).unwrap();
//! assert_eq!(flipped.count(), 1);
//! assert_eq!(board.side_to_move(), Color::White);
//! assert_eq!(
//!     board.to_string(),
//!     "......\n..B...\n..BB..\n..BW..\n......\n......\n"
//! );
//! ```

use crate::grid::{self, GridError};
use crate::Color;
use std::error::Error;
use std::fmt;
use std::ops::{BitAnd, BitOr, Not};
use std::str::FromStr;

/// A set of cells: bit `8 * row + col`, row 0 at the top, column 0 at the left.
///
/// # Examples
///
/// ```
/// use games::othello::{Bitboard, Square};
///
/// let set = Square::new(0, 1).bitboard() | Square::new(2, 0).bitboard();
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.squares().map(|s| s.to_string()).collect::<Vec<_>>(), ["b1", "a3"]);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u64);

/// One cell of the 8×8 layout; `Display` and `FromStr` use Othello notation, column letter
/// then row number (`d3` is row 3, column D, 1-based; row 1 at the top).
///
/// # Examples
///
/// ```
/// use games::othello::Square;
///
/// let sq: Square = "d3".parse().unwrap();
/// assert_eq!((sq.row(), sq.col()), (2, 3));
/// assert_eq!(sq.to_string(), "d3");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// An Othello position: the discs, the board size and the side to move.
///
/// Drawn as text (`Display`, `FromStr`), a board is `N` rows of `N` characters: `B` black,
/// `W` white, `.` empty. The text does not say whose turn it is; parsing gives Black the move
/// (use [`Board::set_side_to_move`] to change it).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    black: u64,
    white: u64,
    n: u8,
    to_move: Color,
}

/// A move: a disc on a square, or the pass a player without a legal placement must make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Put a disc on the square.
    Play(Square),
    /// Pass (legal only when no placement is).
    Pass,
}

/// Why a move was refused. The board is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The square lies outside this board size.
    OffBoard,
    /// A disc is already there.
    Occupied,
    /// The disc would not outflank any opponent disc.
    NoFlips,
    /// A pass while the side to move has a legal move.
    HasMoves,
}

/// Text that is not a square name such as `d3`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

/// The sizes this module plays on.
pub const SIZES: [usize; 3] = [4, 6, 8];

/// The characters of a board's text: `B` black, `W` white, `.` empty.
pub const SYMBOLS: [(char, Option<Color>); 3] = [
    ('B', Some(Color::Black)),
    ('W', Some(Color::White)),
    ('.', None),
];

impl Bitboard {
    /// No cells.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Number of cells in the set.
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The cells in the set, in row-major order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            // trailing_zeros of a non-zero u64 is below 64, so it fits a square index.
            let sq = Square(rest.trailing_zeros() as u8);
            rest &= rest - 1;
            Some(sq)
        })
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

impl Square {
    /// The cell at 0-based `row` and `col` of the 8×8 layout.
    ///
    /// # Panics
    ///
    /// If `row` or `col` is 8 or more.
    pub const fn new(row: usize, col: usize) -> Square {
        assert!(row < 8 && col < 8, "square outside the 8x8 layout");
        Square((row * 8 + col) as u8)
    }

    /// The cell with bit index `index` (`8 * row + col`).
    ///
    /// # Panics
    ///
    /// If `index` is 64 or more.
    pub const fn from_index(index: usize) -> Square {
        assert!(index < 64, "square index outside the 8x8 layout");
        Square(index as u8)
    }

    /// 0-based row, from the top.
    pub const fn row(self) -> usize {
        self.0 as usize / 8
    }

    /// 0-based column, from the left.
    pub const fn col(self) -> usize {
        self.0 as usize % 8
    }

    /// Bit index, `8 * row + col`.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set holding just this cell.
    pub const fn bitboard(self) -> Bitboard {
        Bitboard(1 << self.0)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.col() as u8),
            self.row() + 1
        )
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        match s.as_bytes() {
            &[c, r]
                if (b'a'..=b'h').contains(&c.to_ascii_lowercase())
                    && (b'1'..=b'8').contains(&r) =>
            {
                Ok(Square::new(
                    usize::from(r - b'1'),
                    usize::from(c.to_ascii_lowercase() - b'a'),
                ))
            }
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

/// Cells of the `n`×`n` board in the 8×8 layout.
pub(crate) const fn board_mask(n: u8) -> u64 {
    match n {
        4 => 0x0f0f_0f0f,
        6 => 0x3f3f_3f3f_3f3f,
        _ => u64::MAX,
    }
}

impl Board {
    /// The standard start on an `n`×`n` board: White on the two centre cells of the main
    /// diagonal, Black on the other two, Black to move.
    ///
    /// # Errors
    ///
    /// [`GridError::Size`] unless `n` is 4, 6 or 8.
    ///
    /// # Examples
    ///
    /// ```
    /// use games::othello::Board;
    ///
    /// assert_eq!(Board::new(4).unwrap().to_string(), "....\n.WB.\n.BW.\n....\n");
    /// assert!(Board::new(5).is_err());
    /// ```
    pub fn new(n: usize) -> Result<Board, GridError> {
        if !SIZES.contains(&n) {
            return Err(GridError::Size {
                found: n,
                allowed: &SIZES,
            });
        }
        let h = n / 2;
        let bit = |r: usize, c: usize| 1u64 << (r * 8 + c);
        Ok(Board {
            black: bit(h - 1, h) | bit(h, h - 1),
            white: bit(h - 1, h - 1) | bit(h, h),
            n: n as u8,
            to_move: Color::Black,
        })
    }

    /// The standard 8×8 start.
    pub fn standard() -> Board {
        Board {
            black: (1 << 28) | (1 << 35),
            white: (1 << 27) | (1 << 36),
            n: 8,
            to_move: Color::Black,
        }
    }

    /// A position from disc sets.
    ///
    /// # Errors
    ///
    /// [`GridError::Size`] unless `n` is 4, 6 or 8.
    ///
    /// # Panics
    ///
    /// If the two sets overlap or a disc lies outside the `n`×`n` board.
    pub fn from_discs(
        n: usize,
        black: Bitboard,
        white: Bitboard,
        to_move: Color,
    ) -> Result<Board, GridError> {
        let mut board = Board::new(n)?;
        assert!(black.0 & white.0 == 0, "a cell holds two discs");
        assert!(
            (black.0 | white.0) & !board.mask().0 == 0,
            "a disc lies off the board"
        );
        board.black = black.0;
        board.white = white.0;
        board.to_move = to_move;
        Ok(board)
    }

    /// Side length: 4, 6 or 8.
    pub const fn size(&self) -> usize {
        self.n as usize
    }

    /// The cells of this board size.
    pub const fn mask(&self) -> Bitboard {
        Bitboard(board_mask(self.n))
    }

    /// Whether `sq` lies on this board.
    pub const fn on_board(&self, sq: Square) -> bool {
        self.mask().contains(sq)
    }

    /// The player whose turn it is.
    pub const fn side_to_move(&self) -> Color {
        self.to_move
    }

    /// Gives the move to `color`, as a replay does when its input names who plays.
    pub fn set_side_to_move(&mut self, color: Color) {
        self.to_move = color;
    }

    /// The disc on `sq`, if any.
    pub const fn at(&self, sq: Square) -> Option<Color> {
        if Bitboard(self.black).contains(sq) {
            Some(Color::Black)
        } else if Bitboard(self.white).contains(sq) {
            Some(Color::White)
        } else {
            None
        }
    }

    /// The discs of `color`.
    pub const fn discs(&self, color: Color) -> Bitboard {
        Bitboard(match color {
            Color::Black => self.black,
            Color::White => self.white,
        })
    }

    /// Number of discs of `color`.
    pub const fn count(&self, color: Color) -> u32 {
        self.discs(color).count()
    }

    /// Empty cells of the board.
    pub const fn empties(&self) -> Bitboard {
        Bitboard(board_mask(self.n) & !(self.black | self.white))
    }

    /// (side to move, opponent) discs.
    pub(crate) const fn sides(&self) -> (u64, u64) {
        match self.to_move {
            Color::Black => (self.black, self.white),
            Color::White => (self.white, self.black),
        }
    }

    /// The squares where the side to move may place a disc.
    ///
    /// # Complexity
    ///
    /// A fixed number of shifts and masks over the whole board: O(1).
    pub fn placements(&self) -> Bitboard {
        let (p, o) = self.sides();
        Bitboard(moves(p, o, board_mask(self.n)))
    }

    /// The legal moves of the side to move: the placements in square order; `[Pass]` when
    /// there are none but the opponent can move; nothing once neither can.
    pub fn legal_moves(&self) -> Vec<Move> {
        let placements = self.placements();
        if !placements.is_empty() {
            placements.squares().map(Move::Play).collect()
        } else if self.is_game_over() {
            Vec::new()
        } else {
            vec![Move::Pass]
        }
    }

    /// The position after `mv`, or `None` if it is not legal here. `self` is unchanged.
    pub fn with_move(&self, mv: Move) -> Option<Board> {
        let mut next = *self;
        match mv {
            Move::Play(sq) => next.play(sq).ok().map(|_| next),
            // Not once the game is over: then nobody moves at all.
            Move::Pass if self.must_pass() => next.pass().ok().map(|()| next),
            Move::Pass => None,
        }
    }

    /// The discs a move on `sq` by the side to move would flip, without playing it.
    ///
    /// # Errors
    ///
    /// [`IllegalMove::OffBoard`], [`IllegalMove::Occupied`] or [`IllegalMove::NoFlips`].
    pub fn flips(&self, sq: Square) -> Result<Bitboard, IllegalMove> {
        if !self.on_board(sq) {
            return Err(IllegalMove::OffBoard);
        }
        if self.at(sq).is_some() {
            return Err(IllegalMove::Occupied);
        }
        let (p, o) = self.sides();
        match flips(p, o, sq.index()) {
            0 => Err(IllegalMove::NoFlips),
            f => Ok(Bitboard(f)),
        }
    }

    /// Plays `sq` for the side to move, flips the outflanked discs, gives the move to the
    /// opponent, and returns the flipped discs.
    ///
    /// # Errors
    ///
    /// As [`Board::flips`]; the board is unchanged then.
    pub fn play(&mut self, sq: Square) -> Result<Bitboard, IllegalMove> {
        let flipped = self.flips(sq)?;
        let (p, o) = self.sides();
        let (p, o) = (p | flipped.0 | sq.bitboard().0, o ^ flipped.0);
        match self.to_move {
            Color::Black => (self.black, self.white) = (p, o),
            Color::White => (self.white, self.black) = (p, o),
        }
        self.to_move = self.to_move.opponent();
        Ok(flipped)
    }

    /// Passes: gives the move to the opponent.
    ///
    /// # Errors
    ///
    /// [`IllegalMove::HasMoves`] when the side to move has a legal move.
    pub fn pass(&mut self) -> Result<(), IllegalMove> {
        if !self.placements().is_empty() {
            return Err(IllegalMove::HasMoves);
        }
        self.to_move = self.to_move.opponent();
        Ok(())
    }

    /// Whether the side to move has no move but the game goes on (the opponent has one).
    pub fn must_pass(&self) -> bool {
        self.placements().is_empty() && !self.is_game_over()
    }

    /// Whether neither player has a legal move.
    pub fn is_game_over(&self) -> bool {
        let mask = board_mask(self.n);
        moves(self.black, self.white, mask) == 0 && moves(self.white, self.black, mask) == 0
    }

    /// The player with more discs, `None` when the counts are equal.
    pub fn leader(&self) -> Option<Color> {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl Board {
    /// The result of a finished game for the side to move: its discs minus the opponent's,
    /// with the empty squares counted for the winner (the usual convention; a draw leaves
    /// them out).
    pub fn final_margin(&self) -> i32 {
        let (p, o) = self.sides();
        margin(p, o, self.empties().count())
    }
}

/// The final margin for the side with discs `p` against `o` with `empties` squares left:
/// the empty squares go to the winner ([`Board::final_margin`], and the exact solver's).
pub(crate) fn margin(p: u64, o: u64, empties: u32) -> i32 {
    let (mine, theirs) = (p.count_ones() as i32, o.count_ones() as i32);
    let e = empties as i32;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + e,
        std::cmp::Ordering::Less => mine - theirs - e,
        std::cmp::Ordering::Equal => 0,
    }
}

impl fmt::Display for Board {
    /// `N` rows of `B`, `W` and `.`, each ending with a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for row in 0..n {
            let line: String = (0..n)
                .map(|col| match self.at(Square::new(row, col)) {
                    Some(Color::Black) => 'B',
                    Some(Color::White) => 'W',
                    None => '.',
                })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} to move\n{}", self.to_move, self)
    }
}

impl FromStr for Board {
    type Err = GridError;

    /// Reads `N` rows of `B`, `W` and `.` (`N` ∈ {4, 6, 8}; [`SYMBOLS`]); blank lines and
    /// spaces at line ends are ignored. Black is to move.
    fn from_str(s: &str) -> Result<Board, GridError> {
        let (n, cells) = grid::read_square(s, false, &SIZES, &SYMBOLS)?;
        let mut board = Board::new(n)?;
        board.black = 0;
        board.white = 0;
        for (i, cell) in cells.into_iter().enumerate() {
            let bit = 1u64 << (i / n * 8 + i % n);
            match cell {
                Some(Color::Black) => board.black |= bit,
                Some(Color::White) => board.white |= bit,
                None => {}
            }
        }
        Ok(board)
    }
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            IllegalMove::OffBoard => "off the board",
            IllegalMove::Occupied => "the cell is occupied",
            IllegalMove::NoFlips => "it flips nothing",
            IllegalMove::HasMoves => "a pass while a move is legal",
        })
    }
}

impl Error for IllegalMove {}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a square such as d3", self.0)
    }
}

impl Error for ParseSquareError {}

/// Counts the leaves of the game tree `depth` plies deep.
///
/// Convention (that of the published tables, copied into `tests/data/othello/`): a side without a move passes, and the pass
/// is a ply; when the previous ply was a pass too the game is over and counts as one leaf,
/// whatever depth is left. `board` is taken as not following a pass.
///
/// # Complexity
///
/// One move generation per interior node; the last ply is counted, not played.
///
/// # Examples
///
/// ```
/// use games::othello::{perft, Board};
///
/// assert_eq!(perft(&Board::standard(), 4), 244);
/// ```
pub fn perft(board: &Board, depth: u32) -> u64 {
    let (p, o) = board.sides();
    perft_from(p, o, board_mask(board.n), depth, false)
}

fn perft_from(p: u64, o: u64, mask: u64, depth: u32, passed: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut rest = moves(p, o, mask);
    if rest == 0 {
        return if passed {
            1
        } else {
            perft_from(o, p, mask, depth - 1, true)
        };
    }
    if depth == 1 {
        return u64::from(rest.count_ones());
    }
    let mut leaves = 0;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let f = flips(p, o, sq);
        leaves += perft_from(o ^ f, p | f | (1 << sq), mask, depth - 1, false);
    }
    leaves
}

/// Columns B..G: opponent discs that a horizontal or diagonal line can pass through without
/// wrapping from one row into the next.
const INNER_COLUMNS: u64 = 0x7e7e_7e7e_7e7e_7e7e;

/// Cells reachable from `p` by a line of `o` discs in the direction of increasing bit index
/// by `s`: parallel prefix (Kogge–Stone), two doublings after two single steps, which covers
/// the six discs that fit between two cells of an 8-cell line.
#[inline(always)]
fn line_ends_up(p: u64, o: u64, s: u32) -> u64 {
    let mut t = o & (p << s);
    t |= o & (t << s);
    let pairs = o & (o << s);
    t |= pairs & (t << (2 * s));
    t |= pairs & (t << (2 * s));
    t << s
}

/// As [`line_ends_up`], towards decreasing bit index.
#[inline(always)]
fn line_ends_down(p: u64, o: u64, s: u32) -> u64 {
    let mut t = o & (p >> s);
    t |= o & (t >> s);
    let pairs = o & (o >> s);
    t |= pairs & (t >> (2 * s));
    t |= pairs & (t >> (2 * s));
    t >> s
}

/// Legal moves for discs `p` against discs `o` on the board `mask`.
#[inline]
pub(crate) fn moves(p: u64, o: u64, mask: u64) -> u64 {
    let inner = o & INNER_COLUMNS;
    let ends = line_ends_up(p, inner, 1)
        | line_ends_down(p, inner, 1)
        | line_ends_up(p, o, 8)
        | line_ends_down(p, o, 8)
        | line_ends_up(p, inner, 7)
        | line_ends_down(p, inner, 7)
        | line_ends_up(p, inner, 9)
        | line_ends_down(p, inner, 9);
    ends & mask & !(p | o)
}

/// Rays from each cell to the edge of the 8×8 layout, the cell itself excluded. Directions
/// 0..4 go towards higher bit indices (E, SW, S, SE), 4..8 towards lower ones (W, NE, N, NW).
pub(crate) static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    const STEPS: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                rays[sq][d] |= 1 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs of `o` that a disc of `p` on `sq` outflanks. In each direction the first cell that
/// is not an opponent disc stops the line; the discs before it flip if that cell holds `p`.
/// Off-board cells of smaller boards are empty, so they stop a line without outflanking.
#[inline]
pub(crate) fn flips(p: u64, o: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut flipped = 0;
    // No branches: whether a line flips is as good as random, and a mispredicted branch
    // costs more than computing both outcomes. `all(x)` is every bit when `x` is not 0.
    let all = |x: u64| (u64::from(x != 0)).wrapping_neg();
    for &ray in &rays[..4] {
        let stops = ray & !o;
        // Along these rays bit indices grow, so the nearest stop is the lowest bit.
        let first = stops & stops.wrapping_neg();
        flipped |= ray & first.wrapping_sub(1) & all(first & p);
    }
    for &ray in &rays[4..] {
        let stops = ray & !o;
        // Indices shrink along these rays: the nearest stop is the highest bit. `| 1` keeps
        // the shift defined when there is no stop; bit 0 then either lies off this ray or
        // holds an opponent disc, and the test fails either way.
        let first = 1u64 << (63 - (stops | 1).leading_zeros());
        flipped |= ray & !((first << 1).wrapping_sub(1)) & all(first & p & ray);
    }
    flipped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_have_the_expected_lengths() {
        // From a corner: 7 cells along each of the three rays that stay on the board.
        let lens: Vec<u32> = RAYS[0].iter().map(|r| r.count_ones()).collect();
        assert_eq!(lens, [7, 0, 7, 7, 0, 0, 0, 0]);
        let centre: u32 = RAYS[Square::new(3, 3).index()]
            .iter()
            .map(|r| r.count_ones())
            .sum();
        assert_eq!(centre, 27); // d4 sees 27 other cells of the 8x8 board
    }

    #[test]
    fn masks_cover_n_squared_cells() {
        for n in SIZES {
            assert_eq!(Board::new(n).unwrap().mask().count() as usize, n * n);
        }
    }
}
