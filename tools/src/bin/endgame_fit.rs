//! endgame_fit — positions labelled exactly by the endgame solver, and the pattern
//! evaluation (`games::endgame::eval`) fitted to them, for the solver's move ordering.
//! See [`USAGE`].

// `probcut` prints its table on stdout.
#![allow(clippy::print_stdout)]

use games::endgame::eval::Patterns;
use games::endgame::Solver;
use games::othello::{Board, Move};
use games::rng::Rng;
use games::search::Game;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::ops::Bound::{Excluded, Included};
use std::process::ExitCode;
use std::time::Instant;
use tools::alphazero::exact::{obf_cells, play_to, varied_position};
use tools::alphazero::write_atomically;
use tools::cli;

const USAGE: &str = "\
endgame_fit: Othello positions labelled with their exact score by the endgame solver, and
the pattern evaluation fitted to them by least squares (the solver's move ordering).

usage: endgame_fit generate --out FILE [--size N] [--count N] [--empties A..B] [--seed N]
                            [--play EVAL]
       endgame_fit fit --data FILE --out FILE [--stages N] [--width N] [--epochs N]
                       [--lr X] [--l2 X] [--seed N] [--format N]
       endgame_fit probcut --data FILE [--eval FILE]

generate: plays --count games (default 2000) from the start between random, greedy and mixed
  players to a number of empties drawn from A..B (default 14..20), solves each position
  exactly, and keeps it and the positions of its principal variation down to 8 empties
  (perfect play keeps the score, so they are labelled too). --size 8 (default) or 6.
  Progress on stderr. Lines: the cells row by row from a1 (X, O, -), the side to move (X or
  O), the exact final margin for the side to move.
  --play EVAL: the games are played instead by a 4-ply search of the patterns file EVAL
  (its value plus noise of 2 discs' standard deviation, the first 4 to 11 moves at
  random), so that the positions look like those of played games (the FFO positions come
  from expert games) rather than of random and greedy ones.
fit: fits the weights to the positions of one or more --data files (10% held out, the
  last lines) by stochastic gradient descent on the squared error, and writes the patterns
  file (format in games::endgame::eval). --stages (default 5) of --width empties (default
  4), the last taking every count above (16 and more by default: positions with more
  empties cost too much to solve here, so the last stage is fitted on 16 to 20 and orders
  the nodes nearer the root too); --epochs (default 20), --lr (default 0.01), --l2
  (default 1e-4); --format 1 fits the pattern set of format version 1 (no edge with
  X-squares, no 2x5 corner), 2 (default) all of them.
  Prints the error of each epoch on the training and held-out positions.
probcut: the solver's probcut model measured on the positions of --data files: for each
  number of empties and each depth 0 to 4 of the short search that orders moves (on
  mobility and corners, or on the patterns of --eval), the least-squares line from its value
  to the exact score (discs per unit, offset) and the standard deviation around it.
";

fn main() -> ExitCode {
    cli::main("endgame_fit", USAGE, run)
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("generate") => generate(args),
        Some("fit") => fit(args),
        Some("probcut") => probcut(args),
        Some(other) => Err(format!(
            "the first argument is generate, fit or probcut, not {other:?} (see --help)"
        )),
        None => Err("the first argument is generate, fit or probcut (see --help)".to_string()),
    }
}

