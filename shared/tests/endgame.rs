//! The exact solver against plain searches that share none of its enhancements: minimax over
//! the whole 4×4 game tree, and alpha-beta (no table, no ordering, no null windows) on random
//! 6×6 and 8×8 positions with up to 14 empty squares. Every principal variation, replayed
//! through the Othello core, must end the game with the score the solver claims.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/ffo.rs"]
mod ffo;

use games::endgame::{Limit, Solver};
use games::othello::Board;
use games::rng::Rng;
use games::search::{alpha_beta, minimax, Game, FULL_WINDOW};
use games::Color;

/// Replays `solution.pv` from `start`: the game must end, with `score` for the side that
/// was to move at the start.
fn replay(start: &Board, pv: &[games::othello::Move], score: i32) {
    let end = ffo::line_score(start, pv).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(end, score, "the line ends on another score");
}

#[test]
fn four_by_four_from_the_start_agrees_with_plain_minimax() {
    let start = Board::new(4).unwrap();
    let truth = minimax(&start);
    let solution = Solver::new(16).solve(&start);
    assert_eq!(solution.score, truth.value);
    replay(&start, &solution.pv, solution.score);
    assert_eq!(start.side(), Color::Black);
    // With mirrored moves skipped at every node, the answer stays the same.
    let mirrored = Solver::new(16).symmetry_from(0).solve(&start);
    assert_eq!(mirrored.score, truth.value);
    assert!(mirrored.nodes < solution.nodes, "symmetry saved nothing");
    replay(&start, &mirrored.pv, mirrored.score);
    // Selective passes first (probcut, then the exact search in windows around their
    // guess): the same answer, by other work.
    let selective = Solver::new(16).selective_from(0).solve(&start);
    assert_eq!(selective.score, truth.value);
    assert_ne!(selective.nodes, solution.nodes, "no selective pass ran");
    replay(&start, &selective.pv, selective.score);
}

/// A random position of `size` with `empties` empty squares (or the end of a game reached
/// before that), the side to move having a move.
fn random_position(rng: &mut Rng, size: usize, empties: usize) -> Board {
    loop {
        let mut board = Board::new(size).unwrap();
        while board.empties().count() as usize > empties {
            let moves = board.moves();
            if moves.is_empty() {
                break;
            }
            board = board.after(moves[rng.below(moves.len())]).unwrap();
        }
        if !board.moves().is_empty() {
            return board;
        }
    }
}

#[test]
fn random_positions_agree_with_plain_alpha_beta() {
    // 300 positions: 145 on each size with 2 to 12 empties, and 5 on each with 13 and 14.
    let jobs: Vec<(usize, u64)> = vec![(6, 1), (8, 2)];
    let workers: Vec<_> = jobs
        .into_iter()
        .map(|(size, seed)| {
            std::thread::spawn(move || {
                let mut rng = Rng::new(seed);
                // Symmetry pruning everywhere: random positions are seldom symmetric, but the
                // check itself must never change an answer.
                let mut solver = Solver::new(18).symmetry_from(0);
                // Selective passes before every solve: probcut cuts from 10 empties on, and
                // the exact search that follows must not trust what they stored.
                let mut selective = Solver::new(18).selective_from(0);
                let mut empties: Vec<usize> = (0..145).map(|i| 2 + i % 11).collect();
                empties.extend([13, 13, 14, 14, 14]);
                for e in &empties {
                    let board = random_position(&mut rng, size, *e);
                    let truth = alpha_beta(&board, FULL_WINDOW).value;
                    let solution = solver.solve(&board);
                    assert_eq!(
                        solution.score, truth,
                        "{size}x{size}, {e} empties:\n{board:?}"
                    );
                    replay(&board, &solution.pv, solution.score);
                    let guessed = selective.solve(&board);
                    assert_eq!(
                        guessed.score, truth,
                        "selective passes first, {size}x{size}, {e} empties:\n{board:?}"
                    );
                    replay(&board, &guessed.pv, guessed.score);
                }
                empties.len()
            })
        })
        .collect();
    let checked: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
    assert_eq!(checked, 300);
}

