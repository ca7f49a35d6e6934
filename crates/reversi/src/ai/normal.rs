//! The normal and gamma draws of the exact Gibbs steps ([`lineage`](super::lineage)): a
//! posterior along a line is a normal prior cut into pieces, so a step needs the normal mass of
//! an interval, accurate in the tails, and a draw of a normal truncated to an interval.

use marathon_core::rng::FastRng;

/// A standard normal draw (Box-Muller).
pub fn gaussian(rng: &mut FastRng) -> f64 {
    let u = rng.next_f64().max(f64::MIN_POSITIVE);
    let v = rng.next_f64();
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// `erfc(x)` with a relative error below 1.2e-7 everywhere, the tails included (the Chebyshev
/// fit of Press et al., Numerical Recipes, 6.2): a difference of two far tail masses keeps its
/// precision, which `1 - erf` would not.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * (-z * z + poly).exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// `P(Z > z)` for a standard normal `Z`.
pub fn upper_tail(z: f64) -> f64 {
    0.5 * erfc(z * std::f64::consts::FRAC_1_SQRT_2)
}

/// `P(a < Z < b)` for a standard normal `Z`, `a <= b`, with the precision of the smaller tail.
// No player uses it now; its test keeps the precise form of the two tails at hand.
#[cfg(test)]
pub fn mass(a: f64, b: f64) -> f64 {
    if a >= 0.0 {
        upper_tail(a) - upper_tail(b)
    } else if b <= 0.0 {
        upper_tail(-b) - upper_tail(-a)
    } else {
        1.0 - upper_tail(-a) - upper_tail(b)
    }
}

/// The standard normal quantile `z` with `P(Z < z) = p`, `0 < p < 1` (Acklam's rational
/// approximation, relative error below 1.2e-9).
pub fn quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const LOW: f64 = 0.024_25;
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p <= 1.0 - LOW {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    }
}

/// A standard normal draw truncated to `[a, b]` (`a <= b`, either may be infinite), by the
/// inverse of the tail on the side of the interval away from 0, so that an interval deep in a
/// tail is still drawn from correctly.
pub fn truncated(a: f64, b: f64, rng: &mut FastRng) -> f64 {
    if b <= 0.0 {
        return -truncated(-b, -a, rng);
    }
    let u = rng.next_f64();
    let z = if a >= 0.0 {
        let (pa, pb) = (upper_tail(a), upper_tail(b));
        if pa <= f64::MIN_POSITIVE {
            // Beyond the tail's precision: the density falls as exp(-a x) past `a`.
            a - (1.0 - u).ln() / a.max(1.0)
        } else {
            let p = pa - u * (pa - pb);
            if p <= 0.0 { a } else { -quantile(p) }
        }
    } else {
        let (lo, hi) = (upper_tail(-a), 1.0 - upper_tail(b));
        quantile((lo + u * (hi - lo)).clamp(f64::MIN_POSITIVE, 1.0 - f64::EPSILON))
    };
    z.clamp(a, b)
}

/// A draw of Gamma(`shape`, rate 1), `shape >= 1` (Marsaglia and Tsang).
pub fn gamma(shape: f64, rng: &mut FastRng) -> f64 {
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let x = gaussian(rng);
        let v = 1.0 + c * x;
        if v <= 0.0 {
            continue;
        }
        let v = v * v * v;
        let u = rng.next_f64().max(f64::MIN_POSITIVE);
        if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
            return d * v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tails_and_quantiles_agree_with_known_values() {
        assert!((upper_tail(0.0) - 0.5).abs() < 1e-7);
        assert!((upper_tail(1.959_963_985) - 0.025).abs() < 1e-8);
        // Far tail: Q(10) = 7.6199e-24, with the fit's relative precision.
        assert!((upper_tail(10.0) / 7.619_853_024e-24 - 1.0).abs() < 1e-6);
        for p in [1e-12, 1e-4, 0.01, 0.3, 0.5, 0.9, 0.999] {
            let z = quantile(p);
            assert!((upper_tail(-z) / p - 1.0).abs() < 1e-5, "p {p} z {z}");
        }
        assert!((mass(-1.0, 1.0) - 0.682_689_49).abs() < 1e-7);
        // Q(8) - Q(9), which 1 - Phi would lose entirely.
        assert!((mass(8.0, 9.0) / 6.219_832_011e-16 - 1.0).abs() < 1e-6);
    }

    #[test]
    fn truncated_draws_stay_inside_and_have_the_right_mean() {
        let mut rng = FastRng::new(3);
        for (a, b, mean) in [
            (-1.0, 1.0, 0.0),
            // E[Z | Z > 3] = phi(3)/Q(3) = 3.2831.
            (3.0, f64::INFINITY, 3.283_1),
            (-f64::INFINITY, -3.0, -3.283_1),
            (6.0, 6.5, 6.14),
        ] {
            let n = 20_000;
            let mut sum = 0.0;
            for _ in 0..n {
                let z = truncated(a, b, &mut rng);
                assert!(z >= a && z <= b, "{z} outside [{a}, {b}]");
                sum += z;
            }
            assert!(
                (sum / n as f64 - mean).abs() < 0.03,
                "[{a}, {b}]: {}",
                sum / n as f64
            );
        }
    }

    #[test]
    fn gamma_draws_have_the_right_mean() {
        let mut rng = FastRng::new(5);
        for shape in [1.0, 3.5, 300.0] {
            let n = 20_000;
            let mean = (0..n).map(|_| gamma(shape, &mut rng)).sum::<f64>() / n as f64;
            assert!((mean / shape - 1.0).abs() < 0.03, "shape {shape}: {mean}");
        }
    }
}