fn generate(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let (mut out, mut size, mut count, mut seed) = (None, 8usize, 2000usize, 1u64);
    let (mut low, mut high) = (14u32, 20u32);
    let mut player = None;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--out" => out = Some(cli::text(&flag, args.next())?),
            "--play" => {
                let path = cli::text(&flag, args.next())?;
                player = Some(cli::load_patterns("--play", &path)?);
            }
            "--size" => size = cli::choice(&flag, args.next(), &[("6", 6), ("8", 8)])?,
            "--count" => {
                count = cli::number(&flag, args.next(), 1..=10_000_000)?;
            }
            "--seed" => seed = cli::number(&flag, args.next(), ..)?,
            "--empties" => (low, high) = cli::range(&flag, args.next(), 30)?,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let out = out.ok_or("--out FILE is required")?;
    let cells_max = (size * size - 4) as u32;
    if high > cells_max {
        return Err(format!(
            "--empties: a {size}x{size} board has at most {cells_max}"
        ));
    }
    if let Some(eval) = &player {
        if eval.size() != size {
            return Err(format!(
                "--play: the patterns are for {}x{}, the games for {size}x{size}",
                eval.size(),
                eval.size()
            ));
        }
    }
    let mut rng = Rng::new(seed);
    let mut solver = Solver::new(22);
    let mut player = player.map(|eval| Solver::new(16).with_eval(std::sync::Arc::new(eval)));
    let mut seen = HashSet::new();
    let play = if player.is_some() { " --play EVAL" } else { "" };
    let mut lines = vec![format!(
        "# endgame_fit generate --size {size} --count {count} --empties {low}..{high} --seed {seed}{play}"
    )];
    let clock = Instant::now();
    let mut nodes = 0u64;
    for i in 0..count {
        let empties = low + rng.below((high - low + 1) as usize) as u32;
        let board = loop {
            let position = match &mut player {
                Some(player) => searched_position(size, empties, player, &mut rng),
                None => varied_position(size, empties, &mut rng),
            };
            if let Some(b) = position {
                if !seen.contains(&b) {
                    break b;
                }
            }
        };
        let solution = solver.solve(&board);
        nodes += solution.nodes;
        // The line of perfect play keeps the score, for whoever is to move along it.
        let (mut at, mut score) = (board, solution.score);
        for mv in std::iter::once(None).chain(solution.pv.iter().map(Some)) {
            if let Some(&mv) = mv {
                let next = at
                    .after(mv)
                    .ok_or("the solver's line has an illegal move")?;
                if next.side_to_move() != at.side_to_move() {
                    score = -score;
                }
                at = next;
            }
            if at.empties().count() < 8 {
                break;
            }
            if matches!(mv, Some(Move::Pass)) || at.legal_moves().is_empty() || !seen.insert(at) {
                continue;
            }
            let mut line = obf_cells(&at);
            let _ = write!(line, " {score:+}");
            lines.push(line);
        }
        if (i + 1) % 100 == 0 || i + 1 == count {
            let secs = clock.elapsed().as_secs_f64();
            eprintln!(
                "endgame_fit: {}/{count} games solved, {} positions, {:.1} M nodes, {secs:.0} s, {:.1} games/s",
                i + 1,
                lines.len() - 1,
                nodes as f64 / 1e6,
                (i + 1) as f64 / secs.max(1e-9)
            );
        }
    }
    lines.push(String::new());
    write_atomically(std::path::Path::new(&out), lines.join("\n").as_bytes())
        .map_err(|e| format!("{out}: {e}"))
}

/// A position on a `size`×`size` board with `empties` empty squares, after a game from the
/// start whose first 4 to 11 moves are random and whose others are each the best by a
/// 4-ply search of `player`'s evaluation plus Gaussian noise of 2 discs; `None` when that
/// game ended or passed through that count, or the position has fewer than two moves.
fn searched_position(
    size: usize,
    empties: u32,
    player: &mut Solver,
    rng: &mut Rng,
) -> Option<Board> {
    /// The ordering search's units with patterns: eighths of a disc.
    const NOISE: f64 = 2.0 * 8.0;
    let random_plies = 4 + rng.below(8);
    play_to(size, empties, rng, |board, ply, rng| {
        let moves = board.legal_moves();
        if ply < random_plies || moves.len() == 1 {
            return moves[rng.below(moves.len())];
        }
        let mut best = (f64::NEG_INFINITY, moves[0]);
        for &mv in &moves {
            let next = board.after(mv).expect("a legal move");
            let value = f64::from(player.ordering_value(&next, 3));
            let value = if next.side_to_move() == board.side_to_move() {
                value
            } else {
                -value
            } + NOISE * rng.normal();
            if value > best.0 {
                best = (value, mv);
            }
        }
        best.1
    })
}

/// One labelled position: the mover's discs, the opponent's, the exact margin.
struct Labelled {
    p: u64,
    o: u64,
    score: f32,
}

