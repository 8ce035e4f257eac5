//! Measuring a network against perfect play: positions whose every move has an exact
//! value, and the share of them where a player's move is a mistake (another move has a
//! strictly better exact outcome).

use games::nn::{Encode, Inference, Net};
use games::search::{alpha_beta_tt, Game, Table, FULL_WINDOW};
use std::collections::HashSet;
use std::hash::Hash;

/// A position with the exact value of each legal move for the side to move (the outcome's
/// sign: +1 win, 0 draw, −1 loss; or a disc margin, where the caller keeps margins).
#[derive(Clone, Debug)]
pub struct Judged<G: Game> {
    /// The position.
    pub position: G,
    /// Each legal move and its exact value, in move order.
    pub values: Vec<(G::Move, i32)>,
    /// Whether the values are only outcomes (+1 win, 0 draw, −1 loss) where the game has
    /// margins: a win/draw/loss solve, cheaper deep in the game, that says which moves are
    /// mistakes but not how many discs they lose.
    pub outcomes_only: bool,
}

impl<G: Game> Judged<G> {
    /// The best exact value.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|&(_, v)| v).max().unwrap_or(0)
    }

    /// Whether `mv` is a mistake: another move has a strictly better outcome (win, draw or
    /// loss: the sign of the values).
    pub fn is_mistake(&self, mv: G::Move) -> bool {
        let best = self.best().signum();
        self.values
            .iter()
            .find(|&&(m, _)| m == mv)
            .map_or(true, |&(_, v)| v.signum() < best)
    }
}

/// Every position reachable from `start` that is not over, each with the exact value of
/// its moves, found by alpha-beta with a table: small games only (tic-tac-toe has 4,520).
pub fn every_position<G: Game + Hash + Eq>(start: &G) -> Vec<Judged<G>> {
    let mut seen = HashSet::new();
    let mut stack = vec![start.clone()];
    let mut table = Table::new();
    let mut out = Vec::new();
    while let Some(position) = stack.pop() {
        if position.score().is_some() || !seen.insert(position.clone()) {
            continue;
        }
        let mut values = Vec::new();
        for mv in position.moves() {
            let child = position.after(mv).expect("a listed move is legal");
            values.push((mv, -alpha_beta_tt(&child, FULL_WINDOW, &mut table).value));
            stack.push(child);
        }
        out.push(Judged {
            position,
            values,
            outcomes_only: false,
        });
    }
    out
}

/// The raw policy's move: the legal move with the highest prior (the first of equals).
pub fn policy_move<G: Encode>(inference: &mut Inference<'_>, position: &G) -> G::Move {
    let moves = position.moves();
    let (policy, _) = inference.policy_value(position, &moves);
    let mut best = (f32::NEG_INFINITY, moves[0]);
    for &mv in &moves {
        let p = policy[position.move_index(mv)];
        if p > best.0 {
            best = (p, mv);
        }
    }
    best.1
}

/// How many of `positions` the raw policy of `net` gets wrong.
pub fn policy_mistakes<G: Encode>(net: &Net, positions: &[Judged<G>]) -> usize {
    let mut inference = Inference::new(net);
    positions
        .iter()
        .filter(|j| j.is_mistake(policy_move(&mut inference, &j.position)))
        .count()
}

/// A player: the move it makes in a position that is not over.
pub type Player<'a, G> = dyn FnMut(&G) -> <G as Game>::Move + 'a;

/// Plays `first` (the side to move in `start`) against `second` to the end; the result for
/// `first`: +1 won, 0 drawn, −1 lost.
pub fn duel<G: Game>(start: &G, first: &mut Player<'_, G>, second: &mut Player<'_, G>) -> i32 {
    let mut position = start.clone();
    let mut first_to_move = true;
    loop {
        if let Some(score) = position.score() {
            let s = score.signum();
            return if first_to_move { s } else { -s };
        }
        let mv = if first_to_move {
            first(&position)
        } else {
            second(&position)
        };
        position = position.after(mv).expect("players make legal moves");
        first_to_move = !first_to_move;
    }
}

