//! The Go engine behind `go_engine`: the whole game (ko, positional superko, passes, undo),
//! GTP commands, and a Monte Carlo search that never fills its own eyes and passes with care.

use crate::gtp::{self, Command, Response};
use crate::rave::{NetPrior, Rave};
use games::alphago::{Network, SIDE};
use games::go::playout::{light_rollout, playout};
use games::go::{Board, IllegalMove, KoRule, Move, Point, Position};
use games::mcts::{Evaluator, Playouts, Settings, Tree};
use games::nn::{Inference, Net};
use games::rng::Rng;
use games::search::Game;
use games::Color;
use std::time::{Duration, Instant};

/// The commands the engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
];

/// Board sizes the engine plays: 2×2 to 19×19 (GTP's letters reach 25, GNU Go's boards 19).
pub const SIZES: std::ops::RangeInclusive<usize> = 2..=19;

/// How the engine evaluates a leaf.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluatorKind {
    /// Uniform priors and one light playout (michi-style) per leaf.
    Playouts,
    /// Seed 004's network (7×7 only): its policy as priors, its value head as the value.
    SeedNetwork,
    /// Priors from tactics (captures, escapes from atari, no self-atari) and one light
    /// playout per leaf.
    Heuristic,
    /// A network trained by `az_train` (its board size only): PUCT with its policy as
    /// priors and its value head as the value.
    Trained,
    /// Not PUCT but michi's search: RAVE (all moves as first) and tactical priors as
    /// prior visits, one heavy or light playout per leaf ([`crate::rave`]).
    Rave,
    /// [`EvaluatorKind::Rave`] with a trained network's policy added to the prior visits
    /// ([`NetPrior`], [`Options::net_prior`] visits per move), on the network's board size
    /// (plain rave on others): AlphaGo's policy network guiding a playout search.
    RaveNet,
}

impl EvaluatorKind {
    /// Whether the search is michi's RAVE ([`crate::rave`]) rather than PUCT.
    pub const fn is_rave(self) -> bool {
        matches!(self, EvaluatorKind::Rave | EvaluatorKind::RaveNet)
    }
}

/// Search and play settings, from the command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// Playouts (search iterations) per move, at most.
    pub playouts: u32,
    /// Seconds per move, at most (the clock of `time_settings`/`time_left` can lower it).
    pub seconds: Option<f64>,
    /// Threads: one tree each, whose root visits are added up (root parallel), or with
    /// `tree_parallel` (RAVE only) one tree grown by all of them.
    pub threads: usize,
    /// The RAVE search's threads share one tree (each marks its path with a virtual loss).
    pub tree_parallel: bool,
    /// Random seed: one thread and one seed play the same moves every time.
    pub seed: u64,
    /// Resign when the best move's estimated win rate is below this (0 never resigns).
    pub resign: f64,
    /// The PUCT exploration constant.
    pub c_puct: f64,
    /// What evaluates a leaf.
    pub evaluator: EvaluatorKind,
    /// Heavy playouts (captures, escapes and 3×3 shapes near the last move:
    /// [`games::go::playout::playout_heavy_recorded`]) in the RAVE search, not light ones.
    pub heavy: bool,
    /// Start every RAVE search from an empty tree rather than from the part of the last
    /// search's tree that the moves since lead to.
    pub fresh_tree: bool,
    /// Prior visits per move from the network's policy with [`EvaluatorKind::RaveNet`].
    pub net_prior: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            playouts: 2000,
            seconds: None,
            threads: 1,
            seed: 1,
            resign: 0.05,
            // With uniform priors the exploration term needs a large constant: on 7x7
            // against GNU Go level 1 (gtp_match, 8 games each at 10,000 playouts) c = 3
            // scored 6/8, c = 6 5/8; at 3,000 playouts c = 1 scored 0/6, c = 4 3/6, c = 16 0/6.
            c_puct: 3.0,
            // Against GNU Go level 10 on 7x7 at 0.9 s per move (BENCHMARKS.md), PUCT with
            // uniform priors scored 45% of 20 games, RAVE 95% of 40.
            evaluator: EvaluatorKind::Rave,
            // Heavy against light at 0.5 s per move on 9x9, one thread each (gtp_match,
            // 24 games): 18.5 of 24 for heavy (BENCHMARKS.md).
            heavy: true,
            fresh_tree: false,
            // Tree against root parallel, 2 threads each, heavy playouts, 0.5 s per move on
            // 9x9 (gtp_match, 16 games): 8.5 of 16, no difference shown.
            tree_parallel: false,
            // rave-net on 7x7 against GNU Go level 10 (BENCHMARKS.md, "Mini AlphaZero").
            net_prior: 20.0,
        }
    }
}

