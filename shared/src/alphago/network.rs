//! The seed's policy/value network, its weights and its forward pass in numpy's order of
//! operations.

use super::NumpyRandom;

/// Points of the 7×7 board.
pub const CELLS: usize = 49;
/// Rows and columns of the board.
pub const SIDE: usize = 7;

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
    pub fn policy_value(&self, planes: &Planes, legal: &[bool; CELLS]) -> ([f64; CELLS], f64) {
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
