//! The generic Monte Carlo search: correct signs (and a test the seed's convention fails),
//! tic-tac-toe against a random player and against perfect play, 7×7 Go against a random
//! player, and Go's conformance as a `Game`.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/conformance.rs"]
mod conformance;

use games::go::{self, Board, KoRule};
use games::mcts::{Evaluator, FirstPlay, Lcb, Playouts, Settings, Signs, Tree};
use games::rng::Rng;
use games::search::{alpha_beta, Game};
use games::tictactoe::{self, O, X};
use games::Color;

/// Negamax signs with the given budget, exploration constant and first-play rule.
fn negamax(iterations: u32, c_puct: f64, first_play: FirstPlay) -> Settings {
    Settings {
        iterations,
        c_puct,
        signs: Signs::Negamax,
        first_play,
        proofs: false,
        lcb: None,
    }
}

fn mcts_move(board: &tictactoe::Board, iterations: u32, signs: Signs, seed: u64) -> usize {
    let settings = Settings {
        signs,
        ..negamax(iterations, 2.0, FirstPlay::Zero)
    };
    Tree::search(board, settings, &mut Playouts::new(seed))
        .best_move()
        .unwrap()
}

#[test]
fn the_search_takes_a_win_in_one_and_the_seeds_signs_do_not() {
    // X to move wins at 2 (top row); any other move lets O win at 5 (middle row) or not.
    let board: tictactoe::Board = "XX.\nOO.\n...".parse().unwrap();
    for seed in 0..5 {
        assert_eq!(mcts_move(&board, 400, Signs::Negamax, seed), 2);
    }
    // With the seed's convention each choice favours the opponent's value: the winning
    // move, worth -1 to O, is the one it avoids.
    let seed_choices: Vec<usize> = (0..5)
        .map(|s| mcts_move(&board, 400, Signs::Seed, s))
        .collect();
    assert!(seed_choices.iter().all(|&m| m != 2), "{seed_choices:?}");
}

/// Uniform priors and the same value, for the side to move, in every position.
struct Constant(f64);

impl Evaluator<tictactoe::Board> for Constant {
    fn evaluate(&mut self, _: &tictactoe::Board, moves: &[usize], priors: &mut Vec<f64>) -> f64 {
        priors.clear();
        priors.resize(moves.len(), 1.0 / moves.len() as f64);
        self.0
    }
}

/// How many of the root's children a search of `iterations` visits at least once.
fn children_tried(first_play: FirstPlay, value: f64, iterations: u32) -> usize {
    let board = tictactoe::Board::new(3).unwrap();
    let settings = negamax(iterations, 1.5, first_play);
    let tree = Tree::search(&board, settings, &mut Constant(value));
    tree.children().iter().filter(|c| c.visits > 0).count()
}

#[test]
fn first_play_urgency_stops_a_lost_position_from_trying_every_move_first() {
    // Every reply is worth +0.9 to the opponent, so every tried move looks like a loss to
    // the root (Q = -0.9). At Q = 0 an untried move looks better than any tried one: the
    // first nine iterations go to the nine moves.
    assert_eq!(children_tried(FirstPlay::Zero, 0.9, 9), 9);
    // With the parent's value minus a reduction, an untried move looks no better than the
    // tried ones, so the prior's exploration term decides and the search comes back to
    // moves it has seen.
    let reduced = children_tried(FirstPlay::Reduced(0.5), 0.9, 9);
    assert!(reduced < 9, "{reduced}");
    // Where the tried moves look like wins (Q = +0.9), both rules prefer them over an
    // untried move at first; the reduction only lowers the untried moves further.
    assert!(
        children_tried(FirstPlay::Reduced(0.5), -0.9, 9)
            <= children_tried(FirstPlay::Zero, -0.9, 9)
    );
}

#[test]
fn with_first_play_urgency_the_search_still_takes_a_win_in_one() {
    let board: tictactoe::Board = "XX.\nOO.\n...".parse().unwrap();
    for seed in 0..5 {
        let settings = negamax(400, 2.0, FirstPlay::Reduced(0.3));
        let tree = Tree::search(&board, settings, &mut Playouts::new(seed));
        assert_eq!(tree.best_move(), Some(2));
    }
}