/// A perfect player for small games: the first move with the best exact value.
pub fn perfect<G: Game + Hash + Eq>() -> impl FnMut(&G) -> G::Move {
    let mut table = Table::new();
    move |position: &G| {
        let mut best = None;
        for mv in position.moves() {
            let child = position.after(mv).expect("a listed move is legal");
            let v = -alpha_beta_tt(&child, FULL_WINDOW, &mut table).value;
            if best.map_or(true, |(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best.expect("the game is not over").1
    }
}

/// The raw policy of `net` against a uniformly random player (`games` games, colours
/// alternating, the policy first in even games): its wins, draws and losses; and against
/// perfect play, moving first and second: +1, 0 or −1 each.
pub fn against_random_and_perfect<G: Encode + Hash + Eq>(
    net: &Net,
    start: &G,
    games: u32,
    seed: u64,
) -> ([u32; 3], [i32; 2]) {
    let mut inference = Inference::new(net);
    let mut rng = games::rng::Rng::new(seed);
    let mut random = |b: &G| {
        let moves = b.moves();
        moves[rng.below(moves.len())]
    };
    let mut counts = [0; 3];
    for game in 0..games {
        let mut policy = |b: &G| policy_move(&mut inference, b);
        let r = if game % 2 == 0 {
            duel(start, &mut policy, &mut random)
        } else {
            -duel(start, &mut random, &mut policy)
        };
        counts[(1 - r) as usize] += 1;
    }
    let mut perfect = perfect::<G>();
    let mut policy = |b: &G| policy_move(&mut inference, b);
    let first = duel(start, &mut policy, &mut perfect);
    let second = -duel(start, &mut perfect, &mut policy);
    (counts, [first, second])
}

impl<G: Game> Judged<G> {
    /// Discs `mv` gives away against the best move (0 for a best move); `None` when the
    /// values are [outcomes only](Judged::outcomes_only).
    ///
    /// # Panics
    ///
    /// If `mv` is not one of the position's moves.
    pub fn disc_loss(&self, mv: G::Move) -> Option<i32> {
        if self.outcomes_only {
            return None;
        }
        let v = self
            .values
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, v)| v)
            .expect("a legal move");
        Some(self.best() - v)
    }
}

/// The word for an outcome's sign, as the benchmark files and `othello_solve --outcome`
/// write it: `win` (above 0), `draw` or `loss` (below 0).
pub fn outcome_word(sign: i32) -> &'static str {
    match sign.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    }
}

/// Reads a benchmark file of `othello_positions` (its `--help` gives the format).
///
/// # Errors
///
/// One line naming the line number and what is wrong.
pub fn read_othello_positions(text: &str) -> Result<Vec<Judged<games::othello::Board>>, String> {
    use games::othello::{Bitboard, Board, Move, Square};
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = |why: String| format!("line {}: {why}", i + 1);
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split_whitespace();
        let cells = fields.next().unwrap_or("");
        let n = (1..=8)
            .find(|n| n * n == cells.len())
            .ok_or_else(|| at(format!("{} cells is not a square board", cells.len())))?;
        let (mut black, mut white) = (0u64, 0u64);
        for (k, ch) in cells.chars().enumerate() {
            let bit = Square::new(k / n, k % n).bitboard().0;
            match ch {
                'X' => black |= bit,
                'O' => white |= bit,
                '-' => {}
                other => return Err(at(format!("{other:?} is not X, O or -"))),
            }
        }
        let side = match fields.next() {
            Some("X") => games::Color::Black,
            Some("O") => games::Color::White,
            other => return Err(at(format!("the side to move is X or O, not {other:?}"))),
        };
        let position = Board::from_discs(n, Bitboard(black), Bitboard(white), side)
            .map_err(|e| at(e.to_string()))?;
        let mut values = Vec::new();
        let (mut margins, mut outcomes) = (false, false);
        for field in fields {
            let (square, value_text) = field
                .strip_suffix(';')
                .and_then(|f| f.split_once(':'))
                .ok_or_else(|| at(format!("{field:?} is not square:value;")))?;
            let mv = if square == "pass" {
                Move::Pass
            } else {
                Move::Play(square.parse().map_err(|e| at(format!("{e}")))?)
            };
            let outcome = match value_text {
                "win" => Some(1),
                "draw" => Some(0),
                "loss" => Some(-1),
                _ => None,
            };
            let value = match outcome {
                Some(v) => {
                    outcomes = true;
                    v
                }
                None => {
                    margins = true;
                    value_text.parse().map_err(|_| {
                        at(format!("{value_text:?} is not a number, win, draw or loss"))
                    })?
                }
            };
            values.push((mv, value));
        }
        if margins && outcomes {
            return Err(at("margins and outcomes mixed in one position".to_string()));
        }
        let mut listed: Vec<Move> = values.iter().map(|&(m, _)| m).collect();
        let mut legal = position.legal_moves();
        let key = |m: &Move| match m {
            Move::Play(sq) => sq.index(),
            Move::Pass => 64,
        };
        listed.sort_by_key(key);
        legal.sort_by_key(key);
        if listed != legal {
            return Err(at(
                "the moves listed are not the position's legal moves".to_string()
            ));
        }
        out.push(Judged {
            position,
            values,
            outcomes_only: outcomes,
        });
    }
    Ok(out)
}

