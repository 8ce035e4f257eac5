//! Games as network inputs and outputs: input planes, move indices, the board's eight
//! symmetries, and the network as a leaf evaluator for [`crate::mcts`].

use super::{masked_softmax, Activations, Net};
use crate::mcts::Evaluator;
use crate::search::Game;
use crate::Color;

/// A game a network can play: a square board, three input planes per point (the side to
/// move's stones, the opponent's, empty: the seed's planes), optionally a few feature
/// planes after them, and one policy output per point plus one for passing.
pub trait Encode: Game {
    /// The game's name in a weights file.
    const NAME: &'static str;

    /// Feature planes the game can add after the three stone planes (0: none). A network
    /// for the game has from [`PLANES`] to `PLANES + FEATURES` input planes and sees the
    /// first of the features in order (and may have the komi plane after all of them:
    /// [`planes_of`]).
    const FEATURES: usize = 0;

    /// Writes `out` (`[point][extra]`, `extra` ≤ [`Encode::FEATURES`] planes per point)
    /// from the stones alone: `cells` gives per point 0 for the side to move's stone, 1 for
    /// the opponent's, 2 for empty. Computed from the stones so that a training sample,
    /// which keeps only them, is seen as the search sees the position. Features must move
    /// with the board's symmetries: the features of a transformed board are the
    /// transformed features.
    fn features(size: usize, cells: &[u8], extra: usize, out: &mut [f32]) {
        let _ = (size, cells, extra);
        out.fill(0.0);
    }

    /// Rows (= columns) of the board.
    fn board_size(&self) -> usize;

    /// Writes the planes, `[point][plane]` row-major, into `planes` (`3 · points` long).
    fn encode(&self, planes: &mut [f32]);

    /// The policy output of `mv`: `row · size + col`, or `points` for a pass.
    fn move_index(&self, mv: Self::Move) -> usize;
}

/// The stone planes every [`Encode`] game gives per point; feature planes
/// ([`Encode::FEATURES`]) may follow them.
pub const PLANES: usize = 3;

/// The input planes a network for the game named `name` may have: [`PLANES`], and for
/// Othello up to its [`Encode::FEATURES`] more and then the komi plane (see [`planes_of`]).
pub fn planes_for(name: &str) -> std::ops::RangeInclusive<usize> {
    if name == <crate::othello::Board as Encode>::NAME {
        PLANES..=PLANES + <crate::othello::Board as Encode>::FEATURES + 1
    } else {
        PLANES..=PLANES
    }
}

/// The stone codes of three-plane `planes` (`[point][plane]`): per point 0 for the side to
/// move's stone, 1 for the opponent's, 2 for empty.
pub fn cells_of(planes: &[f32], cells: &mut [u8]) {
    for (cell, one_hot) in cells.iter_mut().zip(planes.chunks(PLANES)) {
        *cell = one_hot.iter().position(|&x| x == 1.0).unwrap_or(2) as u8;
    }
}

/// A komi of this many discs or points fills the komi plane with 1 (see [`planes_of`]).
pub const KOMI_SCALE: f32 = 8.0;

