//! othello_positions — a benchmark of 6×6 Othello positions from varied play, each with the
//! exact value of every legal move (the endgame solver's), for measuring players against
//! perfect play. See [`USAGE`].

use games::endgame::eval::Scorer;
use games::endgame::Solver;
use games::othello::{Board, Move};
use games::rng::Rng;
use games::search::Game;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use tools::alphazero::exact::{obf_cells, outcome_word, read_othello_positions, varied_position};
use tools::cli;

const USAGE: &str = "\
othello_positions: 6x6 Othello positions from varied play, each with the exact final disc
margin of every legal move (the endgame solver), for measuring players against perfect play

usage: othello_positions --out FILE [--count N] [--seed N] [--empties LOW..HIGH] [--eval FILE]
                         [--outcomes-from E] [--append] [--threads N]
       othello_positions --out FILE --line [--eval FILE] [--threads N]

  --out FILE          where to write them (written whole at the end, through a rename)
  --count N           positions (default 2000), spread evenly over the empties range
  --empties A..B      empty squares of the positions (default 10..30; at most 32)
  --seed N            random seed (default 1): the same seed makes the same file
  --eval FILE         order the solver's moves by this pattern evaluation (endgame_fit's
                      weights/endgame6.pat): the same exact values in fewer nodes (about
                      1.6 times fewer at 18 to 20 empties)
  --outcomes-from E   at E or more empties, only the outcome of each move (win, draw or
                      loss, a search around 0), not its margin: enough to tell mistakes,
                      and cheaper (four positions of 26 empties: 8.3 s against 45 s)
  --append            keep FILE's positions and add these after them (the header gains
                      this command's line; a position already there is not drawn again)
  --threads N         solve on N threads (default 1; the file is the same for any N)
  --line              instead of varied play, the exact solver's game against itself from
                      the start: each side plays the first move of the solver's principal
                      variation (as the solver of az_eval --versus-solver does; between
                      equal moves its choice may differ), and every position of it with two
                      or more legal moves is kept. An agent that plays a best move at each
                      of its side's positions there keeps the exact result against the
                      solver (White +4 on 6x6): az_eval on this file tells, position by
                      position, where an agent would lose discs.

Each game is played from the start by two players drawn at random: uniformly random,
greedy (most discs flipped), or random with probability 1/2 and greedy otherwise; a game
stops at its drawn number of empties. Positions with fewer than two legal moves and
repeats are skipped. Progress goes to stderr.

Format, one position per line (lines starting with # are comments): 36 characters row by
row from a1 (X black, O white, - empty), a space, the side to move (X or O), then for every
legal move `square:value;` best first, the value the final disc margin for the side to
move after that move and perfect play (empties counted for the winner): the format of the
FFO/Edax .obf files, for 6x6. With --outcomes-from, a deep position's values are `win`,
`draw` or `loss` instead.
";

/// One position's line: its cells, side to move, and each move's value (a margin, or with
/// `outcomes_only` the outcome's word).
fn line(board: &Board, values: &[(Move, i32)], outcomes_only: bool) -> String {
    let mut out = obf_cells(board);
    for &(mv, v) in values {
        let square = match mv {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pass".to_string(),
        };
        let _ = if outcomes_only {
            write!(out, " {square}:{};", outcome_word(v))
        } else {
            write!(out, " {square}:{v:+};")
        };
    }
    out
}

/// The values of every legal move of `board`, best first: exact margins, or outcomes only
/// (the sign) when `outcomes_only`. Returns them with the nodes searched.
fn judge(solver: &mut Solver, board: &Board, outcomes_only: bool) -> (Vec<(Move, i32)>, u64) {
    let mut nodes = 0;
    let mut values: Vec<(Move, i32)> = board
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let child = board.after(mv).expect("a legal move");
            // The child's value is for the opponent, who moves there (a pass is a move).
            let value = if outcomes_only {
                let (sign, n) = solver.outcome(&child);
                nodes += n;
                -sign
            } else {
                let solution = solver.solve(&child);
                nodes += solution.nodes;
                -solution.score
            };
            (mv, value)
        })
        .collect();
    values.sort_by_key(|&(_, v)| std::cmp::Reverse(v));
    (values, nodes)
}

