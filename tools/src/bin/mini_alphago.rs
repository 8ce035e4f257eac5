//! mini_alphago — seed 004's 7×7 mini AlphaGo, and a real Monte Carlo player built from
//! the same parts.
//!
//! With no arguments it reproduces the seed: the seed's network and weights, the seed's
//! search (500 iterations of PUCT, c = 2, with the seed's sign convention) from the empty
//! board, and the seed's report. Flags:
//!
//! ```text
//! --position FILE|-     start from a position: N, N rows of . X O, the side to move (X or O)
//! --game seed|go|othello  the seed's simplified game (default); Go: captures, suicide
//!                       illegal, positional superko, two passes end, area scoring with komi;
//!                       or Othello (position in othello_solve's format; `--rules` is the
//!                       same flag)
//! --evaluator net|playout   the network (default) or random (light, for Go) playouts
//! --weights FILE        a trained network (az_train) for Go or Othello instead of the
//!                       seed's 7x7 one
//! --iterations N        search iterations per move (default 500)
//! --c-puct C            exploration constant (default 2)
//! --seed N              random seed for playouts (default 1)
//! --komi K              komi for Go (default 7.5); for Othello, the network search's
//! --lcb Z:S             the move by a lower confidence bound on its value
//! --views V             plain, avg, random or avgK: how a trained network sees positions
//! --dynamic-komi K:T, --dynamic-komi-ahead K:T   Othello's dynamic komi (komi-plane nets)
//! --selfplay            play a whole game between two searches
//! --seed-compatible     the seed's sign convention and report (what no arguments means)
//! ```
//!
//! Bad input (a board size not 7 for the network, wrong rows, unknown symbols, a flag out of
//! range) is one line on stderr and exit status 1.

// A command-line tool reports on stdout.
#![allow(clippy::print_stdout)]

use games::alphago::{Network, SeedGame, CELLS};
use games::go::{self, KoRule};
use games::judge::Tokens;
use games::mcts::{Evaluator, Node, Playouts, Settings, Signs, Tree};
use games::nn::{DynamicKomi, Inference};
use games::othello::{self, Board as OthelloBoard};
use games::search::Game;
use games::Color;
use std::fmt::Write as _;
use std::io::{Read, Write as _};
use std::process::ExitCode;
use tools::cli::{self, Views};

#[derive(Clone, Copy, PartialEq)]
enum Rules {
    Seed,
    Go,
    Othello,
}

#[derive(Clone, Copy, PartialEq)]
enum Eval {
    Net,
    Playout,
}

struct Options {
    position: Option<String>,
    weights: Option<String>,
    rules: Rules,
    evaluator: Eval,
    settings: Settings,
    seed: u64,
    /// `--komi`, if given: Go's (7.5 if not), or for Othello the network's search's komi
    /// for Black (0 if not).
    komi: Option<f64>,
    /// `--dynamic-komi` and `--dynamic-komi-ahead` (Othello with a komi-plane network).
    dynamic: Option<DynamicKomi>,
    /// `--views`: how the network sees each position.
    views: Views,
    selfplay: bool,
    seed_compatible: bool,
}

const USAGE: &str = "\
mini_alphago: the tutorial's 7x7 mini AlphaGo (seed 004), and a Monte Carlo player built
from the same parts.

usage: mini_alphago [options]

