//! endgame_fit as a program: generated positions carry their exact scores (re-derived here by
//! the solver), a fitted patterns file loads into othello_solve and leaves its answer exact,
//! the committed weights/endgame8.pat and endgame6.pat load, the probcut model's lines are
//! the least-squares ones, and bad input gets one line and status 1.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use games::endgame::eval::Patterns;
use games::endgame::Solver;
use games::othello::{Bitboard, Board, Square};
use games::Color;
use std::path::Path;
use std::process::Output;

fn fit_tool(args: &[&str]) -> Output {
    testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_endgame_fit")), args, b"")
}

/// A data line's board and score.
fn parse(line: &str) -> (Board, i32) {
    let f: Vec<&str> = line.split_whitespace().collect();
    let n = if f[0].len() == 64 { 8 } else { 6 };
    let (mut black, mut white) = (Bitboard(0), Bitboard(0));
    for (i, c) in f[0].chars().enumerate() {
        let sq = Square::new(i / n, i % n).bitboard();
        match c {
            'X' => black = black | sq,
            'O' => white = white | sq,
            _ => {}
        }
    }
    let side = if f[1] == "X" {
        Color::Black
    } else {
        Color::White
    };
    (
        Board::from_discs(n, black, white, side).unwrap(),
        f[2].parse().unwrap(),
    )
}

