//! az_eval — players of 6×6 Othello measured against perfect play: mistakes on a benchmark
//! of positions with exact move values, and whole games against the exact solver and
//! against playout MCTS. See [`USAGE`].

use games::endgame::Solver;
use games::mcts::{Evaluator, FirstPlay, Playouts, Settings, Signs, Tree};
use games::nn::{DynamicKomi, Inference, Net};
use games::othello::{Board, Move};
use games::rng::Rng;
use games::search::Game;
use games::Color;
use std::fmt::Write as _;
use std::io::Write as _;
use std::ops::Bound::{Excluded, Included};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tools::alphazero::exact::{
    final_margin_for, greedy, policy_move, read_othello_positions, versus_solver, Judged,
};
use tools::cli::{self, Views};

const USAGE: &str = "\
az_eval: 6x6 Othello players against perfect play

usage: az_eval --positions FILE [--weights FILE] [options]

  --positions FILE    a benchmark from othello_positions (exact value of every move)
  --weights FILE      a trained network (az_train --game othello)
  --players LIST      comma-separated, default random,greedy,playout1000,untrained100,
                      policy,net100,net400: random, greedy (most flips), playoutN (MCTS
                      with N random playouts), untrainedN (MCTS N with an untrained network
                      of the trained one's shape), policy (the raw policy's top move), netN
                      (MCTS N with the trained network); policyavg and netavgN see each
                      position through the board's 8 symmetries and average (8 times the
                      work), netrandN through one drawn at random per evaluation,
                      netavgKxN through K of the 8 (1..=8) drawn at random per
                      evaluation and averaged (K times the work)
  --threads T         positions measured in parallel (default 2)
  --versus-solver     also play the trained network + MCTS (--simulations) from the start
                      against the exact solver, as White and as Black, and name the
                      agent's moves that changed its exact result (margin before, after)
  --versus-playouts N also play N games (colours alternating) of the trained network +
                      MCTS against playout MCTS, both with --seconds per move
  --simulations N     MCTS simulations for --versus-solver and --explain (default 400)
  --views V           how the agent of --versus-solver and --versus-playouts sees a
                      position: plain (default), avg (the 8 symmetries averaged, as
                      netavgN), random (one drawn per evaluation, as netrandN) or avgK
                      (K of the 8 drawn per evaluation and averaged, as netavgKxN)
  --seconds S         seconds per move for --versus-playouts (default 0.5)
  --keep-trees        in --versus-solver and --versus-playouts, each MCTS player keeps
                      the part of its tree below the position it meets next (its move,
                      then the opponent's) and searches on from it, as AlphaGo Zero does;
                      --simulations then counts the new ones
  --c-puct C          the network players' PUCT constant (default 1.5, az_train's)
  --fpu R             the network players' search gives an unvisited move the parent's
                      value minus R * sqrt(prior mass already visited) instead of 0 (a
                      draw), as Leela Zero does (R in -2..2; negative is optimistic); the
                      playout players keep 0
  --proofs            the network players' search keeps proofs in its tree (MCTS-Solver
                      with score bounds): finished games' margins bound every node by
                      negamax, a move proven worse than another is not played (a win by 2
                      where a win by 4 is proven) nor searched again, and a solved root
                      ends the search; the playout players search without
  --lcb Z:S           the network players play the move whose value is highest at Z
                      standard errors below its mean, among moves with at least S of
                      the most visited one's visits (Leela Zero's and KataGo's choice;
                      KataGo: 5:0.15), not simply the most visited
  --score-utility W[:S]  the trained network's MCTS players (netN, the agent of the
                      whole games, --explain) add KataGo's score utility to every value:
                      W * (2/pi) * atan((margin - centre) / S), the margin the network's
                      score head expects (az_train --score), the centre the margin it
                      expects at the search's root, S in discs (default 2); W in 0..1
  --komi K            the trained network's players (policy, netN, the agent of the
                      whole games, --explain) play as if Black got K discs more (-36..=36;
                      default 0): their searches count K in every finished game, and a
                      network with the komi plane (az_train --komi) sees it. Mistakes,
                      disc loss and the games' results are still those of the real game
                      (komi 0). K = 4 is 6x6 Othello's even game (perfect play: a draw)
  --dynamic-komi K:T  Pachi's dynamic komi for the same players: at each move, where the
                      network (at --komi) values the position below -T for the side to
                      move, that side searches (or, the raw policy, looks) as if it got
                      K discs more (K in 1..=36, T in 0..1; needs the komi plane). A
                      side sure to lose then still prefers the moves that lose by less
  --dynamic-komi-ahead K:T  and where it values the position above T for the side to
                      move, that side searches (or looks) as if it gave K discs (Pachi's
                      komi raised against a side winning comfortably): a side sure to
                      win then still prefers the moves that win by more
  --explain N         also search every position with the trained network + MCTS
                      (--simulations, plain views, one thread) and, where its move is a
                      mistake or a slip (the outcome kept, discs given away), tell why: did
                      a right move look better (higher Q) but get fewer visits, or did every
                      right move it visited look no better (a value error), or none visited;
                      print the root of the first N such positions (each move's prior,
                      visits, Q and exact value). On othello_positions --line's file this
                      names every point of the solver's game where the agent would lose discs
  --curve DIR         instead: measure every checkpoint DIR/weights-gNNNN.net of a run
                      (az_train --snapshot-every) with --players (default policy,net100)
                      and write DIR/strength.csv for az_plot: generation, games, seconds
                      (from DIR/log.csv), each player's mistake rate and disc loss
  --every N           with --curve: only every Nth checkpoint file (default 1)
  --seed N            random seed (default 1)