With no options it prints the seed's own output: its network and weights, 500 PUCT
iterations (c = 2) from the empty board with the seed's sign convention.

  --position FILE|-         start from a position (- reads stdin): N, N rows of
                            . (empty) X (black) O (white), then the side to move, X or O
  --game seed|go|othello    the seed's simplified game (default); Go: captures,
                            suicide illegal, positional superko, two passes end the
                            game, area scoring with komi; or Othello, whose position
                            file is othello_solve's: N, N rows of B W ., then B or W
                            (the 6x6 start without --position). --rules is the same.
  --evaluator net|playout   the network (default: the seed's, 7x7 Go or the seed's
                            game) or random playouts (light playouts for Go)
  --weights FILE            a network trained by az_train, for Go or Othello
  --iterations N            search iterations per move (1..=1000000, default 500)
  --c-puct C                the exploration constant (0..=1000, default 2)
  --seed N                  random seed for the playouts (default 1)
  --komi K                  komi for Go (default 7.5); for Othello with --weights, the
                            discs the search adds to Black's score (a whole number,
                            -36..=36, default 0; az_train --komi)
  --lcb Z:S                 play the move whose value is highest Z standard errors
                            below its mean, among moves with at least S of the most
                            visited one's visits (KataGo: 5:0.15), not the most visited
  --views V                 how a trained network (--weights) sees each position: plain
                            (default), avg (the 8 symmetries averaged, 8 times the
                            work), random (one drawn per evaluation) or avgK (K of the 8
                            drawn per evaluation and averaged)
  --dynamic-komi K:T        Othello with a network trained with the komi plane
                            (az_train --komi): where the network values the root below
                            -T for the side to move, it searches as if it got K discs
  --dynamic-komi-ahead K:T  and above T, as if it gave K discs (az_eval's flags of the
                            same names; the report says which applied)
  --selfplay                play a whole game between two searches
  --seed-compatible         the seed's sign convention and report (what no options means)
  -h, --help                this text

The first line is `best move: M`. Go moves are printed as (row, column), 0-based from the
top-left point as in the tutorials, Othello moves as squares (c4: column c, row 4 from the
top); `pass` is a pass. Then come the settings, the root's visits and the five most
visited moves with their visits, prior P and Q (for the side choosing the move).
";

fn main() -> ExitCode {
    cli::main("mini_alphago", USAGE, || {
        let report = run()?;
        let mut out = std::io::stdout().lock();
        out.write_all(report.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write stdout: {e}"))
    })
}

fn parse_options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1).peekable();
    let mut options = Options {
        position: None,
        weights: None,
        rules: Rules::Seed,
        evaluator: Eval::Net,
        settings: Settings::default(),
        seed: 1,
        komi: None,
        dynamic: None,
        views: Views::Plain,
        selfplay: false,
        seed_compatible: args.peek().is_none(),
    };
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--position" => options.position = Some(cli::text(&flag, args.next())?),
            "--rules" | "--game" => {
                let rules = [
                    ("seed", Rules::Seed),
                    ("go", Rules::Go),
                    ("othello", Rules::Othello),
                ];
                options.rules = cli::choice(&flag, args.next(), &rules)?;
            }
            "--weights" => options.weights = Some(cli::text(&flag, args.next())?),
            "--evaluator" => {
                let evaluators = [("net", Eval::Net), ("playout", Eval::Playout)];
                options.evaluator = cli::choice(&flag, args.next(), &evaluators)?;
            }
            "--iterations" => {
                options.settings.iterations = cli::number(&flag, args.next(), 1..=1_000_000)?;
            }
            "--c-puct" => {
                options.settings.c_puct = cli::number(&flag, args.next(), 0.0..=1000.0)?;
            }
            "--seed" => options.seed = cli::number(&flag, args.next(), ..)?,
            "--komi" => {
                options.komi = Some(cli::number(&flag, args.next(), -400.0..=400.0)?);
            }
            "--lcb" => options.settings.lcb = Some(cli::lcb(&flag, args.next())?),
            "--dynamic-komi" | "--dynamic-komi-ahead" => {
                cli::dynamic_komi(&flag, args.next(), &mut options.dynamic)?;
            }
            "--views" => options.views = Views::parse(&flag, args.next())?,
            "--selfplay" => options.selfplay = true,
            "--seed-compatible" => options.seed_compatible = true,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    if options.seed_compatible {
        if options.rules != Rules::Seed
            || options.evaluator != Eval::Net
            || options.weights.is_some()
        {
            return Err("--seed-compatible is the seed's game with its network: drop --rules, --evaluator and --weights".to_string());
        }
        if options.settings.lcb.is_some() {
            return Err(
                "--seed-compatible plays the most visited move, as the seed: drop --lcb"
                    .to_string(),
            );
        }
        options.settings.signs = Signs::Seed;
    }
    let trained = options.evaluator == Eval::Net && options.weights.is_some();
    if options.views != Views::Plain && !trained {
        return Err("--views is for a trained network (--weights)".to_string());
    }
    if options.dynamic.is_some() && !(trained && options.rules == Rules::Othello) {
        return Err("--dynamic-komi and --dynamic-komi-ahead are for Othello with a trained network (--weights)".to_string());
    }
    Ok(options)
}

