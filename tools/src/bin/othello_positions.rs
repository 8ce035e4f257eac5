//! othello_positions — a benchmark of 6×6 Othello positions from varied play, each with the
//! exact value of every legal move (the endgame solver's), for measuring players against
//! perfect play. See [`USAGE`].

use games::endgame::Solver;
use games::othello::{Board, Move};
use games::rng::Rng;
use games::search::Game;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;
use tools::alphazero::exact::{obf_cells, varied_position};
use tools::cli;

const USAGE: &str = "\
othello_positions: 6x6 Othello positions from varied play, each with the exact final disc
margin of every legal move (the endgame solver), for measuring players against perfect play

usage: othello_positions --out FILE [--count N] [--seed N] [--empties LOW..HIGH] [--eval FILE]

  --out FILE        where to write them (written whole at the end, through a rename)
  --count N         positions (default 2000), spread evenly over the empties range
  --empties A..B    empty squares of the positions (default 10..30; at most 32)
  --seed N          random seed (default 1): the same seed makes the same file
  --eval FILE       order the solver's moves by this pattern evaluation (endgame_fit's
                    weights/endgame6.pat): the same exact values in fewer nodes (about
                    1.6 times fewer at 18 to 20 empties)

Each game is played from the start by two players drawn at random: uniformly random,
greedy (most discs flipped), or random with probability 1/2 and greedy otherwise; a game
stops at its drawn number of empties. Positions with fewer than two legal moves and
repeats are skipped. Progress goes to stderr.

Format, one position per line (lines starting with # are comments): 36 characters row by
row from a1 (X black, O white, - empty), a space, the side to move (X or O), then for every
legal move `square:value;` best first, the value the final disc margin for the side to
move after that move and perfect play (empties counted for the winner): the format of the
FFO/Edax .obf files, for 6x6.
";

fn line(board: &Board, values: &[(Move, i32)]) -> String {
    let mut out = obf_cells(board);
    for (mv, v) in values {
        let _ = write!(
            out,
            " {}:{v:+};",
            match mv {
                Move::Play(sq) => sq.to_string(),
                Move::Pass => "pass".to_string(),
            }
        );
    }
    out
}

fn main() -> ExitCode {
    cli::main("othello_positions", USAGE, run)
}

fn run() -> Result<(), String> {
    let mut out = None;
    let mut count = 2000usize;
    let mut seed = 1u64;
    let (mut low, mut high) = (10u32, 30u32);
    let mut eval = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--out" => out = Some(cli::value::<String>(&flag, args.next(), |_| true)?),
            "--count" => count = cli::value(&flag, args.next(), |&n| (1..=1_000_000).contains(&n))?,
            "--seed" => seed = cli::value(&flag, args.next(), |_| true)?,
            "--empties" => (low, high) = cli::range(&flag, args.next(), 32)?,
            "--eval" => {
                let path: String = cli::value(&flag, args.next(), |_| true)?;
                eval = Some(Arc::new(cli::load_patterns("--eval", &path)?));
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let out = out.ok_or("--out FILE is required")?;
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(22);
    if let Some(eval) = eval {
        solver = solver.with_eval(eval);
    }
    let mut seen = HashSet::new();
    let mut lines = vec![
        format!("# othello_positions --count {count} --seed {seed} --empties {low}..{high}"),
        "# 6x6 positions from varied play; every legal move with its exact final disc margin for the side to move, best first".to_string(),
    ];
    let clock = Instant::now();
    let levels = high - low + 1;
    let mut nodes = 0u64;
    for i in 0..count {
        // Position i goes to level i mod levels: an even spread over the empties.
        let empties = low + (i as u32 % levels);
        let board = loop {
            if let Some(b) = varied_position(6, empties, &mut rng) {
                if seen.insert(b) {
                    break b;
                }
            }
        };
        let mut values: Vec<(Move, i32)> = board
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let child = board.after(mv).expect("a legal move");
                let solution = solver.solve(&child);
                nodes += solution.nodes;
                // The child's score is for the opponent, who moves there (a pass is a move).
                (mv, -solution.score)
            })
            .collect();
        values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
        lines.push(line(&board, &values));
        if (i + 1) % 50 == 0 || i + 1 == count {
            let secs = clock.elapsed().as_secs_f64();
            eprintln!(
                "othello_positions: {}/{count} positions, {:.1} M nodes, {:.0} s, {:.1} positions/s (now at {empties} empties)",
                i + 1,
                nodes as f64 / 1e6,
                secs,
                (i + 1) as f64 / secs.max(1e-9)
            );
        }
    }
    lines.push(String::new());
    tools::alphazero::write_atomically(std::path::Path::new(&out), lines.join("\n").as_bytes())
        .map_err(|e| format!("{out}: {e}"))
}