A move is a mistake when another legal move has a strictly better exact outcome (win, draw
or loss); disc loss is the best move's final margin minus the chosen move's, averaged over
the positions whose moves have margins (othello_positions --outcomes-from gives deep ones
outcomes only). Progress on stderr; the tables on stdout (Markdown).
";

/// A player's move in a position.
type Player<'a> = Box<dyn FnMut(&Board) -> Move + 'a>;

const C_PUCT: f64 = 1.5;

/// The search settings of the playout players, and of the network players unless
/// `--c-puct` or `--fpu` change them.
const fn settings(iterations: u32) -> Settings {
    Settings {
        iterations,
        c_puct: C_PUCT,
        signs: Signs::Negamax,
        first_play: FirstPlay::Zero,
        proofs: false,
        lcb: None,
    }
}

/// The move when there is only one (a forced pass, say): no search needed.
fn forced(b: &Board) -> Option<Move> {
    let moves = b.legal_moves();
    (moves.len() == 1).then(|| moves[0])
}

/// A player's search tree kept from one move to the next (`--keep-trees`): the tree of its
/// last search, the move it played there, and the position that move led to.
#[derive(Default)]
struct Kept(Option<(Tree<Board>, Move, Board)>);

impl Kept {
    /// The kept tree moved down to `b`, the position after the opponent's reply (found by
    /// comparing positions), if the tree reached it; the tree is given up either way.
    fn take(&mut self, b: &Board) -> Option<Tree<Board>> {
        let (tree, ours, after) = self.0.take()?;
        let theirs = after
            .moves()
            .into_iter()
            .find(|&m| after.after(m).as_ref() == Some(b))?;
        tree.descend(&[ours, theirs])
    }

    /// Keeps `tree`, searched from `b`, where `ours` is played.
    fn keep(&mut self, tree: Tree<Board>, ours: Move, b: &Board) {
        self.0 = b.after(ours).map(|after| (tree, ours, after));
    }
}

/// How long an MCTS player searches each move.
#[derive(Clone, Copy)]
enum Budget<'a> {
    /// Its settings' iterations.
    Iterations,
    /// This many seconds; each move adds its root's visits and a move to the counts.
    Seconds(f64, &'a std::cell::Cell<(u64, u32)>),
}

/// MCTS with `evaluator` for `budget` per move; with `keep`, on the tree kept from its last
/// move.
fn mcts<'a, E: Evaluator<Board> + 'a>(
    settings: Settings,
    mut evaluator: E,
    budget: Budget<'a>,
    keep: bool,
) -> Player<'a> {
    let mut kept = Kept::default();
    Box::new(move |b: &Board| {
        let tree = if keep { kept.take(b) } else { None };
        if let Some(mv) = forced(b) {
            if let Some(tree) = tree {
                kept.keep(tree, mv, b);
            }
            return mv;
        }
        // The clock runs from here: expanding a new root counts.
        let started = Instant::now();
        let mut tree = match tree {
            Some(tree) => {
                // Tree::start would have told the evaluator of its new root.
                evaluator.root(b);
                tree
            }
            None => Tree::start(b, settings, &mut evaluator),
        };
        match budget {
            Budget::Iterations => tree.grow(settings.iterations, &mut evaluator),
            Budget::Seconds(seconds, stats) => {
                let deadline = started + Duration::from_secs_f64(seconds);
                while Instant::now() < deadline {
                    tree.grow(32, &mut evaluator);
                }
                let (n, m) = stats.get();
                stats.set((n + u64::from(tree.root().visits), m + 1));
            }
        }
        let mv = tree.best_move().expect("a move");
        if keep {
            kept.keep(tree, mv, b);
        }
        mv
    })
}

