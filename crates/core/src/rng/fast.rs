//! A fast, small-state generator for AIs (xoshiro256++, seeded through SplitMix64). AIs never
//! touch the judge's generator; they seed this one from what they observe.

#[derive(Clone, Debug)]
pub struct FastRng {
    s: [u64; 4],
}

impl FastRng {
    pub fn new(seed: u64) -> Self {
        let mut sm = seed;
        let mut next = || {
            sm = sm.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = sm;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        Self {
            s: [next(), next(), next(), next()],
        }
    }

    /// The generator's state, to be saved and resumed with [`FastRng::from_state`].
    pub fn state(&self) -> [u64; 4] {
        self.s
    }

    /// The generator whose state [`FastRng::state`] gave; `None` for the all-zero state, which
    /// no generator reaches and which would only ever yield zeros.
    pub fn from_state(s: [u64; 4]) -> Option<Self> {
        (s != [0; 4]).then_some(Self { s })
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// Uniform in `0..n` (Lemire's multiply-shift; the bias is below 2^-32 for the small `n`
    /// the games use).
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0);
        (((self.next_u64() >> 32) * n as u64) >> 32) as u32
    }

    /// Uniform in [0, 1).
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// A seed for an AI's [`FastRng`] from what the AI has observed (FNV-1a over the lines, each
/// followed by a newline): the AI's random choices then depend on the case alone, and replay
/// identically in-process and as a program, without ever seeing the judge's seed.
pub fn seed_from_lines<S: AsRef<str>>(lines: &[S]) -> u64 {
    let mut seed = LineSeed::new();
    for line in lines {
        seed.add(line.as_ref());
    }
    seed.finish()
}

/// [`seed_from_lines`] a line at a time, for observations too long to keep.
#[derive(Clone, Copy, Debug)]
pub struct LineSeed(u64);

impl LineSeed {
    pub fn new() -> Self {
        LineSeed(0xcbf2_9ce4_8422_2325)
    }

    pub fn add(&mut self, line: &str) {
        for byte in line.bytes().chain(*b"\n") {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    pub fn finish(self) -> u64 {
        self.0
    }
}

impl Default for LineSeed {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_covers_the_range_evenly() {
        let mut rng = FastRng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[rng.below(7) as usize] += 1;
        }
        for c in counts {
            assert!((9_000..11_000).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn same_seed_same_stream_other_seed_other_stream() {
        let a: Vec<u64> = (0..4)
            .scan(FastRng::new(1), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..4)
            .scan(FastRng::new(1), |r, _| Some(r.next_u64()))
            .collect();
        let c: Vec<u64> = (0..4)
            .scan(FastRng::new(2), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn seeds_from_lines_are_fnv1a_of_the_lines_with_newlines() {
        assert_eq!(seed_from_lines(&["a"]), 0x089bdc07b544e7b2);
        assert_eq!(seed_from_lines::<&str>(&[]), 0xcbf2_9ce4_8422_2325);
        assert_ne!(seed_from_lines(&["ab"]), seed_from_lines(&["a", "b"]));
    }
}
