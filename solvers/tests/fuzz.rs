//! A fuzz harness over every solver binary, on stable Rust: deterministic mutations of the
//! test data, random bytes, empty input, and valid-looking but illegal inputs.
//!
//! For every input: the process exits with 0 or 1 within 2 s; on 1, stdout is empty and
//! stderr is exactly one non-empty line without "panicked"; on 0, stdout has the problem's
//! output shape.
//!
//! ```text
//! cargo test -p solvers --test fuzz                                   # 300 inputs a solver
//! FUZZ_INPUTS=10000 cargo test --release -p solvers --test fuzz       # the full run
//! FUZZ_SEED=7 FUZZ_INPUTS=10000 cargo test --release -p solvers --test fuzz -- boj4664
//! ```
//!
//! Inputs that fail are written to `target/fuzz-failures/<problem>-<n>.in`.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use common::SOLVERS;
use games::rng::Rng;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(2);

fn inputs_per_solver() -> usize {
    std::env::var("FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

fn base_seed() -> u64 {
    std::env::var("FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_261_129)
}

/// Every testdata input of a problem, the corpus the mutations start from.
fn corpus(problem: &str) -> Vec<Vec<u8>> {
    testkit::cases(problem)
        .iter()
        .map(|c| std::fs::read(&c.input).unwrap())
        .collect()
}

/// Lines of whitespace-separated tokens, so mutations keep or break the line structure on
/// purpose.
fn lines(input: &[u8]) -> Vec<Vec<Vec<u8>>> {
    input
        .split(|&b| b == b'\n')
        .map(|line| {
            line.split(u8::is_ascii_whitespace)
                .filter(|t| !t.is_empty())
                .map(<[u8]>::to_vec)
                .collect()
        })
        .collect()
}

fn join(lines: &[Vec<Vec<u8>>]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in lines {
        out.extend(line.join(&b' '));
        out.push(b'\n');
    }
    out
}

/// Numbers worth trying in place of a number: edges of ranges, huge values, non-numbers.
const ODD_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "1",
    "2",
    "3",
    "7",
    "8",
    "19",
    "20",
    "21",
    "32",
    "33",
    "1000",
    "1001",
    "100000",
    "1000000",
    "1000000000",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551616",
    "99999999999999999999999999",
    "-0",
    "+1",
    "01",
    "1.5",
    "1e3",
    "0x10",
    "NaN",
    "abc",
    "",
    "\u{661}",
    "pass",
    "end",
    "$",
    "?",
];

fn is_number(token: &[u8]) -> bool {
    !token.is_empty() && token.iter().all(|b| b.is_ascii_digit() || *b == b'-')
}

/// A mutated version of a corpus input: one to four token- or line-level changes.
fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut doc = lines(input);
    for _ in 0..1 + rng.below(4) {
        let tokens: Vec<(usize, usize)> = doc
            .iter()
            .enumerate()
            .flat_map(|(l, line)| (0..line.len()).map(move |t| (l, t)))
            .collect();
        let pick = |rng: &mut Rng| tokens.get(rng.below(tokens.len().max(1))).copied();
        match rng.below(11) {
            // Flip a byte of a token.
            0 => {
                if let Some((l, t)) = pick(rng).filter(|&(l, t)| !doc[l][t].is_empty()) {
                    let token = &mut doc[l][t];
                    let i = rng.below(token.len());
                    token[i] = match rng.below(3) {
                        0 => token[i] ^ (1 << rng.below(8)),
                        1 => b"0123456789XOBW.xo?$-"[rng.below(20)],
                        _ => rng.below(256) as u8,
                    };
                }
            }
            // Delete a token.
            1 => {
                if let Some((l, t)) = pick(rng) {
                    doc[l].remove(t);
                }
            }
            // Duplicate a token in place.
            2 => {
                if let Some((l, t)) = pick(rng) {
                    let token = doc[l][t].clone();
                    doc[l].insert(t, token);
                }
            }
            // Swap two tokens.
            3 => {
                if let (Some((l1, t1)), Some((l2, t2))) = (pick(rng), pick(rng)) {
                    let a = doc[l1][t1].clone();
                    doc[l1][t1] = std::mem::replace(&mut doc[l2][t2], a);
                }
            }
            // Replace a number by an odd one.
            4 | 5 => {
                let numbers: Vec<(usize, usize)> = tokens
                    .iter()
                    .copied()
                    .filter(|&(l, t)| is_number(&doc[l][t]))
                    .collect();
                if let Some(&(l, t)) = numbers.get(rng.below(numbers.len().max(1))) {
                    doc[l][t] = ODD_NUMBERS[rng.below(ODD_NUMBERS.len())]
                        .as_bytes()
                        .to_vec();
                }
            }
            // Cut the input short.
            6 => {
                let flat = join(&doc);
                let cut = rng.below(flat.len() + 1);
                doc = lines(&flat[..cut]);
            }
            // Extra lines of tokens seen elsewhere in the input, or of odd numbers.
            7 => {
                let vocabulary: Vec<Vec<u8>> =
                    tokens.iter().map(|&(l, t)| doc[l][t].clone()).collect();
                for _ in 0..1 + rng.below(4) {
                    let at = rng.below(doc.len() + 1);
                    let line: Vec<Vec<u8>> = (0..1 + rng.below(4))
                        .map(|_| {
                            if !vocabulary.is_empty() && rng.below(2) == 0 {
                                vocabulary[rng.below(vocabulary.len())].clone()
                            } else {
                                ODD_NUMBERS[rng.below(ODD_NUMBERS.len())]
                                    .as_bytes()
                                    .to_vec()
                            }
                        })
                        .collect();
                    doc.insert(at, line);
                }
            }
            // Delete or duplicate a whole line.
            8 => {
                if !doc.is_empty() {
                    let l = rng.below(doc.len());
                    if rng.below(2) == 0 {
                        doc.remove(l);
                    } else {
                        let line = doc[l].clone();
                        doc.insert(l, line);
                    }
                }
            }
            // Valid-looking but illegal: every number replaced by one near the values seen
            // (coordinates off the board or onto stones, sizes just out of range, counts
            // that disagree with the lines).
            9 => {
                let max: i64 = tokens
                    .iter()
                    .filter_map(|&(l, t)| std::str::from_utf8(&doc[l][t]).ok()?.parse::<i64>().ok())
                    .max()
                    .unwrap_or(8)
                    .min(40);
                for &(l, t) in &tokens {
                    if is_number(&doc[l][t]) && rng.below(3) == 0 {
                        let v = rng.below(max as usize + 3) as i64 - 1;
                        doc[l][t] = v.to_string().into_bytes();
                    }
                }
            }
            // Shuffle the symbols of a board row (counts, winners and chains go wrong).
            _ => {
                if let Some((l, t)) = pick(rng) {
                    let token = &mut doc[l][t];
                    for i in (1..token.len()).rev() {
                        token.swap(i, rng.below(i + 1));
                    }
                }
            }
        }
    }
    join(&doc)
}

/// The next input: mostly mutations (of every corpus case in turn), sometimes random bytes
/// or empty input.
fn next_input(rng: &mut Rng, corpus: &[Vec<u8>], n: usize) -> Vec<u8> {
    match rng.below(40) {
        0 => Vec::new(),
        1 => b" \n\t\r\n".to_vec(),
        2 | 3 => (0..rng.below(300)).map(|_| rng.below(256) as u8).collect(),
        _ => mutate(rng, &corpus[n % corpus.len()]),
    }
}

/// Checks stdout of an accepted input against the problem's output shape.
fn check_shape(problem: &str, input: &[u8], stdout: &str) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let fail = |why: &str| Err(format!("{why}: {stdout:?}"));
    let cases = || {
        // Cases before the end marker: a token starting with `$` (for boj4664).
        // (after a byte order mark, which the solvers skip).
        let input = input.strip_prefix(b"\xef\xbb\xbf").unwrap_or(input);
        String::from_utf8_lossy(input)
            .split_whitespace()
            .take_while(|t| !t.starts_with('$'))
            .filter(|t| *t == "?")
            .count()
    };
    match problem {
        "boj15671" => {
            let grid_ok = lines.len() == 7
                && lines[..6]
                    .iter()
                    .all(|l| l.len() == 6 && l.bytes().all(|b| b"BW.".contains(&b)));
            if !grid_ok || !["Black", "White"].contains(&lines[6]) {
                return fail("not 6 rows of B/W/. and a winner");
            }
        }
        "swea4615" => {
            for (t, line) in lines.iter().enumerate() {
                let parts: Vec<&str> = line.split(' ').collect();
                let ok = parts.len() == 3
                    && parts[0] == format!("#{}", t + 1)
                    && parts[1..].iter().all(|p| p.parse::<u32>().is_ok());
                if !ok {
                    return fail("not `#t black white` lines");
                }
            }
            if lines.is_empty() {
                return fail("no case");
            }
        }
        "go_ko" => {
            let n = lines.last().map_or(0, |l| l.split(' ').count());
            if n == 0 || lines.len() < n {
                return fail("no board");
            }
            let (moves, board) = lines.split_at(lines.len() - n);
            let board_ok = board.iter().all(|l| {
                l.split(' ').count() == n && l.split(' ').all(|s| ["X", "O", "."].contains(&s))
            });
            let move_ok = |l: &&str| {
                let (who, rest) = l.split_at(1.min(l.len()));
                ["X", "O"].contains(&who)
                    && (rest == " pass"
                        || (rest.starts_with(" (")
                            && [": ko", ": superko", ": suicide", ": occupied"]
                                .iter()
                                .any(|e| rest.ends_with(e))
                            || rest.contains("): captured [") && rest.ends_with(']')))
            };
            if !board_ok || !moves.iter().all(move_ok) {
                return fail("not move lines and a board");
            }
        }
        "boj16988" => {
            if lines.len() != 1 || lines[0].parse::<u32>().is_err() {
                return fail("not one number");
            }
        }
        "tictactoe" => {
            let grid_ok = lines.len() >= 6
                && [1, 3].iter().all(|&i| lines[i] == "---------")
                && lines[5].starts_with("winner: ");
            let rest_ok = match lines.len() {
                6 => ["winner: X", "winner: O", "winner: draw"].contains(&lines[5]),
                11 => {
                    lines[5] == "winner: none"
                        && lines[6].starts_with("to move: ")
                        && lines[7].starts_with("best move: ")
                        && lines[8].starts_with("value for ")
                        && lines[9].starts_with("minimax nodes: ")
                        && lines[10].starts_with("alpha-beta nodes: ")
                }
                _ => false,
            };
            if !grid_ok || !rest_ok {
                return fail("not the seed's drawing and report");
            }
        }
        "boj16571" => {
            if lines.len() != 1 || !["W", "D", "L"].contains(&lines[0]) {
                return fail("not W, D or L");
            }
        }
        "boj7682" => {
            if !lines.iter().all(|l| *l == "valid" || *l == "invalid") {
                return fail("not valid/invalid lines");
            }
        }
        "boj4664" => {
            let ok = lines.len() == cases()
                && lines.iter().all(|l| {
                    *l == "#####"
                        || (l.len() == 5
                            && l.starts_with('(')
                            && l.ends_with(')')
                            && l.as_bytes()[2] == b','
                            && (b'0'..=b'3').contains(&l.as_bytes()[1])
                            && (b'0'..=b'3').contains(&l.as_bytes()[3]))
                });
            if !ok {
                return fail("not one (r,c) or ##### per case");
            }
        }
        other => return Err(format!("no output shape for {other}")),
    }
    Ok(())
}