/// A position as the user wrote it: the size, the stones row by row, the side to move.
struct Setup {
    n: usize,
    cells: Vec<Option<Color>>,
    to_move: Color,
}

/// The bytes of a position file, or of stdin for `-`.
fn read_source(source: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    let read = if source == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(source).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    read.map_err(|e| format!("{source}: {e}"))?;
    Ok(bytes)
}

fn read_position(source: &str) -> Result<Setup, String> {
    let bytes = read_source(source)?;
    let at = |e: games::judge::InputError| format!("position {source}: {e}");
    let mut tokens = Tokens::new(&bytes);
    let n = tokens
        .parse_in("the board size N", 1..=19usize)
        .map_err(at)?;
    let mut cells = Vec::with_capacity(n * n);
    for r in 0..n {
        let row = tokens
            .grid_row("a board row", Some(r), n, &go::SYMBOLS)
            .map_err(at)?;
        cells.extend(row);
    }
    let to_move = match tokens.token("the side to move (X or O)").map_err(at)? {
        "X" => Color::Black,
        "O" => Color::White,
        other => {
            return Err(at(
                tokens.rule_error(format!("the side to move is X or O, not {other:?}"))
            ))
        }
    };
    tokens.finish().map_err(at)?;
    Ok(Setup { n, cells, to_move })
}

/// `Black b <things>, White w <things>: ` and who wins on that count.
fn counted<T: Ord + std::fmt::Display>(b: T, w: T, things: &str) -> String {
    let verdict = match b.cmp(&w) {
        std::cmp::Ordering::Greater => "Black wins",
        std::cmp::Ordering::Less => "White wins",
        std::cmp::Ordering::Equal => "a draw",
    };
    format!("Black {b} {things}, White {w} {things}: {verdict}")
}

/// What the report needs from a game besides the trait.
trait Shown: Game {
    fn describe(&self, mv: Self::Move) -> String;
    fn drawing(&self) -> String;
    fn result(&self) -> String;
}

impl Shown for SeedGame {
    fn describe(&self, k: usize) -> String {
        format!("({}, {})", k / 7, k % 7)
    }

    fn drawing(&self) -> String {
        (0..7)
            .map(|r| {
                let row: Vec<&str> = (0..7)
                    .map(|c| match self.at(r * 7 + c) {
                        None => ".",
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                    })
                    .collect();
                row.join(" ") + "\n"
            })
            .collect()
    }

    fn result(&self) -> String {
        counted(self.count(Color::Black), self.count(Color::White), "stones")
    }
}

impl Shown for go::Position {
    fn describe(&self, mv: go::Move) -> String {
        match mv {
            go::Move::Play(p) => {
                let (r, c) = self.board().coords(p);
                format!("({r}, {c})")
            }
            go::Move::Pass => "pass".to_string(),
        }
    }

    fn drawing(&self) -> String {
        self.board().to_string()
    }

    fn result(&self) -> String {
        let (b, w) = self.board().area_score();
        let margin = self.margin();
        let verdict = if margin > 0.0 {
            format!("Black wins by {margin}")
        } else if margin < 0.0 {
            format!("White wins by {}", -margin)
        } else {
            "a tie".to_string()
        };
        format!(
            "area: Black {b}, White {w}, komi {}: {verdict}",
            self.komi()
        )
    }
}

