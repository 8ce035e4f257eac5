//! Seed 004's mini AlphaGo: a 7×7 policy/value network with the seed's random weights, and
//! the seed's simplified game.
//!
//! **The weights.** The seed draws them with `np.random.seed(42)` and `np.random.randn`:
//! numpy's legacy `RandomState`, MT19937 and the polar Box–Muller Gaussian that keeps its
//! second value for the next call. [`NumpyRandom`] is that generator, so [`Network::seed`]
//! holds exactly the seed's weights.
//!
//! **The arithmetic.** The seed sums each convolution window with `np.sum`, which adds
//! pairwise: eight running sums over blocks of eight, combined as a tree, arrays of more than
//! 128 terms split in two halves first. [`Network::evaluate`] adds in that order, and
//! multiplies before adding as numpy does (no fused multiply-add), so the convolutions and
//! the policy are bit-for-bit numpy's. Terms whose input is zero (padding, empty planes,
//! ReLU zeros) are skipped: adding `±0` never changes a sum that is not itself zero. Only
//! the last dense layer differs: numpy hands `Wd.T @ h` to OpenBLAS, whose summation order
//! is its own; ours is left to right, a difference in the last bits of the value.
//!
//! **The network.** Input: three 7×7 planes (the side to move's stones, the opponent's,
//! the empty points). Two 3×3 same-padding convolutions with ReLU (16 channels) give shared
//! features, computed once per position; a policy head (3×3 convolution to one channel,
//! illegal points masked by adding `ln(1e-10)`, softmax) and a value head (3×3 convolution
//! to 4 channels, ReLU, dense, tanh).
//!
//! # Examples
//!
//! ```
//! use games::alphago::{Network, SeedGame};
//!
//! let net = Network::seed();
//! let (priors, value) = net.evaluate(&SeedGame::new().planes(), &[true; 49]);
//! assert!((priors.iter().sum::<f64>() - 1.0).abs() < 1e-12);
//! assert!(value.abs() < 1.0);
//! ```

use crate::search::{Game, Side};

/// Points of the 7×7 board.
pub const CELLS: usize = 49;
const SIDE: usize = 7;

/// numpy's legacy `RandomState` as `np.random.seed(n)` leaves it: MT19937 seeded with
/// `init_genrand(n)`, doubles with 53 random bits, and the legacy Gaussian.
///
/// # Examples
///
/// ```
/// use games::alphago::NumpyRandom;
///
/// let mut rng = NumpyRandom::new(42);
/// assert_eq!(rng.random_sample(), 0.3745401188473625); // np.random.seed(42); np.random.random_sample()
/// ```
#[derive(Clone, Debug)]
pub struct NumpyRandom {
    state: [u32; 624],
    index: usize,
    gauss: Option<f64>,
}

