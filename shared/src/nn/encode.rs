//! Games as network inputs and outputs: input planes, move indices, the board's eight
//! symmetries, and the network as a leaf evaluator for [`crate::mcts`].

use super::{masked_softmax, Activations, Net};
use crate::mcts::Evaluator;
use crate::search::Game;
use crate::Color;

/// A game a network can play: a square board, three input planes per point (the side to
/// move's stones, the opponent's, empty: the seed's planes) and one policy output per point
/// plus one for passing.
pub trait Encode: Game {
    /// The game's name in a weights file.
    const NAME: &'static str;

    /// Rows (= columns) of the board.
    fn board_size(&self) -> usize;

    /// Writes the planes, `[point][plane]` row-major, into `planes` (`3 · points` long).
    fn encode(&self, planes: &mut [f32]);

    /// The policy output of `mv`: `row · size + col`, or `points` for a pass.
    fn move_index(&self, mv: Self::Move) -> usize;
}

/// Input planes per point of every [`Encode`] game.
pub const PLANES: usize = 3;

fn one_hot(planes: &mut [f32], point: usize, stone: Option<Color>, me: Color) {
    let cell = &mut planes[point * PLANES..][..PLANES];
    cell.fill(0.0);
    let k = match stone {
        Some(c) if c == me => 0,
        Some(_) => 1,
        None => 2,
    };
    cell[k] = 1.0;
}

impl Encode for crate::tictactoe::Board {
    const NAME: &'static str = "tictactoe";

    fn board_size(&self) -> usize {
        self.size()
    }

    fn encode(&self, planes: &mut [f32]) {
        let me = self.to_move();
        for i in 0..self.size() * self.size() {
            one_hot(planes, i, self.at(i), me);
        }
    }

    fn move_index(&self, cell: usize) -> usize {
        cell
    }
}

impl Encode for crate::othello::Board {
    const NAME: &'static str = "othello";

    fn board_size(&self) -> usize {
        self.size()
    }

    fn encode(&self, planes: &mut [f32]) {
        let n = self.size();
        let me = self.side_to_move();
        for r in 0..n {
            for c in 0..n {
                let sq = crate::othello::Square::new(r, c);
                one_hot(planes, r * n + c, self.at(sq), me);
            }
        }
    }

    fn move_index(&self, mv: crate::othello::Move) -> usize {
        let n = self.size();
        match mv {
            crate::othello::Move::Play(sq) => sq.row() * n + sq.col(),
            crate::othello::Move::Pass => n * n,
        }
    }
}

impl Encode for crate::go::Position {
    const NAME: &'static str = "go";

    /// # Panics
    ///
    /// If the board is not square.
    fn board_size(&self) -> usize {
        let b = self.board();
        assert_eq!(b.rows(), b.cols(), "the networks play square boards");
        b.rows()
    }

    fn encode(&self, planes: &mut [f32]) {
        let b = self.board();
        let me = self.side_to_move();
        for p in b.points() {
            let (r, c) = b.coords(p);
            one_hot(planes, r * b.cols() + c, b.at(p), me);
        }
    }

    fn move_index(&self, mv: crate::go::Move) -> usize {
        let b = self.board();
        match mv {
            crate::go::Move::Play(p) => {
                let (r, c) = b.coords(p);
                r * b.cols() + c
            }
            crate::go::Move::Pass => b.rows() * b.cols(),
        }
    }
}

/// Where symmetry `t` (`0..8`: the four rotations, each optionally mirrored) sends `point`
/// of a `size`×`size` board; the pass (`point == size²`) stays where it is.
///
/// # Panics
///
/// If `t` is 8 or more or `point` is beyond the pass.
pub fn symmetry(size: usize, t: usize, point: usize) -> usize {
    assert!(
        t < 8 && point <= size * size,
        "symmetry {t} of point {point}"
    );
    if point == size * size {
        return point;
    }
    let (mut r, mut c) = (point / size, point % size);
    if t & 4 != 0 {
        c = size - 1 - c;
    }
    for _ in 0..t % 4 {
        (r, c) = (c, size - 1 - r);
    }
    r * size + c
}

/// Which of the board's symmetries an [`Inference`] sees a position through.
#[derive(Clone, Debug)]
enum Views {
    /// The position as it is.
    Plain,
    /// All eight, averaged.
    All,
    /// One drawn at random for each evaluation.
    Random(crate::rng::Rng),
}

