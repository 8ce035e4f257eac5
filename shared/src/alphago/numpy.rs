//! numpy's legacy random generator, reimplemented so that the seed's weights are exactly its own.

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
    pub(super) fn normals(&mut self, n: usize, scale: f64) -> Vec<f64> {
        (0..n).map(|_| self.randn() * scale).collect()
    }
}