/// The greedy Othello player: a move that flips the most discs (ties broken by `rng`).
pub fn greedy(board: &games::othello::Board, rng: &mut games::rng::Rng) -> games::othello::Move {
    use games::othello::Move;
    let moves = board.legal_moves();
    let flips = |m: &Move| match m {
        Move::Play(sq) => board.flips(*sq).map_or(0, games::othello::Bitboard::count),
        Move::Pass => 0,
    };
    let most = moves.iter().map(flips).max().unwrap_or(0);
    let best: Vec<Move> = moves.iter().copied().filter(|m| flips(m) == most).collect();
    best[rng.below(best.len())]
}

/// How a player of the varied games [`varied_position`] plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// A uniformly random legal move.
    Random,
    /// The move that flips most discs ([`greedy`]).
    Greedy,
    /// Random or greedy, with probability 1/2 each, move by move.
    Mixed,
}

/// The move of a player of `style` in `board`.
pub fn choose(
    board: &games::othello::Board,
    style: Style,
    rng: &mut games::rng::Rng,
) -> games::othello::Move {
    let greedy = match style {
        Style::Random => false,
        Style::Greedy => true,
        Style::Mixed => rng.below(2) == 0,
    };
    if greedy {
        self::greedy(board, rng)
    } else {
        let moves = board.legal_moves();
        moves[rng.below(moves.len())]
    }
}

/// An Othello position on a `size`×`size` board with `empties` empty squares, after a game
/// from the start between two players drawn at random (random, greedy or mixed), with at
/// least two legal moves; `None` if that game ended or passed through that count.
///
/// # Panics
///
/// If `size` is not an Othello board size (4, 6 or 8).
pub fn varied_position(
    size: usize,
    empties: u32,
    rng: &mut games::rng::Rng,
) -> Option<games::othello::Board> {
    const STYLES: [Style; 3] = [Style::Random, Style::Greedy, Style::Mixed];
    let players = [STYLES[rng.below(3)], STYLES[rng.below(3)]];
    play_to(size, empties, rng, |board, _, rng| {
        let side = usize::from(board.side_to_move() == games::Color::White);
        choose(board, players[side], rng)
    })
}

/// The position with `empties` empty squares of a game from the start of a `size`×`size`
/// board in which `pick(board, ply, rng)` chooses every move; `None` if the game ended or
/// passed through that count, or the position has fewer than two legal moves.
///
/// # Panics
///
/// If `size` is not an Othello board size (4, 6 or 8), or `pick` returns an illegal move.
pub fn play_to(
    size: usize,
    empties: u32,
    rng: &mut games::rng::Rng,
    mut pick: impl FnMut(&games::othello::Board, usize, &mut games::rng::Rng) -> games::othello::Move,
) -> Option<games::othello::Board> {
    use games::search::Game as _;
    let mut board = games::othello::Board::new(size).expect("an Othello board size");
    let mut ply = 0;
    while board.empties().count() > empties {
        if board.is_game_over() {
            return None;
        }
        let mv = pick(&board, ply, rng);
        board = board.after(mv).expect("a legal move");
        ply += 1;
    }
    (board.empties().count() == empties && board.legal_moves().len() >= 2).then_some(board)
}