/// Draws of a level without a new position after which it is taken to have no more.
const MAX_DRAWS: usize = 20_000;

/// How varied play draws the positions: how many, from which seed, at which empties, and
/// from how many empties on only outcomes.
struct Drawing {
    count: usize,
    seed: u64,
    low: u32,
    high: u32,
    outcomes_from: u32,
}

impl Drawing {
    /// The file's header lines (with `append`, the lines of `out` as they are, this command's
    /// line added to the header) and the new positions, not yet solved.
    fn positions(&self, out: &str, append: bool) -> Result<(Vec<String>, Vec<Board>), String> {
        let Drawing {
            count,
            seed,
            low,
            high,
            outcomes_from,
        } = *self;
        let mut command =
            format!("# othello_positions --count {count} --seed {seed} --empties {low}..{high}");
        let some_outcomes = outcomes_from <= high;
        if some_outcomes {
            let _ = write!(command, " --outcomes-from {outcomes_from}");
        }
        if append {
            command.push_str(" --append");
        }
        if some_outcomes {
            let _ = write!(
                command,
                " (at {} or more empties, each move's outcome only: win, draw or loss)",
                outcomes_from.max(low)
            );
        }
        let (lines, mut seen) = if append {
            let text = cli::read_text(out)?;
            let old = read_othello_positions(&text).map_err(|e| format!("{out}: {e}"))?;
            let mut lines: Vec<String> = text.lines().map(String::from).collect();
            // The header's comment lines stay first; this command's line follows them.
            let at = lines.iter().take_while(|l| l.starts_with('#')).count();
            lines.insert(at, command);
            (lines, old.into_iter().map(|j| j.position).collect())
        } else {
            (
                vec![
                    command,
                    "# 6x6 positions from varied play; every legal move with its exact final disc margin (or with --outcomes-from, its outcome) for the side to move, best first".to_string(),
                ],
                HashSet::new(),
            )
        };
        // Draw every position first, one random stream, so that the file does not depend on
        // how the solving is shared out.
        let mut rng = Rng::new(seed);
        let levels = high - low + 1;
        let mut exhausted = HashSet::new();
        let mut boards: Vec<Board> = Vec::with_capacity(count);
        for i in 0..count {
            // Position i goes to level i mod levels: an even spread over the empties.
            let empties = low + (i as u32 % levels);
            if exhausted.contains(&empties) {
                continue;
            }
            // Near the start few positions exist (12 at 30 empties, two plies in): a level
            // that gives nothing new in many draws has given all it has.
            let fresh = (0..MAX_DRAWS)
                .find_map(|_| varied_position(6, empties, &mut rng).filter(|b| seen.insert(*b)));
            match fresh {
                Some(b) => boards.push(b),
                None => {
                    exhausted.insert(empties);
                    let found = boards
                        .iter()
                        .filter(|b| b.empties().count() == empties)
                        .count();
                    eprintln!(
                        "othello_positions: no new position at {empties} empties in {MAX_DRAWS} draws; that level keeps {found}"
                    );
                }
            }
        }
        Ok((lines, boards))
    }
}

