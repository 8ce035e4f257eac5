//! The FFO endgame test positions #40–#59 solved exactly, one thread, with the score and the
//! principal variation of each checked against the published scores.
//!
//! ```text
//! cargo bench -p games --bench ffo              # #40 to #59 (52 minutes on this machine)
//! cargo bench -p games --bench ffo -- 40 44     # a range of numbers
//! cargo bench -p games --bench ffo -- 40 49 24  # ... with a table of 2^24 entries (default 22)
//! cargo bench -p games --bench ffo -- 40 49 --eval ../weights/endgame8.pat  # patterns
//! ```
//!
//! By default the solver orders its moves near the root by mobility and corners; with
//! `--eval FILE` by a pattern evaluation (`endgame_fit`; `games::endgame::eval`), such as
//! the committed `weights/endgame8.pat` (relative paths from `shared/`, where cargo runs
//! the bench). BENCHMARKS.md has both.
//!
//! Prints per position: empty squares, score, nodes, time, nodes per second, and whether the
//! score and the line agree with `tests/data/othello/ffo-40-59.obf`; then the totals.
//!
//! With `ZEBRA=/path/to/scrzebra` set (Zebra's script-mode build; its `coeffs2.bin` beside
//! it), each position is also solved by Zebra without its book (`-b 0`), one process per
//! position, and its score, nodes and time are printed next to ours, with the ratios. Zebra
//! (lk16/zebra) builds with `make` and `OPTS="-O2 -march=x86-64-v3 -fcommon -fwrapv
//! -fno-strict-aliasing -fno-aggressive-loop-optimizations"` (plain -O2 crashes in
//! bitbtest.c); `scrzebra` links with one more file, `int quiet = 0;`. See BENCHMARKS.md.

// A benchmark reports on stdout.
#![allow(clippy::print_stdout)]

#[path = "../tests/common/ffo.rs"]
mod ffo;

use games::endgame::Solver;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What Zebra reported for one position.
struct ZebraRun {
    /// The score for the side to move.
    score: i32,
    nodes: u64,
    seconds: f64,
}