#[test]
fn tic_tac_toe_never_loses_to_random_and_draws_against_perfect_play() {
    let mut rng = Rng::new(16_571);
    for game in 0..60 {
        let searcher = if game % 2 == 0 { X } else { O };
        let mut board = tictactoe::Board::new(3).unwrap();
        while !board.is_over() {
            let mv = if board.to_move() == searcher {
                mcts_move(&board, 3_000, Signs::Negamax, game)
            } else {
                let moves = board.moves();
                moves[rng.below(moves.len())]
            };
            board = board.after(mv).unwrap();
        }
        assert_ne!(
            board.winner(),
            Some(if searcher == X { O } else { X }),
            "lost as {searcher}:\n{board}"
        );
    }
    for searcher in [X, O] {
        let mut board = tictactoe::Board::new(3).unwrap();
        while !board.is_over() {
            let mv = if board.to_move() == searcher {
                mcts_move(&board, 3_000, Signs::Negamax, 7)
            } else {
                alpha_beta(&board, (-1, 1)).best.unwrap()
            };
            board = board.after(mv).unwrap();
        }
        assert_eq!(
            board.winner(),
            None,
            "as {searcher} against perfect play:\n{board}"
        );
    }
}

#[test]
fn go_moves_generated_are_moves_accepted() {
    let board = Board::new(5, 5).unwrap();
    let mut candidates: Vec<go::Move> = board.points().map(go::Move::Play).collect();
    candidates.push(go::Move::Pass);
    let start = go::Position::new(board, KoRule::PositionalSuperko).with_komi(0.5);
    let checked = conformance::random_games(&start, &candidates, 40, 3);
    assert!(checked > 40 * 10, "{checked}");
}

/// One game of 7×7 Go, the search (light playouts) against uniformly random legal moves;
/// returns whether the search won.
fn go_game(number: u64, iterations: u32) -> bool {
    let searcher = if number % 2 == 0 {
        Color::Black
    } else {
        Color::White
    };
    let mut game =
        go::Position::new(Board::new(7, 7).unwrap(), KoRule::PositionalSuperko).with_komi(7.5);
    let mut evaluator = Playouts::with_rollout(number, go::playout::light_rollout);
    let settings = Settings {
        iterations,
        ..Settings::default()
    };
    let mut rng = Rng::new(1000 + number);
    let mut plies = 0;
    while !game.moves().is_empty() && plies < 400 {
        let mv = if game.side_to_move() == searcher {
            Tree::search(&game, settings, &mut evaluator)
                .best_move()
                .unwrap()
        } else {
            let moves = game.moves();
            moves[rng.below(moves.len())]
        };
        game = game.after(mv).unwrap();
        plies += 1;
    }
    (game.margin() > 0.0) == (searcher == Color::Black)
}

#[test]
fn on_7x7_go_the_playout_search_beats_a_random_player() {
    // 50 games, fixed seeds, the search Black in even games and White in odd ones; two
    // threads because each game runs 1,000 iterations a move.
    let workers: Vec<_> = (0..2u64)
        .map(|half| {
            std::thread::spawn(move || (half..50).step_by(2).filter(|&g| go_game(g, 1_000)).count())
        })
        .collect();
    let wins: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    eprintln!("7x7 Go, 1,000 iterations of light playouts against random moves: won {wins} of 50");
    assert!(wins >= 45, "won {wins} of 50");
}

/// Each root child's move, visits and total value.
fn children_of(tree: &Tree<tictactoe::Board>) -> Vec<(Option<usize>, u32, f64)> {
    tree.children()
        .iter()
        .map(|c| (c.mv, c.visits, c.total))
        .collect()
}