/// The `count` input planes per point (`[point][plane]`, [`PLANES`] ≤ `count` ≤ `PLANES +
/// G::FEATURES + 1`) of a position whose stones are `cells` (as [`cells_of`] codes them)
/// and whose side to move gets `komi` added to its final score, into `out`; `extra` is
/// scratch space. What a network with `count` planes sees: the stone planes, the first
/// `count − 3` of the game's features, and with all of them and one plane more, the komi
/// plane, `komi / KOMI_SCALE` at every point (KataGo's komi input: one network learns
/// the game at every komi it is trained on, so the games played at a komi that makes the
/// opening even teach both sides). Without the komi plane, `komi` is not seen.
///
/// # Panics
///
/// If `count` is outside that range.
pub fn planes_of<G: Encode>(
    size: usize,
    cells: &[u8],
    komi: i32,
    count: usize,
    extra: &mut Vec<f32>,
    out: &mut [f32],
) {
    assert!(
        (PLANES..=PLANES + G::FEATURES + 1).contains(&count),
        "{} planes for {}",
        count,
        G::NAME
    );
    let more = (count - PLANES).min(G::FEATURES);
    let komi_plane = count > PLANES + G::FEATURES;
    extra.clear();
    extra.resize(cells.len() * more, 0.0);
    if more > 0 {
        G::features(size, cells, more, extra);
    }
    for (p, &cell) in cells.iter().enumerate() {
        let o = &mut out[p * count..][..count];
        o.fill(0.0);
        o[usize::from(cell.min(2))] = 1.0;
        o[PLANES..PLANES + more].copy_from_slice(&extra[p * more..][..more]);
        if komi_plane {
            o[count - 1] = komi as f32 / KOMI_SCALE;
        }
    }
}

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

    /// Where the side to move may play, where the opponent could (the two mobilities, which
    /// a few 3×3 convolutions cannot see along a whole line), and the parity of the empty
    /// squares (1 everywhere when odd: who plays last in a region decides a lot of endgames).
    const FEATURES: usize = 3;

    fn features(size: usize, cells: &[u8], extra: usize, out: &mut [f32]) {
        use crate::othello::{Bitboard, Square};
        let (mut me, mut them) = (0u64, 0u64);
        let mut empties = 0;
        for (p, &cell) in cells.iter().enumerate() {
            let bit = Square::new(p / size, p % size).bitboard().0;
            match cell {
                0 => me |= bit,
                1 => them |= bit,
                _ => empties += 1,
            }
        }
        let placements = |a: u64, b: u64| {
            crate::othello::Board::from_discs(size, Bitboard(a), Bitboard(b), Color::Black)
                .map(|board| board.placements())
                .unwrap_or_default()
        };
        let (mine, theirs) = (placements(me, them), placements(them, me));
        let odd = f32::from(u8::from(empties % 2 == 1));
        for (p, o) in out.chunks_mut(extra).enumerate() {
            let sq = Square::new(p / size, p % size);
            let values = [
                f32::from(u8::from(mine.contains(sq))),
                f32::from(u8::from(theirs.contains(sq))),
                odd,
            ];
            o.copy_from_slice(&values[..extra]);
        }
    }

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
    /// `count` distinct symmetries, drawn afresh for each evaluation (all eight, in order,
    /// when `count` is 8, so nothing is drawn), and averaged.
    Drawn { rng: crate::rng::Rng, count: usize },
}

/// A network with the buffers of its forward pass: the leaf evaluator of PUCT for any
/// [`Encode`] game. Priors are the softmax over the legal moves; the value is the value head.
///
/// [`Inference::averaged`] evaluates each position through all eight symmetries of the
/// board and averages the eight policies and values (AlphaGo's evaluation; eight times the
/// work, a steadier answer); [`Inference::random_views`] through one drawn at random;
/// [`Inference::sampled_views`] through a few drawn at random and averaged, in between.
///
/// With a score head ([`crate::nn::Shape::score`]) and [`Inference::use_score`], the value
/// the search backs up is KataGo's utility: the value plus a [`ScoreUtility`] of the
/// expected final margin.
///
/// With [`Inference::set_komi`], the search plays the game at a komi: every finished game's
/// score (and every proved one) counts the komi, and a network with the komi plane
/// ([`planes_of`]) sees it.
#[derive(Clone, Debug)]
pub struct Inference<'a> {
    net: &'a Net,
    act: Activations,
    /// Points added to Black's final score (taken from White's).
    komi: i32,
    /// The komi set with [`Inference::set_komi`], which [`DynamicKomi`] moves from.
    base_komi: i32,
    dynamic: Option<DynamicKomi>,
    /// The last evaluation's expected margin over the points (0 without a score head).
    score: f32,
    utility: Option<ScoreUtility>,
    legal: Vec<bool>,
    policy: Vec<f32>,
    views: Views,
    /// The position's planes before a symmetry moves them.
    planes: Vec<f32>,
    /// One view's logits in the position's own move order, and its softmax.
    view_logits: Vec<f32>,
    view_policy: Vec<f32>,
    /// For a network with feature planes: the stone planes, their codes, the features.
    stones: Vec<f32>,
    cells: Vec<u8>,
    extra: Vec<f32>,
}