/// A network with the buffers of its forward pass: the leaf evaluator of PUCT for any
/// [`Encode`] game. Priors are the softmax over the legal moves; the value is the value head.
///
/// [`Inference::averaged`] evaluates each position through all eight symmetries of the
/// board and averages the eight policies and values (AlphaGo's evaluation; eight times the
/// work, a steadier answer); [`Inference::random_views`] through one drawn at random.
#[derive(Clone, Debug)]
pub struct Inference<'a> {
    net: &'a Net,
    act: Activations,
    legal: Vec<bool>,
    policy: Vec<f32>,
    views: Views,
    /// The position's planes before a symmetry moves them.
    planes: Vec<f32>,
    /// One view's logits in the position's own move order, and its softmax.
    view_logits: Vec<f32>,
    view_policy: Vec<f32>,
}

impl<'a> Inference<'a> {
    /// Buffers for `net`.
    pub fn new(net: &'a Net) -> Inference<'a> {
        let shape = net.shape();
        Inference {
            net,
            act: Activations::new(shape),
            legal: vec![false; shape.outputs()],
            policy: vec![0.0; shape.outputs()],
            views: Views::Plain,
            planes: Vec::new(),
            view_logits: Vec::new(),
            view_policy: Vec::new(),
        }
    }

    /// Buffers for `net`, evaluating every position through the board's eight symmetries
    /// and averaging the policies (as probabilities) and the values.
    pub fn averaged(net: &'a Net) -> Inference<'a> {
        Inference::with_views(net, Views::All)
    }

    /// Buffers for `net`, evaluating every position through one of the board's eight
    /// symmetries drawn at random (AlphaGo Zero's evaluation: no extra work).
    pub fn random_views(net: &'a Net, seed: u64) -> Inference<'a> {
        Inference::with_views(net, Views::Random(crate::rng::Rng::new(seed)))
    }

    /// Buffers for `net` and the buffers that seeing through a symmetry needs.
    fn with_views(net: &'a Net, views: Views) -> Inference<'a> {
        let shape = net.shape();
        Inference {
            views,
            planes: vec![0.0; shape.points() * PLANES],
            view_logits: vec![0.0; shape.outputs()],
            view_policy: vec![0.0; shape.outputs()],
            ..Inference::new(net)
        }
    }

    /// The policy over all outputs (0 for moves not in `moves`) and the value of `game` for
    /// its side to move.
    ///
    /// # Panics
    ///
    /// If the game's board is not the network's size.
    pub fn policy_value<G: Encode>(&mut self, game: &G, moves: &[G::Move]) -> (&[f32], f32) {
        assert_eq!(
            game.board_size(),
            self.net.shape().size,
            "the network is for another board size"
        );
        self.legal.fill(false);
        for &mv in moves {
            self.legal[game.move_index(mv)] = true;
        }
        if matches!(self.views, Views::Plain) {
            game.encode(&mut self.act.input);
            self.net.forward(&mut self.act);
            masked_softmax(&self.act.logits, &self.legal, &mut self.policy);
            return (&self.policy, self.act.value);
        }
        let size = game.board_size();
        let points = size * size;
        game.encode(&mut self.planes);
        self.policy.fill(0.0);
        let mut value = 0.0;
        let all = [0, 1, 2, 3, 4, 5, 6, 7];
        let drawn;
        let views: &[usize] = match &mut self.views {
            Views::Random(rng) => {
                drawn = [rng.below(8)];
                &drawn
            }
            _ => &all,
        };
        let share = 1.0 / views.len() as f32;
        for &t in views {
            for p in 0..points {
                let q = symmetry(size, t, p);
                self.act.input[q * PLANES..][..PLANES]
                    .copy_from_slice(&self.planes[p * PLANES..][..PLANES]);
            }
            self.net.forward(&mut self.act);
            for (i, z) in self.view_logits.iter_mut().enumerate() {
                *z = self.act.logits[symmetry(size, t, i)];
            }
            masked_softmax(&self.view_logits, &self.legal, &mut self.view_policy);
            for (sum, &p) in self.policy.iter_mut().zip(&self.view_policy) {
                *sum += p * share;
            }
            value += self.act.value * share;
        }
        (&self.policy, value)
    }
}

impl<G: Encode> Evaluator<G> for Inference<'_> {
    fn evaluate(&mut self, game: &G, moves: &[G::Move], priors: &mut Vec<f64>) -> f64 {
        let (policy, value) = self.policy_value(game, moves);
        priors.clear();
        priors.extend(
            moves
                .iter()
                .map(|&mv| f64::from(policy[game.move_index(mv)])),
        );
        f64::from(value)
    }
}
