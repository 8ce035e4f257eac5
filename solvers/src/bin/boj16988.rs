//! Baekjoon 16988 — Baaaaaaaaaduk2 (Easy): the most opponent stones two placements can kill.
//!
//! Input: `N M` (3 ≤ N, M ≤ 20), then `N` lines of `M` values: 0 empty, 1 mine, 2 the
//! opponent's. I put exactly two stones on empty points (anywhere; mine are never removed).
//! An opponent chain dies when none of its stones touches an empty point.
//! Output: the largest number of opponent stones that two placements kill.
//!
//! A chain dies exactly when its liberties are among the two points I fill, so only chains
//! with one or two liberties matter. From the shared crate's chain analysis, each such chain
//! adds its size to the score of its liberty set; the best pair is then the best of: a pair
//! `{x, y}` that is some chain's liberty set (plus the one-liberty chains at `x` and at `y`),
//! or the two best single liberties. O(N·M) after one pass over the chains.
//!
//! Bad input — sizes out of range, rows of the wrong length, values other than 0/1/2, a chain
//! that already has no liberty, fewer than two empty points — is one line on stderr and
//! exit status 1.

use games::go::{Board, Point, SetupError};
use games::judge::{self, ErrorKind, InputError, Options, Tokens};
use games::Color;
use std::collections::HashMap;
use std::fmt::Write;

/// What `--help` prints.
const USAGE: &str = "\
Baekjoon 16988 (Baaaaaaaaaduk2 (Easy), https://www.acmicpc.net/problem/16988): the most
opponent stones two placements can kill.

input:  `N M` (3..=20 each), then N rows of M values: 0 empty, 1 mine, 2 the opponent's.
output: the largest number of opponent stones left without a liberty after I place two
        stones on empty points.
--trace lists the chains two stones can kill, at 0-based (row, column) points.
A malformed value, a chain without a liberty at the start or fewer than two empty points
is one line on stderr naming the input line, exit status 1.
";

fn main() {
    judge::run("boj16988", USAGE, solve)
}

fn solve(input: &[u8], out: &mut String, options: Options) -> Result<(), InputError> {
    let mut tokens = Tokens::new(input);
    let rows = tokens.parse_in("the number of rows N", 3..=20usize)?;
    let cols = tokens.parse_in("the number of columns M", 3..=20usize)?;
    let mut stones = Vec::new();
    let mut empty = 0;
    let mut row_lines = Vec::with_capacity(rows);
    for r in 0..rows {
        for c in 0..cols {
            match tokens.parse_in("a cell (0, 1 or 2)", 0..=2u8)? {
                0 => empty += 1,
                1 => stones.push((r, c, Color::Black)),
                _ => stones.push((r, c, Color::White)),
            }
            if c == 0 {
                row_lines.push(tokens.line());
            }
        }
    }
    tokens.finish()?;
    if empty < 2 {
        return Err(tokens.rule_error(format!(
            "two stones need two empty points, the board has {empty}"
        )));
    }
    let board = Board::with_stones(rows, cols, stones).map_err(|e| {
        let line = match e {
            SetupError::NoLiberty { row, .. } => row_lines[row],
            _ => tokens.line(),
        };
        InputError::new(line, ErrorKind::Rule(Box::new(e)))
    })?;
    let _ = writeln!(
        out,
        "{}",
        most_captured(&board, Color::White, options.trace)
    );
    Ok(())
}

/// The most stones of `victim` that two stones on empty points can leave without a liberty.
/// With `trace`, lists the chains that two stones can kill on stderr.
fn most_captured(board: &Board, victim: Color, trace: bool) -> usize {
    let mut single: HashMap<Point, usize> = HashMap::new();
    let mut double: HashMap<(Point, Point), usize> = HashMap::new();
    for chain in board.chains() {
        if chain.color != victim {
            continue;
        }
        if trace && chain.liberties.len() <= 2 {
            let at = |p: &Point| format!("{:?}", board.coords(*p));
            let libs: Vec<String> = chain.liberties.iter().map(at).collect();
            let stones = chain.stones.len();
            eprintln!(
                "{stones} stone{} at {} (0-based row, column) die when [{}] are filled",
                if stones == 1 { "" } else { "s" },
                at(&chain.stones[0]),
                libs.join(", ")
            );
        }
        match chain.liberties[..] {
            [x] => *single.entry(x).or_default() += chain.stones.len(),
            // Liberties come sorted, so each pair has one key.
            [x, y] => *double.entry((x, y)).or_default() += chain.stones.len(),
            _ => {}
        }
    }
    let single_at = |p: Point| single.get(&p).copied().unwrap_or(0);
    let best_pair = double
        .iter()
        .map(|(&(x, y), &both)| both + single_at(x) + single_at(y))
        .max()
        .unwrap_or(0);
    // Two different single liberties (or one, with the other stone anywhere else).
    let mut singles: Vec<usize> = single.values().copied().collect();
    singles.sort_unstable_by(|a, b| b.cmp(a));
    let best_singles = singles.iter().take(2).sum();
    best_pair.max(best_singles)
}
