//! othello_solve — the exact result of an Othello position under perfect play.
//!
//! Input (stdin, or a file named on the command line): `N` (4, 6 or 8), `N` rows of `B`,
//! `W` and `.`, then the side to move, `B` or `W`.
//!
//! Output: the final disc difference for the side to move (the empty squares counted for the
//! winner), the final score as Black–White, a principal variation in coordinates (column
//! letter and row number, `pass` for a pass), and the nodes searched, the time and nodes per
//! second. On runs longer than a second, progress (elapsed time, nodes, the score's current
//! bounds) goes to stderr.
//!
//! ```text
//! othello_solve [--hash-bits B] [FILE]      B: table of 2^B entries, 24 bytes each (default 22)
//! ```

// A command-line tool reports on stdout.
#![allow(clippy::print_stdout)]

use games::endgame::Solver;
use games::judge::Tokens;
use games::othello::{Board, Move};
use games::Color;
use std::io::Read;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("othello_solve: {message}");
            ExitCode::FAILURE
        }
    }
}

fn parse(bytes: &[u8]) -> Result<Board, String> {
    let mut tokens = Tokens::new(bytes);
    let at = |e: games::judge::InputError| e.to_string();
    let n = tokens
        .parse_in("the board size N (4, 6 or 8)", 4..=8usize)
        .map_err(at)?;
    if n % 2 == 1 {
        return Err(at(
            tokens.rule_error(format!("the board size is 4, 6 or 8, not {n}"))
        ));
    }
    let mut text = String::new();
    for r in 0..n {
        let row = tokens.token("a board row").map_err(at)?;
        if row.chars().count() != n || !row.chars().all(|c| "BW.".contains(c)) {
            return Err(at(
                tokens.rule_error(format!("row {} is not {n} of B, W and .", r + 1))
            ));
        }
        text.push_str(row);
        text.push('\n');
    }
    let mut board: Board = text.parse().map_err(|e| format!("the board: {e}"))?;
    let side = match tokens.token("the side to move (B or W)").map_err(at)? {
        "B" => Color::Black,
        "W" => Color::White,
        other => {
            return Err(at(
                tokens.rule_error(format!("the side to move is B or W, not {other:?}"))
            ))
        }
    };
    tokens.finish().map_err(at)?;
    board.set_side_to_move(side);
    Ok(board)
}

fn run() -> Result<(), String> {
    let mut bits = 22;
    let mut file = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--hash-bits" => {
                let value = args.next().ok_or("--hash-bits needs a number")?;
                bits = value
                    .parse()
                    .ok()
                    .filter(|b| (10..=30).contains(b))
                    .ok_or_else(|| format!("--hash-bits must be in 10..=30, not {value:?}"))?;
            }
            flag if flag.starts_with('-') => return Err(format!("unknown option {flag}")),
            path => file = Some(path.to_string()),
        }
    }
    let mut bytes = Vec::new();
    match &file {
        Some(path) => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)),
        None => std::io::stdin().read_to_end(&mut bytes),
    }
    .map_err(|e| format!("{}: {e}", file.as_deref().unwrap_or("stdin")))?;
    let board = parse(&bytes)?;

    let mut solver = Solver::new(bits);
    let progress = solver.progress();
    let done = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let reporter = {
        let done = Arc::clone(&done);
        std::thread::spawn(move || {
            let mut next = Duration::from_secs(1);
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(50));
                if start.elapsed() >= next {
                    let nodes = progress.nodes.load(Ordering::Relaxed);
                    eprintln!(
                        "[{:6.1} s] {:>14} nodes, {:5.1} M nodes/s, score in [{}, {}]",
                        start.elapsed().as_secs_f64(),
                        nodes,
                        nodes as f64 / start.elapsed().as_secs_f64() / 1e6,
                        progress.lower.load(Ordering::Relaxed),
                        progress.upper.load(Ordering::Relaxed)
                    );
                    next += Duration::from_secs(if next < Duration::from_secs(10) {
                        1
                    } else {
                        10
                    });
                }
            }
        })
    };
    let solution = solver.solve(&board);
    let time = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = reporter.join();

    let mover = board.side_to_move();
    let cells = (board.size() * board.size()) as i32;
    // The score is even and counts every square: mover + opponent = cells at the end.
    let (mine, theirs) = ((cells + solution.score) / 2, (cells - solution.score) / 2);
    let (black, white) = match mover {
        Color::Black => (mine, theirs),
        Color::White => (theirs, mine),
    };
    let pv: Vec<String> = solution
        .pv
        .iter()
        .map(|mv| match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pass".to_string(),
        })
        .collect();
    println!("to move: {mover}");
    println!("exact result for {mover}: {:+}", solution.score);
    println!("final score (Black-White): {black}-{white}");
    println!("principal variation: {}", pv.join(" "));
    println!(
        "nodes: {}, time: {:.3} s, {:.1} M nodes/s",
        solution.nodes,
        time.as_secs_f64(),
        solution.nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}
