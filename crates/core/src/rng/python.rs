//! Python 3's `random` module, ported exactly (docs/rules.md#python-random): the
//! Mersenne Twister MT19937 of `_randommodule.c`, `random.seed(int)` (`init_by_array` over the
//! integer's 32-bit words, least significant first), `getrandbits`, `_randbelow`, `choice` and
//! `random()`. Solitaire chess deals its boards with it.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// Python's `random.Random` state.
#[derive(Clone)]
pub struct PythonRandom {
    mt: Box<[u32; N]>,
    index: usize,
}

impl std::fmt::Debug for PythonRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PythonRandom")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl PythonRandom {
    /// `random.seed(seed)` for a non-negative integer: the key is the integer's 32-bit words,
    /// least significant first, at least one word (so seed 0 gives the key `[0]`).
    pub fn new(seed: u64) -> Self {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        if high == 0 {
            Self::from_key(&[low])
        } else {
            Self::from_key(&[low, high])
        }
    }

    /// `init_by_array(key)`; `key` must not be empty.
    pub fn from_key(key: &[u32]) -> Self {
        assert!(!key.is_empty(), "init_by_array needs at least one word");
        let mut rng = Self::from_genrand(19_650_218);
        let mt = &mut rng.mt;
        let mut i = 1;
        let mut j = 0;
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1] ^ (mt[i - 1] >> 30);
            mt[i] = (mt[i] ^ prev.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        rng
    }

    /// `init_genrand(s)`.
    fn from_genrand(s: u32) -> Self {
        let mut mt = Box::new([0u32; N]);
        mt[0] = s;
        for i in 1..N {
            mt[i] = 1_812_433_253u32
                .wrapping_mul(mt[i - 1] ^ (mt[i - 1] >> 30))
                .wrapping_add(i as u32);
        }
        Self { mt, index: N }
    }

    fn twist(&mut self) {
        let mt = &mut self.mt;
        for k in 0..N {
            let y = (mt[k] & UPPER_MASK) | (mt[(k + 1) % N] & LOWER_MASK);
            let mag = if y & 1 == 1 { MATRIX_A } else { 0 };
            mt[k] = mt[(k + M) % N] ^ (y >> 1) ^ mag;
        }
        self.index = 0;
    }

    /// `genrand_uint32()`: the next tempered 32-bit output.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^= y >> 18;
        y
    }

    /// `getrandbits(k)` for `k` in 1..=64: 32-bit words fill the result from the least
    /// significant end; the last word keeps its top bits.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(
            (1..=64).contains(&k),
            "getrandbits supports 1..=64 bits here, got {k}"
        );
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        low | (high << 32)
    }

    /// `_randbelow(n)`: `getrandbits(n.bit_length())` until the value is below `n`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "_randbelow needs a positive bound");
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k);
            if r < n {
                return r;
            }
        }
    }

    /// `choice(seq)`: `seq[_randbelow(len(seq))]`.
    pub fn choice<'a, T>(&mut self, seq: &'a [T]) -> &'a T {
        &seq[self.randbelow(seq.len() as u64) as usize]
    }

    /// `random()`: a 53-bit float in [0, 1).
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors printed by CPython 3: `random.seed(s)`, three `getrandbits(32)`, one
    /// `getrandbits(64)`, `randrange(n)` for n in (1, 2, 3, 7, 8, 36, 1000), `getrandbits(5)`,
    /// `random()`.
    #[test]
    fn matches_cpython() {
        /// seed, three `getrandbits(32)`, `getrandbits(64)`, the `randrange`s,
        /// `getrandbits(5)`, `random()`.
        type Vector = (u64, [u32; 3], u64, [u64; 7], u64, f64);
        let cases: [Vector; 5] = [
            (
                0,
                [3626764237, 1654615998, 3255389356],
                7758176404715800194,
                [0, 1, 2, 3, 6, 19, 991],
                15,
                0.3580493746949883,
            ),
            (
                1,
                [577090037, 2444712010, 3639700191],
                14089154938208861744,
                [0, 1, 0, 3, 7, 30, 667],
                12,
                0.7887233511355132,
            ),
            (
                42,
                [2746317213, 478163327, 107420369],
                5073395517033431291,
                [0, 0, 0, 5, 1, 34, 89],
                18,
                0.4219218196852704,
            ),
            (
                4294967301,
                [675479763, 2085189291, 1213270837],
                11150208843425918570,
                [0, 1, 2, 1, 7, 22, 958],
                24,
                0.9304902837743195,
            ),
            (
                u64::MAX,
                [93740670, 1068495656, 1452108352],
                3910109989525945107,
                [0, 0, 1, 6, 0, 12, 747],
                17,
                0.46970655514616955,
            ),
        ];
        for (seed, words, wide, below, five, float) in cases {
            let mut rng = PythonRandom::new(seed);
            let got: Vec<u32> = (0..3).map(|_| rng.getrandbits(32) as u32).collect();
            assert_eq!(got, words, "seed {seed}");
            assert_eq!(rng.getrandbits(64), wide, "seed {seed}");
            let got: Vec<u64> = [1, 2, 3, 7, 8, 36, 1000]
                .iter()
                .map(|&n| rng.randbelow(n))
                .collect();
            assert_eq!(got, below, "seed {seed}");
            assert_eq!(rng.getrandbits(5), five, "seed {seed}");
            assert_eq!(rng.random(), float, "seed {seed}");
        }
    }

    #[test]
    fn random_after_seed_one_is_the_well_known_value() {
        assert_eq!(PythonRandom::new(1).random(), 0.13436424411240122);
    }

    #[test]
    fn choice_picks_by_randbelow() {
        let mut a = PythonRandom::new(9);
        let mut b = PythonRandom::new(9);
        let seq = ["x", "y", "z"];
        for _ in 0..50 {
            assert_eq!(*a.choice(&seq), seq[b.randbelow(3) as usize]);
        }
    }
}