impl Shown for OthelloBoard {
    fn describe(&self, mv: othello::Move) -> String {
        match mv {
            othello::Move::Play(sq) => sq.to_string(),
            othello::Move::Pass => "pass".to_string(),
        }
    }

    fn drawing(&self) -> String {
        self.to_string()
    }

    fn result(&self) -> String {
        counted(self.count(Color::Black), self.count(Color::White), "discs")
    }
}

/// Othello: from a position file in `othello_solve`'s format, or the 6×6 start.
fn run_othello(options: &Options) -> Result<String, String> {
    let board = match &options.position {
        Some(source) => tools::position::othello(&read_source(source)?)
            .map_err(|e| format!("position {source}: {e}"))?,
        None => OthelloBoard::new(6).map_err(|e| e.to_string())?,
    };
    match (options.evaluator, &options.weights) {
        (Eval::Net, Some(path)) => {
            let net = cli::load_weights(path, "othello", Some(board.size()))?;
            let mut inference = options.views.inference(&net, options.seed);
            let komi = options.othello_komi()?;
            inference.set_komi(komi);
            if let Some(dynamic) = options.dynamic {
                if !cli::sees_komi(&net) {
                    return Err(format!("weights {path}: --dynamic-komi and --dynamic-komi-ahead need a network with the komi plane (az_train --komi)"));
                }
                inference.use_dynamic_komi(dynamic);
            }
            // What dynamic komi decided at the search's root: the komi it moved from the set one.
            let side = board.side();
            let note = |inference: &Inference<'_>| {
                options.dynamic?;
                let moved = inference.komi() - komi;
                Some(match if side == Color::Black { moved } else { -moved } {
                    0 => format!("dynamic komi: {side} plays the set komi here"),
                    k if k > 0 => format!("dynamic komi: {side} is behind and gets {k} discs here"),
                    k => format!("dynamic komi: {side} is ahead and gives {} discs here", -k),
                })
            };
            play(&board, options, &mut inference, note)
        }
        (Eval::Net, None) => Err("Othello with the network needs --weights FILE (a trained network; see az_train), or --evaluator playout".to_string()),
        (Eval::Playout, _) if options.komi.is_some() => Err("--komi for Othello is the network's search's: drop it with --evaluator playout".to_string()),
        (Eval::Playout, _) => play(&board, options, &mut Playouts::<OthelloBoard>::new(options.seed), |_| None),
    }
}

impl Options {
    /// Go's komi: `--komi`, or 7.5.
    fn go_komi(&self) -> f64 {
        self.komi.unwrap_or(7.5)
    }

    /// How the move is chosen, after the search settings: nothing for the most visited.
    fn lcb_note(&self) -> String {
        self.settings.lcb.map_or(String::new(), |l| {
            format!(
                ", the move by LCB ({} standard errors, {}% of the visits)",
                l.stdevs,
                l.min_share * 100.0
            )
        })
    }

    /// How the network sees the positions, after its name: nothing for the plain view.
    fn views_note(&self) -> String {
        match self.views {
            Views::Plain => String::new(),
            Views::Sampled(1) => " (one of the 8 views at random)".to_string(),
            Views::Sampled(8) => " (the 8 views averaged)".to_string(),
            Views::Sampled(k) => format!(" ({k} of the 8 views at random, averaged)"),
        }
    }

    /// The Othello search's komi for Black: `--komi`, a whole number of discs, or 0.
    fn othello_komi(&self) -> Result<i32, String> {
        match self.komi {
            None => Ok(0),
            Some(k) if k.fract() == 0.0 && (-36.0..=36.0).contains(&k) => Ok(k as i32),
            Some(k) => Err(format!(
                "--komi for Othello must be a whole number of discs from -36 to 36, not {k}"
            )),
        }
    }
}

