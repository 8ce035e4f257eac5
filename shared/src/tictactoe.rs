//! Tic-tac-toe on 3×3 (three in a row) and 4×4 (four in a row), X first, as in seed 001.
//!
//! One `u16` per mark, bit `n * row + col`. A position does not store whose turn it is: X
//! moves first and the players alternate, so X is to move exactly when both have made as
//! many moves.
//!
//! # Examples
//!
//! The seed's five-move game:
//!
//! ```
//! use games::search::Game;
//! use games::tictactoe::{Board, X};
//!
//! let mut game = Board::new(3).unwrap();
//! for cell in [0, 4, 1, 8, 2] {
//!     game = game.place(cell).unwrap();
//! }
//! assert_eq!(game.winner(), Some(X));
//! assert_eq!(game.to_string(), "X | X | X\n---------\n  | O |  \n---------\n  |   | O\n");
//! // The score is for the side to move: O, who lost.
//! assert_eq!(game.score(), Some(-1));
//! ```

use crate::grid::{self, GridError};
use crate::Color;
use std::error::Error;
use std::fmt;
use std::str::FromStr;

/// X, the first player: [`Color::Black`] in the crate's one player type.
pub const X: Color = Color::Black;
/// O, the second player: [`Color::White`].
pub const O: Color = Color::White;

/// A player's mark as the seed writes it: `X` or `O`.
pub const fn mark(player: Color) -> char {
    match player {
        Color::Black => 'X',
        Color::White => 'O',
    }
}

/// A tic-tac-toe position on a 3×3 or 4×4 board.
///
/// Text form (`FromStr`): `n` rows of `n` characters, `X`, `O` or `.`. `Display` draws the
/// board as seed 001 does: `X | O |  ` rows (an empty cell is a space) between `---------`
/// rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    n: u8,
    x: u16,
    o: u16,
}

/// A position that cannot arise in a game where X starts and the players alternate, and
/// that stops as soon as somebody completes a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The number of X marks is not equal to, or one more than, the number of O marks.
    Counts {
        /// X marks.
        x: u32,
        /// O marks.
        o: u32,
    },
    /// Both players have a line.
    TwoWinners,
    /// `.0` has a line, but the other player moved after it.
    PlayedOn(Color),
}

/// Board sizes: 3 (three in a row) and 4 (four in a row).
pub const SIZES: [usize; 2] = [3, 4];

/// The characters of a board's text: `X`, `O`, `.` empty (boj4664 writes `x`, `o`).
pub const SYMBOLS: [(char, Option<Color>); 3] = [('X', Some(X)), ('O', Some(O)), ('.', None)];

/// The winning lines of an `n`×`n` board as cell masks: rows, columns, the two diagonals.
const fn lines(n: usize) -> [u16; 10] {
    let mut out = [0u16; 10];
    let mut i = 0;
    while i < n {
        let mut j = 0;
        while j < n {
            out[i] |= 1 << (n * i + j); // row i
            out[n + i] |= 1 << (n * j + i); // column i
            j += 1;
        }
        out[2 * n] |= 1 << (n * i + i);
        out[2 * n + 1] |= 1 << (n * i + (n - 1 - i));
        i += 1;
    }
    out
}

const LINES_3: [u16; 10] = lines(3);
const LINES_4: [u16; 10] = lines(4);

impl Board {
    /// The empty `n`×`n` board.
    ///
    /// # Errors
    ///
    /// [`GridError::Size`] unless `n` is 3 or 4.
    pub fn new(n: usize) -> Result<Board, GridError> {
        if SIZES.contains(&n) {
            Ok(Board {
                n: n as u8,
                x: 0,
                o: 0,
            })
        } else {
            Err(GridError::Size {
                found: n,
                allowed: &SIZES,
            })
        }
    }

    /// A position from the marks of the cells, row by row (`None` for empty), checked to be
    /// reachable in a game.
    ///
    /// # Errors
    ///
    /// [`FromCellsError::Size`] when the number of cells is not 9 or 16, or
    /// [`FromCellsError::Position`] for an unreachable position.
    pub fn from_cells(cells: &[Option<Color>]) -> Result<Board, FromCellsError> {
        let n = match cells.len() {
            9 => 3,
            16 => 4,
            len => return Err(FromCellsError::Size(len)),
        };
        let mut board = Board {
            n: n as u8,
            x: 0,
            o: 0,
        };
        for (i, cell) in cells.iter().enumerate() {
            match cell {
                Some(Color::Black) => board.x |= 1 << i,
                Some(Color::White) => board.o |= 1 << i,
                None => {}
            }
        }
        board.check().map_err(FromCellsError::Position)?;
        Ok(board)
    }

    /// Side length: 3 or 4.
    pub fn size(&self) -> usize {
        usize::from(self.n)
    }

    /// The mark on cell `i` (row-major, `0..n*n`), if any.
    ///
    /// # Panics
    ///
    /// If `i` is outside the board.
    pub fn at(&self, i: usize) -> Option<Color> {
        assert!(i < self.size() * self.size(), "cell {i} is off the board");
        if self.x >> i & 1 == 1 {
            Some(X)
        } else if self.o >> i & 1 == 1 {
            Some(O)
        } else {
            None
        }
    }

