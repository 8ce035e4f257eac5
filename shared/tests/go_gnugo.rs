//! Differential test of the Go rules against GNU Go 3.8, a real engine, over GTP.
//!
//! 2,000 random games on 5×5, 7×7 and 9×9, half under simple ko and half under positional
//! superko (suicide forbidden in both). Before every move the legality of every point for the
//! side to move is compared (`all_legal`); after every move the stones of both colours are
//! (`list_stones`). Now and then an illegal point is played on purpose and both engines must
//! refuse it; now and then a just-captured point is retaken, which is where kos live.
//!
//! Needs GNU Go: `apt-get install gnugo` (`scripts/test.sh` installs it; the binary is
//! `/usr/games/gnugo`, or set `GNUGO=/path/to/gnugo`). Set `GAMES_SKIP_GNUGO=1` to skip
//! locally.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use games::go::{Board, IllegalMove, KoRule, Move, Position};
use games::rng::Rng;
use games::Color;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Games per (board size, ko rule): 2 × (400 + 400 + 200) = 2,000 in all.
const GAMES: [(usize, usize); 3] = [(5, 400), (7, 400), (9, 200)];

/// GTP column letters: I is skipped.
const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRST";

struct Gtp {
    child: Child,
    input: BufWriter<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(binary: &str, rule: KoRule) -> Gtp {
        let ko = match rule {
            KoRule::Simple => "--simple-ko",
            KoRule::PositionalSuperko => "--positional-superko",
            KoRule::None => unreachable!("GNU Go always applies a ko rule"),
        };
        let mut child = Command::new(binary)
            .args(["--mode", "gtp", "--chinese-rules", ko, "--forbid-suicide"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {binary}: {e}"));
        let input = BufWriter::new(child.stdin.take().unwrap());
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends a few commands at once (few enough that neither pipe fills up), then reads one
    /// response per command: `Ok(text)` for `=`, `Err(text)` for `?`.
    fn batch(&mut self, commands: &[String]) -> Vec<Result<String, String>> {
        for c in commands {
            writeln!(self.input, "{c}").unwrap();
        }
        self.input.flush().unwrap();
        commands
            .iter()
            .map(|_| {
                let mut text = String::new();
                loop {
                    let mut line = String::new();
                    assert!(self.output.read_line(&mut line).unwrap() > 0, "GNU Go quit");
                    if line.trim().is_empty() {
                        break;
                    }
                    text.push_str(line.trim());
                    text.push(' ');
                }
                let text = text.trim().to_string();
                match text.strip_prefix('=') {
                    Some(rest) => Ok(rest.trim().to_string()),
                    None => Err(text),
                }
            })
            .collect()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

fn vertex(n: usize, (r, c): (usize, usize)) -> String {
    format!("{}{}", COLUMNS[c] as char, n - r)
}

fn parse_vertices(n: usize, text: &str) -> BTreeSet<(usize, usize)> {
    text.split_whitespace()
        .map(|v| {
            let col = COLUMNS.iter().position(|&l| l == v.as_bytes()[0]).unwrap();
            let row = n - v[1..].parse::<usize>().unwrap();
            (row, col)
        })
        .collect()
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Plays the games of one ko rule; returns (games, moves, illegal moves both refused,
/// positions where a ko or superko made a point illegal).
fn play_games(binary: &str, rule: KoRule, seed: u64) -> (usize, usize, usize, usize) {
    let mut gtp = Gtp::start(binary, rule);
    let mut rng = Rng::new(seed);
    let (mut games, mut moves, mut refused, mut ko_positions) = (0, 0, 0, 0);
    for (n, count) in GAMES {
        for _ in 0..count {
            games += 1;
            let mut game = Position::new(Board::new(n, n).unwrap(), rule);
            let mut log = vec![format!("boardsize {n}"), "clear_board".to_string()];
            for r in gtp.batch(&log) {
                r.unwrap();
            }
            let mut last_capture: Option<(usize, usize)> = None;
            for _ in 0..3 * n * n {
                if game.is_over() {
                    break;
                }
                let color = game.side_to_move();
                let board = game.board();
                let ours: BTreeSet<(usize, usize)> = game
                    .legal_moves()
                    .iter()
                    .filter_map(|m| match m {
                        Move::Play(p) => Some(board.coords(*p)),
                        Move::Pass => None,
                    })
                    .collect();
                let theirs = gtp.batch(&[format!("all_legal {}", gtp_color(color))]);
                let theirs = parse_vertices(n, theirs[0].as_ref().unwrap());
                assert_eq!(
                    ours, theirs,
                    "{n}x{n} {rule:?}: legal moves of {color} differ\n{board}moves: {log:?}"
                );

                // Now and then try an illegal point on purpose: both must refuse it.
                let illegal: Vec<(usize, usize)> = board
                    .points()
                    .map(|p| board.coords(p))
                    .filter(|rc| !ours.contains(rc))
                    .collect();
                // Positions where a repetition rule, not the stones, refused a point: the
                // comparison above covered a ko there.
                ko_positions += usize::from(illegal.iter().any(|&(r, c)| {
                    let mv = Move::Play(board.point(r, c).unwrap());
                    matches!(
                        game.check(color, mv),
                        Err(IllegalMove::Ko | IllegalMove::Superko)
                    )
                }));
                if !illegal.is_empty() && rng.below(8) == 0 {
                    let rc = illegal[rng.below(illegal.len())];
                    let mv = Move::Play(board.point(rc.0, rc.1).unwrap());
                    let reason = game.check(color, mv).unwrap_err();
                    let cmd = format!("play {} {}", gtp_color(color), vertex(n, rc));
                    assert!(
                        gtp.batch(std::slice::from_ref(&cmd))[0].is_err(),
                        "GNU Go accepted {cmd} ({reason})"
                    );
                    refused += 1;
                }

                // A just-captured point if it is legal (a ko retake after threats), else a
                // random legal point, else (or now and then) a pass.
                let retake = last_capture.filter(|rc| ours.contains(rc) && rng.below(2) == 0);
                let choice = match retake {
                    Some(rc) => Some(rc),
                    None if ours.is_empty() || rng.below(30) == 0 => None,
                    None => ours.iter().nth(rng.below(ours.len())).copied(),
                };
                let (mv, text) = match choice {
                    Some(rc) => (Move::Play(board.point(rc.0, rc.1).unwrap()), vertex(n, rc)),
                    None => (Move::Pass, "pass".to_string()),
                };
                let captured = game.play_as(color, mv).unwrap();
                last_capture = match captured[..] {
                    [one] => Some(one),
                    _ => None,
                };
                moves += 1;
                let cmd = format!("play {} {text}", gtp_color(color));
                log.push(cmd.clone());
                let answers = gtp.batch(&[
                    cmd,
                    "list_stones black".to_string(),
                    "list_stones white".to_string(),
                ]);
                answers[0]
                    .as_ref()
                    .unwrap_or_else(|e| panic!("GNU Go refused: {e}\nmoves: {log:?}"));
                for (color, answer) in Color::ALL.iter().zip(&answers[1..]) {
                    let board = game.board();
                    let ours: BTreeSet<(usize, usize)> = board
                        .points()
                        .filter(|&p| board.at(p) == Some(*color))
                        .map(|p| board.coords(p))
                        .collect();
                    assert_eq!(
                        ours,
                        parse_vertices(n, answer.as_ref().unwrap()),
                        "{n}x{n} {rule:?}: {color} stones differ\n{board}moves: {log:?}"
                    );
                }
            }
        }
    }
    (games, moves, refused, ko_positions)
}

#[test]
fn two_thousand_random_games_agree_with_gnu_go() {
    let Some(binary) = testkit::gnugo("go_gnugo::two_thousand_random_games") else {
        return;
    };
    let runs: Vec<_> = [(KoRule::Simple, 1), (KoRule::PositionalSuperko, 2)]
        .into_iter()
        .map(|(rule, seed)| {
            let binary = binary.clone();
            std::thread::spawn(move || (rule, play_games(&binary, rule, seed)))
        })
        .collect();
    let mut total_games = 0;
    for run in runs {
        let (rule, (games, moves, refused, kos)) = run.join().unwrap();
        eprintln!(
            "{rule:?}: {games} games, {moves} moves, {refused} illegal moves refused by both, \
             {kos} positions with a point refused by ko"
        );
        assert!(kos > 100, "{rule:?}: only {kos} positions with a ko");
        total_games += games;
    }
    assert_eq!(total_games, 2000);
}