/// The exact solver's game against itself from the 6×6 start, each side playing the first
/// move of the solver's principal variation, as `az_eval --versus-solver`'s solver does:
/// the header lines and every position of the game with two or more legal moves.
fn solvers_game(eval: Option<&Arc<Scorer>>) -> (Vec<String>, Vec<Board>) {
    let mut solver = Solver::new(22);
    if let Some(eval) = eval {
        solver = solver.with_scorer(Arc::clone(eval));
    }
    let clock = std::time::Instant::now();
    let mut board = Board::new(6).expect("6x6");
    let mut boards = Vec::new();
    while !board.is_game_over() {
        let solution = solver.solve(&board);
        eprintln!(
            "othello_positions: the solver's game: {} empties, {:+} for the side to move, {:.0} s",
            board.empties().count(),
            solution.score,
            clock.elapsed().as_secs_f64()
        );
        if board.legal_moves().len() >= 2 {
            boards.push(board);
        }
        board = board
            .after(solution.pv[0])
            .expect("the solver's move is legal");
    }
    let lines = vec![
        "# othello_positions --line".to_string(),
        "# the exact solver's game against itself from the 6x6 start (each side the first move of the solver's principal variation), every position with two or more legal moves; every legal move with its exact final disc margin for the side to move, best first".to_string(),
    ];
    (lines, boards)
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
    let mut outcomes_from = u32::MAX;
    let mut append = false;
    let mut threads = 1usize;
    let mut solver_line = false;
    // Options of varied play, refused with --line.
    let mut drawing = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        if [
            "--count",
            "--seed",
            "--empties",
            "--outcomes-from",
            "--append",
        ]
        .contains(&&*flag)
        {
            drawing.push(flag.clone());
        }
        match flag.as_str() {
            "--out" => out = Some(cli::text(&flag, args.next())?),
            "--line" => solver_line = true,
            "--count" => count = cli::number(&flag, args.next(), 1..=1_000_000)?,
            "--seed" => seed = cli::number(&flag, args.next(), ..)?,
            "--empties" => (low, high) = cli::range(&flag, args.next(), 32)?,
            "--eval" => {
                let path = cli::text(&flag, args.next())?;
                eval = Some(Arc::new(Scorer::new(Arc::new(cli::load_patterns(
                    "--eval", &path,
                )?))));
            }
            "--outcomes-from" => outcomes_from = cli::number(&flag, args.next(), ..=32)?,
            "--append" => append = true,
            "--threads" => threads = cli::number(&flag, args.next(), 1..=64)?,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let out = out.ok_or("--out FILE is required")?;
    let (mut lines, boards) = if solver_line {
        if let Some(flag) = drawing.first() {
            return Err(format!("{flag} is for varied play, not --line"));
        }
        solvers_game(eval.as_ref())
    } else {
        let drawn = Drawing {
            count,
            seed,
            low,
            high,
            outcomes_from,
        };
        drawn.positions(&out, append)?
    };
    let count = boards.len();
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let progress = cli::Progress::new(10.0);
    let mut solved: Vec<(usize, String)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut solver = Solver::new(22);
                    if let Some(eval) = &eval {
                        solver = solver.with_scorer(Arc::clone(eval));
                    }
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(board) = boards.get(i) else { break };
                        let empties = board.empties().count();
                        let outcomes_only = empties >= outcomes_from;
                        let (values, n) = judge(&mut solver, board, outcomes_only);
                        mine.push((i, line(board, &values, outcomes_only)));
                        let total = nodes.fetch_add(n, Ordering::Relaxed) + n;
                        if let Some((finished, secs)) =
                            progress.tick(|finished| finished % 50 == 0 || finished == count)
                        {
                            eprintln!(
                                "othello_positions: {finished}/{count} positions, {:.1} M nodes, {secs:.0} s, {:.2} positions/s (last at {empties} empties)",
                                total as f64 / 1e6,
                                finished as f64 / secs.max(1e-9)
                            );
                        }
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a solving thread panicked"))
            .collect()
    });
    solved.sort_by_key(|&(i, _)| i);
    lines.extend(solved.into_iter().map(|(_, l)| l));
    lines.push(String::new());
    tools::alphazero::write_atomically(std::path::Path::new(&out), lines.join("\n").as_bytes())
        .map_err(|e| format!("{out}: {e}"))
}