/// The player `name` stands for; `seed` for its random choices, `search` the network
/// players' settings (its iterations are the player's).
fn player<'a>(
    name: &str,
    trained: Option<&'a Net>,
    untrained: &'a Net,
    seed: u64,
    search: NetSearch,
) -> Result<Player<'a>, String> {
    let with = |iterations| search.with(iterations);
    let count = |prefix: &str| -> Option<u32> {
        name.strip_prefix(prefix)?.parse().ok().filter(|&n| n > 0)
    };
    let need = || trained.ok_or_else(|| format!("player {name} needs --weights"));
    if name == "random" {
        let mut rng = Rng::new(seed);
        return Ok(Box::new(move |b: &Board| {
            let moves = b.legal_moves();
            moves[rng.below(moves.len())]
        }));
    }
    if name == "greedy" {
        let mut rng = Rng::new(seed);
        return Ok(Box::new(move |b: &Board| greedy(b, &mut rng)));
    }
    for (policy, views) in [("policyavg", Views::Sampled(8)), ("policy", Views::Plain)] {
        if name == policy {
            let mut inference = views.inference(need()?, seed);
            search.set_komi(&mut inference);
            return Ok(Box::new(move |b: &Board| {
                inference.komi_for_root(b);
                policy_move(&mut inference, b)
            }));
        }
    }
    if let Some(n) = count("playout") {
        return Ok(mcts(
            settings(n),
            Playouts::<Board>::new(seed),
            Budget::Iterations,
            false,
        ));
    }
    if let Some(n) = count("untrained") {
        return Ok(mcts(
            with(n),
            Inference::new(untrained),
            Budget::Iterations,
            false,
        ));
    }
    // netavgKxN: K views drawn at random and averaged, N simulations.
    let sampled = name.strip_prefix("netavg").and_then(|rest| {
        let (k, n) = rest.split_once('x')?;
        let k = k.parse().ok().filter(|k| (1..=8).contains(k))?;
        Some((k, n.parse().ok().filter(|&n| n > 0)?))
    });
    if let Some((k, n)) = sampled {
        return Ok(mcts(
            with(n),
            search.inference(Views::Sampled(k), need()?, seed),
            Budget::Iterations,
            false,
        ));
    }
    for (prefix, views) in [
        ("netrand", Views::Sampled(1)),
        ("netavg", Views::Sampled(8)),
        ("net", Views::Plain),
    ] {
        if let Some(n) = count(prefix) {
            return Ok(mcts(
                with(n),
                search.inference(views, need()?, seed),
                Budget::Iterations,
                false,
            ));
        }
    }
    Err(format!("unknown player {name:?} (see --help)"))
}

/// Whether `net` (`None`: no `--weights`) has what the search settings read from it: the
/// score head for `--score-utility`, the komi plane for dynamic komi.
fn serves_the_search(run: &Run, net: Option<&Net>) -> Result<(), &'static str> {
    if run.search.score.is_some() && !net.is_some_and(|n| n.shape().score) {
        return Err("--score-utility needs a network with a score head (az_train --score)");
    }
    if run.search.dynamic.is_some() && !net.is_some_and(cli::sees_komi) {
        return Err(
            "--dynamic-komi and --dynamic-komi-ahead need a network with the komi plane \
             (az_train --komi)",
        );
    }
    Ok(())
}

/// Stages of the game by empty squares, for the table's columns.
const STAGES: [(u32, u32); 4] = [(10, 14), (15, 18), (19, 22), (23, 32)];

#[derive(Clone, Copy, Default)]
struct Tally {
    positions: [u32; 4],
    mistakes: [u32; 4],
    /// Discs lost, summed over the positions whose values are margins (not outcomes only).
    disc_loss: u64,
    /// How many positions have margins.
    with_margins: u32,
}

impl Tally {
    /// The mean disc loss over the positions with margins.
    fn mean_disc_loss(&self) -> f64 {
        self.disc_loss as f64 / f64::from(self.with_margins.max(1))
    }
}