#[test]
fn a_limited_solve_brackets_the_truth_and_a_finished_one_equals_solve() {
    let mut rng = Rng::new(11);
    let (mut bracketed, mut finished) = (0, 0);
    for e in [10, 12, 14, 14, 16, 16] {
        let board = random_position(&mut rng, 8, e);
        let truth = Solver::new(16).solve(&board);
        for nodes in [70_000, 200_000, 5_000_000] {
            let limit = Limit {
                nodes: Some(nodes),
                time: None,
            };
            match Solver::new(16).solve_within(&board, limit) {
                Ok(solution) => {
                    assert_eq!(solution.score, truth.score, "{board:?}");
                    replay(&board, &solution.pv, solution.score);
                    finished += 1;
                }
                Err(bounds) => {
                    assert!(
                        bounds.lower <= truth.score && truth.score <= bounds.upper,
                        "{bounds:?} leaves out {} in\n{board:?}",
                        truth.score
                    );
                    assert!(bounds.nodes >= nodes, "stopped early: {bounds:?}");
                    bracketed += 1;
                }
            }
        }
    }
    // Both outcomes must have been exercised, or the test proves nothing about one of them.
    assert!(
        bracketed > 0 && finished > 0,
        "{bracketed} bracketed, {finished} finished"
    );
}

#[test]
fn a_node_with_34_moves_is_searched() {
    // The fixture's position: 34 legal moves for Black (more than the move list once held).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/othello/mobility-34.perft"
    ))
    .unwrap();
    let rows: String = text
        .lines()
        .skip_while(|l| *l != "board")
        .skip(1)
        .take(8)
        .map(|l| format!("{l}\n"))
        .collect();
    let board: Board = rows.parse().unwrap();
    assert_eq!(board.moves().len(), 34);
    let limit = Limit {
        nodes: Some(300_000),
        time: None,
    };
    // Far too deep to finish: it must stop with honest bounds, not panic.
    let bounds = Solver::new(16).solve_within(&board, limit).unwrap_err();
    assert!(-64 <= bounds.lower && bounds.lower <= bounds.upper && bounds.upper <= 64);
}

#[test]
fn ffo_40_to_44_are_solved_to_their_published_scores() {
    // The fast five of the FFO test set (20 to 22 empties); the benchmark solves all twenty.
    let positions: Vec<ffo::Ffo> = ffo::load().into_iter().take(5).collect();
    assert_eq!(positions.len(), 5);
    let workers: Vec<_> = positions
        .into_iter()
        .map(|p| {
            std::thread::spawn(move || {
                let solution = Solver::new(20).solve(&p.board);
                // The published score, a line that starts with a best move and replays to it.
                if let Err(why) = p.check(&solution) {
                    panic!("FFO #{}: {why}", p.number);
                }
                p.number
            })
        })
        .collect();
    let solved: Vec<usize> = workers.into_iter().map(|w| w.join().unwrap()).collect();
    assert_eq!(solved, [40, 41, 42, 43, 44]);
}

#[test]
fn ffo_59_a_wipeout_of_34_empties_is_solved_with_its_line_in_few_nodes() {
    // With the committed patterns the score (+64) is proved within a few thousand nodes;
    // the line once took minutes more, its moves tried in square order rather than the
    // table's move first (each worse move proved worse: as costly as a solve).
    let p = ffo::load().into_iter().find(|p| p.number == 59).unwrap();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../weights/endgame8.pat");
    let bytes = std::fs::read(path).unwrap();
    let patterns = games::endgame::eval::Patterns::from_bytes(&bytes).unwrap();
    let solution = Solver::new(20)
        .with_eval(std::sync::Arc::new(patterns))
        .solve(&p.board);
    if let Err(why) = p.check(&solution) {
        panic!("FFO #59: {why}");
    }
    assert!(solution.nodes < 5_000_000, "{} nodes", solution.nodes);
}