impl NumpyRandom {
    /// The generator after `np.random.seed(seed)`.
    pub fn new(seed: u32) -> NumpyRandom {
        let mut state = [0u32; 624];
        state[0] = seed;
        for i in 1..624 {
            let prev = state[i - 1];
            state[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        NumpyRandom {
            state,
            index: 624,
            gauss: None,
        }
    }

    fn twist(&mut self) {
        const UPPER: u32 = 0x8000_0000;
        const LOWER: u32 = 0x7fff_ffff;
        for i in 0..624 {
            let y = (self.state[i] & UPPER) | (self.state[(i + 1) % 624] & LOWER);
            let mut next = self.state[(i + 397) % 624] ^ (y >> 1);
            if y & 1 == 1 {
                next ^= 0x9908_b0df;
            }
            self.state[i] = next;
        }
        self.index = 0;
    }

    /// The next 32 bits (MT19937's `genrand_int32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= 624 {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// A double in `[0, 1)` with 53 random bits (`np.random.random_sample`).
    pub fn random_sample(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) / 9_007_199_254_740_992.0
    }

    /// A standard normal (`np.random.randn`): the polar method, which makes two values and
    /// keeps the second for the next call.
    pub fn randn(&mut self) -> f64 {
        if let Some(kept) = self.gauss.take() {
            return kept;
        }
        loop {
            let x1 = 2.0 * self.random_sample() - 1.0;
            let x2 = 2.0 * self.random_sample() - 1.0;
            let r2 = x1 * x1 + x2 * x2;
            if r2 < 1.0 && r2 != 0.0 {
                let f = (-2.0 * r2.ln() / r2).sqrt();
                self.gauss = Some(f * x1);
                return f * x2;
            }
        }
    }

    /// `n` normals times `scale`, as `np.random.randn(...) * scale` fills an array.
    fn normals(&mut self, n: usize, scale: f64) -> Vec<f64> {
        (0..n).map(|_| self.randn() * scale).collect()
    }
}

/// The three input planes of a position, per point: (the side to move's stone, the
/// opponent's stone, empty), each 1.0 or 0.0.
pub type Planes = [[f64; 3]; CELLS];

/// The seed's network with the seed's weights. Kernels are stored as numpy holds them,
/// `[ki][kj][cin][cout]` flattened, so a window's terms come in numpy's order.
#[derive(Clone, Debug)]
pub struct Network {
    w1: Vec<[f64; 16]>,
    w2: Vec<[f64; 16]>,
    /// The policy kernel (channel 0) and the value kernel (channels 1..5) side by side, so
    /// one pass computes both heads; channel 5 is zero padding for whole SIMD pairs.
    heads: Vec<[f64; 6]>,
    dense: Vec<f64>,
}

/// `ln(1 + 1e-10)`, `ln(1e-10)`: what the seed adds to the logits of legal and illegal
/// points (`np.log(legal_mask + 1e-10)`).
fn mask_log(legal: bool) -> f64 {
    if legal {
        (1.0f64 + 1e-10).ln()
    } else {
        1e-10f64.ln()
    }
}

/// Groups `rows` of `COUT` weights into one row per kernel term.
fn rows<const COUT: usize>(flat: Vec<f64>) -> Vec<[f64; COUT]> {
    flat.chunks_exact(COUT)
        .map(|c| {
            let mut row = [0.0; COUT];
            row.copy_from_slice(c);
            row
        })
        .collect()
}

impl Network {
    /// The seed's weights: `np.random.seed(42)`, then W1 (3,3,3,16)·0.1, W2 (3,3,16,16)·0.1,
    /// the policy kernel (3,3,16,1)·0.1, the value kernel (3,3,16,4)·0.1 and the dense
    /// weights (196,1)·0.05, in that order; all biases are zero.
    pub fn seed() -> Network {
        let mut rng = NumpyRandom::new(42);
        let w1 = rows(rng.normals(3 * 3 * 3 * 16, 0.1));
        let w2 = rows(rng.normals(3 * 3 * 16 * 16, 0.1));
        let policy = rng.normals(3 * 3 * 16, 0.1);
        let value = rows::<4>(rng.normals(3 * 3 * 16 * 4, 0.1));
        let heads = policy
            .iter()
            .zip(&value)
            .map(|(&p, v)| [p, v[0], v[1], v[2], v[3], 0.0])
            .collect();
        Network {
            w1,
            w2,
            heads,
            dense: rng.normals(CELLS * 4, 0.05),
        }
    }

    /// The raw outputs of one pass: the policy head's 49 logits (before masking and
    /// softmax) and the value for the side to move in `[-1, 1]`.
    ///
    /// # Complexity
    ///
    /// About 170,000 multiply-adds, half of them skipped for zero inputs; no allocation.
    pub fn forward(&self, planes: &Planes) -> ([f64; CELLS], f64) {
        let mut h1 = [[0.0; 16]; CELLS];
        let mut h2 = [[0.0; 16]; CELLS];
        first_layer(planes, &self.w1, &mut h1);
        conv16(&h1, &self.w2, &mut h2);
        for row in h2.iter_mut().flatten() {
            *row = relu(*row);
        }
        let mut heads = [[0.0; 6]; CELLS];
        conv16(&h2, &self.heads, &mut heads);
        let mut logits = [0.0; CELLS];
        for (l, h) in logits.iter_mut().zip(&heads) {
            *l = h[0];
        }
        let mut dot = 0.0;
        for (k, w) in self.dense.iter().enumerate() {
            dot += w * relu(heads[k / 4][1 + k % 4]);
        }
        (logits, (dot + 0.0).tanh())
    }