fn measure(
    name: &str,
    positions: &[Judged<Board>],
    trained: Option<&Net>,
    untrained: &Net,
    threads: usize,
    seed: u64,
    search: NetSearch,
) -> Result<Tally, String> {
    // Check the name once, before the threads start.
    drop(player(name, trained, untrained, seed, search)?);
    // Progress every 10 s: a search player takes minutes over the whole benchmark.
    let progress = &cli::Progress::new(10.0);
    let parts: Vec<Tally> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                scope.spawn(move || {
                    let mut play = player(
                        name,
                        trained,
                        untrained,
                        seed.wrapping_add(t as u64),
                        search,
                    )
                    .expect("checked");
                    let mut tally = Tally::default();
                    for judged in positions.iter().skip(t).step_by(threads) {
                        let empties = judged.position.empties().count();
                        let stage = STAGES
                            .iter()
                            .position(|&(a, b)| (a..=b).contains(&empties))
                            .unwrap_or(0);
                        let mv = play(&judged.position);
                        tally.positions[stage] += 1;
                        tally.mistakes[stage] += u32::from(judged.is_mistake(mv));
                        if let Some(loss) = judged.disc_loss(mv) {
                            tally.disc_loss += loss as u64;
                            tally.with_margins += 1;
                        }
                        if let Some((finished, secs)) = progress.tick(|_| false) {
                            eprintln!(
                                "az_eval: {name}: {finished} of {} positions, {secs:.0} s, {:.1} positions/s",
                                positions.len(),
                                finished as f64 / secs
                            );
                        }
                    }
                    tally
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a measuring thread panicked"))
            .collect()
    });
    let mut total = Tally::default();
    for p in parts {
        for s in 0..4 {
            total.positions[s] += p.positions[s];
            total.mistakes[s] += p.mistakes[s];
        }
        total.disc_loss += p.disc_loss;
        total.with_margins += p.with_margins;
    }
    Ok(total)
}

fn percent(part: u32, whole: u32) -> String {
    if whole == 0 {
        "—".to_string()
    } else {
        format!("{:.1}%", 100.0 * f64::from(part) / f64::from(whole))
    }
}

/// How a search's wrong move went wrong: a right move had the higher Q but fewer visits
/// (`lagged`), every right move it visited looked no better (the value `misled` it), or no
/// right move was visited (`unseen`).
#[derive(Default)]
struct Why {
    lagged: u32,
    misled: u32,
    unseen: u32,
}

impl Why {
    fn total(&self) -> u32 {
        self.lagged + self.misled + self.unseen
    }
}