/// Every node of `tree` below its root, reached through [`Tree::descend`], has one visit
/// more than its children together (its own first visit, when it was expanded), down to
/// `depth` plies (fewer than the five before a game of tic-tac-toe can be over).
fn visits_add_up(tree: &Tree<tictactoe::Board>, depth: u32) {
    let children = children_of(tree);
    let below: u32 = children.iter().map(|c| c.1).sum();
    assert_eq!(tree.root().visits, below + 1);
    if depth == 0 {
        return;
    }
    for (mv, visits, total) in children {
        match tree.descend(&[mv.unwrap()]) {
            Some(sub) => {
                // The kept root is that child: its visits and value.
                assert_eq!((sub.root().visits, sub.root().total), (visits, total));
                visits_add_up(&sub, depth - 1);
            }
            // Only a child never visited has no subtree (no game is over this early).
            None => assert_eq!(visits, 0),
        }
    }
}

#[test]
fn a_kept_subtree_has_the_visits_and_values_found_below_its_root() {
    let board = tictactoe::Board::new(3).unwrap();
    let settings = negamax(3000, 1.5, FirstPlay::Zero);
    let mut playouts = Playouts::new(7);
    let tree = Tree::search(&board, settings, &mut playouts);
    visits_add_up(&tree, 3);
    // Two plies down by the most visited moves, then once more: the same children as
    // three plies down at once.
    let first = tree.best_move().unwrap();
    let two = tree.descend(&[first]).unwrap();
    let second = two.best_move().unwrap();
    let kept = tree.descend(&[first, second]).unwrap();
    assert_eq!(
        children_of(&kept),
        children_of(&two.descend(&[second]).unwrap())
    );
    let third = kept.best_move().unwrap();
    assert_eq!(
        children_of(&kept.descend(&[third]).unwrap()),
        children_of(&tree.descend(&[first, second, third]).unwrap())
    );
    // The search goes on from the kept tree.
    let before = kept.root().visits;
    let mut grown = kept;
    grown.grow(500, &mut playouts);
    assert_eq!(grown.root().visits, before + 500);
    visits_add_up(&grown, 2);
    // A move that is not a child, and nothing at all below an unexpanded node.
    assert!(tree.descend(&[first, first]).is_none());
    let fresh = Tree::start(&board, settings, &mut playouts);
    assert!(fresh.descend(&[4]).is_none());
}

/// A search that likes the centre: prior 0.9 for it and 0.1 shared by the other moves
/// while it is free (uniform after); the value, for the side to move, +0.5 if it holds
/// the centre, −0.5 if the opponent does, 0 while it is free. Every other first move
/// looks even (0) at its first visit and bad (the reply takes the centre) after a few.
struct Centre;

impl Evaluator<tictactoe::Board> for Centre {
    fn evaluate(
        &mut self,
        board: &tictactoe::Board,
        moves: &[usize],
        priors: &mut Vec<f64>,
    ) -> f64 {
        let free = moves.contains(&4);
        let others = moves.iter().filter(|&&m| m != 4).count().max(1) as f64;
        priors.clear();
        priors.extend(moves.iter().map(|&m| match (m, free) {
            (4, _) => 0.9,
            (_, true) => 0.1 / others,
            (_, false) => 1.0 / others,
        }));
        match board.at(4) {
            None => 0.0,
            Some(c) if c == board.to_move() => 0.5,
            Some(_) => -0.5,
        }
    }
}