    /// The policy over the 49 points (illegal points get a tiny share, as in the seed) and the
    /// value for the side to move in `[-1, 1]`, from one pass through the shared layers.
    pub fn evaluate(&self, planes: &Planes, legal: &[bool; CELLS]) -> ([f64; CELLS], f64) {
        let (logits, value) = self.forward(planes);
        let mut z = [0.0; CELLS];
        for (k, l) in z.iter_mut().enumerate() {
            *l = logits[k] + mask_log(legal[k]);
        }
        let max = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut e = [0.0; CELLS];
        for (ek, zk) in e.iter_mut().zip(&z) {
            *ek = (zk - max).exp();
        }
        let total = pairwise(&e);
        let mut policy = [0.0; CELLS];
        for (p, ek) in policy.iter_mut().zip(&e) {
            *p = ek / total;
        }
        (policy, value)
    }
}

/// numpy's pairwise sum of up to 128 terms (`pairwise_sum_DOUBLE`): fewer than 8 added in
/// order; otherwise 8 running sums over blocks of 8, combined as a tree, then the rest.
fn pairwise(terms: &[f64]) -> f64 {
    let n = terms.len();
    debug_assert!(n <= 128);
    if n < 8 {
        return terms.iter().fold(0.0, |acc, t| acc + t);
    }
    let mut r = [0.0; 8];
    r.copy_from_slice(&terms[..8]);
    let blocks = n - n % 8;
    for chunk in terms[8..blocks].chunks_exact(8) {
        for (acc, t) in r.iter_mut().zip(chunk) {
            *acc += t;
        }
    }
    let mut res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for t in &terms[blocks..] {
        res += t;
    }
    res
}

/// `np.maximum(0, v)`: 0 unless `v > 0` (so `-0.0` becomes `0.0`, as in numpy).
fn relu(v: f64) -> f64 {
    if v > 0.0 {
        v
    } else {
        0.0
    }
}

/// The first 3×3 same-padding convolution (3 one-hot input planes, 16 channels, zero bias)
/// and its ReLU, summed in numpy's order: the window's 27 terms `k = 3 p + plane`, eight
/// running sums over `k < 24` (term `k` to sum `k mod 8`) combined as a tree, then the terms
/// `k = 24, 25, 26` in order. Each point's planes are one-hot, so a window cell contributes
/// exactly one nonzero term, `1.0 · w = w`; the zeros change no nonzero sum.
fn first_layer(planes: &Planes, kernel: &[[f64; 16]], out: &mut [[f64; 16]; CELLS]) {
    for (pos, out) in out.iter_mut().enumerate() {
        let (i, j) = (pos / SIDE, pos % SIDE);
        let mut acc = [[0.0; 16]; 8];
        let mut tail = [0.0; 16];
        for p in 0..9 {
            // Row and column shifted by one: 0 and SIDE + 1 are the zero padding.
            let (r, c) = (i + p / 3, j + p % 3);
            if r == 0 || r > SIDE || c == 0 || c > SIDE {
                continue;
            }
            let cell = &planes[(r - 1) * SIDE + (c - 1)];
            for (plane, &x) in cell.iter().enumerate() {
                if x == 0.0 {
                    continue;
                }
                let k = 3 * p + plane;
                let sum = if k < 24 { &mut acc[k % 8] } else { &mut tail };
                for (a, w) in sum.iter_mut().zip(&kernel[k]) {
                    *a += x * w;
                }
            }
        }
        for co in 0..16 {
            let a = |t: usize| acc[t][co];
            let tree = ((a(0) + a(1)) + (a(2) + a(3))) + ((a(4) + a(5)) + (a(6) + a(7)));
            out[co] = relu(tree + tail[co] + 0.0);
        }
    }
}

/// A 3×3 same-padding convolution of 16 input channels (zero bias), summed in numpy's
/// order: a window has `9 · 16 = 144` terms, more than 128, so numpy sums two halves of 72
/// apart and adds them; within a half, term `k = 16 p + cin` (window position `p`) goes to
/// running sum `k mod 8 = cin mod 8`, and the eight sums are combined as a tree.
///
/// The inputs are ReLU outputs, about half zeros. Each input point's nonzero channels are
/// listed once, without branches (a branch per term mispredicts half the time), and only
/// those terms are added: `x · w = ±0` never changes a sum that is not itself zero. Terms
/// still arrive in increasing `k`, so each running sum gets its terms in numpy's order.
fn conv16<const COUT: usize>(
    input: &[[f64; 16]; CELLS],
    kernel: &[[f64; COUT]],
    out: &mut [[f64; COUT]; CELLS],
) {
    let mut nonzero = [[0u8; 16]; CELLS];
    let mut count = [0usize; CELLS];
    for (cell, x) in input.iter().enumerate() {
        let mut len = 0;
        for (cin, &v) in x.iter().enumerate() {
            nonzero[cell][len] = cin as u8;
            len += usize::from(v != 0.0);
        }
        count[cell] = len;
    }
    for (pos, out) in out.iter_mut().enumerate() {
        let (i, j) = (pos / SIDE, pos % SIDE);
        let mut sums = [[[0.0; COUT]; 8]; 2];
        for p in 0..9 {
            let (r, c) = (i + p / 3, j + p % 3);
            if r == 0 || r > SIDE || c == 0 || c > SIDE {
                continue;
            }
            let cell = (r - 1) * SIDE + (c - 1);
            for &cin in &nonzero[cell][..count[cell]] {
                let cin = usize::from(cin);
                let k = 16 * p + cin;
                let x = input[cell][cin];
                let sum = &mut sums[usize::from(k >= 72)][cin % 8];
                for (a, w) in sum.iter_mut().zip(&kernel[k]) {
                    *a += x * w;
                }
            }
        }
        for co in 0..COUT {
            let tree = |h: &[[f64; COUT]; 8]| {
                let a = |t: usize| h[t][co];
                ((a(0) + a(1)) + (a(2) + a(3))) + ((a(4) + a(5)) + (a(6) + a(7)))
            };
            out[co] = (tree(&sums[0]) + tree(&sums[1])) + 0.0;
        }
    }
}

/// Seed 004's simplified game on 7×7: a stone may go on any empty point, nothing is ever
/// captured, and the game ends after 44 moves or when the board is full; more stones wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeedGame {
    /// 0 empty, 1 black, 2 white.
    cells: [u8; CELLS],
    black_to_move: bool,
    moves: u8,
}