/// The cells of `board` row by row from a1 (`X` Black, `O` White, `-` empty), a space and the
/// side to move (`X` or `O`): the head of a line of the FFO/Edax `.obf` format, for any size.
pub fn obf_cells(board: &games::othello::Board) -> String {
    use games::Color;
    let n = board.size();
    let mut out = String::with_capacity(n * n + 2);
    for r in 0..n {
        for c in 0..n {
            out.push(match board.at(games::othello::Square::new(r, c)) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '-',
            });
        }
    }
    out.push_str(match board.side_to_move() {
        Color::Black => " X",
        Color::White => " O",
    });
    out
}

/// A move of the agent in [`versus_solver`] that changed the game's exact result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slip {
    /// The move's number in the game (1 for the first move from the start).
    pub number: usize,
    /// The move.
    pub mv: games::othello::Move,
    /// Empty squares before it.
    pub empties: u32,
    /// The agent's final disc margin under perfect play from then on, before the move and
    /// after it.
    pub before: i32,
    /// See `before`.
    pub after: i32,
}

/// A game of an agent against the exact solver ([`versus_solver`]).
#[derive(Clone, Debug)]
pub struct SolverGame {
    /// Every move from the start, passes included.
    pub moves: Vec<games::othello::Move>,
    /// The final margin for Black (empty squares counted for the winner).
    pub margin: i32,
    /// The agent's exact final margin at the start (perfect play by both from there).
    pub start_value: i32,
    /// The agent's moves that changed its exact final margin, in order: the sum of their
    /// changes is its final margin minus `start_value`, since the solver's moves keep it.
    pub slips: Vec<Slip>,
}

/// The final margin of a finished game for `side`: its discs minus the opponent's, the
/// empty squares counted for the winner ([`games::othello::Board::final_margin`] is the side
/// to move's).
pub fn final_margin_for(board: &games::othello::Board, side: games::Color) -> i32 {
    let margin = board.final_margin();
    if board.side_to_move() == side {
        margin
    } else {
        -margin
    }
}

/// Plays `agent` (the `agent_side`) against perfect play from `start` to the end and tells
/// which of the agent's moves changed the exact result. Each of the solver's solves gives
/// the exact margin before its move, which its move keeps; the next solve tells what the
/// agent's move in between made of it. So the only solve beyond the solver's own is the
/// start's when the agent moves first. `on_solve(board, score, seconds)` hears of every
/// solve (progress).
///
/// # Panics
///
/// If `agent` makes an illegal move.
pub fn versus_solver(
    start: &games::othello::Board,
    agent_side: games::Color,
    agent: &mut dyn FnMut(&games::othello::Board) -> games::othello::Move,
    solver: &mut games::endgame::Solver,
    on_solve: &mut dyn FnMut(&games::othello::Board, i32, f64),
) -> SolverGame {
    let mut solve = |board: &games::othello::Board| {
        let clock = std::time::Instant::now();
        let solution = solver.solve(board);
        on_solve(board, solution.score, clock.elapsed().as_secs_f64());
        solution
    };
    let mut board = *start;
    let mut moves = Vec::new();
    let mut slips = Vec::new();
    // The agent's exact margin in the current position once a solve has told it, and the
    // agent's last move with the margin before it (`after` not yet known), until the next
    // solve tells the margin after it.
    let mut known = None;
    let mut pending: Option<Slip> = None;
    let mut start_value = None;
    let mut settle = |pending: Option<Slip>, after| {
        if let Some(slip) = pending.filter(|s| s.before != after) {
            slips.push(Slip { after, ..slip });
        }
    };
    while !board.is_game_over() {
        let mv = if board.side_to_move() == agent_side {
            let before = match known {
                Some(v) => v,
                None => solve(&board).score,
            };
            start_value.get_or_insert(before);
            let mv = agent(&board);
            pending = Some(Slip {
                number: moves.len() + 1,
                mv,
                empties: board.empties().count(),
                before,
                after: before,
            });
            known = None;
            mv
        } else {
            let solution = solve(&board);
            start_value.get_or_insert(-solution.score);
            settle(pending.take(), -solution.score);
            known = Some(-solution.score);
            solution.pv[0]
        };
        moves.push(mv);
        board = board.after(mv).expect("the players make legal moves");
    }
    let agent_margin = final_margin_for(&board, agent_side);
    settle(pending.take(), agent_margin);
    SolverGame {
        moves,
        margin: final_margin_for(&board, games::Color::Black),
        start_value: start_value.unwrap_or(agent_margin),
        slips,
    }
}
