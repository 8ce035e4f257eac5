//! Solving 6×6 Othello from the start, as `othello_solve` does, on one thread.
//!
//! ```text
//! cargo bench -p tools --bench othello_solve            # table of 2^24 entries (384 MB)
//! cargo bench -p tools --bench othello_solve -- 22      # 2^22 entries
//! ```
//!
//! Checks the result against ../shared/reference/othello.md (with perfect play White wins
//! 20-16: Black, to move, gets -4), replays the principal variation through the Othello core
//! to the same final score, and prints nodes, time and nodes per second (Edax, the reference
//! engine, solves endgames at about 20 M nodes/s per thread).

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

use games::endgame::Solver;
use games::othello::Board;
use games::search::Game;
use games::Color;
use std::time::Instant;

fn main() {
    let bits: u32 = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .map_or(24, |a| a.parse().expect("the argument is the table's bits"));
    let start = Board::new(6).expect("6x6");
    let mut solver = Solver::new(bits);
    let clock = Instant::now();
    let solution = solver.solve(&start);
    let time = clock.elapsed().as_secs_f64();
    println!(
        "6x6 from the start, table 2^{bits}: Black {:+}, {} nodes in {time:.1} s, {:.1} M nodes/s",
        solution.score,
        solution.nodes,
        solution.nodes as f64 / time / 1e6
    );
    assert_eq!(solution.score, -4, "6x6 Othello is a 16-20 win for White");

    let mut board = start;
    for &mv in &solution.pv {
        board = board.after(mv).expect("the principal variation is legal");
    }
    assert!(
        board.is_game_over(),
        "the principal variation ends the game"
    );
    let (black, white) = (board.count(Color::Black), board.count(Color::White));
    let empty = 36 - black - white;
    let (black, white) = if black > white {
        (black + empty, white)
    } else {
        (black, white + empty)
    };
    println!(
        "principal variation ({} moves) replayed: {black}-{white}",
        solution.pv.len()
    );
    assert_eq!((black, white), (16, 20));
}