/// Runs one input: `Ok(true)` accepted, `Ok(false)` rejected cleanly, `Err` what went wrong.
fn run_one(problem: &str, binary: &str, input: &[u8]) -> Result<bool, String> {
    let out =
        common::run(binary, input, LIMIT).ok_or_else(|| format!("ran longer than {LIMIT:?}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => check_shape(problem, input, &stdout).map(|()| true),
        Some(1) => {
            if !out.stdout.is_empty() {
                Err(format!("exit 1 with output on stdout: {stdout:?}"))
            } else if stderr.lines().count() != 1 || stderr.trim().is_empty() {
                Err(format!("stderr is not one line: {stderr:?}"))
            } else if stderr.contains("panicked") {
                Err(format!("a panic: {stderr:?}"))
            } else {
                Ok(false)
            }
        }
        code => Err(format!("exit {code:?}: {stderr:?}")),
    }
}

/// Fuzzes one solver; returns (accepted, rejected) or the failures.
fn fuzz(
    problem: &str,
    binary: &str,
    count: usize,
    seed: u64,
) -> Result<(usize, usize), Vec<String>> {
    let corpus = corpus(problem);
    let mut rng = Rng::new(seed);
    let (mut accepted, mut failures) = (0, Vec::new());
    let saved = testkit::root().join("target/fuzz-failures");
    for n in 0..count {
        let input = next_input(&mut rng, &corpus, n);
        match run_one(problem, binary, &input) {
            Ok(was_accepted) => accepted += usize::from(was_accepted),
            Err(why) => {
                let _ = std::fs::create_dir_all(&saved);
                let path = saved.join(format!("{problem}-{n}.in"));
                let _ = std::fs::write(&path, &input);
                failures.push(format!("{problem} input {n} ({}): {why}", path.display()));
                if failures.len() >= 20 {
                    break;
                }
            }
        }
    }
    if failures.is_empty() {
        Ok((accepted, count - accepted))
    } else {
        Err(failures)
    }
}

#[test]
fn no_solver_panics_hangs_or_prints_garbage() {
    let count = inputs_per_solver();
    let seed = base_seed();
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let chosen: Vec<(&str, &str)> = SOLVERS
        .iter()
        .copied()
        .filter(|(p, _)| only.is_empty() || only.iter().any(|o| p.contains(o.as_str())))
        .collect();
    // A filter that matches no solver would fuzz nothing and pass.
    assert!(!chosen.is_empty(), "no solver matches {only:?}");
    let halves: Vec<Vec<(&'static str, &'static str)>> = [0, 1]
        .iter()
        .map(|&h| chosen.iter().copied().skip(h).step_by(2).collect())
        .collect();
    let workers: Vec<_> = halves
        .into_iter()
        .map(|part| {
            std::thread::spawn(move || {
                part.into_iter()
                    .map(|(problem, binary)| {
                        let start = Instant::now();
                        // Each solver its own stream, fixed by the seed and its name.
                        let own = problem
                            .bytes()
                            .fold(seed, |h, b| h.rotate_left(5) ^ u64::from(b));
                        let result = fuzz(problem, binary, count, own);
                        (problem, result, start.elapsed())
                    })
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut failures = Vec::new();
    for worker in workers {
        for (problem, result, time) in worker.join().unwrap() {
            match result {
                Ok((accepted, rejected)) => eprintln!(
                    "{problem}: {} inputs, none failed ({accepted} accepted, {rejected} rejected with one line; {:.1} s)",
                    accepted + rejected,
                    time.as_secs_f64()
                ),
                Err(f) => failures.extend(f),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