/// The clock, as `time_settings` and `time_left` give it (seconds).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Clock {
    main: f64,
    byo_yomi: f64,
    stones: u32,
    /// What `time_left` last said for our colour: seconds and stones left.
    left: Option<(f64, u32)>,
}

/// A Go position for the search: the tree never plays into the mover's own one-point eye,
/// and passes only when nothing else is left, or after the opponent's pass when the board
/// as it stands already wins on area (then passing ends the game with that win).
#[derive(Clone, Debug)]
pub struct Careful {
    position: Position,
    /// `kgs-genmove_cleanup`: never pass while another move exists.
    cleanup: bool,
}

impl Careful {
    /// The careful version of `position`.
    pub fn new(position: Position, cleanup: bool) -> Careful {
        Careful { position, cleanup }
    }

    /// The Go position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Plays `mv` in place.
    ///
    /// # Errors
    ///
    /// Why the move is illegal; nothing changes then.
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        self.position.play(mv).map(|_| ())
    }
}

impl Game for Careful {
    type Move = Move;

    fn side(&self) -> Color {
        self.position.side_to_move()
    }

    fn moves(&self) -> Vec<Move> {
        if self.position.is_over() {
            return Vec::new();
        }
        let me = self.position.side_to_move();
        let board = self.position.board();
        let mut moves: Vec<Move> = self
            .position
            .legal_moves()
            .into_iter()
            .filter(|mv| matches!(mv, Move::Play(p) if !board.is_eye(*p, me)))
            .collect();
        let ahead = match me {
            Color::Black => self.position.margin() > 0.0,
            Color::White => self.position.margin() < 0.0,
        };
        let pass_wins = self.position.consecutive_passes() == 1 && ahead && !self.cleanup;
        if moves.is_empty() || pass_wins {
            moves.push(Move::Pass);
        }
        moves
    }

    fn after(&self, mv: Move) -> Option<Careful> {
        let mut next = self.clone();
        next.position.play(mv).ok()?;
        Some(next)
    }

    fn score(&self) -> Option<i32> {
        self.position.result()
    }
}

fn careful_rollout(game: &Careful, rng: &mut Rng) -> f64 {
    light_rollout(&game.position, rng)
}

/// The seed's network, reading a careful position as the Go position it is.
struct NetworkOnCareful(Network);

impl Evaluator<Careful> for NetworkOnCareful {
    fn evaluate(&mut self, game: &Careful, moves: &[Move], priors: &mut Vec<f64>) -> f64 {
        <Network as Evaluator<Position>>::evaluate(&mut self.0, &game.position, moves, priors)
    }
}

/// A trained network, reading a careful position as the Go position it is.
struct TrainedOnCareful<'a>(Inference<'a>);

impl Evaluator<Careful> for TrainedOnCareful<'_> {
    fn evaluate(&mut self, game: &Careful, moves: &[Move], priors: &mut Vec<f64>) -> f64 {
        self.0.evaluate(&game.position, moves, priors)
    }
}

/// What playing on a point does nearby, for priors: the enemy stones it captures, whether
/// it saves one of the mover's chains from atari, and the liberties the new stone's chain
/// would have (counted roughly: its empty neighbours, the other liberties of the chains it
/// joins, and one per capture).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tactics {
    /// Enemy stones captured.
    pub captures: usize,
    /// Whether an own chain in atari is joined.
    pub saves: bool,
    /// The rough liberty count of the stone's chain after the move.
    pub liberties: usize,
}

/// The chains of a board, and for each point (row-major) the index of its chain.
pub struct ChainMap {
    chains: Vec<games::go::Chain>,
    at: Vec<usize>,
}

impl ChainMap {
    /// The chains of `board`.
    pub fn new(board: &Board) -> ChainMap {
        let cols = board.cols();
        let chains = board.chains();
        let mut at = vec![usize::MAX; board.rows() * cols];
        for (i, chain) in chains.iter().enumerate() {
            for &s in &chain.stones {
                let (r, c) = board.coords(s);
                at[r * cols + c] = i;
            }
        }
        ChainMap { chains, at }
    }

