//! The two players: Black and White in Othello and Go, X and O in tic-tac-toe (X, like
//! Black, moves first). Every game and search in the crate names players with [`Color`].

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

    /// 0 for Black (the first player), 1 for White: an index into per-player arrays.
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
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