/// Why the trained network + MCTS erred, position by position (`--explain`): the root's
/// children after the search, against the exact values. A mistake worsens the outcome; a
/// slip keeps it but gives discs away (a win by 2 where 4 was there), which only positions
/// with margins can show.
fn explain(out: &mut String, net: &Net, positions: &[Judged<Board>], run: &Run, shown: usize) {
    let settings = run.search.with(run.simulations);
    let mut inference = run.search.inference(Views::Plain, net, run.seed);
    let (mut mistakes, mut slips) = (Why::default(), Why::default());
    let mut examples = String::new();
    let started = Instant::now();
    for (i, judged) in positions.iter().enumerate() {
        if i % 500 == 499 {
            eprintln!(
                "az_eval: explain: {} of {} positions, {:.0} s",
                i + 1,
                positions.len(),
                started.elapsed().as_secs_f64()
            );
        }
        let b = &judged.position;
        if forced(b).is_some() {
            continue;
        }
        let tree = Tree::search(b, settings, &mut inference);
        let chosen = tree.best_move().expect("a move");
        let mistake = judged.is_mistake(chosen);
        // None where the values are outcomes only.
        let lost = judged.disc_loss(chosen);
        if !mistake && lost.unwrap_or(0) == 0 {
            continue;
        }
        // A right move: for a mistake one with the best outcome, for a slip the best margin.
        let right = |mv: Move| {
            if mistake {
                !judged.is_mistake(mv)
            } else {
                judged.disc_loss(mv) == Some(0)
            }
        };
        // Q for the player choosing at the root: minus the child's own mean value.
        let q = |mv: Move| {
            tree.children()
                .iter()
                .find(|c| c.mv == Some(mv))
                .map_or(0.0, |c| -c.q())
        };
        let right: Vec<_> = tree
            .children()
            .iter()
            .filter(|c| c.mv.is_some_and(right))
            .collect();
        let why = if mistake { &mut mistakes } else { &mut slips };
        if right.iter().all(|c| c.visits == 0) {
            why.unseen += 1;
        } else if right.iter().any(|c| c.visits > 0 && -c.q() > q(chosen)) {
            why.lagged += 1;
        } else {
            why.misled += 1;
        }
        if ((mistakes.total() + slips.total()) as usize) <= shown {
            let side = b.side_to_move();
            let kind = if mistake { "mistake" } else { "slip" };
            let _ = write!(
                examples,
                "- {} empties, {side} to move, {kind}",
                b.empties().count()
            );
            if let Some(lost) = lost {
                let _ = write!(examples, " ({lost} discs)");
            }
            examples.push(':');
            for c in tree.children() {
                let mv = c.mv.expect("a child has a move");
                let exact = judged
                    .values
                    .iter()
                    .find(|&&(m, _)| m == mv)
                    .map_or(0, |&(_, v)| v);
                let q = if c.visits == 0 {
                    "—".to_string()
                } else {
                    format!("{:+.2}", -c.q())
                };
                let _ = write!(
                    examples,
                    " {}{} (P {:.2}, N {}, Q {q}, exact {:+})",
                    if mv == chosen { "**" } else { "" },
                    moves_text(&[mv]),
                    c.prior,
                    c.visits,
                    exact
                );
                if mv == chosen {
                    examples.push_str("**");
                }
            }
            examples.push('\n');
        }
    }
    let tell = |why: &Why, better: &str| {
        format!(
            "a {better} move had the higher Q but fewer visits {}; every {better} move visited \
             looked no better (the value misled the search) {}; no {better} move was visited {}",
            why.lagged, why.misled, why.unseen
        )
    };
    let _ = writeln!(
        out,
        "\nWhy net + MCTS {} erred ({} mistakes): {}.",
        run.simulations,
        mistakes.total(),
        tell(&mistakes, "right")
    );
    let _ = writeln!(
        out,
        "Where it kept the outcome but gave discs away ({} slips): {}.\n",
        slips.total(),
        tell(&slips, "better")
    );
    out.push_str(&examples);
}

