//! gtp_match — plays two GTP engines against each other, colours alternating, and reports
//! wins, the win rate with a 95% interval, time per move, illegal moves and crashes; every
//! game is written as SGF. See [`USAGE`].

// A match runner reports on stdout.
#![allow(clippy::print_stdout)]

use std::ops::Bound::{Excluded, Included};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tools::cli;
use tools::matches::{play_game, wilson, Client, Ending, Referee, Rules, ANSWER_LIMIT};

const USAGE: &str = "\
gtp_match: a match between two GTP engines, colours alternating, every game as SGF

usage: gtp_match --a CMD --b CMD [options]

  --a CMD, --b CMD     the engines' command lines (quoted; split on spaces); {game} in
                       one becomes the game's number and starts that engine afresh for
                       every game (e.g. --seed {game}, so games do not repeat)
  --games N            games to play (1..=10000, default 20); A is Black in the odd ones
  --size N             board size (2..=19, default 9)
  --komi K             komi (-1000..=1000, default 7.5)
  --max-moves M        score the game as it stands after M moves (default 4 x points)
  --time MAIN,BYO,ST   send time_settings MAIN BYO ST to both (whole seconds, seconds,
                       stones, as GTP has them)
  --referee CMD        a GTP engine that scores finished games by final_score (e.g.
                       \"/usr/games/gnugo --mode gtp --chinese-rules\"); default: the area
                       count after removing the stones both engines list as dead
  --sgf DIR            write game-<n>.sgf there (default target/match)
  --timeout S          seconds an engine may take over one answer (default 300); one
                       that takes longer is stopped and loses the game
  -h, --help           this text

An illegal move, a crash, garbage or silence from an engine loses it the game and is
reported. A referee that fails is reported too; that game is then scored by the area
count after removing the stones both engines list as dead, and the referee restarted.
Output: one line per game, then wins per colour, A's score (wins + draws / 2) with the
Wilson 95% interval, average seconds per move of each engine.
";

struct Options {
    a: String,
    b: String,
    games: u32,
    rules: Rules,
    referee: Option<String>,
    sgf: PathBuf,
    timeout: Duration,
}

fn parse() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let (mut a, mut b, mut referee) = (None, None, None);
    let (mut games, mut size, mut komi, mut max_moves, mut time) =
        (20u32, 9usize, 7.5f64, None, None);
    let mut sgf = PathBuf::from("target/match");
    let mut timeout = ANSWER_LIMIT;
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--a" => a = Some(cli::text(&flag, args.next())?),
            "--b" => b = Some(cli::text(&flag, args.next())?),
            "--referee" => referee = Some(cli::text(&flag, args.next())?),
            "--sgf" => sgf = PathBuf::from(cli::text(&flag, args.next())?),
            "--timeout" => {
                let s: f64 = cli::number(&flag, args.next(), (Excluded(0.0), Included(86_400.0)))?;
                timeout = Duration::from_secs_f64(s);
            }
            "--games" => games = cli::number(&flag, args.next(), 1..=10_000)?,
            "--size" => size = cli::number(&flag, args.next(), 2..=19)?,
            "--komi" => {
                komi = cli::number(&flag, args.next(), -1000.0..=1000.0)?;
            }
            "--max-moves" => {
                max_moves = Some(cli::number(&flag, args.next(), 1..)?);
            }
            "--time" => {
                let text = cli::text(&flag, args.next())?;
                let whole: Option<Vec<u32>> = text.split(',').map(|n| n.parse().ok()).collect();
                let Some([main, byo, stones]) = whole.as_deref() else {
                    return Err(format!(
                        "--time is MAIN,BYO,STONES, three whole numbers, not {text:?}"
                    ));
                };
                time = Some((*main, *byo, *stones));
            }
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    Ok(Options {
        a: a.ok_or("--a is needed (see --help)")?,
        b: b.ok_or("--b is needed (see --help)")?,
        games,
        rules: Rules {
            size,
            komi,
            max_moves: max_moves.unwrap_or(4 * size * size),
            time,
        },
        referee,
        sgf,
        timeout,
    })
}

fn main() -> ExitCode {
    cli::main("gtp_match", USAGE, run)
}

