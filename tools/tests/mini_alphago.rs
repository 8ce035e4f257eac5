//! mini_alphago as a program: the seed reproduced byte for byte, the seed-compatible mode on
//! other positions against the seed's own Python (answers in tests/data, made by
//! scripts/oracles/seed004.py), self-play, and bad input.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::Output;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn run(args: &[&str]) -> Output {
    testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_mini_alphago")), args, b"")
}

#[test]
fn with_no_arguments_it_prints_the_seeds_expected_output() {
    let out = run(&[]);
    assert!(out.status.success());
    let expected = std::fs::read_to_string(data("seed004-expected.out")).unwrap();
    // tests/data/seed004-expected.out is the seed's printed output, copied byte for byte
    // from the tutorials' reference data (see README, Test data).
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
}

#[test]
fn the_seed_compatible_mode_matches_the_seeds_python_on_other_positions() {
    for (position, iterations) in [("white-to-move", "300"), ("diagonals", "200")] {
        let file = data(&format!("{position}.position"));
        let out = run(&[
            "--seed-compatible",
            "--position",
            file.to_str().unwrap(),
            "--iterations",
            iterations,
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected =
            std::fs::read_to_string(data(&format!("{position}-{iterations}.out"))).unwrap();
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            expected,
            "{position}"
        );
    }
}

#[test]
fn self_play_plays_whole_games() {
    let out = run(&["--selfplay", "--iterations", "30"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    // The seed's game lasts exactly 44 moves and always ends 22-22.
    assert!(text.contains("  44. White"), "{text}");
    assert!(!text.contains("  45."));
    assert!(
        text.ends_with("Black 22 stones, White 22 stones: a draw\n"),
        "{text}"
    );

    let out = run(&[
        "--selfplay",
        "--rules",
        "go",
        "--evaluator",
        "playout",
        "--iterations",
        "200",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success());
    let passes = text
        .lines()
        .rev()
        .skip(9)
        .take(2)
        .filter(|l| l.ends_with(" pass"))
        .count();
    assert_eq!(passes, 2, "a Go game ends with two passes:\n{text}");
    assert!(
        text.lines().last().unwrap().starts_with("area: Black "),
        "{text}"
    );
}

#[test]
fn bad_input_is_one_line_and_status_1() {
    let dir = testkit::scratch("mini_alphago_bad_input");
    let bad_board = dir.join("bad-board.position");
    std::fs::write(&bad_board, "7\n.......\n..X?...\n").unwrap();
    let five = dir.join("five.position");
    std::fs::write(&five, "5\n.....\n.....\n.....\n.....\n.....\nX\n").unwrap();
    let names = [
        ("BAD", bad_board.to_str().unwrap()),
        ("FIVE", five.to_str().unwrap()),
    ];
    // One case a line: the arguments, then what the one-line error must say.
    let table = r#"
        --iterations 0 => --iterations must be a whole number from 1 to 1000000, not "0"
        --iterations many => --iterations must be a whole number from 1 to 1000000, not "many"
        --rules chess => --rules is seed, go or othello, not "chess"
        --evaluator oracle => --evaluator is net or playout, not "oracle"
        --c-puct -1 => --c-puct must be a number from 0 to 1000, not "-1"
        --komi nan => --komi must be a number from -400 to 400, not "nan"
        --whatever => unknown option "--whatever"
        --position BAD => line 3: the 2nd row, 4th cell: '?' is not X, O or .
        --position FIVE => the board is 5x5: the seed's game and the network are 7x7
        --position /no/such/file => /no/such/file
        --seed-compatible --rules go => --seed-compatible is the seed's game with its network
        --seed-compatible --lcb 5:0.15 => drop --lcb
        --lcb 5 => --lcb takes Z:S
        --lcb 5:2 => --lcb takes Z:S
        --views avg9 => --views is plain, avg, random or avgK
        --views => --views needs a value
        --views avg => --views is for a trained network (--weights)
        --rules go --evaluator playout --views random => --views is for a trained network
        --dynamic-komi 4:0.5 => --dynamic-komi and --dynamic-komi-ahead are for Othello with a trained network
        --rules othello --evaluator playout --dynamic-komi-ahead 4:0.5 => are for Othello with a trained network
        --dynamic-komi 40:0.5 => --dynamic-komi takes K:T
    "#;
    for (args, says) in testkit::refusals(table, &names) {
        testkit::assert_refused(&run(&args), "mini_alphago", says, &format!("{args:?}"));
    }
}

#[test]
fn help_lists_the_flags_and_the_coordinate_base() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        for part in [
            "usage: mini_alphago",
            "--position",
            "--evaluator",
            "0-based",
        ] {
            assert!(text.contains(part), "{flag}: no {part:?}");
        }
    }
}

fn net_file(dir: &Path, name: &str, game: &str, size: usize) -> PathBuf {
    let shape = games::nn::Shape {
        size,
        planes: games::nn::PLANES,
        width: 8,
        blocks: 1,
        hidden: 8,
        value_channels: 1,
        score: false,
    };
    let path = dir.join(name);
    let net = games::nn::Net::random(shape, 5).unwrap();
    std::fs::write(&path, net.to_bytes(game)).unwrap();
    path
}

fn run_with(args: &[&str], input: &str) -> Output {
    testkit::run_ok(
        Path::new(env!("CARGO_BIN_EXE_mini_alphago")),
        args,
        input.as_bytes(),
    )
}

#[test]
fn with_weights_it_plays_othello_and_go_and_prints_the_best_move_first() {
    let dir = testkit::scratch("mini_alphago_weights");
    let othello = net_file(&dir, "othello.net", "othello", 6);
    let go = net_file(&dir, "go.net", "go", 7);
    let start = "6\n......\n......\n..WB..\n..BW..\n......\n......\nB\n";
    let legal: Vec<String> = games::othello::Board::new(6)
        .unwrap()
        .legal_moves()
        .iter()
        .map(|m| match m {
            games::othello::Move::Play(sq) => sq.to_string(),
            games::othello::Move::Pass => "pass".to_string(),
        })
        .collect();
    let args = [
        "--game",
        "othello",
        "--position",
        "-",
        "--weights",
        othello.to_str().unwrap(),
        "--iterations",
        "50",
    ];
    let out = run_with(&args, start);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    let mv = first.strip_prefix("best move: ").unwrap();
    assert!(
        legal.iter().any(|l| l == mv),
        "{first} is not one of {legal:?}"
    );
    assert!(text.contains("root visits: 51"), "{text}");
    // Black has no placement here (White's corner cannot be flanked), White has one.
    let forced = "6\nWB....\n......\n......\n......\n......\n......\nB\n";
    let out = run_with(&args, forced);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().next(),
        Some("best move: pass")
    );

    let out = run(&[
        "--game",
        "go",
        "--weights",
        go.to_str().unwrap(),
        "--iterations",
        "50",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.starts_with("best move: (") || first == "best move: pass",
        "{first}"
    );
}

#[test]
fn bad_weights_files_are_one_line_and_status_1() {
    let dir = testkit::scratch("mini_alphago_bad_weights");
    let good = net_file(&dir, "good.net", "othello", 6);
    let bytes = std::fs::read(&good).unwrap();
    let eight = net_file(&dir, "eight.net", "othello", 8);
    let go = net_file(&dir, "go.net", "go", 6);
    let mut cases = vec![
        ("missing", None, "No such file"),
        ("empty", Some(Vec::new()), "too short"),
        (
            "garbage",
            Some(
                b"\x00\xffnot weights at all, just bytes; not weights at all, just bytes".to_vec(),
            ),
            "magic",
        ),
        (
            "truncated",
            Some(bytes[..bytes.len() - 9].to_vec()),
            "truncated",
        ),
    ];
    let mut flipped = bytes.clone();
    flipped[100] ^= 0x10;
    cases.push(("flipped", Some(flipped), "checksum"));
    let start = "6\n......\n......\n..WB..\n..BW..\n......\n......\nB\n";
    let mut paths: Vec<(PathBuf, &str)> = cases
        .into_iter()
        .map(|(name, contents, says)| {
            let path = dir.join(name);
            if let Some(c) = contents {
                std::fs::write(&path, c).unwrap();
            }
            (path, says)
        })
        .collect();
    paths.push((eight, "8x8"));
    paths.push((go, "weights for go, not othello"));
    for (path, says) in paths {
        let out = run_with(
            &[
                "--game",
                "othello",
                "--position",
                "-",
                "--weights",
                path.to_str().unwrap(),
            ],
            start,
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(1), "{path:?}: {err}");
        assert!(out.stdout.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with("mini_alphago: weights ") && err.contains(says),
            "{says}: {err}"
        );
    }
    // Dynamic komi needs the komi plane, which this network does not have.
    let out = run_with(
        &[
            "--game",
            "othello",
            "--weights",
            good.to_str().unwrap(),
            "--dynamic-komi",
            "4:0.5",
        ],
        "",
    );
    testkit::assert_refused(
        &out,
        "mini_alphago",
        "need a network with the komi plane",
        "",
    );
    // Othello's network needs weights; weights need a game that has networks.
    for args in [
        vec!["--game", "othello"],
        vec!["--weights", good.to_str().unwrap()],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert_eq!(String::from_utf8(out.stderr).unwrap().lines().count(), 1);
    }
}

#[test]
fn the_committed_komi_network_plays_whites_only_win_by_4_at_komi_4() {
    // The solver's line at 27 empties, White to move (tools/tests/data/othello6-line.txt,
    // from the exact solver: e3 keeps +4; c1 and d5 give +2). The network trained with
    // `az_train --komi 0,4` plays e3 when its search plays the even game (komi 4 for Black),
    // where a win by 2 is a loss; at komi 0 a win by 2 is as good a win, and it plays
    // another move: the komi reaches the network and the search.
    let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("../weights/othello6-komi.net");
    let position = "6\n......\n..BW..\n..WB..\n.WBBB.\n..B...\n......\nW\n";
    // The report with `args`, and its first line.
    let report = |args: &[&str]| {
        let common = [
            "--game",
            "othello",
            "--position",
            "-",
            "--weights",
            weights.to_str().unwrap(),
            "--iterations",
            "200",
        ];
        let out = run_with(&[&common[..], args].concat(), position);
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{text}");
        text
    };
    let best = |args: &[&str]| report(args).lines().next().unwrap().to_string();
    assert_eq!(best(&["--komi", "4"]), "best move: e3");
    assert_ne!(best(&["--komi", "0"]), "best move: e3");
    // At komi 0 with dynamic komi for a side ahead, White, which the network sees winning,
    // searches as if it gave 4 discs: the even game again, and e3. The report says so.
    let ahead = report(&["--dynamic-komi-ahead", "4:0.5"]);
    assert!(
        ahead.starts_with("best move: e3\n")
            && ahead.contains("\ndynamic komi: White is ahead and gives 4 discs here\n"),
        "{ahead}"
    );
    // The same with two views averaged and the move by LCB; the report names both.
    let ahead = report(&[
        "--dynamic-komi-ahead",
        "4:0.5",
        "--views",
        "avg2",
        "--lcb",
        "5:0.15",
    ]);
    for part in [
        "best move: e3\n",
        " (2 of the 8 views at random, averaged);",
        ", the move by LCB (5 standard errors, 15% of the visits)\n",
        "\ndynamic komi: White is ahead and gives 4 discs here\n",
    ] {
        assert!(ahead.contains(part), "no {part:?} in {ahead}");
    }
    // A komi for Othello is a whole number of discs.
    let out = testkit::run_ok(
        Path::new(env!("CARGO_BIN_EXE_mini_alphago")),
        &[
            "--game",
            "othello",
            "--weights",
            weights.to_str().unwrap(),
            "--komi",
            "2.5",
        ],
        b"",
    );
    testkit::assert_refused(&out, "mini_alphago", "whole number of discs", "--komi 2.5");
}
