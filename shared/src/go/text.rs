//! Boards and rules as text: rows of `X`, `O` and `.` as the seeds print them, and the ko
//! rule's names.

use super::{Board, KoRule, ParseKoRuleError, SetupError, MAX_SIDE};
use crate::grid;
use crate::Color;
use std::fmt;
use std::str::FromStr;

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
