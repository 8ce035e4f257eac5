//! Perft of the Othello core against the fixture tables in `tests/data/othello`.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/perft_file.rs"]
mod perft_file;

use games::othello::{perft, Board};

fn position(file: &perft_file::PerftFile) -> Board {
    let mut board: Board = file
        .board
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", file.path.display()));
    board.set_side_to_move(file.to_move);
    board
}

#[test]
fn perft_matches_the_published_tables() {
    let mut checked = 0;
    for file in perft_file::load_all("othello") {
        let board = position(&file);
        for count in file.counts.iter().filter(|c| !c.bench) {
            assert_eq!(
                perft(&board, count.depth),
                count.leaves,
                "{} depth {}",
                file.path.display(),
                count.depth
            );
            checked += 1;
        }
    }
    // 8x8 depths 0-9, 6x6 depths 0-10, and the 34-move position at depth 1.
    assert_eq!(checked, 22);
}
