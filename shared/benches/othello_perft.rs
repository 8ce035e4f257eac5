//! Othello perft speed, this crate against the `magpie` crate, in one run.
//!
//! ```text
//! cargo bench -p games --bench othello_perft            # 5 alternating runs each
//! cargo bench -p games --bench othello_perft -- 9       # 9 runs each
//! ```
//!
//! First checks the deep counts of `tests/data/othello/*.perft` marked `bench` (8×8 depths 10
//! and 11, 6×6 depths 11 and 12), then times perft(11) on 8×8 for both crates, alternating
//! them so that machine noise hits both alike, and prints the medians and their ratio.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/common/perft_file.rs"]
mod perft_file;
#[path = "../tests/common/timing.rs"]
mod timing;

use games::othello::{perft, Board};
use magpie::othello::{Board as MagpieBoard, Stone};

const DEPTH: u32 = 11;

/// perft for magpie, written against its public API with our convention (a pass is a ply;
/// two passes in a row end the game and count one leaf; the last ply is counted, not played,
/// as ours does).
fn magpie_perft(board: &MagpieBoard, stone: Stone, passed: bool, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves_for(stone);
    if moves.is_empty() {
        return if passed {
            1
        } else {
            magpie_perft(board, stone.flip(), true, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_set());
    }
    moves
        .hot_bits()
        .map(|pos| {
            let mut next = board.clone();
            next.play(stone, pos);
            magpie_perft(&next, stone.flip(), false, depth - 1)
        })
        .sum()
}

fn main() {
    let runs = timing::runs(5);

    perft_file::check_bench_counts("othello", |file, depth| perft(&file.othello(), depth));

    println!("\nperft({DEPTH}) on 8x8 from the start, {runs} alternating runs each:");
    let (ours, theirs) = (Board::standard(), MagpieBoard::standard());
    timing::versus(
        runs,
        "magpie",
        "target <= 0.8",
        || perft(&ours, DEPTH),
        || magpie_perft(&theirs, Stone::Black, false, DEPTH),
    );
}