fn run() -> Result<String, String> {
    let options = parse_options()?;
    if options.rules == Rules::Othello {
        return run_othello(&options);
    }
    if options.weights.is_some() && (options.rules != Rules::Go || options.evaluator != Eval::Net) {
        return Err("--weights is for --game go or othello with the network evaluator".to_string());
    }
    let setup = options.position.as_deref().map(read_position).transpose()?;
    let needs_seven = options.rules == Rules::Seed
        || (options.evaluator == Eval::Net && options.weights.is_none());
    if let Some(s) = &setup {
        if needs_seven && s.n != 7 {
            return Err(format!(
                "the board is {0}x{0}: the seed's game and the network are 7x7",
                s.n
            ));
        }
    }
    match options.rules {
        Rules::Seed => {
            let game = match &setup {
                Some(s) => {
                    let mut cells = [None; CELLS];
                    cells.copy_from_slice(&s.cells);
                    SeedGame::from_cells(cells, s.to_move)
                }
                None => SeedGame::new(),
            };
            match options.evaluator {
                Eval::Net => play(&game, &options, &mut Network::seed(), |_| None),
                Eval::Playout => play(
                    &game,
                    &options,
                    &mut Playouts::<SeedGame>::new(options.seed),
                    |_| None,
                ),
            }
        }
        Rules::Go => {
            let (n, stones) = match &setup {
                Some(s) => (s.n, s.cells.clone()),
                None => (7, vec![None; 49]),
            };
            let placed = stones
                .iter()
                .enumerate()
                .filter_map(|(k, &cell)| Some((k / n, k % n, cell?)));
            let board =
                go::Board::with_stones(n, n, placed).map_err(|e| format!("position: {e}"))?;
            let mut game =
                go::Position::new(board, KoRule::PositionalSuperko).with_komi(options.go_komi());
            if let Some(s) = &setup {
                game.set_side_to_move(s.to_move);
            }
            match (options.evaluator, &options.weights) {
                (Eval::Net, Some(path)) => {
                    let net = cli::load_weights(path, "go", Some(n))?;
                    play(
                        &game,
                        &options,
                        &mut options.views.inference(&net, options.seed),
                        |_| None,
                    )
                }
                (Eval::Net, None) => play(&game, &options, &mut Network::seed(), |_| None),
                (Eval::Playout, _) => play(
                    &game,
                    &options,
                    &mut Playouts::with_rollout(options.seed, go::playout::light_rollout),
                    |_| None,
                ),
            }
        }
        Rules::Othello => run_othello(&options),
    }
}

/// The search's report from `game` (or, with `--selfplay`, a whole game); `root_note`
/// reads from the evaluator after the search a line on what it decided at the root (the
/// dynamic komi), if anything.
fn play<G: Shown, E: Evaluator<G>>(
    game: &G,
    options: &Options,
    evaluator: &mut E,
    root_note: impl Fn(&E) -> Option<String>,
) -> Result<String, String> {
    if game.moves().is_empty() {
        return Err(
            "the game is already over in this position: there is no move to search".to_string(),
        );
    }
    let mut out = String::new();
    if options.selfplay {
        selfplay(game, options, evaluator, &mut out);
        return Ok(out);
    }
    let tree = Tree::search(game, options.settings, evaluator);
    let best = tree.best_move().expect("a game with moves has a best move");
    let mut ranked: Vec<_> = tree.children().iter().collect();
    // Stable: equal visits stay in move order, as Python's sorted keeps them.
    ranked.sort_by_key(|child| std::cmp::Reverse(child.visits));
    if options.seed_compatible {
        seed_report(game, options, &tree, &ranked, &mut out);
        return Ok(out);
    }
    let _ = writeln!(out, "best move: {}", game.describe(best));
    let _ = writeln!(
        out,
        "rules: {}; evaluator: {}; {} iterations, c_puct {}{}",
        match options.rules {
            Rules::Seed => "the seed's game".to_string(),
            Rules::Go => format!("Go, positional superko, komi {}", options.go_komi()),
            Rules::Othello => match options.komi {
                Some(k) if k != 0.0 => format!("Othello, the search at komi {k} for Black"),
                _ => "Othello".to_string(),
            },
        },
        match (options.evaluator, &options.weights) {
            (Eval::Net, Some(path)) => format!("network {path}{}", options.views_note()),
            (Eval::Net, None) => "the seed's network".to_string(),
            (Eval::Playout, _) => format!("playouts (seed {})", options.seed),
        },
        options.settings.iterations,
        options.settings.c_puct,
        options.lcb_note()
    );
    let _ = writeln!(out, "to move: {}", game.side());
    if let Some(note) = root_note(evaluator) {
        let _ = writeln!(out, "{note}");
    }
    let _ = writeln!(out, "root visits: {}", tree.root().visits);
    let _ = writeln!(
        out,
        "{:>8} {:>8} {:>10} {:>10}",
        "move", "visits", "prior P", "Q value"
    );
    // Q for the player choosing the move: minus the child's own value.
    top_five(game, &ranked, "", |child| -child.q(), &mut out);
    Ok(out)
}