impl<'a> Inference<'a> {
    /// Buffers for `net`.
    pub fn new(net: &'a Net) -> Inference<'a> {
        let shape = net.shape();
        Inference {
            net,
            act: Activations::new(shape),
            komi: 0,
            base_komi: 0,
            dynamic: None,
            score: 0.0,
            utility: None,
            legal: vec![false; shape.outputs()],
            policy: vec![0.0; shape.outputs()],
            views: Views::Plain,
            planes: Vec::new(),
            view_logits: Vec::new(),
            view_policy: Vec::new(),
            stones: Vec::new(),
            cells: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Buffers for `net`, evaluating every position through the board's eight symmetries
    /// and averaging the policies (as probabilities) and the values.
    pub fn averaged(net: &'a Net) -> Inference<'a> {
        Inference::sampled_views(net, 8, 0)
    }

    /// Buffers for `net`, evaluating every position through one of the board's eight
    /// symmetries drawn at random (AlphaGo Zero's evaluation: no extra work).
    pub fn random_views(net: &'a Net, seed: u64) -> Inference<'a> {
        Inference::sampled_views(net, 1, seed)
    }

    /// Buffers for `net`, evaluating every position through `count` distinct symmetries of
    /// the board's eight, drawn at random for each evaluation (seeded with `seed`), and
    /// averaging their policies and values: `count` times the work of one view, and most
    /// of the steadiness of all eight for a few. 1 is [`Inference::random_views`]; 8 is
    /// [`Inference::averaged`] (nothing drawn).
    ///
    /// # Panics
    ///
    /// If `count` is not in `1..=8`.
    pub fn sampled_views(net: &'a Net, count: usize, seed: u64) -> Inference<'a> {
        assert!((1..=8).contains(&count), "{count} views of 8 symmetries");
        let rng = crate::rng::Rng::new(seed);
        Inference::with_views(net, Views::Drawn { rng, count })
    }

    /// Buffers for `net` and the buffers that seeing through a symmetry needs.
    fn with_views(net: &'a Net, views: Views) -> Inference<'a> {
        let shape = net.shape();
        Inference {
            views,
            planes: vec![0.0; shape.points() * shape.planes],
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
        let count = self.net.shape().planes;
        if matches!(self.views, Views::Plain) {
            let mut input = std::mem::take(&mut self.act.input);
            self.encode(game, &mut input);
            self.act.input = input;
            self.net.forward(&mut self.act);
            masked_softmax(&self.act.logits, &self.legal, &mut self.policy);
            self.score = self.act.score;
            return (&self.policy, self.act.value);
        }
        let size = game.board_size();
        let points = size * size;
        let mut planes = std::mem::take(&mut self.planes);
        self.encode(game, &mut planes);
        self.planes = planes;
        self.policy.fill(0.0);
        let mut value = 0.0;
        self.score = 0.0;
        let mut all = [0, 1, 2, 3, 4, 5, 6, 7];
        let views: &[usize] = match &mut self.views {
            Views::Drawn { rng, count } if *count < 8 => {
                // The first `count` steps of a Fisher–Yates shuffle: distinct, uniform.
                for i in 0..*count {
                    all.swap(i, i + rng.below(8 - i));
                }
                &all[..*count]
            }
            _ => &all,
        };
        let share = 1.0 / views.len() as f32;
        for &t in views {
            for p in 0..points {
                let q = symmetry(size, t, p);
                self.act.input[q * count..][..count]
                    .copy_from_slice(&self.planes[p * count..][..count]);
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
            self.score += self.act.score * share;
        }
        (&self.policy, value)
    }

    /// The network's input planes for `game` into `out`: the stone planes, and the
    /// features when the network has more planes than those.
    fn encode<G: Encode>(&mut self, game: &G, out: &mut [f32]) {
        let count = self.net.shape().planes;
        if count == PLANES {
            game.encode(out);
            return;
        }
        let size = game.board_size();
        self.stones.resize(size * size * PLANES, 0.0);
        self.cells.resize(size * size, 2);
        game.encode(&mut self.stones);
        cells_of(&self.stones, &mut self.cells);
        let komi = self.komi_for(game.side());
        planes_of::<G>(size, &self.cells, komi, count, &mut self.extra, out);
    }

    /// Plays the games searched from now on at `komi` points for Black (negative: for
    /// White): finished and proved scores count it, and a network with the komi plane sees
    /// it. 0, the rules' own scoring, until set.
    pub fn set_komi(&mut self, komi: i32) {
        self.komi = komi;
        self.base_komi = komi;
    }

    /// Searches from each root with [`DynamicKomi`]: at the komi of
    /// [`Inference::set_komi`], or with `dynamic.extra` more for the side to move where
    /// the network values the root below `-dynamic.below` there, or `dynamic.give` less
    /// where it values it above `dynamic.above`.
    pub fn use_dynamic_komi(&mut self, dynamic: DynamicKomi) {
        self.dynamic = Some(dynamic);
    }

    /// Sets the komi for a search from `root` ([`DynamicKomi`]); returns the points the
    /// side to move got there (negative: gave), 0 where it plays at the set komi. Without
    /// dynamic komi, nothing changes.
    pub fn komi_for_root<G: Encode>(&mut self, root: &G) -> i32 {
        let Some(dynamic) = self.dynamic else {
            return 0;
        };
        self.komi = self.base_komi;
        let moves = root.moves();
        let value = self.policy_value(root, &moves).1;
        let got = if dynamic.extra != 0 && value < -dynamic.below {
            dynamic.extra
        } else if dynamic.give != 0 && value > dynamic.above {
            -dynamic.give
        } else {
            0
        };
        self.komi += if root.side() == Color::Black {
            got
        } else {
            -got
        };
        got
    }

    /// The komi for Black that [`Inference::set_komi`] set.
    pub fn komi(&self) -> i32 {
        self.komi
    }

    /// The komi added to `side`'s final score.
    pub fn komi_for(&self, side: Color) -> i32 {
        if side == Color::Black {
            self.komi
        } else {
            -self.komi
        }
    }
}

/// Pachi's dynamic komi, in a simple form, for a network with the komi plane: a side that
/// the network sees as lost plays as if it got `extra` points more, so that its search,
/// instead of finding every move equally lost, prefers the moves that lose by less and
/// keep the chances an imperfect opponent gives; a side it sees as won plays as if it gave
/// `give` points, so that it keeps looking for the larger win rather than the first safe
/// one (Pachi raises the komi against a side whose win rate is in its "red zone"). Decided
/// afresh at each root ([`Inference::komi_for_root`]), so a side that is no longer behind
/// or ahead plays the real game again.
/// The default moves nothing: no points either way.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DynamicKomi {
    /// The points the side to move gets when behind (0: none).
    pub extra: i32,
    /// Behind: the network's value of the root, at the set komi, below `-below`.
    pub below: f32,
    /// The points the side to move gives when ahead (0: none).
    pub give: i32,
    /// Ahead: the network's value of the root, at the set komi, above `above`.
    pub above: f32,
}

/// KataGo's score utility: `weight · (2/π) · atan((margin − center) / scale)` added to the
/// value of every position the search evaluates (the margin the score head expects) and of
/// every finished game (its real margin), in discs or points for the side to move there.
///
/// A value taught wins and losses ranks a win by 4 and a win by 2 alike; this term ranks
/// them, most steeply near `center`, the margin expected at the root (set with
/// [`Inference::center_on`] before each search), and flattens far from it, so that it
/// never outweighs the value: `weight` below 1 keeps every win above every loss as long as
/// the value is sure.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoreUtility {
    /// The term's largest size, in value units.
    pub weight: f64,
    /// Margin (in discs or points) at which the term is half its largest size.
    pub scale: f64,
    /// The margin the term is centred on, for `side`.
    pub center: f64,
    /// Whose margin `center` is.
    pub side: Color,
}

impl ScoreUtility {
    /// The term for a position whose side to move is `side` and whose margin (for them) is
    /// `margin`.
    pub fn of(&self, side: Color, margin: f64) -> f64 {
        let center = if side == self.side {
            self.center
        } else {
            -self.center
        };
        self.weight * std::f64::consts::FRAC_2_PI * ((margin - center) / self.scale).atan()
    }
}

impl Inference<'_> {
    /// The score head's expected final margin, in discs or points for the side to move, at
    /// the last position evaluated (averaged over the views like the value; 0 without a
    /// score head).
    pub fn score(&self) -> f32 {
        self.score * self.net.shape().points() as f32
    }

    /// Adds KataGo's score utility (`weight`, `scale` in discs or points) to the values the
    /// search sees, centred on 0 until [`Inference::center_on`] moves it.
    ///
    /// # Panics
    ///
    /// If the network has no score head.
    pub fn use_score(&mut self, weight: f64, scale: f64) {
        assert!(self.net.shape().score, "the network has no score head");
        self.utility = Some(ScoreUtility {
            weight,
            scale,
            center: 0.0,
            side: Color::Black,
        });
    }

    /// Centres the score utility, if one is used, on the margin the score head expects at
    /// `game` (a search's root); returns that margin for its side to move.
    pub fn center_on<G: Encode>(&mut self, game: &G) -> f64 {
        let moves = game.moves();
        self.policy_value(game, &moves);
        let margin = f64::from(self.score());
        if let Some(u) = &mut self.utility {
            u.center = margin;
            u.side = game.side();
        }
        margin
    }

    /// The score utility in use, if any.
    pub fn utility(&self) -> Option<ScoreUtility> {
        self.utility
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
        let value = f64::from(value);
        match self.utility {
            Some(u) => value + u.of(game.side(), f64::from(self.score())),
            None => value,
        }
    }

    fn exact(&mut self, game: &G, score: i32) -> f64 {
        let score = score + self.komi_for(game.side());
        // The result's sign as an integer: f64::signum would call a draw (+0.0) a win.
        let (value, margin) = (f64::from(score.signum()), f64::from(score));
        match self.utility {
            Some(u) => value + u.of(game.side(), margin),
            None => value,
        }
    }

    /// Sets the komi for the root ([`DynamicKomi`]) and centres the score utility, if one
    /// is used, on the root's expected margin.
    fn root(&mut self, root: &G) {
        self.komi_for_root(root);
        if self.utility.is_some() {
            self.center_on(root);
        }
    }
}
