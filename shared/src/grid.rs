//! Boards written as text: rows of one character per cell (`X`, `O`, `.`; `B`, `W`, `.`),
//! read one way for every game, with one error type.
//!
//! Rows and cells are named by ordinals in messages (`the 2nd row`), which no reader can
//! take for 0- or 1-based coordinates; the fields of [`GridError`] are 0-based indices.
//!
//! # Examples
//!
//! ```
//! use games::grid::{read_row, GridError};
//!
//! let symbols = [('X', 1u8), ('O', 2), ('.', 0)];
//! assert_eq!(read_row("X.O", Some(1), 3, &symbols), Ok(vec![1, 0, 2]));
//! let err = read_row("X.", Some(1), 3, &symbols).unwrap_err();
//! assert_eq!(err.to_string(), "the 2nd row has 2 cells, not 3");
//! let err = read_row("X?O", Some(0), 3, &symbols).unwrap_err();
//! assert_eq!(err.to_string(), "the 1st row, 2nd cell: '?' is not X, O or .");
//! ```

use std::error::Error;
use std::fmt;

/// A board's text that does not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GridError {
    /// A number of rows (or a side length) the game does not play on.
    Size {
        /// What was found.
        found: usize,
        /// The sizes allowed.
        allowed: &'static [usize],
    },
    /// A row with the wrong number of cells.
    RowLength {
        /// The row's 0-based index; `None` for a board written on one line.
        row: Option<usize>,
        /// Its number of cells.
        len: usize,
        /// The number it should have.
        expected: usize,
    },
    /// A character that stands for no cell.
    Symbol {
        /// The row's 0-based index; `None` for a board written on one line.
        row: Option<usize>,
        /// The cell's 0-based index in the row.
        col: usize,
        /// The character.
        symbol: char,
        /// The characters allowed, as a list for the message (`X, O or .`).
        allowed: String,
    },
}

/// `symbols`' characters as a list for a message: `X, O or .`.
fn list<T>(symbols: &[(char, T)]) -> String {
    let chars: Vec<String> = symbols.iter().map(|(c, _)| c.to_string()).collect();
    match chars.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Reads one row of `width` cells: each character of `text` looked up in `symbols`.
/// `row` is the row's 0-based index, for messages (`None` when the whole board is one line).
///
/// # Errors
///
/// [`GridError::RowLength`] when `text` has another number of characters,
/// [`GridError::Symbol`] for the first character not in `symbols`.
pub fn read_row<T: Copy>(
    text: &str,
    row: Option<usize>,
    width: usize,
    symbols: &[(char, T)],
) -> Result<Vec<T>, GridError> {
    let len = text.chars().count();
    if len != width {
        return Err(GridError::RowLength {
            row,
            len,
            expected: width,
        });
    }
    text.chars()
        .enumerate()
        .map(|(col, symbol)| {
            symbols
                .iter()
                .find(|(c, _)| *c == symbol)
                .map(|&(_, value)| value)
                .ok_or_else(|| GridError::Symbol {
                    row,
                    col,
                    symbol,
                    allowed: list(symbols),
                })
        })
        .collect()
}

/// Reads a square board: the non-blank lines of `text` (spaces around and, where
/// `spaced`, between cells ignored), as many rows as cells in each, the number of rows one
/// of `sizes`. Returns the side and the cells row by row.
///
/// # Errors
///
/// [`GridError::Size`] for a number of rows not in `sizes`, else as [`read_row`].
pub fn read_square<T: Copy>(
    text: &str,
    spaced: bool,
    sizes: &'static [usize],
    symbols: &[(char, T)],
) -> Result<(usize, Vec<T>), GridError> {
    let rows = rows(text, spaced);
    let n = rows.len();
    if !sizes.contains(&n) {
        return Err(GridError::Size {
            found: n,
            allowed: sizes,
        });
    }
    let mut cells = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        cells.extend(read_row(row, Some(r), n, symbols)?);
    }
    Ok((n, cells))
}

