//! othello_solve — the exact result of an Othello position under perfect play.
//!
//! Input (stdin, or a file named on the command line): `N` (4, 6 or 8), `N` rows of `B`,
//! `W` and `.`, then the side to move, `B` or `W`.
//!
//! Output: the final disc difference for the side to move (the empty squares counted for the
//! winner), the final score as Black–White, a principal variation in coordinates (column
//! letter and row number, `pass` for a pass), and the nodes searched, the time and nodes per
//! second. On runs longer than a second, progress (elapsed time, nodes, the score's current
//! bounds) goes to stderr. With `--max-nodes` or `--max-seconds` a solve that reaches the
//! limit stops and prints the bounds it proved (exit status 0).
//!
//! See [`USAGE`] (`othello_solve --help`) for the flags.

// A command-line tool reports on stdout.
#![allow(clippy::print_stdout)]

use games::endgame::{Limit, Solver, TableError, SELECTIVE_PASSES};
use games::othello::Move;
use games::Color;
use std::io::Read;
use std::ops::Bound::{Excluded, Included};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const USAGE: &str = "\
othello_solve: the exact result of an Othello position under perfect play

usage: othello_solve [--hash-bits B] [--max-nodes N] [--max-seconds S] [--eval FILE]
                     [--outcome] [FILE]

  FILE             the position (default: stdin)
  --hash-bits B    a table of 2^B entries, 24 bytes each (10..=30, default 22 = 100 MB);
                   refused before allocating when the machine lacks the memory
  --max-nodes N    stop after about N nodes and print the bounds proved so far
  --max-seconds S  stop after about S seconds (a decimal number) likewise
  --eval FILE      order moves near the root by this pattern evaluation (endgame_fit;
                   weights/endgame8.pat for 8x8) instead of mobility and corners: the
                   same exact score, in fewer nodes when the evaluation is good
  --outcome        only whether the side to move wins, draws or loses (one search
                   around 0, as Edax's and Zebra's win/loss/draw solves): far cheaper
                   than the margin when the game is lopsided; takes no limit
  -h, --help       this text

input: N (4, 6 or 8), N rows of B (black), W (white) and . (empty), then the side
to move, B or W. For example the 6x6 start:
  6  ......  ......  ..WB..  ..BW..  ......  ......  B

output: the result for the side to move (its discs minus the opponent's at the end,
empty squares counted for the winner), the final score Black-White, a principal
variation in Othello notation (column letter a.., row number 1.., a1 top left;
`pass` for a pass), and nodes, time, nodes per second. Progress goes to stderr.
A solve stopped by a limit prints `bounds for <side>: [lower, upper]` instead.
";

/// What was asked: the outcome only (its sign and the nodes), or the exact solve.
enum Answer {
    Outcome((i32, u64)),
    Solve(Result<games::endgame::Solution, games::endgame::Bounds>),
}

fn main() -> ExitCode {
    tools::cli::main("othello_solve", USAGE, run)
}

/// Bytes of memory the kernel says it can give (`MemAvailable`), where it says.
fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

fn run() -> Result<(), String> {
    let mut bits = 22;
    let mut file = None;
    let mut limit = Limit::default();
    let mut eval = None;
    let mut outcome_only = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--hash-bits" => {
                bits = tools::cli::number(&arg, args.next(), 10..=30)?;
            }
            "--max-nodes" => {
                limit.nodes = Some(tools::cli::number(&arg, args.next(), 1..)?);
            }
            "--max-seconds" => {
                let range = (Excluded(0.0), Included(1e9));
                let seconds = tools::cli::number(&arg, args.next(), range)?;
                limit.time = Some(Duration::from_secs_f64(seconds));
            }
            "--eval" => {
                eval = Some(Arc::new(tools::cli::load_patterns(
                    "--eval",
                    &tools::cli::text(&arg, args.next())?,
                )?));
            }
            "--outcome" => outcome_only = true,
            flag if flag.starts_with('-') && flag != "-" => {
                return Err(format!("unknown option {flag} (see --help)"))
            }
            path => file = Some(path.to_string()),
        }
    }
    if outcome_only && limit != Limit::default() {
        return Err("--outcome takes no --max-nodes or --max-seconds".to_string());
    }
    let bytes_needed = TableError { bits }.bytes();
    if let Some(available) = available_memory() {
        if bytes_needed > available {
            return Err(format!(
                "--hash-bits {bits}: a table of 2^{bits} entries needs {:.1} GB, but only {:.1} GB of memory is available",
                bytes_needed as f64 / 1e9,
                available as f64 / 1e9
            ));
        }
    }
    let mut bytes = Vec::new();
    match file.as_deref().filter(|&f| f != "-") {
        Some(path) => std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes)),
        None => std::io::stdin().read_to_end(&mut bytes),
    }
    .map_err(|e| format!("{}: {e}", file.as_deref().unwrap_or("stdin")))?;
    let board = tools::position::othello(&bytes)?;

    let mut solver = Solver::try_new(bits).map_err(|e| format!("--hash-bits {bits}: {e}"))?;
    if let Some(eval) = eval {
        solver = solver.with_eval(eval);
    }
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
                    let pass = progress.pass.load(Ordering::Relaxed);
                    let guess = if progress.passes_done.load(Ordering::Relaxed) > 0 {
                        format!(", guess {:+}", progress.guess.load(Ordering::Relaxed))
                    } else {
                        String::new()
                    };
                    let doing = if pass > 0 {
                        format!("selective pass {pass} of {}{guess}", SELECTIVE_PASSES.len())
                    } else {
                        format!(
                            "score in [{}, {}]{guess}",
                            progress.lower.load(Ordering::Relaxed),
                            progress.upper.load(Ordering::Relaxed)
                        )
                    };
                    eprintln!(
                        "[{:6.1} s] {:>14} nodes, {:5.1} M nodes/s, {doing}",
                        start.elapsed().as_secs_f64(),
                        nodes,
                        nodes as f64 / start.elapsed().as_secs_f64() / 1e6,
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
    let answer = if outcome_only {
        Answer::Outcome(solver.outcome(&board))
    } else {
        Answer::Solve(solver.solve_within(&board, limit))
    };
    let time = start.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = reporter.join();

    let mover = board.side_to_move();
    let rate = |nodes: u64| nodes as f64 / time.as_secs_f64().max(1e-9) / 1e6;
    let outcome = match answer {
        Answer::Solve(outcome) => outcome,
        Answer::Outcome((sign, nodes)) => {
            let word = tools::alphazero::exact::outcome_word(sign);
            println!("to move: {mover}");
            println!("outcome for {mover}: {word} (the margin not searched)");
            println!(
                "nodes: {nodes}, time: {:.3} s, {:.1} M nodes/s",
                time.as_secs_f64(),
                rate(nodes)
            );
            return Ok(());
        }
    };
    let solution = match outcome {
        Ok(solution) => solution,
        Err(bounds) => {
            println!("to move: {mover}");
            if bounds.lower == bounds.upper {
                println!(
                    "result for {mover}: {:+} (exact; the limit stopped the principal variation)",
                    bounds.lower
                );
            } else {
                println!(
                    "bounds for {mover}: [{:+}, {:+}] (not exact: the limit stopped the solve)",
                    bounds.lower, bounds.upper
                );
            }
            println!(
                "nodes: {}, time: {:.3} s, {:.1} M nodes/s",
                bounds.nodes,
                time.as_secs_f64(),
                rate(bounds.nodes)
            );
            return Ok(());
        }
    };
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
        rate(solution.nodes)
    );
    Ok(())
}
