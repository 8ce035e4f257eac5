//! Perft fixture files (`tests/data/**/*.perft`), shared by the tests and the benches.
//!
//! ```text
//! # comment
//! rules superko            (optional; games with a choice of rules)
//! to-move Black
//! board
//! <N rows of the board, in the game's own text format>
//! perft <depth> <leaves> [bench]
//! ```
//! `bench` marks counts too slow for the test suite; the benchmark checks them.

// The Othello and the Go test and bench each use a part of this module.
#![allow(dead_code)]

use games::{go, othello, Color};
use std::path::{Path, PathBuf};

/// One position and its expected perft counts.
#[derive(Debug)]
pub struct PerftFile {
    pub path: PathBuf,
    pub rules: Option<String>,
    pub to_move: Color,
    pub board: String,
    pub counts: Vec<PerftCount>,
}

/// `perft depth leaves`.
#[derive(Debug, Clone, Copy)]
pub struct PerftCount {
    pub depth: u32,
    pub leaves: u64,
    pub bench: bool,
}

impl PerftFile {
    /// The file's Othello position, its side to move set.
    pub fn othello(&self) -> othello::Board {
        let mut board: othello::Board = self.board.parse().unwrap_or_else(|e| self.fail(e));
        board.set_side_to_move(self.to_move);
        board
    }

    /// The file's Go game: its position, its ko rule (positional superko if it names none)
    /// and its side to move.
    pub fn go(&self) -> go::Position {
        let board: go::Board = self.board.parse().unwrap_or_else(|e| self.fail(e));
        let rule: go::KoRule = self
            .rules
            .as_deref()
            .unwrap_or("superko")
            .parse()
            .unwrap_or_else(|e| self.fail(e));
        let mut game = go::Position::new(board, rule);
        game.set_side_to_move(self.to_move);
        game
    }

    fn fail(&self, e: impl std::fmt::Display) -> ! {
        panic!("{}: {e}", self.path.display())
    }
}

/// Every `*.perft` file under `tests/data/<game>`, sorted by name.
pub fn load_all(game: &str) -> Vec<PerftFile> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(game);
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "perft"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .perft files in {}", dir.display());
    paths.into_iter().map(|p| parse(&p)).collect()
}

fn parse(path: &Path) -> PerftFile {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut to_move = None;
    let mut file = PerftFile {
        path: path.to_path_buf(),
        rules: None,
        to_move: Color::Black,
        board: String::new(),
        counts: Vec::new(),
    };
    let mut in_board = false;
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            [w, ..] if w.starts_with('#') => {}
            ["rules", rules] => file.rules = Some(rules.to_string()),
            ["to-move", side] => {
                to_move = Some(match *side {
                    "Black" => Color::Black,
                    "White" => Color::White,
                    _ => panic!("{}: to-move {side:?}", at()),
                });
            }
            ["board"] => in_board = true,
            ["perft", depth, leaves, rest @ ..] => {
                in_board = false;
                file.counts.push(PerftCount {
                    depth: depth.parse().unwrap_or_else(|_| panic!("{}: depth", at())),
                    leaves: leaves
                        .parse()
                        .unwrap_or_else(|_| panic!("{}: leaves", at())),
                    bench: match rest {
                        [] => false,
                        ["bench"] => true,
                        _ => panic!("{}: unknown marker {rest:?}", at()),
                    },
                });
            }
            _ if in_board => {
                file.board.push_str(line.trim());
                file.board.push('\n');
            }
            _ => panic!("{}: cannot read {line:?}", at()),
        }
    }
    assert!(
        !file.board.is_empty() && !file.counts.is_empty(),
        "{}: needs a board and perft lines",
        path.display()
    );
    file.to_move = to_move.unwrap_or_else(|| panic!("{}: needs a to-move line", path.display()));
    file
}

/// For the tests: checks the counts not marked `bench` of every file of `game`, `perft`
/// giving the leaves of a file's position at a depth; fails on a mismatch and returns how
/// many counts it checked.
pub fn check_counts(game: &str, perft: impl Fn(&PerftFile, u32) -> u64) -> usize {
    let mut checked = 0;
    for file in load_all(game) {
        for count in file.counts.iter().filter(|c| !c.bench) {
            assert_eq!(
                perft(&file, count.depth),
                count.leaves,
                "{} depth {}",
                file.path.display(),
                count.depth
            );
            checked += 1;
        }
    }
    checked
}

/// For the benches: runs the counts marked `bench` of every file of `game`, `perft` giving
/// the leaves of a file's position at a depth; prints each with its time and rate, and
/// fails on a mismatch.
// The benches report on stdout.
#[allow(clippy::print_stdout)]
pub fn check_bench_counts(game: &str, perft: impl Fn(&PerftFile, u32) -> u64) {
    println!("deep perft counts (tests/data/{game}, marked `bench`):");
    for file in load_all(game) {
        let name = file
            .path
            .file_name()
            .expect("file name")
            .to_string_lossy()
            .into_owned();
        for count in file.counts.iter().filter(|c| c.bench) {
            let start = std::time::Instant::now();
            let leaves = perft(&file, count.depth);
            let secs = start.elapsed().as_secs_f64();
            let verdict = if leaves == count.leaves {
                "ok"
            } else {
                "MISMATCH"
            };
            println!(
                "  {name} depth {:2}: {leaves:>12} leaves in {secs:7.3} s ({:.1} M leaves/s) {verdict}",
                count.depth,
                leaves as f64 / secs / 1e6
            );
            assert_eq!(leaves, count.leaves, "{name} depth {}", count.depth);
        }
    }
}