#[test]
fn generated_labels_are_exact_and_a_fitted_file_keeps_the_solver_exact() {
    let dir = testkit::scratch("endgame_fit");
    let data = dir.join("data.txt");
    let d = data.to_str().unwrap();
    let out = fit_tool(&[
        "generate",
        "--out",
        d,
        "--size",
        "6",
        "--count",
        "30",
        "--empties",
        "12..14",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("30/30 games solved"));
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    // 30 games and the positions of their lines of perfect play down to 8 empties.
    assert!(lines.len() > 30, "{}", lines.len());
    let mut solver = Solver::new(16);
    for line in &lines {
        let (board, score) = parse(line);
        let empties = board.empties().count();
        assert!((8..=14).contains(&empties), "{line}");
        assert_eq!(solver.solve(&board).score, score, "{line}");
    }

    let weights = dir.join("six.pat");
    let w = weights.to_str().unwrap();
    let out = fit_tool(&["fit", "--data", d, "--out", w, "--epochs", "3"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert_eq!(err.lines().filter(|l| l.starts_with("epoch ")).count(), 3);
    let patterns = Patterns::from_bytes(&std::fs::read(&weights).unwrap()).unwrap();
    assert_eq!(patterns.size(), 6);
    // Format 2 records the held-out error the fit printed last, as the probcut unit.
    let last = err.lines().rfind(|l| l.starts_with("epoch ")).unwrap();
    let held: f32 = last
        .split(", ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let recorded = patterns.error().expect("format 2 records the error");
    assert!((recorded - held).abs() < 0.01, "{recorded} {last}");
    assert!(
        patterns.weights().iter().any(|&x| x != 0.0),
        "nothing was fitted"
    );

    // othello_solve with it: the same exact score as without.
    // 20 empties: the selective passes (from 19) run, with the fit's error as their unit.
    let position = "6\n......\n.BBBW.\n.WBWB.\n.WBBW.\n.WBBW.\n..B...\nW\n";
    let solve = |args: &[&str]| {
        let out = testkit::run_ok(
            Path::new(env!("CARGO_BIN_EXE_othello_solve")),
            args,
            position.as_bytes(),
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        text.lines()
            .find(|l| l.starts_with("exact result"))
            .unwrap()
            .to_string()
    };
    assert_eq!(solve(&["--eval", w]), solve(&[]));

    // The probcut model: each row's line, recomputed here from the solver's short search.
    let out = fit_tool(&["probcut", "--data", d]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<f64>> = table
        .lines()
        .skip(1)
        .map(|l| l.split(' ').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() >= 5, "{table}");
    let row = rows.iter().max_by_key(|r| r[2] as u64).unwrap();
    let (empties, depth) = (row[0] as u32, row[1] as u32);
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for line in &lines {
        let (board, score) = parse(line);
        if board.empties().count() == empties {
            xs.push(f64::from(solver.ordering_value(&board, depth)));
            ys.push(f64::from(score));
        }
    }
    assert_eq!(xs.len() as f64, row[2], "{table}");
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let (mx, my) = (mean(&xs), mean(&ys));
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    let slope = sxy / sxx;
    let residual: f64 = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (y - my - slope * (x - mx)).powi(2))
        .sum();
    let sigma = (residual / xs.len() as f64).sqrt();
    assert!((slope - row[3]).abs() < 1e-3, "slope {slope} in {table}");
    assert!((sigma - row[5]).abs() < 0.01, "sigma {sigma} in {table}");
    assert!(
        slope > 0.0,
        "a better evaluation predicts a worse score: {table}"
    );
    let with_patterns = fit_tool(&["probcut", "--data", d, "--eval", w]);
    assert!(with_patterns.status.success());
    assert_ne!(
        with_patterns.stdout,
        table.as_bytes(),
        "--eval changed nothing"
    );

    // The committed 8x8 weights load (and are for 8x8); the 6x6 ones too, and othello_solve
    // with them gives the same answer as without.
    let committed = testkit::root().join("weights/endgame8.pat");
    let eight = Patterns::from_bytes(&std::fs::read(committed).unwrap()).unwrap();
    assert_eq!(eight.size(), 8);
    let committed = testkit::root().join("weights/endgame6.pat");
    let six = Patterns::from_bytes(&std::fs::read(&committed).unwrap()).unwrap();
    assert_eq!(six.size(), 6);
    assert_eq!(solve(&["--eval", committed.to_str().unwrap()]), solve(&[]));
}

#[test]
fn bad_input_gets_one_line_and_status_1() {
    let dir = testkit::scratch("endgame_fit_bad");
    let bad_data = dir.join("bad.txt");
    std::fs::write(
        &bad_data,
        "# comment\n------------------------------------ X +2\n--- X 1\n",
    )
    .unwrap();
    let other_size = dir.join("sizes.txt");
    std::fs::write(
        &other_size,
        format!("{} X +2\n{} O -2\n", "-".repeat(36), "-".repeat(64)),
    )
    .unwrap();
    let garbage = dir.join("garbage.bin");
    std::fs::write(&garbage, [0xff, 0xfe, 0x00, 0x01]).unwrap();
    let out_file = dir.join("out.pat");
    let committed8 = testkit::root().join("weights/endgame8.pat");
    let names = [
        ("BAD", bad_data.to_str().unwrap()),
        ("SIZES", other_size.to_str().unwrap()),
        ("GARBAGE", garbage.to_str().unwrap()),
        ("OUT", out_file.to_str().unwrap()),
        ("EIGHT", committed8.to_str().unwrap()),
    ];
    // One case a line: the arguments, then what the one-line error must say. EIGHT is the
    // committed 8x8 patterns file.
    let table = r#"
        => the first argument is generate, fit or probcut (see --help)
        play => the first argument is generate, fit or probcut, not "play"
        probcut => --data
        probcut --data /no/such/file => /no/such/file
        probcut --data BAD => line 3
        probcut --depth 3 => unknown option
        generate => --out
        generate --out OUT --empties 0..5 => --empties
        generate --out OUT --empties 9..3 => --empties
        generate --out OUT --size 7 => --size is 6 or 8, not "7"
        generate --out OUT --size 6 --empties 10..31 => --empties
        generate --out OUT --count x => --count must be a whole number from 1 to 10000000, not "x"
        generate --out OUT --play /no/such/file => --play /no/such/file
        generate --out OUT --play GARBAGE => --play
        generate --out OUT --size 6 --play EIGHT => the patterns are for 8x8
        fit --data BAD --out OUT --format 3 => --format must be a whole number from 1 to 2, not "3"
        fit --out OUT => --data
        fit --data BAD => --out
        fit --data BAD --out OUT => line 3
        fit --data SIZES --out OUT => line 2
        fit --data GARBAGE --out OUT => not UTF-8
        fit --data /no/such/file --out OUT => /no/such/file
        fit --data OUT --stages 0 => --stages must be a whole number from 1 to 64, not "0"
        fit --bogus => unknown option
    "#;
    for (args, says) in testkit::refusals(table, &names) {
        testkit::assert_refused(&fit_tool(&args), "endgame_fit", says, &format!("{args:?}"));
    }
    assert!(!out_file.exists(), "a refused run wrote its output");

    // othello_solve refuses a bad patterns file in one line.
    let cut = dir.join("cut.pat");
    let mut bytes = Patterns::zeros(8, 2, 4).unwrap().to_bytes();
    bytes.truncate(bytes.len() - 9);
    std::fs::write(&cut, bytes).unwrap();
    let names = [
        ("CUT", cut.to_str().unwrap()),
        ("GARBAGE", garbage.to_str().unwrap()),
    ];
    let table = "
        --eval CUT => (truncated or padded)
        --eval GARBAGE => bytes are too few for a patterns file
    ";
    for (args, says) in testkit::refusals(table, &names) {
        let out = testkit::run_ok(
            Path::new(env!("CARGO_BIN_EXE_othello_solve")),
            &args,
            b"4\n....\n.WB.\n.BW.\n....\nB\n",
        );
        let case = format!("{args:?}");
        testkit::assert_refused(
            &out,
            "othello_solve",
            &format!("--eval {}: ", args[1]),
            &case,
        );
        testkit::assert_refused(&out, "othello_solve", says, &case);
    }
}
