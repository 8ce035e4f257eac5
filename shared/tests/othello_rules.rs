//! Othello rules: flips in every direction at every edge, the reference positions and lines of
//! ../shared/reference/othello.md, passes, game over, and random games checked against a slow
//! cell-walking implementation written only for this test.

// Helpers outside #[test] functions unwrap too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

#[path = "common/conformance.rs"]
mod conformance;

use games::grid::GridError;
use games::othello::{Bitboard, Board, IllegalMove, Move, Square, SIZES};
use games::rng::Rng;
use games::search::{alpha_beta, alpha_beta_tt, minimax, Game, Table, FULL_WINDOW};
use games::Color;
use itertools::{iproduct, Itertools};

const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// The slow reference: walk from `(r, c)` cell by cell in each direction.
fn slow_flips(board: &Board, r: usize, c: usize) -> Vec<(usize, usize)> {
    let n = board.size() as isize;
    let me = board.side_to_move();
    if board.at(Square::new(r, c)).is_some() {
        return Vec::new();
    }
    let mut all = Vec::new();
    for (dr, dc) in DIRECTIONS {
        let mut line = Vec::new();
        let (mut rr, mut cc) = (r as isize + dr, c as isize + dc);
        while (0..n).contains(&rr) && (0..n).contains(&cc) {
            match board.at(Square::new(rr as usize, cc as usize)) {
                Some(color) if color == me.opponent() => line.push((rr as usize, cc as usize)),
                Some(_) => {
                    all.append(&mut line);
                    break;
                }
                None => break,
            }
            rr += dr;
            cc += dc;
        }
    }
    all.sort_unstable();
    all
}

fn cells(set: Bitboard) -> Vec<(usize, usize)> {
    set.squares().map(|s| (s.row(), s.col())).collect()
}

fn empty_board(n: usize, black: &[(usize, usize)], white: &[(usize, usize)]) -> Board {
    let set = |cells: &[(usize, usize)]| {
        cells.iter().fold(Bitboard::EMPTY, |acc, &(r, c)| {
            acc | Square::new(r, c).bitboard()
        })
    };
    Board::from_discs(n, set(black), set(white), Color::Black).unwrap()
}

fn play_line(moves: &str) -> Board {
    let mut board = Board::standard();
    for mv in moves.split_whitespace() {
        let sq: Square = mv.parse().unwrap();
        board.play(sq).unwrap_or_else(|e| panic!("{mv}: {e}"));
        if board.must_pass() {
            board.pass().unwrap();
        }
    }
    board
}

#[test]
fn a_line_flips_in_every_direction_from_every_cell_of_every_size() {
    let mut lines = 0;
    for n in SIZES {
        for (r, c, (dr, dc)) in iproduct!(0..n, 0..n, DIRECTIONS) {
            // k white discs from (r, c) in direction d, then a black disc: exactly those flip.
            for k in 1..n {
                let at = |i: usize| {
                    let (rr, cc) = (r as isize + dr * i as isize, c as isize + dc * i as isize);
                    ((0..n as isize).contains(&rr) && (0..n as isize).contains(&cc))
                        .then_some((rr as usize, cc as usize))
                };
                let Some(end) = at(k + 1) else { break };
                let whites: Vec<_> = (1..=k).map(|i| at(i).unwrap()).collect();
                let board = empty_board(n, &[end], &whites);
                let flips = board.flips(Square::new(r, c)).unwrap();
                assert_eq!(cells(flips), whites.iter().copied().sorted().collect_vec());
                assert!(board.placements().contains(Square::new(r, c)));
                lines += 1;

                // Without the black disc at the end the line runs into an empty cell (or, when
                // it reaches the edge, off the board): nothing flips.
                let open = empty_board(n, &[], &whites);
                assert_eq!(open.flips(Square::new(r, c)), Err(IllegalMove::NoFlips));
                // A line that reaches the edge of the board without a black disc.
                if at(k + 2).is_none() {
                    let mut to_edge = whites.clone();
                    to_edge.push(end);
                    let board = empty_board(n, &[], &to_edge);
                    assert_eq!(board.flips(Square::new(r, c)), Err(IllegalMove::NoFlips));
                    assert!(!board.placements().contains(Square::new(r, c)));
                }
            }
        }
    }
    // Sum over sizes of the lines with at least one disc to flip, by cell and direction.
    assert!(lines > 8 * 8 * 8, "only {lines} lines checked");
}

