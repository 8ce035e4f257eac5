//! Perft of the Go core against the fixture tables in `tests/data/go`.

#[path = "common/perft_file.rs"]
mod perft_file;

use games::go::perft::perft;

#[test]
fn perft_matches_the_published_tables() {
    let checked = perft_file::check_counts("go", |file, depth| perft(&file.go(), depth));
    // 3x3 depths 0-9, 5x5 depths 0-5, 19x19 depths 0-2, triple ko depths 0-6.
    assert_eq!(checked, 10 + 6 + 3 + 7);
}