/// Solves `p` with Zebra's script mode at `zebra` (run in its own folder, where its
/// evaluation file is), in a scratch file under `dir`.
fn zebra(zebra: &Path, dir: &Path, p: &ffo::Ffo) -> Result<ZebraRun, String> {
    let script = dir.join(format!("ffo{}.scr", p.number));
    let out = dir.join(format!("ffo{}.out", p.number));
    std::fs::write(&script, format!("{}\n", p.script)).map_err(|e| e.to_string())?;
    let folder = zebra.parent().unwrap_or(Path::new("."));
    let run = std::process::Command::new(zebra)
        .current_dir(folder)
        .args(["-b", "0", "-script"])
        .arg(&script)
        .arg(&out)
        .output()
        .map_err(|e| format!("{}: {e}", zebra.display()))?;
    let stdout = String::from_utf8_lossy(&run.stdout);
    let field = |name: &str| -> Result<f64, String> {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches('s').trim().parse().ok())
            .ok_or_else(|| format!("Zebra printed no {name:?}: {stdout}"))
    };
    let nodes = field("Total nodes:")? as u64;
    let seconds = field("Total time:")?;
    // "51 - 13": Black's discs, then White's.
    let result = std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let discs: Vec<i32> = result
        .split_whitespace()
        .take(3)
        .filter(|t| *t != "-")
        .map(|t| t.parse().map_err(|_| format!("Zebra wrote {result:?}")))
        .collect::<Result<_, _>>()?;
    let [black, white] = discs[..] else {
        return Err(format!("Zebra wrote {result:?}"));
    };
    let black_margin = black - white;
    let score = if p.script.ends_with('X') {
        black_margin
    } else {
        -black_margin
    };
    Ok(ZebraRun {
        score,
        nodes,
        seconds,
    })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut eval_path = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--eval" => eval_path = Some(PathBuf::from(it.next().expect("--eval FILE"))),
            _ => rest.push(a.clone()),
        }
    }
    let eval = eval_path.map(|path| {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let patterns = games::endgame::eval::Patterns::from_bytes(&bytes)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let scorer = games::endgame::eval::Scorer::new(std::sync::Arc::new(patterns));
        (path, std::sync::Arc::new(scorer))
    });
    let numbers: Vec<u32> = rest
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(|a| {
            a.parse()
                .expect("arguments are FFO numbers (40..=59) and table bits")
        })
        .collect();
    let (from, to) = match numbers[..] {
        [a, b, ..] => (a as usize, b as usize),
        [a] => (a as usize, a as usize),
        [] => (40, 59),
    };
    let bits = numbers.get(2).copied().unwrap_or(22);
    // Set but empty (`ZEBRA= cargo bench ...`) counts as not set.
    let peer = std::env::var_os("ZEBRA")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let scratch = std::env::temp_dir().join(format!("ffo-zebra-{}", std::process::id()));
    if peer.is_some() {
        std::fs::create_dir_all(&scratch).expect("a scratch folder for Zebra's scripts");
    }
    println!("FFO #{from}-#{to}, one thread, table 2^{bits}");
    // The instructions the build may use (`.cargo/config.toml` builds for this processor;
    // `RUSTFLAGS= cargo bench ...` for the x86-64 baseline): the times depend on them.
    let features = [
        ("popcnt", cfg!(target_feature = "popcnt")),
        ("bmi2", cfg!(target_feature = "bmi2")),
        ("avx2", cfg!(target_feature = "avx2")),
        ("avx512f", cfg!(target_feature = "avx512f")),
    ];
    let on: Vec<&str> = features.iter().filter(|f| f.1).map(|f| f.0).collect();
    if on.is_empty() {
        println!("built for the baseline of {}", std::env::consts::ARCH);
    } else {
        println!("built with {}", on.join(", "));
    }
    match &eval {
        Some((path, _)) => println!("ordering by the pattern evaluation {}", path.display()),
        None => println!("ordering by mobility and corners (no --eval)"),
    }
    match &peer {
        Some(z) => println!("Zebra: {} -b 0 (one process per position)", z.display()),
        None => println!("(set ZEBRA=/path/to/scrzebra to compare with Zebra)"),
    }
    println!(
        "{:>4} {:>7} {:>6} {:>14} {:>10} {:>10}  check",
        "#", "empties", "score", "nodes", "time", "M nodes/s"
    );
    let (mut nodes, mut seconds, mut failed) = (0u64, 0.0, 0);
    let (mut zebra_nodes, mut zebra_seconds) = (0u64, 0.0);
    for p in ffo::load()
        .into_iter()
        .filter(|p| (from..=to).contains(&p.number))
    {
        let mut solver = Solver::new(bits);
        if let Some((_, scorer)) = &eval {
            solver = solver.with_scorer(std::sync::Arc::clone(scorer));
        }
        let clock = Instant::now();
        let solution = solver.solve(&p.board);
        let time = clock.elapsed().as_secs_f64();
        let verdict = p.check(&solution);
        let ok = verdict.is_ok();
        failed += usize::from(!ok);
        nodes += solution.nodes;
        seconds += time;
        println!(
            "{:>4} {:>7} {:>+6} {:>14} {:>9.2}s {:>10.1}  {}",
            p.number,
            p.board.empties().count(),
            solution.score,
            solution.nodes,
            time,
            solution.nodes as f64 / time.max(1e-9) / 1e6,
            match verdict {
                Ok(()) => "ok".to_string(),
                Err(why) => format!("WRONG: {}", why.lines().next().unwrap_or_default()),
            }
        );
        if let Some(z) = &peer {
            match zebra(z, &scratch, &p) {
                Ok(run) => {
                    let agrees = run.score == p.score();
                    failed += usize::from(!agrees);
                    zebra_nodes += run.nodes;
                    zebra_seconds += run.seconds;
                    println!(
                        "{:>4} {:>7} {:>+6} {:>14} {:>9.2}s {:>10.1}  {}  (Zebra; ours/Zebra: nodes {:.2}, time {:.2})",
                        "",
                        "",
                        run.score,
                        run.nodes,
                        run.seconds,
                        run.nodes as f64 / run.seconds.max(1e-9) / 1e6,
                        if agrees { "ok" } else { "WRONG" },
                        solution.nodes as f64 / run.nodes.max(1) as f64,
                        time / run.seconds.max(1e-9),
                    );
                }
                Err(why) => {
                    failed += 1;
                    println!("      Zebra failed: {why}");
                }
            }
        }
    }
    println!(
        "total: {nodes} nodes in {seconds:.1} s ({:.1} M nodes/s), {failed} wrong",
        nodes as f64 / seconds.max(1e-9) / 1e6
    );
    if peer.is_some() {
        println!(
            "Zebra: {zebra_nodes} nodes in {zebra_seconds:.1} s ({:.1} M nodes/s); ours/Zebra: nodes {:.2}, time {:.2}",
            zebra_nodes as f64 / zebra_seconds.max(1e-9) / 1e6,
            nodes as f64 / zebra_nodes.max(1) as f64,
            seconds / zebra_seconds.max(1e-9),
        );
        let _ = std::fs::remove_dir_all(&scratch);
    }
    assert_eq!(
        failed, 0,
        "some positions disagree with the published scores"
    );
}