    /// What a stone of `me` on the empty point `p` does.
    pub fn tactics(&self, board: &Board, me: Color, p: Point) -> Tactics {
        let cols = board.cols();
        let (r, c) = board.coords(p);
        let around = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        let mut out = Tactics::default();
        let mut seen = [usize::MAX; 4];
        for (k, &(nr, nc)) in around.iter().enumerate() {
            let Some(q) = board.point(nr, nc) else {
                continue;
            };
            match board.at(q) {
                None => out.liberties += 1,
                Some(_) => {
                    let i = self.at[nr * cols + nc];
                    if seen.contains(&i) {
                        continue;
                    }
                    seen[k] = i;
                    let chain = &self.chains[i];
                    let libs = chain.liberties.len();
                    if chain.color == me {
                        out.saves |= libs == 1;
                        out.liberties += libs - 1;
                    } else if libs == 1 {
                        out.captures += chain.stones.len();
                        out.liberties += 1;
                    }
                }
            }
        }
        out
    }
}

/// Priors from the tactics around each point, and a light playout for the value: a move
/// that captures weighs 4 plus the stones it takes, one that saves an own chain in atari 3,
/// one that puts its own chain in atari 0.1, the pass 0.1, every other move 1.
struct TacticalPriors(Playouts<Careful>);

impl Evaluator<Careful> for TacticalPriors {
    fn evaluate(&mut self, game: &Careful, moves: &[Move], priors: &mut Vec<f64>) -> f64 {
        let board = game.position.board();
        let me = game.position.side_to_move();
        let chains = ChainMap::new(board);
        priors.clear();
        for &mv in moves {
            let Move::Play(p) = mv else {
                priors.push(0.1);
                continue;
            };
            let t = chains.tactics(board, me, p);
            let weight = if t.captures > 0 {
                4.0 + t.captures as f64
            } else if t.saves && t.liberties >= 2 {
                3.0
            } else if t.liberties <= 1 {
                0.1
            } else {
                1.0
            };
            priors.push(weight);
        }
        let total: f64 = priors.iter().sum();
        for p in priors.iter_mut() {
            *p /= total;
        }
        let mut uniform = Vec::new();
        self.0.evaluate(game, moves, &mut uniform)
    }
}

/// What a search found: the move, its estimated win rate for the mover, the playouts run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The most visited move.
    pub mv: Move,
    /// Its mean value for the mover, as a win rate in `[0, 1]`.
    pub win_rate: f64,
    /// The root's visits over all threads: the playouts run, and with kept trees
    /// ([`Rave::descend`]) those of earlier searches through this position.
    pub playouts: u64,
}

/// Searches `position` for its side to move: `threads` independent trees (seeds `seed`,
/// `seed + 1`, ...) each run until its share of `playouts` or the deadline, and their root
/// visits are added up; or, with [`EvaluatorKind::Rave`] and `tree_parallel`, one tree
/// grown by `threads` walkers (the same seeds). `net` is the network of
/// [`EvaluatorKind::Trained`] and [`EvaluatorKind::RaveNet`].
///
/// # Panics
///
/// With [`EvaluatorKind::Trained`] and no `net`, or with it or
/// [`EvaluatorKind::RaveNet`] and a `net` for another board size.
pub fn search(
    position: &Position,
    last: Option<Point>,
    options: &Options,
    net: Option<&Net>,
    deadline: Option<Instant>,
    cleanup: bool,
) -> Choice {
    let root = Careful::new(position.clone(), cleanup);
    search_from(&root, last, options, net, deadline, &mut Vec::new())
}