/// Reads a rectangular board of 1 to `max_side` rows, every row as long as the first:
/// returns the rows, the columns and the cells row by row.
///
/// # Errors
///
/// [`GridError::Size`] for no rows or more than `max_side` rows or columns, else as
/// [`read_row`].
pub fn read_rectangle<T: Copy>(
    text: &str,
    spaced: bool,
    sides: &'static [usize],
    symbols: &[(char, T)],
) -> Result<(usize, usize, Vec<T>), GridError> {
    let rows = rows(text, spaced);
    let cols = rows.first().map_or(0, |r| r.chars().count());
    for found in [rows.len(), cols] {
        if !sides.contains(&found) {
            return Err(GridError::Size {
                found,
                allowed: sides,
            });
        }
    }
    let mut cells = Vec::with_capacity(rows.len() * cols);
    for (r, row) in rows.iter().enumerate() {
        cells.extend(read_row(row, Some(r), cols, symbols)?);
    }
    Ok((rows.len(), cols, cells))
}

/// The non-blank lines of `text`, trimmed, with the spaces between cells removed if
/// `spaced`.
fn rows(text: &str, spaced: bool) -> Vec<String> {
    text.lines()
        .map(|l| {
            if spaced {
                l.chars().filter(|c| !c.is_whitespace()).collect()
            } else {
                l.trim().to_string()
            }
        })
        .filter(|r| !r.is_empty())
        .collect()
}

/// `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`: the ordinal of the 0-based `index`.
pub fn ordinal(index: usize) -> String {
    let n = index + 1;
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl fmt::Display for GridError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridError::Size { found, allowed } => {
                let names: Vec<String> = allowed.iter().map(usize::to_string).collect();
                let allowed = match names.split_last() {
                    Some((last, [])) => last.clone(),
                    Some((last, rest)) if rest.len() > 3 => {
                        format!("{} to {last}", rest[0])
                    }
                    Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
                    None => String::new(),
                };
                write!(f, "a board has {allowed} rows and columns, not {found}")
            }
            GridError::RowLength { row, len, expected } => {
                let plural = if *len == 1 { "" } else { "s" };
                match row {
                    Some(r) => write!(
                        f,
                        "the {} row has {len} cell{plural}, not {expected}",
                        ordinal(*r)
                    ),
                    None => write!(f, "the board has {len} cell{plural}, not {expected}"),
                }
            }
            GridError::Symbol {
                row,
                col,
                symbol,
                allowed,
            } => {
                match row {
                    Some(r) => write!(f, "the {} row, ", ordinal(*r))?,
                    None => f.write_str("the board, ")?,
                }
                write!(f, "{} cell: {symbol:?} is not {allowed}", ordinal(*col))
            }
        }
    }
}

impl Error for GridError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals() {
        let names: Vec<String> = [0, 1, 2, 3, 10, 11, 12, 20, 21, 101, 110]
            .iter()
            .map(|&i| ordinal(i))
            .collect();
        assert_eq!(
            names,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "102nd",
                "111th"
            ]
        );
    }

    #[test]
    fn squares_and_rectangles() {
        let symbols = [('B', 1u8), ('W', 2), ('.', 0)];
        let (n, cells) = read_square(" BW \n\n.B\n", false, &[2, 4], &symbols).unwrap();
        assert_eq!((n, cells), (2, vec![1, 2, 0, 1]));
        let err = read_square("B\n", false, &[4, 6, 8], &symbols).unwrap_err();
        assert_eq!(
            err.to_string(),
            "a board has 4, 6 or 8 rows and columns, not 1"
        );
        let (r, c, cells) = read_rectangle("B W .\n. . B", true, &[1, 2, 3], &symbols).unwrap();
        assert_eq!((r, c, cells), (2, 3, vec![1, 2, 0, 0, 0, 1]));
        let err = read_rectangle("BW\nB", true, &[1, 2, 3], &symbols).unwrap_err();
        assert_eq!(err.to_string(), "the 2nd row has 1 cell, not 2");
        let err = read_row("BWX", None, 3, &symbols).unwrap_err();
        assert_eq!(err.to_string(), "the board, 3rd cell: 'X' is not B, W or .");
    }
}