/// The positions of a data file, all for a board of `size` (the first line sets it).
fn read_data(path: &str, size: &mut Option<usize>) -> Result<Vec<Labelled>, String> {
    let text = cli::read_text(path)?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: &str| format!("{path}: line {}: {why}", i + 1);
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [board, side, score] = fields[..] else {
            return Err(bad("expected cells, side to move and score"));
        };
        let n = (1..=8)
            .find(|&n| n * n == board.len())
            .filter(|n| [4, 6, 8].contains(n))
            .ok_or_else(|| bad("the cells are not a 4x4, 6x6 or 8x8 board"))?;
        if *size.get_or_insert(n) != n {
            return Err(bad("a board of another size than the first line's"));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (k, c) in board.bytes().enumerate() {
            let bit = 1u64 << ((k / n) * 8 + k % n);
            match c {
                b'X' => black |= bit,
                b'O' => white |= bit,
                b'-' => {}
                _ => return Err(bad("a cell is not X, O or -")),
            }
        }
        let score: i32 = score
            .parse()
            .ok()
            .filter(|s: &i32| s.unsigned_abs() as usize <= n * n)
            .ok_or_else(|| bad("the score is not a margin within the board"))?;
        let (p, o) = match side {
            "X" => (black, white),
            "O" => (white, black),
            _ => return Err(bad("the side to move is not X or O")),
        };
        out.push(Labelled {
            p,
            o,
            score: score as f32,
        });
    }
    Ok(out)
}

/// The positions of the `--data` files (at least one), all for one board size.
fn read_all(data: &[String]) -> Result<(usize, Vec<Labelled>), String> {
    if data.is_empty() {
        return Err("--data FILE is required".to_string());
    }
    let mut size = None;
    let mut positions = Vec::new();
    for path in data {
        positions.extend(read_data(path, &mut size)?);
    }
    let size = size.ok_or("the data files hold no positions")?;
    Ok((size, positions))
}

