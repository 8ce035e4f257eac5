//! A small, fast, seedable random number generator for playouts and searches.
//!
//! SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state; per number an add, then three
//! xor-shifts and two multiplications, and good statistical quality (it passes BigCrush). Judge programs cannot
//! use the `rand` crate, and playouts need speed and reproducibility more than anything else.

/// A SplitMix64 generator.
///
/// # Examples
///
/// ```
/// use games::rng::Rng;
///
/// let mut a = Rng::new(7);
/// let mut b = Rng::new(7);
/// assert_eq!(a.next_u64(), b.next_u64());
/// assert!(a.below(6) < 6);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator whose stream is fixed by `seed`.
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        mix(self.0)
    }

    /// A uniformly random number in `0..n`, by Lemire's multiply-shift (the bias is below
    /// `n / 2^64`, far too small to matter here).
    ///
    /// # Panics
    ///
    /// If `n` is 0.
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "below(0) has no value to return");
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A uniformly random number in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal number (Box–Muller from two uniforms; one is used per call).
    pub fn normal(&mut self) -> f64 {
        let u = 1.0 - self.unit();
        let v = self.unit();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// The SplitMix64 output function; also usable on its own to fill tables at compile time.
pub const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_splitmix64_stream() {
        // First outputs for seed 1234567, computed independently with a Python transcription
        // of Vigna's splitmix64.c (state += golden gamma; two multiply-xor rounds).
        let mut rng = Rng::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn below_covers_its_range_evenly() {
        let mut rng = Rng::new(1);
        let mut counts = [0u32; 6];
        for _ in 0..60_000 {
            counts[rng.below(6)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_000..11_000).contains(&c)),
            "{counts:?}"
        );
    }
}
