//! go_engine as a GTP program: the required commands, replies to bad input without
//! stopping, the game's rules (ko, superko, undo), deterministic search, and the match
//! runner playing it against itself and against an engine that crashes.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::Path;

fn engine(args: &[&str], script: &str) -> Vec<String> {
    let out = testkit::run_ok(
        Path::new(env!("CARGO_BIN_EXE_go_engine")),
        args,
        script.as_bytes(),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Responses end with an empty line; multi-line ones keep their inner lines.
    String::from_utf8(out.stdout)
        .unwrap()
        .split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn the_required_commands_answer() {
    let replies = engine(
        &["--playouts", "100"],
        "protocol_version\n7 name\nversion\nknown_command genmove\nknown_command fly\nlist_commands\nboardsize 9\nclear_board\nkomi 6.5\ntime_settings 60 5 1\ntime_left b 30 0\nquit\nname\n",
    );
    assert_eq!(replies[0], "= 2");
    assert_eq!(replies[1], "=7 games-go");
    assert!(replies[2].starts_with("= "));
    assert_eq!(replies[3], "= true");
    assert_eq!(replies[4], "= false");
    for command in [
        "play",
        "genmove",
        "undo",
        "final_score",
        "final_status_list",
        "kgs-genmove_cleanup",
        "time_left",
    ] {
        assert!(
            replies[5]
                .lines()
                .any(|l| l.trim_start_matches("= ") == command),
            "{command}"
        );
    }
    assert!(replies[6..11].iter().all(|r| r == "="), "{replies:?}");
    // quit answers, and nothing after it is read.
    assert_eq!(replies.len(), 12, "{replies:?}");
}

#[test]
fn bad_lines_get_a_question_mark_and_the_engine_goes_on() {
    let script = "boardsize 0\nboardsize 99\nboardsize x\nkomi nan\nplay\nplay purple A1\nplay b A99\nplay b I3\nfly away\n\u{1}\u{7f}\nplay b\ngenmove\ntime_left b -3 0\nfinal_status_list maybe\n\x00\n3 protocol_version\n";
    let replies = engine(&[], script);
    let (last, errors) = replies.split_last().unwrap();
    assert_eq!(last, "=3 2", "{replies:?}");
    // Lines of nothing but control characters are empty after GTP's cleaning: no reply.
    assert_eq!(errors.len(), 13, "{replies:?}");
    assert!(errors.iter().all(|r| r.starts_with("? ")), "{replies:?}");
    assert_eq!(errors[0], "? unacceptable size");
    // Bytes that are not UTF-8 are a bad line, not the end of the session.
    let out = testkit::run_ok(
        Path::new(env!("CARGO_BIN_EXE_go_engine")),
        &[],
        b"\xff\xfe\nname\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "? unknown command\n\n= games-go\n\n"
    );
}

#[test]
fn ko_and_undo() {
    // Seed 000's ko on 5x5 (rows counted from the bottom in GTP): Black captures at C4,
    // White may not take back at B4 at once; after a ko threat exchange it may.
    let setup = "boardsize 5\nclear_board\nplay b B5\nplay b A4\nplay b B3\nplay w C5\nplay w B4\nplay w C3\nplay w D4\n";
    let replies = engine(&[], &format!("{setup}play b C4\nplay w B4\nplay w E1\nplay b E2\nplay w B4\nundo\nundo\nundo\nplay w B4\nshowboard\n"));
    let after_setup = &replies[9..];
    assert_eq!(after_setup[0], "=", "Black captures");
    assert!(
        after_setup[1].starts_with("? illegal move (ko)"),
        "{after_setup:?}"
    );
    assert_eq!(
        &after_setup[2..5],
        ["=", "=", "="],
        "after a threat exchange the retake is legal"
    );
    assert_eq!(
        &after_setup[5..8],
        ["=", "=", "="],
        "three undos: back to just after the capture"
    );
    assert!(
        after_setup[8].starts_with("? illegal move (ko)"),
        "the retake is refused again: {after_setup:?}"
    );
    assert!(
        after_setup[9].contains("X . X O"),
        "the capture stands: {after_setup:?}"
    );
    // Undo with nothing to undo.
    assert_eq!(engine(&[], "undo\n"), ["? cannot undo"]);
}

#[test]
fn genmove_plays_a_legal_move_deterministically() {
    // rave keeps its tree from one genmove to the next: the repeat covers that too.
    for (search, playout) in [("playout", "light"), ("rave", "light"), ("rave", "heavy")] {
        genmove_is_legal_and_repeats(search, playout);
    }
}

fn genmove_is_legal_and_repeats(search: &str, playout: &str) {
    let script = "boardsize 7\nclear_board\nkomi 9\ngenmove b\ngenmove w\ngenmove b\nreg_genmove w\nfinal_score\nfinal_status_list dead\n";
    let args = [
        "--playouts",
        "300",
        "--seed",
        "5",
        "--evaluator",
        search,
        "--playout",
        playout,
    ];
    let first = engine(&args, script);
    let second = engine(&args, script);
    assert_eq!(
        first, second,
        "{search}: one thread and one seed repeat themselves"
    );
    for vertex in &first[3..6] {
        let v = vertex.trim_start_matches("= ");
        assert!(
            v.len() >= 2 && v.as_bytes()[0].is_ascii_uppercase(),
            "{vertex}"
        );
    }
    // The generated moves were played: playing there again is refused.
    let again = engine(
        &args,
        &format!("{script}play b {}\n", first[3].trim_start_matches("= ")),
    );
    assert!(
        again
            .last()
            .unwrap()
            .starts_with("? illegal move (occupied)"),
        "{again:?}"
    );
    let score = first[7].trim_start_matches("= ");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
}

#[test]
fn tree_parallel_search_keeps_its_tree_and_plays_legal_moves() {
    // Two walkers on one tree, kept from move to move: not repeatable, but every move is a
    // vertex the engine accepted and played (the board shows two stones of each colour).
    let script =
        "boardsize 7\nclear_board\nkomi 9\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nshowboard\n";
    let args = ["--tree-parallel", "--threads", "2", "--playouts", "400"];
    let replies = engine(&args, script);
    assert_eq!(replies.len(), 8, "{replies:?}");
    for reply in &replies[3..7] {
        let vertex = reply.strip_prefix("= ").unwrap();
        assert!(
            vertex.len() >= 2 && vertex.as_bytes()[0].is_ascii_uppercase(),
            "{replies:?}"
        );
    }
    let board = &replies[7];
    let count = |stone: char| board.chars().filter(|&c| c == stone).count();
    assert_eq!((count('X'), count('O')), (2, 2), "{board}");
}

#[test]
fn handicap_stones_stand_where_gnu_go_puts_them() {
    let Some(gnugo) = testkit::gnugo("go_engine::handicap_stones_stand_where_gnu_go_puts_them")
    else {
        return;
    };
    // Every size GNU Go plays and every count from 0 to 10: the same refusals, and the same
    // points (in any order) where GTP fixes a placement.
    let mut script = String::new();
    for size in 2..=19 {
        for stones in 0..=10 {
            script.push_str(&format!("boardsize {size}\nfixed_handicap {stones}\n"));
        }
    }
    let ours = engine(&[], &script);
    let out = testkit::run_ok(Path::new(&gnugo), &["--mode", "gtp"], script.as_bytes());
    let theirs: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .split("\n\n")
        .filter(|r| !r.is_empty())
        .map(str::to_string)
        .collect();
    assert_eq!(ours.len(), theirs.len());
    let sorted = |reply: &str| {
        let mut words: Vec<&str> = reply.split_whitespace().collect();
        words.sort_unstable();
        words.join(" ")
    };
    let mut placed = 0;
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate().skip(1).step_by(2) {
        let case = &script.lines().nth(i - 1).unwrap();
        assert_eq!(a.starts_with('='), b.starts_with('='), "{case}: {a} / {b}");
        if a.starts_with('=') {
            assert_eq!(sorted(a), sorted(b), "{case}");
            placed += 1;
        }
    }
    // Not a check that passes with every count refused: 2 to 4 stones on 7x7 and the 6 even
    // sizes from 8x8, 2 to 9 on the 6 odd ones from 9x9.
    assert_eq!(placed, 3 * 7 + 8 * 6);
}

#[test]
fn handicap_stones_are_set_up_once_on_an_empty_board() {
    let replies = engine(
        &["--playouts", "50"],
        "boardsize 9\nset_free_handicap C3 G7 E5\nshowboard\ngenmove w\nfixed_handicap 2\n\
         undo\nundo\nshowboard\nclear_board\nplace_free_handicap 4\nplay b E5\n",
    );
    assert_eq!(replies[1], "= C3 G7 E5");
    let stones = |board: &str, stone: char| board.chars().filter(|&c| c == stone).count();
    assert_eq!((stones(&replies[2], 'X'), stones(&replies[2], 'O')), (3, 0));
    // White moves first after a handicap, and the stones are not moves to undo.
    assert!(replies[3].starts_with("= "), "{}", replies[3]);
    assert_eq!(replies[4], "? board not empty");
    assert_eq!(
        (replies[5].as_str(), replies[6].as_str()),
        ("=", "? cannot undo")
    );
    assert_eq!((stones(&replies[7], 'X'), stones(&replies[7], 'O')), (3, 0));
    assert_eq!(replies[9].split_whitespace().count(), 5, "{}", replies[9]);
    assert_eq!(replies[10], "=");
    let table = "
        set_free_handicap A1 => bad vertex list
        set_free_handicap A1 A1 => bad vertex list
        set_free_handicap A1 pass => cannot be a pass
        set_free_handicap A1 Z9 => Z9 is off the 9x9 board
        fixed_handicap 10 => invalid number of stones
        fixed_handicap x => needs a number of stones
        place_free_handicap 1 => invalid number of stones
    ";
    for (words, says) in testkit::refusals(table, &[]) {
        let command = words.join(" ");
        let replies = engine(&[], &format!("boardsize 9\n{command}\nshowboard\n"));
        assert!(
            replies[1].starts_with("? ") && replies[1].contains(says),
            "{command}: {}",
            replies[1]
        );
        assert!(!replies[2].contains('X'), "{command}: {}", replies[2]);
    }
}

#[test]
fn help_and_bad_options() {
    let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_go_engine")), &["--help"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success() && text.contains("--playouts") && text.contains("Sabaki"));
    // One case a line: the arguments, then what the one-line error must say.
    let table = r#"
        --threads 0 => --threads must be a whole number from 1 to 64, not "0"
        --seconds -1 => --seconds must be a number above 0 and at most 1000000, not "-1"
        --evaluator magic => --evaluator is playout, tactics, net, trained, rave or rave-net, not "magic"
        --evaluator => --evaluator needs a value
        --playout medium => --playout is light or heavy, not "medium"
        --playout => --playout needs a value
        --fly => unknown option "--fly"
    "#;
    for (args, says) in testkit::refusals(table, &[]) {
        let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_go_engine")), &args, b"");
        testkit::assert_refused(&out, "go_engine", says, &format!("{args:?}"));
    }
}

#[test]
fn the_match_runner_refuses_bad_options_before_starting_an_engine() {
    // `false` as an engine would fail at once: a refusal must come before it is started.
    let table = r#"
        --a false => --b is needed
        --b false => --a is needed
        --a false --b false --games 0 => --games must be a whole number from 1 to 10000, not "0"
        --a false --b false --size 20 => --size must be a whole number from 2 to 19, not "20"
        --a false --b false --komi inf => --komi must be a number from -1000 to 1000, not "inf"
        --a false --b false --max-moves 0 => --max-moves must be a whole number at least 1, not "0"
        --a false --b false --time 60,x,5 => --time is MAIN,BYO,STONES, three whole numbers, not "60,x,5"
        --a false --b false --time 60,10,5,1 => --time is MAIN,BYO,STONES, three whole numbers, not "60,10,5,1"
        --a false --b false --time 1.5,10,5 => --time is MAIN,BYO,STONES, three whole numbers, not "1.5,10,5"
        --a false --b false --timeout 0 => --timeout must be a number above 0 and at most 86400, not "0"
        --a false --b false --sgf => --sgf needs a value
        --a false --b => --b needs a value
        --a false --b false --referee => --referee needs a value
        --a false --b false --fly => unknown option "--fly"
    "#;
    for (args, says) in testkit::refusals(table, &[]) {
        let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_gtp_match")), &args, b"");
        testkit::assert_refused(&out, "gtp_match", says, &format!("{args:?}"));
    }
}

#[test]
fn a_silent_or_babbling_engine_loses_a_failed_referee_is_reported_and_the_match_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let dir = testkit::scratch("gtp-match-silent");
    // Answers every command but genmove, over which it sleeps well past the limit.
    let sleeper = dir.join("sleeper.sh");
    std::fs::write(
        &sleeper,
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    genmove) exec sleep 60 ;;\n    \
         *) printf '= \\n\\n' ;;\n  esac\ndone\n",
    )
    .unwrap();
    std::fs::set_permissions(&sleeper, std::fs::Permissions::from_mode(0o755)).unwrap();
    let engine = format!("{} --playouts 30", env!("CARGO_BIN_EXE_go_engine"));
    let sgf = dir.join("games");
    // Two games on 5x5, half a second for each answer: the report, from a run that ends.
    let matched = |players: &[&str]| -> String {
        let common = ["--games", "2", "--size", "5", "--timeout", "0.5"];
        let args = [players, &common[..], &["--sgf", sgf.to_str().unwrap()]].concat();
        let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_gtp_match")), &args, b"");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(out.status.success(), "{players:?}: {text}");
        text
    };
    // `sleep` never answers, the sleeper never answers its first genmove: each is stopped
    // at the limit. `yes` answers with text that is not GTP, `cat /dev/zero` with one
    // endless line: each is stopped at once. Every game, and the match goes on.
    for (silent, says) in [
        (
            "sleep 30",
            "A stopped: no answer to \"boardsize 5\" within 0.5 s",
        ),
        (
            sleeper.to_str().unwrap(),
            "A stopped: no answer to \"genmove ",
        ),
        (
            "yes",
            "A stopped, it sent garbage: not a GTP response: \"y\"",
        ),
        (
            "cat /dev/zero",
            "A stopped, it sent garbage: a line longer than 1048576 bytes",
        ),
    ] {
        let text = matched(&["--a", silent, "--b", &engine]);
        assert!(
            text.contains("B wins 1 as Black, 1 as White"),
            "{silent}: {text}"
        );
        for game in ["game 1: ", "game 2: "] {
            assert!(text.contains(&format!("{game}{says}")), "{silent}: {text}");
        }
    }
    // A referee that echoes the commands: each game is still scored (by the area count the
    // engines agree on), the failure is reported, and the referee is started again for
    // game 2 (else it would be gone there, not stopped).
    let text = matched(&[
        "--a",
        &engine,
        "--b",
        &engine,
        "--komi",
        "0.5",
        "--referee",
        "cat",
    ]);
    for game in ["game 1: ", "game 2: "] {
        let says = "the referee failed at \"boardsize 5\" (stopped, it sent garbage";
        assert!(text.contains(&format!("{game}{says}")), "{text}");
    }
    assert!(!text.contains("+F"), "{text}");
}