#[test]
fn forced_playouts_give_each_tried_root_move_its_visits_and_the_target_takes_them_back() {
    let board = tictactoe::Board::new(3).unwrap();
    let settings = negamax(800, 1.5, FirstPlay::Zero);
    // Root noise, as in self-play, lifts two corners (0 and 8) from 0.0125 to about 0.13.
    let noise = [0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5];
    let search = |k: f64| {
        let mut tree = Tree::start(&board, settings, &mut Centre);
        tree.mix_root_priors(&noise, 0.25);
        tree.force_root_playouts(k);
        tree.grow(800, &mut Centre);
        tree
    };
    let (plain, forced) = (search(0.0), search(2.0));
    let visits = |tree: &Tree<tictactoe::Board>| -> Vec<u32> {
        tree.children().iter().map(|c| c.visits).collect()
    };
    let (plain_visits, forced_visits) = (visits(&plain), visits(&forced));
    let corners = |v: &[u32]| v[0] + v[8];
    // PUCT alone gives the lifted corners a few visits each: once the reply takes the
    // centre they look bad, and their prior no longer brings the search back. Forced, each
    // gets about √(2 · P · 800) ≈ 14.6 (at most one short: the bound grows while the
    // search goes).
    assert!(corners(&plain_visits) >= 2, "{plain_visits:?}");
    for child in forced.children().iter().filter(|c| c.visits > 0) {
        let bound = (2.0 * child.prior * 800.0).sqrt();
        assert!(f64::from(child.visits) + 1.0 >= bound, "{forced_visits:?}");
    }
    assert!(
        corners(&forced_visits) >= 2 * corners(&plain_visits),
        "forced {forced_visits:?}, plain {plain_visits:?}"
    );
    // The target: never more than the visits; the centre (the most visited) keeps all of
    // its own; the forced visits to the corners, which PUCT would not have given, are
    // taken back.
    let target = forced.root_target();
    assert!(target.iter().zip(&forced_visits).all(|(t, v)| t <= v));
    assert_eq!(target[4], forced_visits[4]);
    assert_eq!(forced.best_move(), Some(4));
    assert!(
        corners(&target) <= corners(&plain_visits),
        "target {target:?}, plain {plain_visits:?}"
    );
    // Without forced playouts the target is the visits.
    assert_eq!(plain.root_target(), plain_visits);
}

#[test]
fn with_proofs_the_search_plays_the_biggest_win_of_an_endgame_it_solves() {
    use games::othello::Board as Othello;
    use games::search::FULL_WINDOW;
    // Endgames of random 6×6 games, 6 empties from the end, where the side to move has two
    // winning moves or more and not all win by as much. Random playouts value a win by 2
    // and a win by 4 alike; proofs in the tree see the finished games' margins and solve
    // the endgame within 3,000 iterations, so the move is always a biggest win.
    let mut rng = Rng::new(11);
    let (mut found, mut with, mut without, mut solved) = (0, 0, 0, 0);
    for seed in 0..400u64 {
        let mut board = Othello::new(6).unwrap();
        while !board.is_game_over() && board.empties().count() > 6 {
            let moves = board.legal_moves();
            board = board.after(moves[rng.below(moves.len())]).unwrap();
        }
        let moves = board.legal_moves();
        let margins: Vec<i32> = moves
            .iter()
            .map(|&m| -alpha_beta(&board.after(m).unwrap(), FULL_WINDOW).value)
            .collect();
        let best = margins.iter().copied().max().unwrap_or(0);
        let wins: Vec<i32> = margins.iter().copied().filter(|&m| m > 0).collect();
        if wins.len() < 2 || wins.iter().all(|&m| m == best) {
            continue;
        }
        found += 1;
        let margin_of = |mv| margins[moves.iter().position(|&m| m == mv).unwrap()];
        let plain = negamax(3000, 1.5, FirstPlay::Zero);
        let mv = Tree::search(&board, plain, &mut Playouts::new(seed))
            .best_move()
            .unwrap();
        without += usize::from(margin_of(mv) == best);
        let proving = Settings {
            proofs: true,
            ..plain
        };
        let tree = Tree::search(&board, proving, &mut Playouts::new(seed));
        if tree.root().proved() == Some(best) {
            solved += 1;
        }
        // What the tree proved is never wrong, solved or not.
        for child in tree.children() {
            let exact = margin_of(child.mv.unwrap());
            assert!(
                -child.bounds.1 <= exact && exact <= -child.bounds.0,
                "{board}: {:?} bounds {:?}, exact {exact}",
                child.mv,
                child.bounds
            );
        }
        with += usize::from(margin_of(tree.best_move().unwrap()) == best);
    }
    assert!(found >= 30, "{found} such endgames");
    assert_eq!(solved, found, "the root solved in {solved} of {found}");
    assert_eq!(
        with, found,
        "the biggest win in {with} of {found} with proofs"
    );
    assert!(
        without * 10 <= found * 9,
        "without proofs the biggest win in {without} of {found}: the test cannot fail"
    );
}