/// The seed's move limit.
pub const MOVE_LIMIT: u8 = 44;

impl SeedGame {
    /// The empty board, Black to move.
    pub fn new() -> SeedGame {
        SeedGame {
            cells: [0; CELLS],
            black_to_move: true,
            moves: 0,
        }
    }

    /// A position: `cells` row-major (0 empty, 1 black, 2 white) and the side to move; the
    /// moves made so far are the stones on the board (nothing is ever captured).
    ///
    /// # Panics
    ///
    /// If a cell holds another value.
    pub fn from_cells(cells: [u8; CELLS], black_to_move: bool) -> SeedGame {
        assert!(cells.iter().all(|&c| c <= 2), "cells are 0, 1 or 2");
        let moves = cells.iter().filter(|&&c| c != 0).count() as u8;
        SeedGame {
            cells,
            black_to_move,
            moves,
        }
    }

    /// The stone on point `k` (row-major): 0 empty, 1 black, 2 white.
    pub fn at(&self, k: usize) -> u8 {
        self.cells[k]
    }

    /// Moves made so far.
    pub fn moves_made(&self) -> u8 {
        self.moves
    }

    fn mover(&self) -> u8 {
        if self.black_to_move {
            1
        } else {
            2
        }
    }

    /// The network's input planes for the side to move.
    pub fn planes(&self) -> Planes {
        let me = self.mover();
        let mut planes = [[0.0; 3]; CELLS];
        for (plane, &cell) in planes.iter_mut().zip(&self.cells) {
            match cell {
                0 => plane[2] = 1.0,
                c if c == me => plane[0] = 1.0,
                _ => plane[1] = 1.0,
            }
        }
        planes
    }