#[test]
fn the_match_runner_plays_scores_and_records() {
    let dir = testkit::scratch("gtp-match");
    let engine = env!("CARGO_BIN_EXE_go_engine");
    // `{game}` restarts A with a seed per game.
    let a = format!("{engine} --playouts 60 --seed {{game}}");
    let b = format!("{engine} --playouts 60 --seed 2");
    let sgf = dir.to_str().unwrap();
    let args = [
        "--a", &a, "--b", &b, "--games", "2", "--size", "5", "--komi", "0.5", "--sgf", sgf,
    ];
    let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_gtp_match")), &args, b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("A scores") && text.contains("95% interval"),
        "{text}"
    );
    assert!(text.contains("illegal moves and crashes: none"), "{text}");
    for game in [1, 2] {
        let record = std::fs::read_to_string(dir.join(format!("game-{game}.sgf"))).unwrap();
        assert!(
            record.starts_with("(;GM[1]FF[4]") && record.contains("SZ[5]"),
            "{record}"
        );
        assert!(
            record.contains(";B[") && record.trim_end().ends_with(')'),
            "{record}"
        );
        // The players are named by letter and command, A (seed = game) Black in game 1.
        let (a_seat, b_seat) = if game == 1 {
            ("PB", "PW")
        } else {
            ("PW", "PB")
        };
        let a_name = format!("{a_seat}[A: {engine} --playouts 60 --seed {game}]");
        let b_name = format!("{b_seat}[B: {engine} --playouts 60 --seed 2]");
        assert!(
            record.contains(&a_name) && record.contains(&b_name),
            "{record}"
        );
    }
    // An engine that dies at once loses every game, and the runner says so.
    let args = [
        "--a",
        &a,
        "--b",
        "/bin/false",
        "--games",
        "2",
        "--size",
        "5",
        "--sgf",
        sgf,
    ];
    let out = testkit::run_ok(Path::new(env!("CARGO_BIN_EXE_gtp_match")), &args, b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("A scores 2 of 2"), "{text}");
    assert!(text.contains("game 1: B the engine is gone"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_clock_bounds_a_move() {
    // Ten million playouts would take minutes; two minutes of main time on a 9x9 board
    // leave a few seconds for the first move, and time_left then takes over.
    let start = std::time::Instant::now();
    let replies = engine(
        &["--playouts", "10000000"],
        "boardsize 9\nclear_board\ntime_settings 120 0 0\ngenmove b\ntime_left w 10 0\ngenmove w\n",
    );
    assert!(
        replies[3].starts_with("= ") && replies[5].starts_with("= "),
        "{replies:?}"
    );
    assert!(
        start.elapsed().as_secs() < 30,
        "the clock did not bound the search"
    );
}

#[test]
fn tactical_priors_take_a_stone_in_atari() {
    // White C3 has one liberty left, C4: the capture is the move.
    let script = "boardsize 5\nclear_board\nplay b B3\nplay w C3\nplay b D3\nplay w A5\nplay b C2\nplay w E5\ngenmove b\n";
    // At 30 playouts the uniform priors of `--evaluator playout` choose D5 here.
    for (search, playout) in [("tactics", "light"), ("rave", "light"), ("rave", "heavy")] {
        let replies = engine(
            &[
                "--evaluator",
                search,
                "--playout",
                playout,
                "--playouts",
                "30",
                "--seed",
                "3",
            ],
            script,
        );
        assert_eq!(
            replies.last().unwrap(),
            "= C4",
            "{search}, {playout}: {replies:?}"
        );
    }
}

#[test]
fn a_trained_network_plays_on_its_size_and_bad_weights_stop_the_engine_at_start() {
    let dir = testkit::scratch("go_engine_weights");
    let shape = games::nn::Shape {
        size: 7,
        planes: games::nn::PLANES,
        width: 8,
        blocks: 1,
        hidden: 8,
        value_channels: 1,
        score: false,
    };
    let net = games::nn::Net::random(shape, 3).unwrap();
    let path = dir.join("go7.net");
    std::fs::write(&path, net.to_bytes("go")).unwrap();
    let p = path.to_str().unwrap();
    // Alone (PUCT), and its policy as priors of the rave search: on 7x7 with the network,
    // on 9x9 without; every genmove answers a vertex.
    let alone = &["--weights", p, "--playouts", "200"][..];
    let guiding = &[
        "--evaluator",
        "rave-net",
        "--weights",
        p,
        "--playouts",
        "300",
        "--net-prior",
        "30",
    ][..];
    for args in [alone, guiding] {
        let replies = engine(
            args,
            "boardsize 7\nclear_board\ngenmove b\ngenmove w\nboardsize 9\nclear_board\ngenmove b\n",
        );
        for (i, reply) in [2, 3, 6].into_iter().map(|i| (i, &replies[i])) {
            let vertex = reply
                .strip_prefix("= ")
                .unwrap_or_else(|| panic!("{args:?} {i}: {reply}"));
            assert!(vertex == "pass" || vertex.len() >= 2, "{reply}");
        }
    }
    // The committed network loads and plays, alone and guiding rave.
    let committed = testkit::root().join("weights/go7.net");
    let c = committed.to_str().unwrap();
    for args in [
        &["--weights", c, "--playouts", "200"][..],
        &[
            "--evaluator",
            "rave-net",
            "--weights",
            c,
            "--playouts",
            "300",
        ][..],
    ] {
        let replies = engine(args, "boardsize 7\nkomi 9\nclear_board\ngenmove b\n");
        let vertex = replies[3]
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("{replies:?}"));
        assert!(
            vertex.len() >= 2 && vertex != "resign",
            "{args:?}: {vertex}"
        );
    }
    let othello = dir.join("othello.net");
    std::fs::write(&othello, net.to_bytes("othello")).unwrap();
    let cut = dir.join("cut.net");
    let bytes = net.to_bytes("go");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let names = [
        ("NET", p),
        ("OTHELLO", othello.to_str().unwrap()),
        ("CUT", cut.to_str().unwrap()),
    ];
    // Bad options and bad weights files, one case a line: the arguments, then what the
    // one-line error must say before any reply.
    let table = "
        --evaluator rave-net => --evaluator trained or rave-net needs --weights FILE
        --weights NET --net-prior -1 => --net-prior
        --evaluator rave-nett => rave-net, not \"rave-nett\"
        --weights OTHELLO => weights for othello, not go
        --weights CUT => truncated or padded
    ";
    for (args, says) in testkit::refusals(table, &names) {
        let out = testkit::run_ok(
            Path::new(env!("CARGO_BIN_EXE_go_engine")),
            &args,
            b"genmove b\n",
        );
        testkit::assert_refused(&out, "go_engine", says, &format!("{args:?}"));
    }
}