/// [`search`] from `root`; with [`EvaluatorKind::Rave`], `kept` holds the trees already
/// grown for this root (from [`Rave::descend`]), or none, and is left with the trees grown,
/// for the next move.
fn search_from(
    root: &Careful,
    last: Option<Point>,
    options: &Options,
    net: Option<&Net>,
    deadline: Option<Instant>,
    kept: &mut Vec<Rave>,
) -> Choice {
    let threads = options.threads.max(1);
    let share = (options.playouts / threads as u32).max(1);
    let settings = Settings {
        iterations: share,
        c_puct: options.c_puct,
        ..Settings::default()
    };
    let run = |index: usize| -> Vec<(Move, u32, f64)> {
        let seed = options.seed.wrapping_add(index as u64);
        match options.evaluator {
            EvaluatorKind::Playouts => {
                let mut evaluator = Playouts::with_rollout(seed, careful_rollout);
                grow(root, settings, share, deadline, &mut evaluator)
            }
            EvaluatorKind::SeedNetwork => {
                let mut evaluator = NetworkOnCareful(Network::seed());
                grow(root, settings, share, deadline, &mut evaluator)
            }
            EvaluatorKind::Trained => {
                let net = net.expect("the trained evaluator has a network");
                let mut evaluator = TrainedOnCareful(Inference::new(net));
                grow(root, settings, share, deadline, &mut evaluator)
            }
            EvaluatorKind::Heuristic => {
                let mut evaluator = TacticalPriors(Playouts::with_rollout(seed, careful_rollout));
                grow(root, settings, share, deadline, &mut evaluator)
            }
            EvaluatorKind::Rave | EvaluatorKind::RaveNet => {
                unreachable!("the RAVE trees are grown below")
            }
        }
    };
    let prior = net_prior(options, net);
    let results: Vec<Vec<(Move, u32, f64)>> = if options.evaluator.is_rave() {
        if kept.is_empty() {
            let (trees, walkers) = if options.tree_parallel {
                (1, threads)
            } else {
                (threads, 1)
            };
            *kept = (0..trees)
                .map(|i| {
                    let seed = options.seed.wrapping_add(i as u64);
                    Rave::new(root.clone(), last, seed, options.heavy, walkers, prior)
                })
                .collect();
        }
        let share = options.playouts / kept.len() as u32;
        let grow = |tree: &mut Rave| {
            tree.grow(share, deadline, prior);
            // Wins in [0, visits] as a total value in [-visits, visits].
            tree.children()
                .into_iter()
                .map(|(mv, visits, wins)| (mv, visits, 2.0 * wins - f64::from(visits)))
                .collect()
        };
        // One tree grows on this thread, and its walkers bring their own threads.
        on_threads(kept.iter_mut(), grow)
    } else {
        on_threads(0..threads, run)
    };
    // Add the root children up by move (every tree lists the same moves in the same order).
    let mut total: Vec<(Move, u32, f64)> = Vec::new();
    for result in results {
        for (mv, visits, value) in result {
            match total.iter_mut().find(|(m, _, _)| *m == mv) {
                Some(entry) => {
                    entry.1 += visits;
                    entry.2 += value;
                }
                None => total.push((mv, visits, value)),
            }
        }
    }
    let playouts = total.iter().map(|t| u64::from(t.1)).sum();
    match total.iter().max_by_key(|t| t.1) {
        Some(&(mv, visits, value)) if visits > 0 => Choice {
            mv,
            win_rate: (1.0 + value / f64::from(visits)) / 2.0,
            playouts,
        },
        _ => Choice {
            mv: Move::Pass,
            win_rate: 0.5,
            playouts,
        },
    }
}

/// The network's priors for the RAVE tree with [`EvaluatorKind::RaveNet`].
fn net_prior<'a>(options: &Options, net: Option<&'a Net>) -> Option<NetPrior<'a>> {
    match (options.evaluator, net) {
        (EvaluatorKind::RaveNet, Some(net)) => Some(NetPrior {
            net,
            visits: options.net_prior,
        }),
        _ => None,
    }
}

/// `job` on each of `items`, one thread per item when there are several (on this thread
/// when there is one); the results in the items' order.
fn on_threads<T: Send, R: Send>(
    items: impl IntoIterator<Item = T>,
    job: impl Fn(T) -> R + Sync,
) -> Vec<R> {
    let items: Vec<T> = items.into_iter().collect();
    if items.len() <= 1 {
        return items.into_iter().map(job).collect();
    }
    let job = &job;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .into_iter()
            .map(|item| scope.spawn(move || job(item)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a search thread does not panic"))
            .collect()
    })
}