fn fit(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let (mut data, mut out) = (Vec::new(), None);
    let (mut stages, mut width, mut epochs) = (5usize, 4usize, 20usize);
    let (mut lr, mut l2, mut seed) = (0.01f32, 1e-4f32, 1u64);
    let mut format = games::endgame::eval::VERSION;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--data" => data.push(cli::text(&flag, args.next())?),
            "--out" => out = Some(cli::text(&flag, args.next())?),
            "--stages" => stages = cli::number(&flag, args.next(), 1..=64)?,
            "--width" => width = cli::number(&flag, args.next(), 1..=64)?,
            "--epochs" => epochs = cli::number(&flag, args.next(), 1..=10_000)?,
            "--lr" => lr = cli::number(&flag, args.next(), (Excluded(0.0f32), Included(1.0)))?,
            "--l2" => l2 = cli::number(&flag, args.next(), 0.0..=1.0f32)?,
            "--seed" => seed = cli::number(&flag, args.next(), ..)?,
            "--format" => {
                format = cli::number(&flag, args.next(), 1..=games::endgame::eval::VERSION)?;
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let out = out.ok_or("--out FILE is required")?;
    let (size, positions) = read_all(&data)?;
    if positions.len() < 10 {
        return Err(format!("{} positions are too few to fit", positions.len()));
    }
    let mut patterns =
        Patterns::zeros_in(format, size, stages, width).map_err(|e| e.to_string())?;
    // Features once: each position's stage, active weights and mobility.
    let mut features = Vec::with_capacity(positions.len());
    let mut active = Vec::new();
    for pos in &positions {
        let (stage, mobility) = patterns.features(pos.p, pos.o, &mut active);
        features.push((stage, active.clone(), mobility, pos.score));
    }
    let held = features.len() / 10;
    let (train, test) = features.split_at(features.len() - held);
    eprintln!(
        "endgame_fit: {} positions ({} held out), {}x{}, {stages} stages of {width} empties, {} weights per stage",
        features.len(),
        held,
        size,
        size,
        patterns.per_stage()
    );
    let per_stage = patterns.per_stage();
    let error = |patterns: &Patterns, set: &[(usize, Vec<u32>, f32, f32)]| -> f64 {
        let w = patterns.weights();
        let mut sum = 0.0f64;
        for (stage, act, mobility, score) in set {
            let v = Patterns::predict(&w[stage * per_stage..][..per_stage], act, *mobility);
            sum += f64::from((v - score) * (v - score));
        }
        (sum / set.len().max(1) as f64).sqrt()
    };
    let mut rng = Rng::new(seed);
    let mut order: Vec<usize> = (0..train.len()).collect();
    let clock = Instant::now();
    for epoch in 1..=epochs {
        // Shuffle (Fisher-Yates), then one step per position; the rate falls by epoch.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let rate = lr / (1.0 + 0.2 * (epoch - 1) as f32);
        let w = patterns.weights_mut();
        for &k in &order {
            let (stage, act, mobility, score) = &train[k];
            let s = &mut w[stage * per_stage..][..per_stage];
            let g = Patterns::predict(s, act, *mobility) - score;
            for &i in act {
                let x = &mut s[i as usize];
                *x -= rate * (g + l2 * *x);
            }
            s[per_stage - 2] -= rate * 0.01 * g * mobility;
            s[per_stage - 1] -= rate * 0.1 * g;
        }
        eprintln!(
            "epoch {epoch:>3}: rms error {:.2} discs on training, {:.2} held out ({:.0} s)",
            error(&patterns, train),
            error(&patterns, test),
            clock.elapsed().as_secs_f64()
        );
    }
    if patterns.version() >= 2 {
        // The held-out error is the unit of the solver's probcut margins.
        let held_out = error(&patterns, test) as f32;
        patterns
            .set_error(held_out.clamp(0.5, 64.0))
            .map_err(|e| e.to_string())?;
        eprintln!("endgame_fit: the file records the held-out error, {held_out:.2} discs");
    }
    write_atomically(std::path::Path::new(&out), &patterns.to_bytes())
        .map_err(|e| format!("{out}: {e}"))
}

fn probcut(mut args: impl Iterator<Item = String>) -> Result<(), String> {
    let (mut data, mut eval) = (Vec::new(), None);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--data" => data.push(cli::text(&flag, args.next())?),
            "--eval" => eval = Some(cli::text(&flag, args.next())?),
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    let (size, positions) = read_all(&data)?;
    let mut solver = Solver::new(16);
    if let Some(path) = &eval {
        let patterns = cli::load_patterns("--eval", path)?;
        if patterns.size() != size {
            return Err(format!(
                "--eval {path}: patterns for {0}x{0}, data for {size}x{size}",
                patterns.size()
            ));
        }
        solver = solver.with_eval(std::sync::Arc::new(patterns));
    }
    const DEPTHS: usize = 5;
    // Per empties and depth: sums of x, y, xx, xy, yy and the count.
    let mut sums = vec![[[0f64; 6]; DEPTHS]; 65];
    for pos in &positions {
        let black = games::othello::Bitboard(pos.p);
        let white = games::othello::Bitboard(pos.o);
        let board = Board::from_discs(size, black, white, games::Color::Black)
            .map_err(|e| e.to_string())?;
        let empties = board.empties().count() as usize;
        for (depth, s) in sums[empties].iter_mut().enumerate() {
            let x = f64::from(solver.ordering_value(&board, depth as u32));
            let y = f64::from(pos.score);
            for (k, v) in [x, y, x * x, x * y, y * y, 1.0].into_iter().enumerate() {
                s[k] += v;
            }
        }
    }
    println!("empties depth positions discs/unit offset sigma r");
    for (empties, row) in sums.iter().enumerate() {
        for (depth, s) in row.iter().enumerate() {
            let count = s[5];
            if count < 10.0 {
                continue;
            }
            let (mx, my) = (s[0] / count, s[1] / count);
            let (vx, vy) = (s[2] / count - mx * mx, s[4] / count - my * my);
            let cxy = s[3] / count - mx * my;
            if vx <= 0.0 || vy <= 0.0 {
                continue;
            }
            let slope = cxy / vx;
            let sigma = (vy - slope * cxy).max(0.0).sqrt();
            println!(
                "{empties} {depth} {count} {slope:.4} {:.3} {sigma:.2} {:.3}",
                my - slope * mx,
                cxy / (vx * vy).sqrt()
            );
        }
    }
    Ok(())
}
