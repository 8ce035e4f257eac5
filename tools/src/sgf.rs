//! Game records in SGF (FF[4]), for viewers such as Sabaki and GoGui.

use crate::gtp::color_letter;
use games::go::{Board, Move};
use games::Color;

/// A finished game, as a match plays it.
#[derive(Clone, Debug)]
pub struct Record {
    /// Board side.
    pub size: usize,
    /// Komi.
    pub komi: f64,
    /// Black's and White's names.
    pub players: [String; 2],
    /// The moves in order.
    pub moves: Vec<(Color, Move)>,
    /// The result as SGF writes it: `B+3.5`, `W+R`, `0` for a draw, `Void`.
    pub result: String,
}

/// SGF's escaping of text values: `]` and `\` get a backslash.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

impl Record {
    /// The record as SGF text: one game tree, one node per move.
    pub fn to_sgf(&self) -> String {
        let board = Board::new(self.size, self.size).expect("a record's size is a board's");
        let mut out = format!(
            "(;GM[1]FF[4]CA[UTF-8]AP[games-go]SZ[{}]KM[{}]RU[Chinese]PB[{}]PW[{}]RE[{}]\n",
            self.size,
            self.komi,
            escape(&self.players[0]),
            escape(&self.players[1]),
            escape(&self.result)
        );
        for (i, &(color, mv)) in self.moves.iter().enumerate() {
            let at = match mv {
                // SGF letters: column, then row, from the top-left corner.
                Move::Play(p) => {
                    let (r, c) = board.coords(p);
                    format!(
                        "{}{}",
                        char::from(b'a' + c as u8),
                        char::from(b'a' + r as u8)
                    )
                }
                Move::Pass => String::new(),
            };
            out.push_str(&format!(";{}[{at}]", color_letter(color)));
            if i % 10 == 9 {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }
}
