//! Perft of the Othello core against the fixture tables in `tests/data/othello`.

#[path = "common/perft_file.rs"]
mod perft_file;

use games::othello::perft;

#[test]
fn perft_matches_the_published_tables() {
    let checked = perft_file::check_counts("othello", |file, depth| perft(&file.othello(), depth));
    // 8x8 depths 0-9, 6x6 depths 0-10, and the 34-move position at depth 1.
    assert_eq!(checked, 22);
}