#[test]
fn one_move_flips_nineteen_discs_in_all_eight_directions() {
    let board: Board = "
        B...B...
        .W..W..B
        ..W.W.W.
        ...WWW..
        BWWW.WWB
        ...WWW..
        ..W.W.W.
        .B..B..B"
        .parse()
        .unwrap();
    let e5: Square = "e5".parse().unwrap();
    let mut after = board;
    let flipped = after.play(e5).unwrap();
    assert_eq!(flipped.count(), 19);
    // Every neighbour of e5 flipped: the move outflanks in all eight directions at once.
    for (dr, dc) in DIRECTIONS {
        let sq = Square::new((4 + dr) as usize, (4 + dc) as usize);
        assert!(flipped.contains(sq), "{sq}");
    }
    assert_eq!(after.count(Color::White), board.count(Color::White) - 19);
    assert_eq!(after.count(Color::Black), board.count(Color::Black) + 20);
}

#[test]
fn forced_pass_after_eight_plies() {
    let mut board = Board::standard();
    for mv in "d3 c3 b3 b2 f5 a3 a1 c1".split_whitespace() {
        assert!(!board.must_pass(), "nobody passes before {mv}");
        board.play(mv.parse().unwrap()).unwrap();
    }
    assert_eq!(board.side_to_move(), Color::Black);
    assert!(board.placements().is_empty());
    assert!(board.must_pass() && !board.is_game_over());
    board.pass().unwrap();
    assert_eq!(board.side_to_move(), Color::White);
    assert!(!board.placements().is_empty());
    assert_eq!(board.pass(), Err(IllegalMove::HasMoves));
}

#[test]
fn wipe_out_ends_the_game_after_nine_plies() {
    let board = play_line("d3 c3 b3 d2 e1 d6 d7 e3 f4");
    assert!(board.is_game_over());
    assert!(!board.must_pass());
    assert_eq!(board.count(Color::Black), 13);
    assert_eq!(board.count(Color::White), 0);
    assert_eq!(board.leader(), Some(Color::Black));
}

#[test]
fn illegal_moves_leave_the_board_unchanged() {
    let mut board = Board::new(6).unwrap();
    let before = board;
    assert_eq!(
        board.play("g1".parse().unwrap()),
        Err(IllegalMove::OffBoard)
    );
    assert_eq!(
        board.play("c3".parse().unwrap()),
        Err(IllegalMove::Occupied)
    );
    assert_eq!(board.play("a1".parse().unwrap()), Err(IllegalMove::NoFlips));
    assert_eq!(board, before);
    assert_eq!(board.pass(), Err(IllegalMove::HasMoves));
    assert_eq!(board, before);
}

#[test]
fn text_round_trips() {
    for n in SIZES {
        let board = Board::new(n).unwrap();
        let text = board.to_string();
        assert_eq!(text.lines().count(), n);
        assert_eq!(text.parse::<Board>().unwrap(), board);
    }
    for (r, c) in iproduct!(0..8, 0..8) {
        let sq = Square::new(r, c);
        assert_eq!(sq.to_string().parse::<Square>().unwrap(), sq);
    }
    assert_eq!(
        "....\n...\n....\n....".parse::<Board>(),
        Err(GridError::RowLength {
            row: Some(1),
            len: 3,
            expected: 4
        })
    );
    assert_eq!(
        "...\n...\n...".parse::<Board>(),
        Err(GridError::Size {
            found: 3,
            allowed: &SIZES
        })
    );
    assert!(matches!(
        "....\n.x..\n....\n....".parse::<Board>(),
        Err(GridError::Symbol {
            row: Some(1),
            col: 1,
            symbol: 'x',
            ..
        })
    ));
    assert!("i1".parse::<Square>().is_err() && "a9".parse::<Square>().is_err());
    assert!(Board::new(7).is_err() && Board::new(0).is_err() && Board::new(10).is_err());
}

