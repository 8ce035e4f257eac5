//! Position files the tools read, one function per format. Errors are one line naming the
//! place in the text (the judge reader's messages).

use games::judge::Tokens;
use games::othello::{Bitboard, Board, Square, SYMBOLS};
use games::Color;

/// An Othello position as `othello_solve` and `mini_alphago --game othello` read it: `N`
/// (4, 6 or 8), `N` rows of `B`, `W` and `.`, then the side to move, `B` or `W`.
///
/// # Errors
///
/// A one-line message naming the line and the problem.
pub fn othello(bytes: &[u8]) -> Result<Board, String> {
    let mut tokens = Tokens::new(bytes);
    let at = |e: games::judge::InputError| e.to_string();
    let n = tokens
        .parse_in("the board size N (4, 6 or 8)", 4..=8usize)
        .map_err(at)?;
    if n % 2 == 1 {
        return Err(at(
            tokens.rule_error(format!("the board size is 4, 6 or 8, not {n}"))
        ));
    }
    let mut black = Bitboard(0);
    let mut white = Bitboard(0);
    for r in 0..n {
        let row = tokens
            .grid_row("a board row", Some(r), n, &SYMBOLS)
            .map_err(at)?;
        for (c, cell) in row.into_iter().enumerate() {
            match cell {
                Some(Color::Black) => black = black | Square::new(r, c).bitboard(),
                Some(Color::White) => white = white | Square::new(r, c).bitboard(),
                None => {}
            }
        }
    }
    let side = match tokens.token("the side to move (B or W)").map_err(at)? {
        "B" => Color::Black,
        "W" => Color::White,
        other => {
            return Err(at(
                tokens.rule_error(format!("the side to move is B or W, not {other:?}"))
            ))
        }
    };
    tokens.finish().map_err(at)?;
    Board::from_discs(n, black, white, side).map_err(|e| e.to_string())
}
