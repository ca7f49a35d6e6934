//! Java's `SecureRandom.getInstance("SHA1PRNG")` with `setSeed(seed)`, and the
//! `java.util.Random` methods on top of it, exactly as the TopCoder testers used them
//! (docs/rules.md#java-sha1prng).

use sha1::{Digest, Sha1};

const DIGEST_SIZE: usize = 20;

/// SHA1PRNG seeded with `setSeed(seed)` before any output.
#[derive(Clone, Debug)]
pub struct JavaSecureRandom {
    state: [u8; DIGEST_SIZE],
    /// The last output block; bytes from `rem_pos` on have not been handed out yet.
    block: [u8; DIGEST_SIZE],
    /// Java's `remCount`: 0 means the block is used up (or was never made).
    rem_pos: usize,
}

impl JavaSecureRandom {
    /// Java ignores `setSeed(0)` and self-seeds from system entropy, which no port can
    /// reproduce; seed 0 here hashes eight zero bytes instead, so it stays deterministic.
    pub fn new(seed: i64) -> Self {
        // `SecureRandom.longToByteArray` writes the low byte first.
        let state: [u8; DIGEST_SIZE] = Sha1::digest(seed.to_le_bytes()).into();
        Self {
            state,
            block: [0; DIGEST_SIZE],
            rem_pos: 0,
        }
    }

    /// `SecureRandom.nextBytes` (sun.security.provider.SecureRandom `engineNextBytes`).
    pub fn next_bytes(&mut self, out: &mut [u8]) {
        let mut index = 0;
        if self.rem_pos > 0 {
            let take = out.len().min(DIGEST_SIZE - self.rem_pos);
            out[..take].copy_from_slice(&self.block[self.rem_pos..self.rem_pos + take]);
            self.rem_pos = (self.rem_pos + take) % DIGEST_SIZE;
            index = take;
        }
        while index < out.len() {
            self.block = Sha1::digest(self.state).into();
            update_state(&mut self.state, &self.block);
            let take = (out.len() - index).min(DIGEST_SIZE);
            out[index..index + take].copy_from_slice(&self.block[..take]);
            index += take;
            self.rem_pos = take % DIGEST_SIZE;
        }
    }

    /// `Random.next(bits)`: ceil(bits/8) bytes, big-endian, shifted right.
    pub fn next_bits(&mut self, bits: u32) -> i32 {
        debug_assert!((1..=32).contains(&bits));
        let num_bytes = bits.div_ceil(8) as usize;
        let mut buf = [0u8; 4];
        self.next_bytes(&mut buf[..num_bytes]);
        let mut next: u32 = 0;
        for &b in &buf[..num_bytes] {
            next = (next << 8) | u32::from(b);
        }
        // Java's `>>>` on an int: a logical shift of the 32-bit pattern.
        (next >> (num_bytes as u32 * 8 - bits)) as i32
    }

    /// `nextInt()`.
    pub fn next_i32(&mut self) -> i32 {
        self.next_bits(32)
    }

    /// `nextInt(bound)`; `bound` must be positive.
    pub fn next_int(&mut self, bound: i32) -> i32 {
        assert!(bound > 0, "nextInt bound must be positive, got {bound}");
        let mut r = self.next_bits(31);
        let m = bound - 1;
        if bound & m == 0 {
            ((i64::from(bound) * i64::from(r)) >> 31) as i32
        } else {
            // Java rejects a draw when `u - r + m` overflows int, i.e. when `u` falls in the
            // final, incomplete copy of `0..bound`.
            let mut u = r;
            loop {
                r = u % bound;
                if (u - r).checked_add(m).is_some() {
                    return r;
                }
                u = self.next_bits(31);
            }
        }
    }

    /// `nextLong()`.
    pub fn next_long(&mut self) -> i64 {
        // The second half is added sign-extended, as in Java, so it can borrow from the first.
        let hi = i64::from(self.next_bits(32));
        let lo = i64::from(self.next_bits(32));
        (hi << 32).wrapping_add(lo)
    }