#[test]
fn with_proofs_a_proved_win_is_played_though_the_search_stops_visiting_it() {
    // X wins at 2 at once. With proofs the win is proved at its first visit and never
    // searched again; by visits the other moves, valued 0 (a draw) by the evaluator, would
    // look busier. The proved result (+1) is above their values, so the win is played.
    let board: tictactoe::Board = "XX.\nOO.\n...".parse().unwrap();
    let settings = Settings {
        proofs: true,
        ..negamax(400, 2.0, FirstPlay::Zero)
    };
    let tree = Tree::search(&board, settings, &mut Constant(0.0));
    let win = tree.children().iter().find(|c| c.mv == Some(2)).unwrap();
    let most = tree.children().iter().map(|c| c.visits).max().unwrap();
    assert_eq!(
        win.proved(),
        Some(-1),
        "the child's score is for O, who has lost"
    );
    assert!(
        win.visits < most,
        "the win stopped being visited: {}",
        win.visits
    );
    assert_eq!(tree.best_move(), Some(2));
}

/// A game made for the test below: from the start the first player either resigns at once
/// (move 0: lost by 12, a finished game the search proves at its first visit) or plays on
/// (move 1) into a binary tree of moves too deep for the search to finish.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ResignOrPlayOn {
    plies: u32,
    resigned: bool,
}

impl Game for ResignOrPlayOn {
    type Move = u8;

    fn side(&self) -> Color {
        if self.plies % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    fn moves(&self) -> Vec<u8> {
        if self.score().is_some() {
            Vec::new()
        } else {
            vec![0, 1]
        }
    }

    fn after(&self, mv: u8) -> Option<Self> {
        (mv < 2 && self.score().is_none()).then(|| ResignOrPlayOn {
            plies: self.plies + 1,
            resigned: self.plies == 0 && mv == 0,
        })
    }

    fn score(&self) -> Option<i32> {
        // For the side to move: White, after Black resigned, won by 12.
        if self.resigned {
            Some(12)
        } else {
            (self.plies >= 60).then_some(0)
        }
    }
}

/// Uniform priors; every open position worth `open` to White and `-open` to Black; a
/// finished game worth its result plus `per_point` times its score, as a score utility
/// adds to it (so that values run past ±1).
struct Utility {
    open: f64,
    per_point: f64,
}

impl Evaluator<ResignOrPlayOn> for Utility {
    fn evaluate(&mut self, game: &ResignOrPlayOn, moves: &[u8], priors: &mut Vec<f64>) -> f64 {
        priors.clear();
        priors.resize(moves.len(), 1.0 / moves.len() as f64);
        match game.side() {
            Color::White => self.open,
            Color::Black => -self.open,
        }
    }