/// A whole game from the 6×6 start; `black` and `white` choose the moves. Returns the final
/// margin for Black and the moves.
fn game(black: &mut Player<'_>, white: &mut Player<'_>) -> (i32, Vec<Move>) {
    let mut board = Board::new(6).expect("6x6");
    let mut moves = Vec::new();
    while !board.is_game_over() {
        let mv = if board.side_to_move() == Color::Black {
            black(&board)
        } else {
            white(&board)
        };
        moves.push(mv);
        board = board.after(mv).expect("players make legal moves");
    }
    (final_margin_for(&board, Color::Black), moves)
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| match m {
            Move::Play(sq) => sq.to_string(),
            Move::Pass => "pass".to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the trained network's MCTS players search: the PUCT settings (`--c-puct`, `--fpu`;
/// each player sets its iterations) and the score utility (`--score-utility`), if any.
#[derive(Clone, Copy)]
struct NetSearch {
    settings: Settings,
    /// KataGo's score utility: weight and scale (discs).
    score: Option<(f64, f64)>,
    /// The komi for Black the search plays at (`--komi`).
    komi: i32,
    /// `--dynamic-komi`.
    dynamic: Option<DynamicKomi>,
}

impl NetSearch {
    /// The trained network's evaluation for a player that sees positions through `views`
    /// (`seed` for the random views), with the score utility if one is asked for.
    fn inference(self, views: Views, net: &Net, seed: u64) -> Inference<'_> {
        let mut inference = views.inference(net, seed);
        self.set_komi(&mut inference);
        if let Some((weight, scale)) = self.score {
            inference.use_score(weight, scale);
        }
        inference
    }

    /// Sets `inference`'s komi (`--komi`) and dynamic komi (`--dynamic-komi`).
    fn set_komi(self, inference: &mut Inference<'_>) {
        inference.set_komi(self.komi);
        if let Some(dynamic) = self.dynamic {
            inference.use_dynamic_komi(dynamic);
        }
    }

    /// The settings with `iterations`.
    fn with(self, iterations: u32) -> Settings {
        Settings {
            iterations,
            ..self.settings
        }
    }
}

struct Run {
    positions: String,
    weights: Option<String>,
    players: Vec<String>,
    threads: usize,
    versus_solver: bool,
    versus_playouts: u32,
    simulations: u32,
    seconds: f64,
    /// How the agent of `--versus-solver` and `--versus-playouts` looks at a position
    /// (`--views`).
    views: Views,
    /// Whether the players of the whole games keep their trees between moves
    /// (`--keep-trees`).
    keep_trees: bool,
    /// The network players' search (`--c-puct`, `--fpu`, `--score-utility`).
    search: NetSearch,
    /// `--explain N`: the mistakes of net + MCTS told apart, the first N roots printed.
    explain: Option<usize>,
    seed: u64,
    curve: Option<String>,
    every: usize,
}

fn parse() -> Result<Run, String> {
    let mut run = Run {
        positions: String::new(),
        weights: None,
        players: "random,greedy,playout1000,untrained100,policy,net100,net400"
            .split(',')
            .map(String::from)
            .collect(),
        threads: 2,
        versus_solver: false,
        versus_playouts: 0,
        simulations: 400,
        seconds: 0.5,
        views: Views::Plain,
        keep_trees: false,
        search: NetSearch {
            settings: settings(0),
            score: None,
            komi: 0,
            dynamic: None,
        },
        explain: None,
        seed: 1,
        curve: None,
        every: 1,
    };
    let mut players_given = false;
    let mut positions = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--positions" => positions = Some(cli::text(&flag, args.next())?),
            "--weights" => run.weights = Some(cli::text(&flag, args.next())?),
            "--players" => {
                let list = cli::text(&flag, args.next())?;
                run.players = list.split(',').map(String::from).collect();
                players_given = true;
            }
            "--threads" => {
                run.threads = cli::number(&flag, args.next(), 1..=64)?;
            }
            "--versus-solver" => run.versus_solver = true,
            "--komi" => run.search.komi = cli::number(&flag, args.next(), -36..=36)?,
            "--dynamic-komi" | "--dynamic-komi-ahead" => {
                cli::dynamic_komi(&flag, args.next(), &mut run.search.dynamic)?;
            }
            "--keep-trees" => run.keep_trees = true,
            "--versus-playouts" => {
                run.versus_playouts = cli::number(&flag, args.next(), ..=10_000)?;
            }
            "--simulations" => {
                run.simulations = cli::number(&flag, args.next(), 1..=1_000_000)?;
            }
            "--seconds" => {
                run.seconds = cli::number(&flag, args.next(), (Excluded(0.0), Included(600.0)))?;
            }
            "--views" => {
                run.views = Views::parse(&flag, args.next())?;
            }
            "--proofs" => run.search.settings.proofs = true,
            "--lcb" => run.search.settings.lcb = Some(cli::lcb(&flag, args.next())?),
            "--fpu" => {
                let r = cli::number(&flag, args.next(), -2.0..=2.0)?;
                run.search.settings.first_play = FirstPlay::Reduced(r);
            }
            "--c-puct" => {
                run.search.settings.c_puct =
                    cli::number(&flag, args.next(), (Excluded(0.0), Included(100.0)))?;
            }
            "--score-utility" => {
                run.search.score = Some(cli::score_utility(&flag, args.next())?);
            }
            "--explain" => run.explain = Some(cli::number(&flag, args.next(), ..)?),
            "--seed" => run.seed = cli::number(&flag, args.next(), ..)?,
            "--curve" => run.curve = Some(cli::text(&flag, args.next())?),
            "--every" => run.every = cli::number(&flag, args.next(), 1..)?,
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }
    run.positions = positions.ok_or("--positions FILE is required")?;
    if run.curve.is_some() && !players_given {
        run.players = vec!["policy".to_string(), "net100".to_string()];
    }
    Ok(run)
}

