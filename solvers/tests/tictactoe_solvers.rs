//! The tic-tac-toe solvers, run as built binaries, against small independent
//! implementations written only for this test (plain arrays and recursion, no pruning, no
//! tables, nothing from the `games` crate):
//!
//! - boj16571 on every reachable position where the game goes on, against plain minimax;
//! - boj7682 on all 3^9 boards, against the set of positions where a game really ends,
//!   found by playing out every game;
//! - boj4664 on a few hundred random positions, against a slow forced-win search.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::HashSet;
use std::time::Duration;

const LINES_3: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Cells: 0 empty, 1 X, 2 O.
fn won(cells: &[u8], lines: &[[usize; 3]]) -> bool {
    lines
        .iter()
        .any(|l| cells[l[0]] != 0 && cells[l[0]] == cells[l[1]] && cells[l[1]] == cells[l[2]])
}

/// Plain minimax for the side to move (`me`): 1 win, 0 draw, -1 loss.
fn minimax(cells: &mut [u8; 9], me: u8) -> i32 {
    if won(cells, &LINES_3) {
        return -1;
    }
    if !cells.contains(&0) {
        return 0;
    }
    let mut best = -2;
    for i in 0..9 {
        if cells[i] == 0 {
            cells[i] = me;
            best = best.max(-minimax(cells, 3 - me));
            cells[i] = 0;
        }
    }
    best
}

/// Every position of every game from the empty board: (all positions, final positions).
fn all_games() -> (HashSet<[u8; 9]>, HashSet<[u8; 9]>) {
    fn walk(
        cells: &mut [u8; 9],
        me: u8,
        seen: &mut HashSet<[u8; 9]>,
        finals: &mut HashSet<[u8; 9]>,
    ) {
        if !seen.insert(*cells) {
            return;
        }
        if won(cells, &LINES_3) || !cells.contains(&0) {
            finals.insert(*cells);
            return;
        }
        for i in 0..9 {
            if cells[i] == 0 {
                cells[i] = me;
                walk(cells, 3 - me, seen, finals);
                cells[i] = 0;
            }
        }
    }
    let (mut seen, mut finals) = (HashSet::new(), HashSet::new());
    walk(&mut [0; 9], 1, &mut seen, &mut finals);
    (seen, finals)
}