    fn exact(&mut self, _: &ResignOrPlayOn, score: i32) -> f64 {
        f64::from(score.signum()) + self.per_point * f64::from(score)
    }
}

#[test]
fn with_proofs_a_proved_move_is_weighed_on_the_scale_of_the_open_ones() {
    // Black may resign, lost by 12 (proved), or play on into positions worth -1.2 to it.
    // With a utility the resignation is worth -1 - 12 * 0.033 = -1.4: playing on is better,
    // though its mean is below -1, the bare value of a loss. Without the per-point term the
    // resignation is worth -1, and better.
    let start = ResignOrPlayOn {
        plies: 0,
        resigned: false,
    };
    let settings = Settings {
        proofs: true,
        ..negamax(40, 1.5, FirstPlay::Zero)
    };
    let search = |per_point: f64| {
        let mut utility = Utility {
            open: 1.2,
            per_point,
        };
        let tree = Tree::search(&start, settings, &mut utility);
        let children = tree.children();
        let child = |mv| children.iter().find(|c| c.mv == Some(mv)).unwrap();
        assert_eq!(
            child(0).proved(),
            Some(12),
            "White's score after the resignation"
        );
        assert!(child(1).proved().is_none() && child(1).visits > 10);
        assert!((child(1).q() - 1.2).abs() < 1e-9, "{}", child(1).q());
        tree.best_move()
    };
    assert_eq!(
        search(0.033),
        Some(1),
        "a loss worth -1.4 under an open -1.2"
    );
    assert_eq!(search(0.0), Some(0), "a loss worth -1 over an open -1.2");
}

#[test]
fn lcb_plays_the_best_bound_among_moves_visited_enough() {
    // Each case: stdevs, min share, then each move's visits, mean and mean square for the
    // player choosing, then the move chosen ("-": none).
    let table = "
        2 0.1  | 100 0.1 0.02, 1 0.9 0.81             => 0   one visit is no candidate
        2 0.1  | 300 0.2 0.04, 60 0.5 0.25            => 1   no spread: the higher mean
        2 0.25 | 300 0.2 0.04, 60 0.5 0.25            => 0   60 is under a quarter of 300
        5 0.1  | 300 0.2 0.04, 60 0.5 0.75            => 0   5 errors of a wide spread
        2 0.1  | 300 0.2 0.04, 60 0.5 0.75            => 1   2 errors of it
        0 0.1  | 50 0.1 0.01, 10 0.4 0.16, 4 0.9 0.81 => 1   4 is under a tenth of 50
        1 0    | 100 0.3 0.09, 100 0.3 0.09           => 0   equals: the first
        1 0    | 3 -0.2 0.04, 7 -0.5 0.25             => 0   bounds below zero
        1 0    | 0 0 0, 0 0 0                         => -   nothing visited
    ";
    for line in table.lines().filter(|l| !l.trim().is_empty()) {
        let (case, expected) = line.split_once("=>").unwrap();
        let (head, moves) = case.split_once('|').unwrap();
        let head: Vec<f64> = head
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        let lcb = Lcb {
            stdevs: head[0],
            min_share: head[1],
        };
        let moves: Vec<(u32, f64, f64)> = moves
            .split(',')
            .map(|m| {
                let w: Vec<&str> = m.split_whitespace().collect();
                (
                    w[0].parse().unwrap(),
                    w[1].parse().unwrap(),
                    w[2].parse().unwrap(),
                )
            })
            .collect();
        let expected = expected.split_whitespace().next().unwrap();
        let chosen = lcb
            .choose(&moves)
            .map_or("-".to_string(), |i| i.to_string());
        assert_eq!(chosen, expected, "{line}");
    }
}

#[test]
fn with_lcb_the_search_plays_what_lcb_chooses_from_its_root() {
    // Playout values are +1, 0 or -1, so each node's squares count its decisive results.
    let mut differs = 0;
    for (position, seed) in ["X........", "XO.......", "X.O.X....", "XX.OO...."]
        .iter()
        .zip(1..)
    {
        let rows: Vec<String> = position
            .as_bytes()
            .chunks(3)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let board: tictactoe::Board = rows.join("\n").parse().unwrap();
        for lcb in [
            Lcb {
                stdevs: 0.0,
                min_share: 0.0,
            },
            Lcb {
                stdevs: 3.0,
                min_share: 0.15,
            },
        ] {
            let settings = Settings {
                lcb: Some(lcb),
                ..negamax(60, 4.0, FirstPlay::Zero)
            };
            let tree = Tree::search(&board, settings, &mut Playouts::new(seed));
            let stats: Vec<(u32, f64, f64)> = tree
                .children()
                .iter()
                .map(|c| {
                    let n = f64::from(c.visits.max(1));
                    assert_eq!(c.squares, c.squares.round(), "{position}");
                    assert!(c.squares <= f64::from(c.visits) && c.squares >= c.total.abs());
                    (c.visits, -c.total / n, c.squares / n)
                })
                .collect();
            let i = lcb.choose(&stats).unwrap();
            assert_eq!(
                tree.best_move(),
                tree.children()[i].mv,
                "{position} {lcb:?}"
            );
            let plain = Tree::search(
                &board,
                negamax(60, 4.0, FirstPlay::Zero),
                &mut Playouts::new(seed),
            );
            differs += usize::from(plain.best_move() != tree.best_move());
        }
    }
    // Bound 0 at share 0 plays the best mean, which is not always the most visited move.
    assert!(
        differs > 0,
        "LCB never chose other than the most visited move"
    );
}