fn main() -> ExitCode {
    cli::main("az_eval", USAGE, || {
        let report = evaluate()?;
        let mut out = std::io::stdout().lock();
        out.write_all(report.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write stdout: {e}"))
    })
}

fn evaluate() -> Result<String, String> {
    let run = parse()?;
    let text = cli::read_text(&run.positions)?;
    let positions = read_othello_positions(&text).map_err(|e| format!("{}: {e}", run.positions))?;
    if positions.is_empty() {
        return Err(format!("{}: no positions", run.positions));
    }
    if let Some(dir) = &run.curve {
        return curve(&run, dir, &positions);
    }
    let trained = run
        .weights
        .as_deref()
        .map(|w| cli::load_weights(w, "othello", Some(6)))
        .transpose()?;
    serves_the_search(&run, trained.as_ref())
        .map_err(|e| format!("{}: {e}", run.weights.as_deref().unwrap_or("no --weights")))?;
    let shape = trained.as_ref().map_or(
        games::nn::Shape {
            size: 6,
            planes: games::nn::PLANES,
            width: 32,
            blocks: 2,
            hidden: 64,
            value_channels: 1,
            score: false,
        },
        |n| *n.shape(),
    );
    let untrained = Net::random(shape, run.seed).map_err(|e| e.to_string())?;
    let mut out = String::new();
    let with_margins = positions.iter().filter(|j| !j.outcomes_only).count();
    let _ = writeln!(
        out,
        "{} positions from {} ({with_margins} with margins, for the disc loss)\n",
        positions.len(),
        run.positions
    );
    let _ = write!(out, "| player |");
    for (a, b) in STAGES {
        let _ = write!(out, " {a}–{b} empties |");
    }
    let _ = writeln!(out, " all | mean disc loss |");
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|---:|");
    for name in &run.players {
        let clock = Instant::now();
        let t = measure(
            name,
            &positions,
            trained.as_ref(),
            &untrained,
            run.threads,
            run.seed,
            run.search,
        )?;
        let all: u32 = t.positions.iter().sum();
        eprintln!(
            "az_eval: {name}: {} positions in {:.1} s",
            all,
            clock.elapsed().as_secs_f64()
        );
        let _ = write!(out, "| {name} |");
        for s in 0..4 {
            let _ = write!(out, " {} |", percent(t.mistakes[s], t.positions[s]));
        }
        let _ = writeln!(
            out,
            " {} | {:.2} |",
            percent(t.mistakes.iter().sum(), all),
            t.mean_disc_loss()
        );
    }
    if let Some(shown) = run.explain {
        let net = trained.as_ref().ok_or("--explain needs --weights")?;
        explain(&mut out, net, &positions, &run, shown);
    }
    if run.versus_solver {
        let net = trained.as_ref().ok_or("--versus-solver needs --weights")?;
        let _ = writeln!(
            out,
            "\nAgainst the exact solver (net + MCTS {}; the exact result of 6x6 is White by 4):\n",
            run.simulations
        );
        for agent_side in [Color::White, Color::Black] {
            let mut solver = Solver::new(24);
            let mut agent = mcts(
                run.search.with(run.simulations),
                run.search.inference(run.views, net, run.seed),
                Budget::Iterations,
                run.keep_trees,
            );
            let played = versus_solver(
                &Board::new(6).expect("6x6"),
                agent_side,
                &mut agent,
                &mut solver,
                &mut |b, score, seconds| {
                    eprintln!(
                        "az_eval: solver at {} empties: {score:+} in {seconds:.1} s",
                        b.empties().count()
                    );
                },
            );
            let margin = played.margin;
            let _ = writeln!(
                out,
                "- agent as {agent_side}: Black {:+} ({}) — {}",
                margin,
                if margin == 0 {
                    "draw".to_string()
                } else {
                    format!("{} wins", if margin > 0 { "Black" } else { "White" })
                },
                moves_text(&played.moves)
            );
            let _ = if played.slips.is_empty() {
                writeln!(
                    out,
                    "  - every move of the agent kept its exact result, {:+}",
                    played.start_value
                )
            } else {
                writeln!(
                    out,
                    "  - the agent's moves that changed its exact result ({:+} at the start): {}",
                    played.start_value,
                    played
                        .slips
                        .iter()
                        .map(|s| format!(
                            "{}. {} at {} empties, {:+} → {:+}",
                            s.number,
                            moves_text(&[s.mv]),
                            s.empties,
                            s.before,
                            s.after
                        ))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            };
        }
    }
    if run.versus_playouts > 0 {
        let net = trained
            .as_ref()
            .ok_or("--versus-playouts needs --weights")?;
        let (mut wins, mut draws) = (0u32, 0u32);
        let net_stats = std::cell::Cell::new((0, 0));
        let playout_stats = std::cell::Cell::new((0, 0));
        for g in 0..run.versus_playouts {
            let mut agent = mcts(
                run.search.settings,
                run.search
                    .inference(run.views, net, run.seed + u64::from(g)),
                Budget::Seconds(run.seconds, &net_stats),
                run.keep_trees,
            );
            let mut other = mcts(
                settings(0),
                Playouts::<Board>::new(run.seed + u64::from(g)),
                Budget::Seconds(run.seconds, &playout_stats),
                run.keep_trees,
            );
            let agent_black = g % 2 == 0;
            let (margin, _) = if agent_black {
                game(&mut agent, &mut other)
            } else {
                game(&mut other, &mut agent)
            };
            let for_agent = if agent_black { margin } else { -margin };
            wins += u32::from(for_agent > 0);
            draws += u32::from(for_agent == 0);
            eprintln!(
                "az_eval: game {}/{}: agent as {}, {for_agent:+}",
                g + 1,
                run.versus_playouts,
                if agent_black { "Black" } else { "White" }
            );
        }
        let n = run.versus_playouts;
        let score = f64::from(wins) + 0.5 * f64::from(draws);
        let (low, high) = tools::matches::wilson(score, n);
        let per = |c: &std::cell::Cell<(u64, u32)>| c.get().0 as f64 / f64::from(c.get().1.max(1));
        let _ = writeln!(
            out,
            "\nAgainst playout MCTS at {} s per move: {n} games, {wins} wins, {draws} draws: {:.1}% (95% interval {:.1}–{:.1}%); mean root visits per move (endgame searches that reach the end revisit cheaply): net {:.0}, playouts {:.0}",
            run.seconds,
            100.0 * score / f64::from(n),
            100.0 * low,
            100.0 * high,
            per(&net_stats),
            per(&playout_stats)
        );
    }
    Ok(out)
}

/// `--curve`: every checkpoint of the run in `dir`, measured; writes `dir/strength.csv`.
fn curve(run: &Run, dir: &str, positions: &[Judged<Board>]) -> Result<String, String> {
    let dir = std::path::Path::new(dir);
    let log_path = dir.join("log.csv");
    let log = cli::read_text(&log_path)?;
    // generation -> (games, seconds): columns 0, 1 and 3 of az_train's log.
    let mut by_generation = std::collections::HashMap::new();
    for line in log.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if let (Some(g), Some(games), Some(secs)) = (f.first(), f.get(1), f.get(3)) {
            if let (Ok(g), Ok(games), Ok(secs)) =
                (g.parse::<u32>(), games.parse::<u64>(), secs.parse::<f64>())
            {
                by_generation.insert(g, (games, secs));
            }
        }
    }
    let mut files: Vec<(u32, std::path::PathBuf)> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_str()?;
            let g = name
                .strip_prefix("weights-g")?
                .strip_suffix(".net")?
                .parse()
                .ok()?;
            Some((g, path))
        })
        .collect();
    files.sort();
    let files: Vec<_> = files.into_iter().step_by(run.every).collect();
    if files.is_empty() {
        return Err(format!(
            "{}: no weights-gNNNN.net checkpoints",
            dir.display()
        ));
    }
    let mut csv = String::from("generation,games,seconds");
    for p in &run.players {
        let _ = write!(csv, ",{p}_mistakes,{p}_disc_loss");
    }
    csv.push('\n');
    let clock = Instant::now();
    for (i, (g, path)) in files.iter().enumerate() {
        let net = cli::load_weights(&path.to_string_lossy(), "othello", Some(6))?;
        serves_the_search(run, Some(&net)).map_err(|e| format!("{}: {e}", path.display()))?;
        let untrained = Net::random(*net.shape(), run.seed).map_err(|e| e.to_string())?;
        let (games, secs) = by_generation.get(g).copied().unwrap_or((0, 0.0));
        let _ = write!(csv, "{g},{games},{secs:.1}");
        for p in &run.players {
            let t = measure(
                p,
                positions,
                Some(&net),
                &untrained,
                run.threads,
                run.seed,
                run.search,
            )?;
            let all: u32 = t.positions.iter().sum();
            let mistakes: u32 = t.mistakes.iter().sum();
            let _ = write!(
                csv,
                ",{:.2},{:.3}",
                100.0 * f64::from(mistakes) / f64::from(all.max(1)),
                t.mean_disc_loss()
            );
        }
        csv.push('\n');
        eprintln!(
            "az_eval: checkpoint {}/{} (generation {g}) measured, {:.0} s",
            i + 1,
            files.len(),
            clock.elapsed().as_secs_f64()
        );
    }
    let out = dir.join("strength.csv");
    tools::alphazero::write_atomically(&out, csv.as_bytes())
        .map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(csv)
}