    /// `nextDouble()`.
    pub fn next_double(&mut self) -> f64 {
        let hi = i64::from(self.next_bits(26));
        let lo = i64::from(self.next_bits(27));
        ((hi << 27) + lo) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// `nextBoolean()`.
    pub fn next_boolean(&mut self) -> bool {
        self.next_bits(1) != 0
    }
}

/// Java's `updateState`: meant as `state = state + output + 1 (mod 2^160)`, but Java adds the
/// bytes as *signed* values and carries `v >> 8` arithmetically, so the carry can be -2..=1 and
/// the result is not a true 160-bit sum. Reproduced bit for bit.
fn update_state(state: &mut [u8; DIGEST_SIZE], output: &[u8; DIGEST_SIZE]) {
    let mut last: i32 = 1;
    let mut changed = false;
    for (s, &o) in state.iter_mut().zip(output) {
        let v = i32::from(*s as i8) + i32::from(o as i8) + last;
        let t = v as u8;
        changed |= *s != t;
        *s = t;
        last = v >> 8;
    }
    if !changed {
        state[0] = state[0].wrapping_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Java's documented first values for seed 1 (see tests/data/java_sha1prng_vectors.txt).
    const SEED1_INTS1000: [i32; 8] = [950, 203, 960, 495, 306, 11, 676, 430];

    #[test]
    fn byte_stream_is_independent_of_request_sizes() {
        let mut whole = JavaSecureRandom::new(77);
        let mut expected = [0u8; 100];
        whole.next_bytes(&mut expected);

        // Requests of 3, 7, 13, ... bytes straddle block boundaries at varying offsets and
        // sometimes end exactly on one.
        for sizes in [
            &[3usize, 7, 13, 17, 20, 40][..],
            &[20, 20, 1, 19, 40],
            &[1; 100],
            &[0, 19, 2, 0, 79],
        ] {
            let mut rng = JavaSecureRandom::new(77);
            let mut got = Vec::new();
            for &n in sizes {
                let mut buf = vec![0u8; n];
                rng.next_bytes(&mut buf);
                got.extend_from_slice(&buf);
            }
            assert_eq!(got[..], expected[..got.len()], "sizes {sizes:?}");
        }
    }

    #[test]
    fn remainder_spans_blocks_in_next_bits() {
        // 4 x next(31) takes 16 bytes, then 2 more ints take bytes 16..20 and 20..24: the sixth
        // int is wholly from block 2, the fifth ends block 1 exactly. Three-byte draws then
        // cross a boundary mid-value.
        let mut bytes = [0u8; 60];
        JavaSecureRandom::new(5).next_bytes(&mut bytes);
        let mut rng = JavaSecureRandom::new(5);
        let mut pos = 0;
        for bits in [32, 32, 32, 32, 32, 32, 24, 24, 17, 24, 24, 24, 8] {
            let n = (bits as usize).div_ceil(8);
            let mut word = 0u32;
            for &b in &bytes[pos..pos + n] {
                word = (word << 8) | u32::from(b);
            }
            pos += n;
            let want = (word >> (n as u32 * 8 - bits)) as i32;
            assert_eq!(rng.next_bits(bits), want, "bits {bits} at byte {pos}");
        }
    }

    #[test]
    fn update_state_uses_signed_bytes() {
        // 0x80 + 0x80 + 1 as signed bytes is -255: low byte 0x01, carry -1 (a true add would
        // carry +1 into byte 1, giving 0x01 there instead of 0xFF).
        let mut state = [0u8; DIGEST_SIZE];
        let mut output = [0u8; DIGEST_SIZE];
        state[0] = 0x80;
        output[0] = 0x80;
        update_state(&mut state, &output);
        assert_eq!(state[0], 0x01);
        assert_eq!(state[1], 0xFF);
        assert!(state[2..].iter().all(|&b| b == 0xFF));
    }

    #[test]
    fn update_state_forces_a_change() {
        // Output byte 0 = -1 cancels the +1 and the signed carry out of a non-negative byte is
        // 0, so no byte changes and Java bumps state[0].
        let mut state = [0x42u8; DIGEST_SIZE];
        let mut output = [0u8; DIGEST_SIZE];
        output[0] = 0xFF;
        update_state(&mut state, &output);
        let mut want = [0x42u8; DIGEST_SIZE];
        want[0] = 0x43;
        assert_eq!(state, want);
    }

    #[test]
    fn seed_one_matches_java() {
        let mut rng = JavaSecureRandom::new(1);
        let got: Vec<i32> = (0..8).map(|_| rng.next_int(1000)).collect();
        assert_eq!(got, SEED1_INTS1000);
    }

    #[test]
    fn next_int_rejects_the_incomplete_last_copy() {
        // With bound = 2^30 + 1, every 31-bit draw u >= 2^31 - (2^31 mod bound) is rejected;
        // the result must still be uniform-ish and in range.
        let mut rng = JavaSecureRandom::new(3);
        let bound = (1 << 30) + 1;
        for _ in 0..1000 {
            let r = rng.next_int(bound);
            assert!((0..bound).contains(&r));
        }
    }

    #[test]
    #[should_panic(expected = "positive")]
    fn next_int_rejects_zero_bound() {
        JavaSecureRandom::new(1).next_int(0);
    }
}
