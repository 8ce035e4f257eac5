//! The Go Text Protocol, version 2: commands in, responses out, vertices and colours as
//! text. Shared by the engine (`go_engine`) and the match runner (`gtp_match`).
//!
//! A command line is `[id] name [arguments...]`; the engine answers `=[id] result` or
//! `?[id] message`, then an empty line. Before parsing, control characters other than tab
//! and newline are dropped, tabs become spaces, and everything after `#` is a comment.
//! Vertices are a column letter (`A`–`T`, no `I`) and a row number counted from the bottom
//! (`A1` is the bottom-left point), or `pass`.

use games::go::{Board, Move, Point};
use games::Color;
use std::fmt;

/// The column letters of GTP: `I` is skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// One command: an optional numeric id, the name, the arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The id to echo in the response.
    pub id: Option<u64>,
    /// The command's name.
    pub name: String,
    /// The arguments, split on spaces.
    pub args: Vec<String>,
}

/// Parses one input line; `None` for a line that holds nothing (blank, or a comment).
pub fn parse_line(line: &str) -> Option<Command> {
    let cleaned: String = line
        .chars()
        .filter(|&c| !c.is_control() || c == '\t' || c == '\n')
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    let text = cleaned.split('#').next().unwrap_or("");
    let mut words = text.split_whitespace();
    let first = words.next()?;
    let (id, name) = match first.parse::<u64>() {
        Ok(id) => (Some(id), words.next().unwrap_or("").to_string()),
        Err(_) => (None, first.to_string()),
    };
    Some(Command {
        id,
        name,
        args: words.map(str::to_string).collect(),
    })
}

/// A response to send: success with a result (possibly several lines), or failure with a
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Response {
    /// `= result`.
    Success(String),
    /// `? message`.
    Failure(String),
}

impl Response {
    /// The response as the protocol writes it for a command with `id`, ending with the
    /// empty line.
    pub fn format(&self, id: Option<u64>) -> String {
        let id = id.map(|i| i.to_string()).unwrap_or_default();
        let (mark, text) = match self {
            Response::Success(t) => ('=', t),
            Response::Failure(t) => ('?', t),
        };
        let text = text.trim_end_matches('\n');
        if text.is_empty() {
            format!("{mark}{id}\n\n")
        } else {
            format!("{mark}{id} {text}\n\n")
        }
    }
}

/// A colour argument: `b`, `black`, `w`, `white` in any case.
pub fn parse_color(text: &str) -> Option<Color> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Color::Black),
        "w" | "white" => Some(Color::White),
        _ => None,
    }
}

/// `B` or `W`, as GTP and SGF write a colour.
pub fn color_letter(color: Color) -> char {
    match color {
        Color::Black => 'B',
        Color::White => 'W',
    }
}

/// Why a vertex does not name a move on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VertexError(pub String);

impl fmt::Display for VertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The move a vertex names on `board`: `pass`, or a point such as `D4`.
///
/// # Errors
///
/// [`VertexError`] for text that is no vertex, or a point off the board.
pub fn parse_vertex(text: &str, board: &Board) -> Result<Move, VertexError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let upper = text.to_ascii_uppercase();
    let mut chars = upper.chars();
    let letter = chars
        .next()
        .ok_or_else(|| VertexError("empty vertex".to_string()))?;
    let col = COLUMNS
        .iter()
        .position(|&c| char::from(c) == letter)
        .ok_or_else(|| VertexError(format!("invalid coordinate {text:?}")))?;
    let number: usize = chars
        .as_str()
        .parse()
        .map_err(|_| VertexError(format!("invalid coordinate {text:?}")))?;
    let rows = board.rows();
    if number == 0 || number > rows || col >= board.cols() {
        return Err(VertexError(format!(
            "{text} is off the {rows}x{rows} board"
        )));
    }
    board
        .point(rows - number, col)
        .map(Move::Play)
        .ok_or_else(|| VertexError(format!("{text} is off the board")))
}

/// The vertex of `point` on `board`, such as `D4`.
pub fn vertex(point: Point, board: &Board) -> String {
    let (r, c) = board.coords(point);
    format!("{}{}", char::from(COLUMNS[c]), board.rows() - r)
}

/// The vertex of a move: a point's, or `pass`.
pub fn move_text(mv: Move, board: &Board) -> String {
    match mv {
        Move::Play(p) => vertex(p, board),
        Move::Pass => "pass".to_string(),
    }
}

/// The points of GTP's fixed handicap placement for `stones` stones on a `size`×`size`
/// board, as 0-based (row from the top, column from the left); `None` where GTP fixes no
/// placement: fewer than 2 stones, boards under 7×7, more than 4 stones on 7×7 and on even
/// sizes, more than 9 on odd ones.
///
/// The stones stand on the third line up to 11×11 and on the fourth from 12×12: two in
/// opposite corners (lower left, upper right), the third and fourth in the other corners,
/// then the centre for an odd count, the middle of the left and right sides from 6, of the
/// top and bottom from 8.
pub fn fixed_handicap(size: usize, stones: usize) -> Option<Vec<(usize, usize)>> {
    let most = match size {
        0..=6 => 0,
        7 => 4,
        _ if size % 2 == 0 => 4,
        _ => 9,
    };
    if !(2..=most).contains(&stones) {
        return None;
    }
    let line = if size >= 12 { 4 } else { 3 };
    let (low, high, mid) = (line - 1, size - line, size / 2);
    let mut points = vec![(high, low), (low, high), (low, low), (high, high)];
    if stones >= 6 {
        points.extend([(mid, low), (mid, high)]);
    }
    if stones >= 8 {
        points.extend([(low, mid), (high, mid)]);
    }
    let centre = stones >= 5 && stones % 2 == 1;
    points.truncate(stones - usize::from(centre));
    if centre {
        points.push((mid, mid));
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_ids_comments_and_garbage() {
        let c = parse_line("12 play b D4 # a comment").unwrap();
        assert_eq!((c.id, c.name.as_str(), c.args.len()), (Some(12), "play", 2));
        assert_eq!(parse_line("   # only a comment"), None);
        assert_eq!(parse_line(""), None);
        let c = parse_line("gen\u{1}move\tw").unwrap();
        assert_eq!(
            (c.name.as_str(), c.args.as_slice()),
            ("genmove", &["w".to_string()][..])
        );
    }

    #[test]
    fn vertices_round_trip() {
        let board = Board::new(19, 19).unwrap();
        for text in ["A1", "T19", "J10", "H8"] {
            let mv = parse_vertex(text, &board).unwrap();
            assert_eq!(move_text(mv, &board), text);
        }
        assert_eq!(parse_vertex("PASS", &board), Ok(Move::Pass));
        // A1 is the bottom-left point: row 18 from the top.
        let a1 = parse_vertex("a1", &board).unwrap();
        assert_eq!(a1, Move::Play(board.point(18, 0).unwrap()));
        for bad in ["I5", "Z1", "A0", "A20", "", "11", "D4x"] {
            assert!(parse_vertex(bad, &board).is_err(), "{bad}");
        }
        assert_eq!(Response::Success(String::new()).format(Some(3)), "=3\n\n");
        assert_eq!(Response::Failure("no".into()).format(None), "? no\n\n");
    }
}
