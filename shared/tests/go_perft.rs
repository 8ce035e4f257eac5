//! Perft of the Go core against the fixture tables in `tests/data/go`.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/perft_file.rs"]
mod perft_file;

use games::go::{perft, Board, Game, KoRule};

fn game(file: &perft_file::PerftFile) -> Game {
    let board: Board = file
        .board
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", file.path.display()));
    let rule: KoRule = file.rules.as_deref().unwrap_or("superko").parse().unwrap();
    let mut game = Game::new(board, rule);
    game.set_side_to_move(file.to_move);
    game
}

#[test]
fn perft_matches_the_published_tables() {
    let mut checked = 0;
    for file in perft_file::load_all("go") {
        let game = game(&file);
        for count in file.counts.iter().filter(|c| !c.bench) {
            assert_eq!(
                perft(&game, count.depth),
                count.leaves,
                "{} depth {}",
                file.path.display(),
                count.depth
            );
            checked += 1;
        }
    }
    // 3x3 depths 0-9, 5x5 depths 0-5, 19x19 depths 0-2, triple ko depths 0-6.
    assert_eq!(checked, 10 + 6 + 3 + 7);
}
