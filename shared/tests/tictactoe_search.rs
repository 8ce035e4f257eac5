//! Tic-tac-toe and the searches against ../shared/reference/tictactoe.md, plus the
//! properties every search must have: perfect play draws, and never loses to a random player.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/conformance.rs"]
mod conformance;

use games::rng::Rng;
use games::search::{alpha_beta, alpha_beta_tt, minimax, Game, Table, FULL_WINDOW};
use games::tictactoe::{Board, O, X};
use std::collections::HashSet;

fn empty() -> Board {
    Board::new(3).unwrap()
}

/// Finished games by result: (X wins, O wins, draws).
fn count_games(board: &Board, tally: &mut (u64, u64, u64)) {
    if board.is_over() {
        match board.winner() {
            Some(X) => tally.0 += 1,
            Some(O) => tally.1 += 1,
            None => tally.2 += 1,
        }
        return;
    }
    for mv in board.moves() {
        count_games(&board.after(mv).unwrap(), tally);
    }
}

fn reachable(board: &Board, seen: &mut HashSet<Board>) {
    if seen.insert(*board) {
        for mv in board.moves() {
            reachable(&board.after(mv).unwrap(), seen);
        }
    }
}

#[test]
fn game_counts_match_the_reference() {
    let mut tally = (0, 0, 0);
    count_games(&empty(), &mut tally);
    assert_eq!(tally, (131_184, 77_904, 46_080));
    assert_eq!(tally.0 + tally.1 + tally.2, 255_168);

    let mut seen = HashSet::new();
    reachable(&empty(), &mut seen);
    assert_eq!(seen.len(), 5_478);
    assert_eq!(seen.iter().filter(|b| b.is_over()).count(), 958);
    // Every reachable position passes the reachability check.
    assert!(seen.iter().all(|b| b.check().is_ok()));
}

#[test]
fn search_node_counts_match_the_reference() {
    let plain = minimax(&empty());
    assert_eq!((plain.value, plain.nodes), (0, 549_946));
    let wide = alpha_beta(&empty(), (-2, 2));
    assert_eq!((wide.value, wide.nodes), (0, 18_297));
    let narrow = alpha_beta(&empty(), (-1, 1));
    assert_eq!((narrow.value, narrow.nodes), (0, 16_811));
    // Alpha-beta with the full window is the (-2, 2) search: no value reaches either bound.
    assert_eq!(alpha_beta(&empty(), FULL_WINDOW), wide);
}

#[test]
fn all_searches_agree_on_every_reachable_position() {
    let mut seen = HashSet::new();
    reachable(&empty(), &mut seen);
    let mut table = Table::new();
    for board in &seen {
        let truth = minimax(board);
        let ab = alpha_beta(board, FULL_WINDOW);
        let tt = alpha_beta_tt(board, FULL_WINDOW, &mut table);
        assert_eq!(ab.value, truth.value, "{board}");
        assert_eq!(tt.value, truth.value, "{board}");
        // The best move each one names really achieves the value.
        for best in [truth.best, ab.best, tt.best] {
            match best {
                Some(mv) => assert_eq!(-minimax(&board.after(mv).unwrap()).value, truth.value),
                None => assert!(board.is_over()),
            }
        }
        assert!(ab.nodes <= truth.nodes);
    }
    assert!(!table.is_empty());
}

/// The move alpha-beta picks: the first optimal move in square order.
fn perfect(board: &Board) -> usize {
    alpha_beta(board, (-1, 1)).best.unwrap()
}

#[test]
fn perfect_play_against_perfect_play_is_a_draw() {
    let mut board = empty();
    while !board.is_over() {
        board = board.after(perfect(&board)).unwrap();
    }
    assert_eq!(board.winner(), None);
}

#[test]
fn the_search_never_loses_to_a_random_player() {
    let mut rng = Rng::new(4_664);
    let (mut wins, mut draws) = (0, 0);
    for game in 0..400 {
        // The search plays X in even games, O in odd ones.
        let searcher = if game % 2 == 0 { X } else { O };
        let mut board = empty();
        while !board.is_over() {
            let mv = if board.to_move() == searcher {
                perfect(&board)
            } else {
                let moves = board.moves();
                moves[rng.below(moves.len())]
            };
            board = board.after(mv).unwrap();
        }
        match board.winner() {
            Some(m) if m == searcher => wins += 1,
            Some(_) => panic!("the search lost as {searcher}:\n{board}"),
            None => draws += 1,
        }
    }
    // A random opponent blunders: most games are won.
    assert!(wins > draws, "{wins} wins, {draws} draws");
}

#[test]
fn unreachable_positions_are_refused() {
    use games::tictactoe::{FromCellsError, PositionError};
    let parse = |s: &str| s.parse::<Board>().unwrap();
    assert_eq!(
        parse("XX.\n...\n...").check(),
        Err(PositionError::Counts { x: 2, o: 0 })
    );
    assert_eq!(
        parse("XXX\nOOO\n...").check(),
        Err(PositionError::TwoWinners)
    );
    assert_eq!(
        parse("XXX\nOO.\nO..").check(),
        Err(PositionError::PlayedOn(X))
    );
    assert_eq!(
        parse("OOO\nXX.\nX.X").check(),
        Err(PositionError::PlayedOn(O))
    );
    assert!(parse("XXX\nOO.\n...").check().is_ok());
    assert_eq!(
        Board::from_cells(&[None; 10]),
        Err(FromCellsError::Size(10))
    );
    assert!("XX\n..".parse::<Board>().is_err() && "X.?\n...\n...".parse::<Board>().is_err());
}

#[test]
fn the_moves_a_game_generates_are_the_moves_it_accepts() {
    let mut seen = HashSet::new();
    reachable(&empty(), &mut seen);
    let cells: Vec<usize> = (0..20).collect();
    for board in &seen {
        conformance::check_position(board, &cells);
    }
    let checked = conformance::random_games(&Board::new(4).unwrap(), &cells, 300, 16);
    assert!(checked > 3000);
}