    /// The player to move: X when both have made as many moves.
    pub fn to_move(&self) -> Color {
        if self.x.count_ones() == self.o.count_ones() {
            X
        } else {
            O
        }
    }

    fn lines(&self) -> &'static [u16] {
        match self.n {
            3 => &LINES_3[..8],
            _ => &LINES_4,
        }
    }

    fn has_line(&self, marks: u16) -> bool {
        self.lines().iter().any(|&line| line & !marks == 0)
    }

    /// The player with a complete line, if any (X if both have one; see [`Board::check`]).
    pub fn winner(&self) -> Option<Color> {
        if self.has_line(self.x) {
            Some(X)
        } else if self.has_line(self.o) {
            Some(O)
        } else {
            None
        }
    }

    /// Whether every cell is marked.
    pub fn is_full(&self) -> bool {
        (self.x | self.o).count_ones() as usize == self.size() * self.size()
    }

    /// Whether the game is over: a line is complete or the board is full.
    pub fn is_over(&self) -> bool {
        self.winner().is_some() || self.is_full()
    }

    /// Checks that the position can arise in a game: X has as many marks as O or one more,
    /// at most one player has a line, and nobody moved after a line was completed.
    ///
    /// # Errors
    ///
    /// The first of these rules that fails.
    pub fn check(&self) -> Result<(), PositionError> {
        let (x, o) = (self.x.count_ones(), self.o.count_ones());
        if x != o && x != o + 1 {
            return Err(PositionError::Counts { x, o });
        }
        match (self.has_line(self.x), self.has_line(self.o)) {
            (true, true) => Err(PositionError::TwoWinners),
            // X completed the line with its last move, so O cannot have moved since.
            (true, false) if x != o + 1 => Err(PositionError::PlayedOn(X)),
            (false, true) if x != o => Err(PositionError::PlayedOn(O)),
            _ => Ok(()),
        }
    }

    /// The empty cells, in row-major order.
    pub fn empty_cells(&self) -> impl Iterator<Item = usize> {
        let (taken, cells) = (self.x | self.o, self.size() * self.size());
        (0..cells).filter(move |&i| taken >> i & 1 == 0)
    }
}

/// A cell list that is not a reachable 3×3 or 4×4 position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FromCellsError {
    /// Not 9 or 16 cells.
    Size(usize),
    /// Not reachable in a game.
    Position(PositionError),
}

impl Board {
    /// The legal moves: the empty cells (row-major indices) in order, none once the game is
    /// over.
    pub fn legal_moves(&self) -> Vec<usize> {
        if self.is_over() {
            Vec::new()
        } else {
            self.empty_cells().collect()
        }
    }

    /// The position after the side to move marks `cell` (row-major), or `None` if that is
    /// not legal (off the board, taken, or the game is over). `self` is unchanged.
    pub fn place(&self, cell: usize) -> Option<Board> {
        let bit = 1u16.checked_shl(cell as u32)?;
        if self.is_over() || cell >= self.size() * self.size() || (self.x | self.o) & bit != 0 {
            return None;
        }
        let mut next = *self;
        match self.to_move() {
            Color::Black => next.x |= bit,
            Color::White => next.o |= bit,
        }
        Some(next)
    }
}

impl fmt::Display for Board {
    /// Seed 001's drawing: cells joined by ` | `, an empty cell a space, rows separated by
    /// a rule of dashes as wide as a row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        for r in 0..n {
            let row: Vec<&str> = (0..n)
                .map(|c| match self.at(r * n + c) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => " ",
                })
                .collect();
            writeln!(f, "{}", row.join(" | "))?;
            if r + 1 < n {
                writeln!(f, "{}", "-".repeat(4 * n - 3))?;
            }
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = GridError;

    /// `n` rows of `n` characters from `X`, `O`, `.` ([`SYMBOLS`]); blank lines and
    /// surrounding spaces are ignored. Reachability is not checked here: see
    /// [`Board::check`].
    fn from_str(s: &str) -> Result<Board, GridError> {
        let (n, cells) = grid::read_square(s, false, &SIZES, &SYMBOLS)?;
        let mut board = Board::new(n)?;
        for (i, cell) in cells.into_iter().enumerate() {
            match cell {
                Some(Color::Black) => board.x |= 1 << i,
                Some(Color::White) => board.o |= 1 << i,
                None => {}
            }
        }
        Ok(board)
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Counts { x, o } => write!(
                f,
                "{x} X and {o} O cannot arise: X moves first, so it has as many marks as O or one more"
            ),
            PositionError::TwoWinners => f.write_str("both X and O have a line"),
            PositionError::PlayedOn(player) => {
                write!(f, "{} has a line, but the game went on after it", mark(*player))
            }
        }
    }
}

impl Error for PositionError {}

impl fmt::Display for FromCellsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FromCellsError::Size(len) => write!(f, "a board has 9 or 16 cells, not {len}"),
            FromCellsError::Position(e) => e.fmt(f),
        }
    }
}

impl Error for FromCellsError {}
