//! Why a move, a board or a rule name is refused: typed errors with one-line messages.

use super::MAX_SIDE;
use crate::grid::{self, GridError};
use std::error::Error;
use std::fmt;

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

/// A word that names no [`KoRule`](super::KoRule).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseKoRuleError(pub String);

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