fn run(binary: &str, input: &str) -> String {
    let out = common::run(binary, input.as_bytes(), Duration::from_secs(60))
        .unwrap_or_else(|| panic!("{binary} hung on\n{input}"));
    assert!(
        out.status.success(),
        "{binary} failed on\n{input}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn boj16571_agrees_with_plain_minimax_on_every_unfinished_position() {
    let (seen, finals) = all_games();
    let unfinished: Vec<[u8; 9]> = seen.difference(&finals).copied().collect();
    assert_eq!(unfinished.len(), 5_478 - 958);
    let halves: Vec<Vec<[u8; 9]>> = unfinished
        .chunks(unfinished.len() / 2 + 1)
        .map(<[_]>::to_vec)
        .collect();
    let workers: Vec<_> = halves
        .into_iter()
        .map(|part| {
            std::thread::spawn(move || {
                for cells in part {
                    let input: String = cells
                        .chunks(3)
                        .map(|row| format!("{} {} {}\n", row[0], row[1], row[2]))
                        .collect();
                    let x = cells.iter().filter(|&&c| c == 1).count();
                    let o = cells.iter().filter(|&&c| c == 2).count();
                    let me = if x == o { 1 } else { 2 };
                    let want = match minimax(&mut cells.clone(), me) {
                        1 => "W\n",
                        0 => "D\n",
                        _ => "L\n",
                    };
                    assert_eq!(run(env!("CARGO_BIN_EXE_boj16571"), &input), want, "{input}");
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
}

#[test]
fn boj7682_agrees_with_every_finished_game_on_all_boards() {
    let (_, finals) = all_games();
    let mut input = String::new();
    let mut want = String::new();
    for code in 0..3usize.pow(9) {
        let mut cells = [0u8; 9];
        let mut rest = code;
        for cell in &mut cells {
            *cell = (rest % 3) as u8;
            rest /= 3;
        }
        input.extend(cells.iter().map(|&c| ['.', 'X', 'O'][usize::from(c)]));
        input.push('\n');
        want.push_str(if finals.contains(&cells) {
            "valid\n"
        } else {
            "invalid\n"
        });
    }
    input.push_str("end\n");
    let got = run(env!("CARGO_BIN_EXE_boj7682"), &input);
    assert_eq!(got.lines().count(), 19_683);
    assert_eq!(finals.len(), 958);
    for (i, (g, w)) in got.lines().zip(want.lines()).enumerate() {
        assert_eq!(g, w, "board {}", input.lines().nth(i).unwrap());
    }
}

/// The 4x4 lines of four.
fn lines_4() -> Vec<[usize; 4]> {
    let mut lines = Vec::new();
    for i in 0..4 {
        lines.push([4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3]);
        lines.push([i, i + 4, i + 8, i + 12]);
    }
    lines.push([0, 5, 10, 15]);
    lines.push([3, 6, 9, 12]);
    lines
}

fn won_4(cells: &[u8; 16], lines: &[[usize; 4]], who: u8) -> bool {
    lines.iter().any(|l| l.iter().all(|&i| cells[i] == who))
}

/// x (1) to move: can x force four in a row? Plain recursion, no table.
fn x_forces_win(cells: &mut [u8; 16], lines: &[[usize; 4]]) -> bool {
    (0..16).any(|i| {
        if cells[i] != 0 {
            return false;
        }
        cells[i] = 1;
        let empty: Vec<usize> = (0..16).filter(|&j| cells[j] == 0).collect();
        let wins = won_4(cells, lines, 1)
            || (!empty.is_empty()
                && empty.iter().all(|&j| {
                    cells[j] = 2;
                    let lost =
                        !won_4(cells, lines, 2) && cells.contains(&0) && x_forces_win(cells, lines);
                    cells[j] = 0;
                    lost
                }));
        cells[i] = 0;
        wins
    })
}

#[test]
fn boj4664_agrees_with_a_slow_forced_win_search() {
    let lines = lines_4();
    let mut rng = games::rng::Rng::new(4664);
    let (mut input, mut want) = (String::new(), String::new());
    let mut cases = 0;
    let mut wins = 0;
    while cases < 300 {
        // 4 to 6 marks each: small enough for the slow search, varied enough to have wins.
        let k = 4 + rng.below(3);
        let mut cells = [0u8; 16];
        let mut placed = 0;
        while placed < 2 * k {
            let i = rng.below(16);
            if cells[i] == 0 {
                cells[i] = if placed < k { 1 } else { 2 };
                placed += 1;
            }
        }
        if won_4(&cells, &lines, 1) || won_4(&cells, &lines, 2) {
            continue;
        }
        cases += 1;
        input.push_str("?\n");
        for row in cells.chunks(4) {
            input.extend(row.iter().map(|&c| ['.', 'x', 'o'][usize::from(c)]));
            input.push('\n');
        }
        // The first cell after which x wins at once or can force a win.
        let answer = (0..16).find(|&i| {
            if cells[i] != 0 {
                return false;
            }
            let mut after = cells;
            after[i] = 1;
            won_4(&after, &lines, 1)
                || (after.contains(&0)
                    && (0..16).filter(|&j| after[j] == 0).all(|j| {
                        let mut reply = after;
                        reply[j] = 2;
                        !won_4(&reply, &lines, 2)
                            && reply.contains(&0)
                            && x_forces_win(&mut reply, &lines)
                    }))
        });
        match answer {
            Some(i) => {
                wins += 1;
                want.push_str(&format!("({},{})\n", i / 4, i % 4));
            }
            None => want.push_str("#####\n"),
        }
    }
    input.push_str("$\n");
    assert_eq!(run(env!("CARGO_BIN_EXE_boj4664"), &input), want);
    assert!(wins > 20, "only {wins} of 300 cases have a winning move");
}