/// One tree grown until `iterations` or the deadline; its root children as (move, visits,
/// total value for the mover at the root).
fn grow<E: Evaluator<Careful>>(
    root: &Careful,
    settings: Settings,
    iterations: u32,
    deadline: Option<Instant>,
    evaluator: &mut E,
) -> Vec<(Move, u32, f64)> {
    let mut tree = Tree::start(root, settings, evaluator);
    let mut done = 0;
    while done < iterations {
        let step = (iterations - done).min(64);
        tree.grow(step, evaluator);
        done += step;
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    tree.children()
        .iter()
        .filter_map(|c| Some((c.mv?, c.visits, -c.total)))
        .collect()
}

/// The points each colour owns at the end of `playouts` light playouts from `position`, as
/// the share of playouts (per point, row-major: Black's share minus White's, in `[-1, 1]`).
pub fn ownership(position: &Position, playouts: u32, seed: u64) -> Vec<f64> {
    let board = position.board();
    let (rows, cols) = (board.rows(), board.cols());
    let mut owner = vec![0.0; rows * cols];
    let mut rng = Rng::new(seed);
    for _ in 0..playouts {
        let mut end = board.clone();
        playout(
            &mut end,
            position.side_to_move(),
            &mut rng,
            4 * rows * cols + 16,
        );
        for (i, share) in owner.iter_mut().enumerate() {
            let (r, c) = (i / cols, i % cols);
            let p = end.point(r, c).expect("on the board");
            let colour = end.at(p).or_else(|| {
                // An empty point at a playout's end is an eye: its neighbours' colour.
                let around = [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ];
                around
                    .iter()
                    .find_map(|&(nr, nc)| end.point(nr, nc).and_then(|q| end.at(q)))
            });
            *share += match colour {
                Some(Color::Black) => 1.0,
                Some(Color::White) => -1.0,
                None => 0.0,
            };
        }
    }
    owner
        .iter()
        .map(|s| s / f64::from(playouts.max(1)))
        .collect()
}

/// The engine: the game so far, the settings, the clock.
pub struct Engine {
    options: Options,
    net: Option<Net>,
    size: usize,
    komi: f64,
    /// The handicap stones (0-based row and column), set up before the first move.
    handicap: Vec<(usize, usize)>,
    moves: Vec<(Color, Move)>,
    position: Position,
    clock: Clock,
    /// The RAVE trees of the last search, for the next one.
    kept: Option<Kept>,
}

/// Search trees kept between moves: grown for the position after `moves` with `to_move` to
/// play, in the game of `size`, `komi`, `handicap` and `cleanup`.
struct Kept {
    moves: Vec<(Color, Move)>,
    to_move: Color,
    size: usize,
    komi: f64,
    handicap: Vec<(usize, usize)>,
    cleanup: bool,
    trees: Vec<Rave>,
}

/// The start of a game: the empty board, or the handicap stones with White to move.
fn fresh(size: usize, komi: f64, handicap: &[(usize, usize)]) -> Position {
    let stones = handicap.iter().map(|&(r, c)| (r, c, Color::Black));
    // Black stones alone, with a point left empty, always have a liberty.
    let board = Board::with_stones(size, size, stones).expect("handicaps are checked");
    let mut position = Position::new(board, KoRule::PositionalSuperko).with_komi(komi);
    if !handicap.is_empty() {
        position.set_side_to_move(Color::White);
    }
    position
}

impl Engine {
    /// An engine with `options` on an empty 9×9 board, komi 7.5.
    pub fn new(options: Options) -> Engine {
        Engine::with_network(options, None)
    }

    /// An engine whose [`EvaluatorKind::Trained`] evaluator uses `net` (on its board size;
    /// on other sizes the engine searches with [`EvaluatorKind::Rave`]).
    pub fn with_network(options: Options, net: Option<Net>) -> Engine {
        Engine {
            options,
            net,
            size: 9,
            komi: 7.5,
            moves: Vec::new(),
            handicap: Vec::new(),
            position: fresh(9, 7.5, &[]),
            clock: Clock::default(),
            kept: None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Answers one command; the `bool` is whether the engine should stop (`quit`).
    pub fn handle(&mut self, command: &Command) -> (Response, bool) {
        let args: Vec<&str> = command.args.iter().map(String::as_str).collect();
        let ok = |text: String| (Response::Success(text), false);
        let fail = |text: &str| (Response::Failure(text.to_string()), false);
        match command.name.as_str() {
            "protocol_version" => ok("2".to_string()),
            "name" => ok("games-go".to_string()),
            "version" => ok(env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => match args.first() {
                Some(name) => ok(COMMANDS.contains(name).to_string()),
                None => fail("known_command needs a command name"),
            },
            "list_commands" => ok(COMMANDS.join("\n")),
            "quit" => (Response::Success(String::new()), true),
            "boardsize" => match args.first().map(|a| a.parse::<usize>()) {
                Some(Ok(n)) if SIZES.contains(&n) => {
                    self.size = n;
                    self.moves.clear();
                    self.handicap.clear();
                    self.replay();
                    ok(String::new())
                }
                Some(Ok(_)) => fail("unacceptable size"),
                _ => fail("syntax error: boardsize needs a whole number"),
            },
            "clear_board" => {
                self.moves.clear();
                self.handicap.clear();
                self.replay();
                ok(String::new())
            }
            "komi" => match args.first().map(|a| a.parse::<f64>()) {
                Some(Ok(k)) if k.is_finite() && k.abs() <= 1000.0 => {
                    self.komi = k;
                    self.replay();
                    ok(String::new())
                }
                _ => fail("syntax error: komi needs a number"),
            },
            "play" => self.play(&args),
            "genmove" | "reg_genmove" | "kgs-genmove_cleanup" => {
                let Some(color) = args.first().and_then(|a| gtp::parse_color(a)) else {
                    return fail("syntax error: genmove needs a colour (b or w)");
                };
                let cleanup = command.name == "kgs-genmove_cleanup";
                let text = self.genmove(color, command.name != "reg_genmove", cleanup);
                ok(text)
            }
            "undo" => {
                if self.moves.pop().is_some() {
                    self.replay();
                    ok(String::new())
                } else {
                    fail("cannot undo")
                }
            }
            "showboard" => ok(format!("\n{}", self.position.board())),
            "final_score" => ok(self.final_score()),
            "final_status_list" => match args.first() {
                Some(&"dead") => ok(self.status_list(true)),
                Some(&"alive") => ok(self.status_list(false)),
                Some(&"seki") => ok(String::new()),
                _ => fail("syntax error: final_status_list needs alive, dead or seki"),
            },
            "time_settings" => {
                let parsed: Option<(f64, f64, u32)> = match args[..] {
                    [m, b, s] => m
                        .parse()
                        .ok()
                        .zip(b.parse().ok())
                        .zip(s.parse().ok())
                        .map(|((m, b), s)| (m, b, s)),
                    _ => None,
                };
                match parsed {
                    Some((main, byo_yomi, stones)) if main >= 0.0 && byo_yomi >= 0.0 => {
                        self.clock = Clock {
                            main,
                            byo_yomi,
                            stones,
                            left: None,
                        };
                        ok(String::new())
                    }
                    _ => {
                        fail("syntax error: time_settings main_time byo_yomi_time byo_yomi_stones")
                    }
                }
            }
            "time_left" => {
                let parsed = match args[..] {
                    [c, t, s] => gtp::parse_color(c)
                        .zip(t.parse::<f64>().ok())
                        .zip(s.parse::<u32>().ok()),
                    _ => None,
                };
                match parsed {
                    Some(((_, time), stones)) if time.is_finite() && time >= 0.0 => {
                        self.clock.left = Some((time, stones));
                        ok(String::new())
                    }
                    _ => fail("syntax error: time_left color time stones"),
                }
            }
            "fixed_handicap" | "place_free_handicap" => {
                let Some(Ok(stones)) = args.first().map(|a| a.parse::<usize>()) else {
                    return fail("syntax error: a handicap needs a number of stones");
                };
                let Some(points) = gtp::fixed_handicap(self.size, stones) else {
                    // place_free_handicap could place more, but this engine places
                    // free handicaps on the fixed points too.
                    return fail("invalid number of stones");
                };
                self.set_handicap(points)
            }
            "set_free_handicap" => {
                let board = self.position.board();
                let mut points = Vec::new();
                for text in &args {
                    match gtp::parse_vertex(text, board) {
                        Ok(Move::Play(p)) => points.push(board.coords(p)),
                        Ok(Move::Pass) => return fail("a handicap stone cannot be a pass"),
                        Err(e) => return fail(&format!("syntax error: {e}")),
                    }
                }
                let mut distinct = points.clone();
                distinct.sort_unstable();
                distinct.dedup();
                let most = self.size * self.size - 1;
                if points.len() < 2 || points.len() > most || distinct.len() != points.len() {
                    return fail(&format!(
                        "bad vertex list: 2 to {most} distinct points, not {}",
                        args.join(" ")
                    ));
                }
                self.set_handicap(points)
            }
            "" => fail("empty command"),
            _ => fail("unknown command"),
        }
    }

    /// Sets the handicap stones on an empty board and answers their vertices.
    fn set_handicap(&mut self, points: Vec<(usize, usize)>) -> (Response, bool) {
        if !self.moves.is_empty() || !self.handicap.is_empty() {
            return (Response::Failure("board not empty".to_string()), false);
        }
        self.handicap = points;
        self.replay();
        let board = self.position.board();
        let vertices: Vec<String> = self
            .handicap
            .iter()
            .filter_map(|&(r, c)| board.point(r, c))
            .map(|p| gtp::vertex(p, board))
            .collect();
        (Response::Success(vertices.join(" ")), false)
    }

    /// Replays the moves on a fresh board of the current size, komi and handicap.
    fn replay(&mut self) {
        let mut position = fresh(self.size, self.komi, &self.handicap);
        for &(color, mv) in &self.moves {
            if position.is_over() {
                position.resume();
            }
            position
                .play_as(color, mv)
                .expect("every recorded move was legal when it was played");
        }
        self.position = position;
    }

    fn play(&mut self, args: &[&str]) -> (Response, bool) {
        let fail = |text: String| (Response::Failure(text), false);
        let [color, vertex] = args else {
            return fail("syntax error: play needs a colour and a vertex".to_string());
        };
        let Some(color) = gtp::parse_color(color) else {
            return fail(format!("syntax error: {color:?} is not a colour"));
        };
        let mv = match gtp::parse_vertex(vertex, self.position.board()) {
            Ok(mv) => mv,
            Err(e) => return fail(format!("syntax error: {e}")),
        };
        if self.position.is_over() {
            self.position.resume();
        }
        match self.position.play_as(color, mv) {
            Ok(_) => {
                self.moves.push((color, mv));
                (Response::Success(String::new()), false)
            }
            Err(reason) => fail(format!("illegal move ({reason})")),
        }
    }

    /// Seconds for the next move: the option's cap, and what the clock allows.
    fn budget(&self) -> Option<f64> {
        // Before the first time_left the clock is full: the main time, or a byo-yomi
        // period when there is no main time (GTP: both 0 means no limit).
        let clock = self.clock;
        let full = if clock.main > 0.0 {
            Some((clock.main, 0))
        } else {
            (clock.byo_yomi > 0.0 && clock.stones > 0).then_some((clock.byo_yomi, clock.stones))
        };
        let from_clock = clock.left.or(full).map(|(left, stones)| {
            let empties = self.position.board().empty_count() as f64;
            if stones > 0 {
                // Byo-yomi: the period's time over its stones, with a margin.
                0.8 * left / f64::from(stones)
            } else {
                // Main time: a share of what is left, about half the empty points to go.
                let spare = if self.clock.byo_yomi > 0.0 {
                    self.clock.byo_yomi * 0.5
                } else {
                    0.0
                };
                (left / (empties / 2.0).max(8.0)).max(spare.min(left * 0.5))
            }
        });
        match (self.options.seconds, from_clock) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn genmove(&mut self, color: Color, commit: bool, cleanup: bool) -> String {
        let mut position = self.position.clone();
        if position.is_over() {
            position.resume();
        }
        position.set_side_to_move(color);
        let deadline = self
            .budget()
            .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.01)));
        let mut options = self.options;
        let net_size = self.net.as_ref().map(|n| n.shape().size);
        let fits = match options.evaluator {
            EvaluatorKind::SeedNetwork => self.size == SIDE,
            EvaluatorKind::Trained | EvaluatorKind::RaveNet => net_size == Some(self.size),
            _ => true,
        };
        if !fits {
            options.evaluator = EvaluatorKind::Rave;
        }
        let last = self.moves.last().and_then(|&(_, mv)| match mv {
            Move::Play(p) => Some(p),
            Move::Pass => None,
        });
        let root = Careful::new(position, cleanup);
        let prior = net_prior(&options, self.net.as_ref());
        let mut trees = match self.kept.take() {
            Some(kept) if options.evaluator.is_rave() && !options.fresh_tree => {
                self.descend(kept, color, cleanup, &root, last, prior)
            }
            _ => Vec::new(),
        };
        let choice = search_from(
            &root,
            last,
            &options,
            self.net.as_ref(),
            deadline,
            &mut trees,
        );
        if !trees.is_empty() {
            self.kept = Some(Kept {
                moves: self.moves.clone(),
                to_move: color,
                size: self.size,
                komi: self.komi,
                handicap: self.handicap.clone(),
                cleanup,
                trees,
            });
        }
        let position = root.position();
        let resign = options.resign > 0.0
            && choice.win_rate < options.resign
            && choice.playouts >= 200
            && !cleanup;
        if resign {
            return "resign".to_string();
        }
        let text = gtp::move_text(choice.mv, position.board());
        if commit {
            if self.position.is_over() {
                self.position.resume();
            }
            self.position
                .play_as(color, choice.mv)
                .expect("the search plays legal moves");
            self.moves.push((color, choice.mv));
        }
        text
    }

    /// The kept trees moved down to `root` (`color` to play), or none when they were grown
    /// for another game, another line or another side to move.
    fn descend(
        &self,
        kept: Kept,
        color: Color,
        cleanup: bool,
        root: &Careful,
        last: Option<Point>,
        prior: Option<NetPrior>,
    ) -> Vec<Rave> {
        let Some(since) = self.moves.strip_prefix(kept.moves.as_slice()) else {
            return Vec::new();
        };
        // The tree alternates colours from its root's side to move.
        let mut side = kept.to_move;
        for &(c, _) in since {
            if c != side {
                return Vec::new();
            }
            side = side.opponent();
        }
        let game = (kept.size, kept.komi, kept.cleanup) == (self.size, self.komi, cleanup)
            && kept.handicap == self.handicap;
        if side != color || !game {
            return Vec::new();
        }
        let line: Vec<Move> = since.iter().map(|&(_, mv)| mv).collect();
        let count = kept.trees.len();
        let trees: Vec<Rave> = kept
            .trees
            .into_iter()
            .filter_map(|tree| tree.descend(&line, root.clone(), last, prior))
            .collect();
        if trees.len() == count {
            trees
        } else {
            Vec::new()
        }
    }

    /// Dead stones: those whose point the other colour owns in most playouts.
    fn dead(&self) -> Vec<(usize, usize)> {
        let owner = ownership(&self.position, 400, self.options.seed);
        let board = self.position.board();
        let cols = board.cols();
        board
            .points()
            .filter_map(|p| {
                let colour = board.at(p)?;
                let (r, c) = board.coords(p);
                let share = owner[r * cols + c];
                let lost = match colour {
                    Color::Black => share < 0.0,
                    Color::White => share > 0.0,
                };
                lost.then_some((r, c))
            })
            .collect()
    }

    fn status_list(&self, dead: bool) -> String {
        let gone = self.dead();
        let board = self.position.board();
        let points: Vec<String> = board
            .points()
            .filter(|&p| board.at(p).is_some())
            .filter(|&p| gone.contains(&board.coords(p)) == dead)
            .map(|p| gtp::vertex(p, board))
            .collect();
        points.join(" ")
    }

    /// The area score with the dead stones removed, `B+3.5`, `W+0.5` or `0`.
    fn final_score(&self) -> String {
        let gone = self.dead();
        let board = self.position.board();
        let margin = margin_without(&self.position, |p| gone.contains(&board.coords(p)));
        score_text(margin)
    }
}

/// Black's area margin (komi included) once the stones on the points where `dead` holds are
/// taken off the board.
pub fn margin_without(position: &Position, dead: impl Fn(Point) -> bool) -> f64 {
    let board = position.board();
    let stones = board.points().filter_map(|p| {
        let colour = board.at(p)?;
        let (r, c) = board.coords(p);
        (!dead(p)).then_some((r, c, colour))
    });
    match Board::with_stones(board.rows(), board.cols(), stones) {
        Ok(cleaned) => {
            let (b, w) = cleaned.area_score();
            b as f64 - w as f64 - position.komi()
        }
        // Removing stones leaves every other chain a liberty more, never fewer.
        Err(_) => position.margin(),
    }
}

/// `B+3.5`, `W+7`, or `0` for Black's `margin`.
pub fn score_text(margin: f64) -> String {
    if margin > 0.0 {
        format!("B+{margin}")
    } else if margin < 0.0 {
        format!("W+{}", -margin)
    } else {
        "0".to_string()
    }
}