#[test]
fn random_games_agree_with_the_cell_walking_reference() {
    // The crate's own generator: deterministic, and no random crate's stream to depend on.
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let (mut positions, mut passes, mut ended) = (0, 0, 0);
    for n in SIZES {
        for _game in 0..300 {
            let mut board = Board::new(n).unwrap();
            loop {
                positions += 1;
                let empties = board.empties();
                let discs = board.count(Color::Black) + board.count(Color::White);
                assert_eq!(discs + empties.count(), (n * n) as u32);
                assert!(
                    (board.discs(Color::Black) & board.discs(Color::White)).is_empty(),
                    "a cell holds two discs"
                );

                // The shift-based generator and flips agree with the slow walk everywhere.
                let mut slow_moves = Vec::new();
                for (r, c) in iproduct!(0..n, 0..n) {
                    let slow = slow_flips(&board, r, c);
                    let fast = board
                        .flips(Square::new(r, c))
                        .map(cells)
                        .unwrap_or_default();
                    assert_eq!(fast, slow, "flips at ({r}, {c}) of\n{board:?}");
                    if !slow.is_empty() {
                        slow_moves.push((r, c));
                    }
                }
                assert_eq!(cells(board.placements()), slow_moves, "moves of\n{board:?}");

                if board.is_game_over() {
                    ended += 1;
                    break;
                }
                if board.must_pass() {
                    passes += 1;
                    board.pass().unwrap();
                    continue;
                }
                let (r, c) = slow_moves[rng.below(slow_moves.len())];
                let sq = Square::new(r, c);
                let (me, before) = (board.side_to_move(), board);
                let flipped = board.play(sq).unwrap();
                // Each flipped disc changed colour exactly once, nothing else changed.
                let opp = me.opponent();
                assert_eq!(
                    before.discs(opp) & !board.discs(opp),
                    flipped,
                    "flipped discs left the opponent"
                );
                assert_eq!(board.discs(opp), before.discs(opp) & !flipped);
                assert_eq!(
                    board.discs(me),
                    before.discs(me) | flipped | sq.bitboard(),
                    "flipped discs became the mover's"
                );
                assert_eq!(board.side_to_move(), opp);
            }
        }
    }
    assert_eq!(ended, 900);
    assert!(passes > 10, "only {passes} passes in {positions} positions");
}

#[test]
fn the_moves_the_board_generates_are_the_moves_it_accepts() {
    let mut candidates: Vec<Move> = iproduct!(0..8, 0..8)
        .map(|(r, c)| Move::Play(Square::new(r, c)))
        .collect();
    candidates.push(Move::Pass);
    for n in SIZES {
        let checked =
            conformance::random_games(&Board::new(n).unwrap(), &candidates, 100, n as u64);
        assert!(
            checked > 100 * (n * n - 4) / 2,
            "{n}x{n}: {checked} positions"
        );
    }
}

#[test]
fn exact_searches_agree_on_4x4_othello() {
    let start = Board::new(4).unwrap();
    let truth = minimax(&start);
    let pruned = alpha_beta(&start, FULL_WINDOW);
    let cached = alpha_beta_tt(&start, FULL_WINDOW, &mut Table::new());
    assert_eq!(pruned.value, truth.value);
    assert_eq!(cached.value, truth.value);
    assert!(pruned.nodes < truth.nodes && cached.nodes < pruned.nodes);
    // The score of a finished game counts the empty squares for the winner.
    let wiped = play_line("d3 c3 b3 d2 e1 d6 d7 e3 f4");
    assert_eq!(wiped.side(), Color::White);
    assert_eq!(wiped.score(), Some(-64));
}