fn run() -> Result<(), String> {
    let options = parse()?;
    std::fs::create_dir_all(&options.sgf).map_err(|e| format!("{}: {e}", options.sgf.display()))?;
    let start = |cmd: &str| {
        Client::start(cmd)
            .map(|c| c.answer_within(options.timeout))
            .map_err(|e| e.to_string())
    };
    // `{game}` in a command becomes the game's number, and that engine starts afresh for
    // every game (`--seed {game}`: deterministic engines then do not repeat their games).
    let command = |cmd: &str, game: u32| cmd.replace("{game}", &(game + 1).to_string());
    let mut engines = [
        start(&command(&options.a, 0))?,
        start(&command(&options.b, 0))?,
    ];
    let mut referee = match &options.referee {
        Some(cmd) => Referee::Engine(Box::new(start(cmd)?)),
        None => Referee::Internal,
    };
    println!(
        "A: {}\nB: {}\n{} games on {}x{}, komi {}, referee: {}",
        options.a,
        options.b,
        options.games,
        options.rules.size,
        options.rules.size,
        options.rules.komi,
        options
            .referee
            .as_deref()
            .unwrap_or("area count, dead stones agreed by both")
    );
    // wins[engine][colour], draws, time[engine] = (seconds, moves), faults[engine]
    let mut wins = [[0u32; 2]; 2];
    let mut draws = 0u32;
    let mut time = [(0.0f64, 0u32); 2];
    let mut faults: Vec<String> = Vec::new();
    let clock = Instant::now();
    for game in 0..options.games {
        // A is Black in games 1, 3, 5, ...
        let a_black = game % 2 == 0;
        let (black, white) = if a_black { (0, 1) } else { (1, 0) };
        // The players in the SGF: the engine's letter and its command for this game.
        let name = |i: usize| {
            let cmd = [&options.a, &options.b][i];
            format!("{}: {}", ["A", "B"][i], command(cmd, game))
        };
        let names = [name(black), name(white)];
        let [first, second] = &mut engines;
        let (bc, wc) = if a_black {
            (first, second)
        } else {
            (second, first)
        };
        let result = play_game(bc, wc, names, &options.rules, &mut referee);
        let path = options.sgf.join(format!("game-{}.sgf", game + 1));
        std::fs::write(&path, result.record.to_sgf())
            .map_err(|e| format!("{}: {e}", path.display()))?;
        for (colour, engine) in [(0, black), (1, white)] {
            time[engine].0 += result.time[colour].0;
            time[engine].1 += result.time[colour].1;
        }
        let winner = result.winner().map(|c| [black, white][c.index()]);
        match winner {
            Some(engine) => wins[engine][usize::from(engine != black)] += 1,
            None => draws += 1,
        }
        let fault = match &result.ending {
            Ending::Illegal(c, m) | Ending::Crashed(c, m) => {
                let who = ["A", "B"][[black, white][c.index()]];
                Some(format!("{who} {m}"))
            }
            _ => result.referee_fault.clone(),
        };
        let note = match fault {
            Some(fault) => {
                let fault = format!("game {}: {fault}", game + 1);
                faults.push(fault.clone());
                format!(" ({fault})")
            }
            None => String::new(),
        };
        println!(
            "game {:>3}: A {} — {} in {} moves, {}{note} [{:.0} s]",
            game + 1,
            if a_black { "Black" } else { "White" },
            result.record.result,
            result.record.moves.len(),
            path.display(),
            clock.elapsed().as_secs_f64()
        );
        // An engine that crashed is started again for the next game, and one whose command
        // names the game is started with the next game's number; so is a failed referee.
        if game + 1 < options.games {
            for (i, cmd) in [&options.a, &options.b].iter().enumerate() {
                if cmd.contains("{game}") || engines[i].send("protocol_version").is_err() {
                    let next = start(&command(cmd, game + 1))?;
                    std::mem::replace(&mut engines[i], next).quit();
                }
            }
            if let (Referee::Engine(judge), Some(cmd)) = (&mut referee, &options.referee) {
                if judge.send("protocol_version").is_err() {
                    std::mem::replace(judge, Box::new(start(cmd)?)).quit();
                }
            }
        }
    }
    let n = options.games;
    let a_score = f64::from(wins[0][0] + wins[0][1]) + f64::from(draws) / 2.0;
    let (low, high) = wilson(a_score, n);
    println!(
        "A wins {} as Black, {} as White; B wins {} as Black, {} as White; {draws} draws",
        wins[0][0], wins[0][1], wins[1][0], wins[1][1]
    );
    println!(
        "A scores {a_score} of {n}: {:.1}% (95% interval {:.1}%–{:.1}%)",
        100.0 * a_score / f64::from(n),
        100.0 * low,
        100.0 * high
    );
    for (i, name) in ["A", "B"].iter().enumerate() {
        let (seconds, moves) = time[i];
        println!(
            "{name}: {:.3} s per move over {moves} moves",
            seconds / f64::from(moves.max(1))
        );
    }
    println!(
        "illegal moves and crashes: {}",
        if faults.is_empty() {
            "none".to_string()
        } else {
            faults.join("; ")
        }
    );
    for engine in engines {
        engine.quit();
    }
    if let Referee::Engine(judge) = referee {
        judge.quit();
    }
    Ok(())
}
