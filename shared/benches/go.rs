//! Go speed: perft against the `board-game` crate in one run, and random playouts on 9×9.
//!
//! ```text
//! cargo bench -p games --bench go            # 3 alternating perft runs, 5 s of playouts
//! cargo bench -p games --bench go -- 5       # 5 alternating perft runs
//! ```
//!
//! First checks the deep counts of `tests/data/go/*.perft` marked `bench`; then times perft(6)
//! of the empty 5×5 board under CGOS rules for both crates, alternating them, and prints the
//! medians and the ratio; then runs light and heavy 9×9 playouts on one thread, five
//! 1-second windows each, and prints their medians and the ratio of the two.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/common/perft_file.rs"]
mod perft_file;
#[path = "../tests/common/timing.rs"]
mod timing;

use board_game::games::go::{GoBoard, Komi, Rules};
use board_game::util::game_stats::perft_naive;
use games::go::perft::perft;
use games::go::playout::{playout, playout_heavy_recorded};
use games::go::{Board, KoRule, Position};
use games::rng::Rng;
use games::Color;
use std::time::{Duration, Instant};

const DEPTH: u32 = 6;

fn main() {
    let runs = timing::runs(3);

    perft_file::check_bench_counts("go", |file, depth| perft(&file.go(), depth));

    println!("\nperft({DEPTH}) of the empty 5x5 board, CGOS rules, {runs} alternating runs each:");
    let ours = Position::new(Board::new(5, 5).expect("5x5"), KoRule::PositionalSuperko);
    let theirs = GoBoard::new(5, Komi::zero(), Rules::cgos());
    timing::versus(
        runs,
        "board-game",
        "target < 1",
        || perft(&ours, DEPTH),
        || perft_naive(&theirs, DEPTH),
    );

    println!("\nlight playouts on 9x9 (random moves, no filling of own one-point eyes, simple ko), one thread:");
    let light = windows(|board, rng| playout(board, Color::Black, rng, 1000));
    println!(
        "median {:.0} playouts/s ({:.1} moves per playout; target >= 150000)",
        light.0, light.1
    );
    println!("\nheavy playouts on 9x9 (captures, escapes and 3x3 shapes near the last move), one thread:");
    let mut played = Vec::new();
    let heavy = windows(|board, rng| {
        playout_heavy_recorded(board, Color::Black, None, rng, 1000, &mut played)
    });
    println!(
        "median {:.0} playouts/s ({:.1} moves per playout); light / heavy = {:.2}",
        heavy.0,
        heavy.1,
        light.0 / heavy.0
    );
}

/// Playouts from the empty 9×9 board in five 1-second windows, each window's rate printed:
/// the median rate and the mean moves per playout.
fn windows(mut play: impl FnMut(&mut Board, &mut Rng) -> usize) -> (f64, f64) {
    let empty = Board::new(9, 9).expect("9x9");
    let mut board = empty.clone();
    let mut rng = Rng::new(2026);
    let mut rates = Vec::new();
    let (mut all_playouts, mut all_moves) = (0u64, 0u64);
    for window in 1..=5 {
        let (mut playouts, mut moves) = (0u64, 0u64);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            for _ in 0..200 {
                board.clone_from(&empty);
                moves += play(&mut board, &mut rng) as u64;
                playouts += 1;
            }
        }
        let rate = playouts as f64 / start.elapsed().as_secs_f64();
        println!("  window {window}: {rate:.0} playouts/s");
        rates.push(rate);
        all_playouts += playouts;
        all_moves += moves;
    }
    rates.sort_by(f64::total_cmp);
    (
        rates[rates.len() / 2],
        all_moves as f64 / all_playouts as f64,
    )
}
