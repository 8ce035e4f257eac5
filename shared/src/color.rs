//! The two players of Othello and Go.

use crate::search::Side;
use std::fmt;

/// A player, and the colour of that player's discs or stones. Black moves first.
///
/// # Examples
///
/// ```
/// use games::Color;
///
/// assert_eq!(Color::Black.opponent(), Color::White);
/// assert_eq!(Color::White.to_string(), "White");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player.
    Black,
    /// The second player.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

/// Black moves first, in Othello and in Go.
impl From<Color> for Side {
    fn from(color: Color) -> Side {
        match color {
            Color::Black => Side::First,
            Color::White => Side::Second,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}