/// The seed's report, line for line (its Korean text), for the seed-compatible mode.
fn seed_report<G: Shown>(
    game: &G,
    options: &Options,
    tree: &Tree<G>,
    ranked: &[&Node<G>],
    out: &mut String,
) {
    let best = tree.best_move().expect("a best move");
    let fresh = game.moves().len() == CELLS;
    let turn = match game.side() {
        Color::Black => "흑",
        Color::White => "백",
    };
    let _ = writeln!(out, "=== 7x7 미니 알파고 — 첫 수 결정 ===");
    if fresh {
        let _ = writeln!(out, "입력: 7x7 빈 보드, {turn} 차례");
    } else {
        let _ = writeln!(
            out,
            "입력: 7x7 보드 (돌 {}개), {turn} 차례",
            CELLS - game.moves().len()
        );
    }
    let _ = writeln!(out, "네트워크: 3층 CNN (Policy + Value)");
    let _ = writeln!(
        out,
        "MCTS: {} iterations, PUCT 알고리즘",
        options.settings.iterations
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "알파고의 첫 수: {}", game.describe(best));
    let _ = writeln!(out);
    let _ = writeln!(out, "루트 visits: {}", tree.root().visits);
    let _ = writeln!(out, "상위 5개 자식 (visits 기준):");
    let _ = writeln!(
        out,
        "  {:>8} {:>8} {:>10} {:>10}",
        "자리", "visits", "prior P", "Q value"
    );
    // The seed prints each child's own value.
    top_five(game, ranked, "  ", Node::q, out);
}

/// The five most visited moves, one row each: move, visits, prior, Q (as `q` reads it).
fn top_five<G: Shown>(
    game: &G,
    ranked: &[&Node<G>],
    indent: &str,
    q: impl Fn(&Node<G>) -> f64,
    out: &mut String,
) {
    for child in ranked.iter().take(5) {
        let mv = child.mv.expect("a child has a move");
        let _ = writeln!(
            out,
            "{indent}{:>8} {:>8} {:>10.4} {:>10.4}",
            game.describe(mv),
            child.visits,
            child.prior,
            q(child)
        );
    }
}

fn selfplay<G: Shown, E: Evaluator<G>>(
    start: &G,
    options: &Options,
    evaluator: &mut E,
    out: &mut String,
) {
    let _ = writeln!(
        out,
        "self-play: {} iterations per move, c_puct {}{}{}",
        options.settings.iterations,
        options.settings.c_puct,
        options.lcb_note(),
        match options.views_note() {
            note if note.is_empty() => note,
            note => format!("; network{note}"),
        }
    );
    let mut game = start.clone();
    let mut ply = 0;
    while !game.moves().is_empty() {
        let tree = Tree::search(&game, options.settings, evaluator);
        let mv = tree.best_move().expect("a game with moves has a best move");
        ply += 1;
        let _ = writeln!(out, "{ply:>4}. {} {}", game.side(), game.describe(mv));
        game = game.after(mv).expect("the search's move is legal");
    }
    let _ = writeln!(out, "final board:");
    let _ = write!(out, "{}", game.drawing());
    let _ = writeln!(out, "{}", game.result());
}