    /// Whether the game is over: 44 moves made, or no empty point.
    pub fn is_over(&self) -> bool {
        self.moves >= MOVE_LIMIT || !self.cells.contains(&0)
    }

    /// Which points are empty.
    pub fn empty_mask(&self) -> [bool; CELLS] {
        let mut mask = [false; CELLS];
        for (m, &c) in mask.iter_mut().zip(&self.cells) {
            *m = c == 0;
        }
        mask
    }
}

impl Default for SeedGame {
    fn default() -> SeedGame {
        SeedGame::new()
    }
}

impl Game for SeedGame {
    /// A point, row-major `0..49`.
    type Move = usize;

    fn side(&self) -> Side {
        if self.black_to_move {
            Side::First
        } else {
            Side::Second
        }
    }

    fn moves(&self) -> Vec<usize> {
        if self.is_over() {
            Vec::new()
        } else {
            (0..CELLS).filter(|&k| self.cells[k] == 0).collect()
        }
    }

    fn after(&self, k: usize) -> Option<SeedGame> {
        if self.is_over() || k >= CELLS || self.cells[k] != 0 {
            return None;
        }
        let mut next = *self;
        next.cells[k] = self.mover();
        next.black_to_move = !self.black_to_move;
        next.moves += 1;
        Some(next)
    }

    /// +1 if the side to move has more stones, −1 if fewer, 0 if as many.
    fn score(&self) -> Option<i32> {
        if !self.is_over() {
            return None;
        }
        let me = self.mover();
        let mine = self.cells.iter().filter(|&&c| c == me).count();
        let theirs = self.cells.iter().filter(|&&c| c != 0 && c != me).count();
        Some(match mine.cmp(&theirs) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        })
    }
}

impl crate::mcts::Evaluator<SeedGame> for Network {
    /// The policy's probability for each empty point, and the value head.
    fn evaluate(&mut self, game: &SeedGame, moves: &[usize], priors: &mut Vec<f64>) -> f64 {
        let (policy, value) = Network::evaluate(self, &game.planes(), &game.empty_mask());
        priors.clear();
        priors.extend(moves.iter().map(|&k| policy[k]));
        value
    }
}

impl crate::mcts::Evaluator<crate::go::Game> for Network {
    /// The policy over the legal points and the value head, for 7×7 Go. The network has no
    /// output for passing: the pass gets an equal share, `1 / moves`, and the points share
    /// the rest in proportion to the policy.
    ///
    /// # Panics
    ///
    /// If the board is not 7×7.
    fn evaluate(
        &mut self,
        game: &crate::go::Game,
        moves: &[crate::go::Move],
        priors: &mut Vec<f64>,
    ) -> f64 {
        use crate::go::Move;
        let board = game.board();
        assert!(
            board.rows() == SIDE && board.cols() == SIDE,
            "the network plays 7x7"
        );
        let me = game.side_to_move();
        let mut planes = [[0.0; 3]; CELLS];
        for (plane, p) in planes.iter_mut().zip(board.points()) {
            match board.at(p) {
                None => plane[2] = 1.0,
                Some(c) if c == me => plane[0] = 1.0,
                Some(_) => plane[1] = 1.0,
            }
        }
        let index = |p| {
            let (r, c) = board.coords(p);
            r * SIDE + c
        };
        let mut legal = [false; CELLS];
        for mv in moves {
            if let Move::Play(p) = mv {
                legal[index(*p)] = true;
            }
        }
        let (policy, value) = Network::evaluate(self, &planes, &legal);
        let pass_share = 1.0 / moves.len() as f64;
        let points: f64 = (0..CELLS).filter(|&k| legal[k]).map(|k| policy[k]).sum();
        priors.clear();
        priors.extend(moves.iter().map(|mv| match mv {
            Move::Play(p) => policy[index(*p)] * (1.0 - pass_share) / points,
            Move::Pass => pass_share,
        }));
        value
    }
}