#[test]
fn the_outcome_is_the_sign_of_the_exact_score() {
    // Plain alpha-beta over the Game trait is the truth. The solver that answers has just
    // solved another position with selective passes first, whose unsure bounds are still in
    // its table: the win/draw/loss search, like the exact one, must not take them.
    let mut rng = Rng::new(9);
    let mut solver = Solver::new(16).selective_from(0);
    let mut seen = [0; 3];
    for i in 0..240 {
        let size = if i % 3 == 0 { 4 } else { 6 };
        let board = random_position(&mut rng, size, 2 + i % 13);
        let truth = alpha_beta(&board, FULL_WINDOW).value.signum();
        let (outcome, nodes) = solver.outcome(&board);
        assert_eq!(outcome, truth, "{size}x{size}:\n{board:?}");
        assert!(nodes > 0);
        seen[(truth + 1) as usize] += 1;
        solver.solve(&random_position(&mut rng, 6, 12));
    }
    assert!(
        seen.iter().all(|&n| n >= 5),
        "losses, draws, wins: {seen:?}"
    );
}

#[test]
fn ordering_by_a_pattern_evaluation_changes_the_search_but_never_the_score() {
    // Random weights: a bad ordering, which must still give every exact score. Positions with
    // 16 to 18 empties, where the evaluation orders the moves. Weights up to 1,000 discs, so
    // that evaluations run far past any score (the table's move once sorted first by a key
    // of -1000, and an evaluation below it dropped a move: this caught it).
    for (size, seed) in [(6, 5), (8, 6)] {
        let mut patterns = games::endgame::eval::Patterns::zeros(size, 5, 4).unwrap();
        let mut rng = Rng::new(seed);
        for w in patterns.weights_mut() {
            *w = rng.below(20001) as f32 / 10.0 - 1000.0;
        }
        let patterns = std::sync::Arc::new(patterns);
        let (mut plain_nodes, mut eval_nodes) = (0, 0);
        for e in [16, 17, 18, 16, 17, 18] {
            let board = random_position(&mut rng, size, e);
            let plain = Solver::new(18).solve(&board);
            let ordered = Solver::new(18)
                .with_eval(std::sync::Arc::clone(&patterns))
                .solve(&board);
            assert_eq!(ordered.score, plain.score, "{size}x{size}:\n{board:?}");
            replay(&board, &ordered.pv, ordered.score);
            plain_nodes += plain.nodes;
            eval_nodes += ordered.nodes;
        }
        assert_ne!(plain_nodes, eval_nodes, "the evaluation was not used");
        // On another board size the evaluation is not used: the very same search.
        let other = random_position(&mut rng, 14 - size, 16);
        let a = Solver::new(16).solve(&other);
        let b = Solver::new(16).with_eval(patterns).solve(&other);
        assert_eq!((a.score, a.nodes), (b.score, b.nodes));
    }
}

#[test]
fn the_progress_counters_say_which_pass_ran_and_what_it_guessed() {
    use std::sync::atomic::Ordering::Relaxed;
    let mut rng = Rng::new(5);
    // From 19 empties on every selective pass runs, then the exact search; below, none.
    for (empties, passes) in [(20, games::endgame::SELECTIVE_PASSES.len() as u32), (14, 0)] {
        let board = random_position(&mut rng, 6, empties);
        let mut solver = Solver::new(16);
        let progress = solver.progress();
        let solution = solver.solve(&board);
        assert_eq!(progress.passes_done.load(Relaxed), passes, "{board:?}");
        assert_eq!(
            progress.pass.load(Relaxed),
            0,
            "a pass is still marked as running"
        );
        assert_eq!(progress.lower.load(Relaxed), solution.score);
        assert_eq!(progress.upper.load(Relaxed), solution.score);
        if passes > 0 {
            assert!(progress.guess.load(Relaxed).abs() <= 36, "{board:?}");
        }
    }
}
