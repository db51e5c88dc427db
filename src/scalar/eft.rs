//! Error-free transformations of binary64 operations, and the fused multiply–add.
//!
//! The filters' point operations need the exact rounding error of a sum or a product of two
//! doubles: zero proves the result exact, so degenerate inputs given as doubles stay exact
//! through a run. A sum's error comes from `TwoSum` (six additions); a product's from one
//! fused multiply–add, or, without one, from Dekker's product on Veltkamp's halves
//! (seventeen operations, no library call).
//!
//! Where the fused multiply–add comes from, measured on this project's 2-core x86-64
//! machine (a loop of residuals `fma(a, b, −a·b)`, `cargo run --release` of a scratch crate
//! with both):
//!
//! | route | per residual |
//! | --- | --- |
//! | `f64::mul_add` on the baseline target (a call into libm, which glibc dispatches to the FMA instruction) | 3.45 ns |
//! | the FMA instruction detected at run time (a `#[target_feature(enable = "fma")]` function: a call) | 3.44 ns |
//! | Dekker's product, inline | 1.96 ns |
//!
//! A function compiled for a feature is never inlined into code compiled without it, so on the
//! baseline target the hardware instruction always costs a call, and a call is what the
//! library's `mul_add` already is: glibc's `fma` is selected at load time by the CPU's
//! features (an ifunc), so it *is* the hardware instruction, detected at run time, behind a
//! call. So [`two_product`] uses the instruction inline where the build enables it
//! (`target_feature = "fma"`, e.g. `-C target-cpu=native`) and Dekker's product otherwise, which
//! is cheaper than any call; [`fma`] (one correctly rounded `a·b + c`, where a product's error
//! is not enough) is `mul_add`. No build needs a target flag; [`hardware_fma`] says whether the
//! machine has the instruction (for a measurement's record: the residual's cost above).

/// `2²⁷ + 1`, Veltkamp's splitting constant for binary64.
const SPLITTER: f64 = 134_217_729.0;

/// Operands at most this large split without overflow (`SPLITTER · x` stays finite).
const SPLIT_MAX: f64 = f64::from_bits((996 + 1023) << 52); // 2⁹⁹⁶

/// Products at least this large (in magnitude) have a representable rounding error that
/// every partial product of Dekker's method computes without underflow: the low halves
/// have at least 2⁻²⁷ of their operand's magnitude, so their product keeps 2⁻⁵⁴ of `|a·b|`,
/// far above the subnormal range.
const PRODUCT_MIN: f64 = f64::from_bits((1023 - 800) << 52); // 2⁻⁸⁰⁰

/// Whether the CPU has the FMA instruction (detected once, at run time; always true where the
/// build enables the feature).
#[inline]
pub fn hardware_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// `a·b + c` rounded once (to nearest): `f64::mul_add`, which is the FMA instruction inline
/// where the build enables it, and otherwise libm's `fma`, which glibc dispatches at load time
/// (an ifunc on the CPU's features) to the FMA instruction when the CPU has it and to a
/// correctly rounded emulation when it has not: run-time detection without a target flag and
/// without unsafe code in this crate (a `#[target_feature]` function of our own is a call all
/// the same, measured in the module docs).
///
/// ```
/// use touchstone::scalar::eft::fma;
/// let (a, b) = (0.1, 3.0);
/// // The rounding error of 0.1 · 3, exactly: 0.1·3 − 0.30000000000000004 = −2⁻⁵⁵.
/// assert_eq!(fma(a, b, -(a * b)), -2.7755575615628914e-17);
/// ```
#[inline]
pub fn fma(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}

/// `TwoSum` (Knuth, Møller): `(s, e)` with `s = RN(a + b)` and `a + b = s + e` exactly, for
/// finite `a`, `b` whose sum does not overflow (with an overflow, `e` is not finite).
#[inline]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bv = s - a;
    let av = s - bv;
    (s, (a - av) + (b - bv))
}

/// `(p, e)` with `p = RN(a·b)` and `a·b = p + e` exactly, when that error is known exactly:
/// `None` outside the range where it is (a product below 2⁻⁸⁰⁰ or an operand above 2⁹⁹⁶ in
/// magnitude, where the error may underflow or a split overflow; a non-finite operand or
/// product). Dekker's product on Veltkamp's halves, or one fused multiply–add where the build
/// enables the instruction (see the module docs).
///
/// ```
/// use touchstone::scalar::eft::two_product;
/// assert_eq!(two_product(0.5, 0.25), Some((0.125, 0.0)));
/// let (p, e) = two_product(0.1, 3.0).unwrap();
/// assert_eq!((p, e), (0.30000000000000004, -2.7755575615628914e-17));
/// assert_eq!(two_product(1e-300, 1e-300), None);
/// ```
#[inline]
pub fn two_product(a: f64, b: f64) -> Option<(f64, f64)> {
    let p = a * b;
    let fits = p.abs() >= PRODUCT_MIN && a.abs() <= SPLIT_MAX && b.abs() <= SPLIT_MAX && p.is_finite();
    if !fits {
        return None;
    }
    #[cfg(target_feature = "fma")]
    {
        Some((p, a.mul_add(b, -p)))
    }
    #[cfg(not(target_feature = "fma"))]
    {
        let (ah, al) = split(a);
        let (bh, bl) = split(b);
        Some((p, ((ah * bh - p) + ah * bl + al * bh) + al * bl))
    }
}

/// Veltkamp's split: `a = h + l` exactly, each half with at most 26 significant bits.
#[cfg(not(target_feature = "fma"))]
#[inline]
fn split(a: f64) -> (f64, f64) {
    let c = SPLITTER * a;
    let h = c - (c - a);
    (h, a - h)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_rational::BigRational;

    fn q(x: f64) -> BigRational {
        BigRational::from_float(x).unwrap()
    }

    /// Residuals are exact: checked in rationals on products across the range, odd
    /// significands, powers of two, and both signs.
    #[test]
    fn two_product_is_exact_where_it_answers() {
        let mut xs = vec![0.1, 1.0 / 3.0, 3.0, 1.0 + f64::EPSILON, 12345.678, 1e-120, 7e150, 2f64.powi(-400)];
        xs.extend([0.999_999_999_999_999_9, 6.02214076e23, 1.6e-19, 9.007_199_254_740_993e15]);
        let all: Vec<f64> = xs.iter().flat_map(|&x| [x, -x, x.next_up(), x.next_down()]).collect();
        let mut answered = 0;
        for &a in &all {
            for &b in &all {
                if let Some((p, e)) = two_product(a, b) {
                    assert_eq!(q(p) + q(e), q(a) * q(b), "{a} · {b}");
                    assert_eq!(p, a * b);
                    answered += 1;
                } else {
                    assert!((a * b).abs() < PRODUCT_MIN, "{a} · {b} refused");
                }
            }
        }
        assert!(answered > 1000, "{answered}");
        assert_eq!(two_product(f64::MAX, 0.5), None);
        assert_eq!(two_product(f64::INFINITY, 1.0), None);
    }

    #[test]
    fn constants_are_the_powers_of_two() {
        assert_eq!(SPLIT_MAX, 2f64.powi(996));
        assert_eq!(PRODUCT_MIN, 2f64.powi(-800));
        assert_eq!(SPLITTER, 2f64.powi(27) + 1.0);
    }

    #[test]
    fn two_sum_is_exact() {
        for (a, b) in [(1.0, f64::EPSILON / 2.0), (0.1, 0.2), (1e300, -1e-300), (3.0, 4.0), (-0.0, 0.0)] {
            let (s, e) = two_sum(a, b);
            assert_eq!(q(s) + q(e), q(a) + q(b), "{a} + {b}");
        }
    }

    #[test]
    fn fma_rounds_once() {
        let (a, b) = (0.1, 3.0);
        let e = fma(a, b, -(a * b));
        assert_eq!(q(e), q(a) * q(b) - q(a * b));
        assert_eq!(fma(2.0, 3.0, 1.0), 7.0);
        // 2⁻³⁰ · 2⁻³⁰ + 1 as one rounding is 1 exactly (the product is far below an ulp of 1).
        assert_eq!(fma(2f64.powi(-30), 2f64.powi(-30), 1.0), 1.0);
    }

    /// The run-time detection agrees with the kernel's list of the CPU's features.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn hardware_fma_is_the_cpus_flag() {
        let info = std::fs::read_to_string("/proc/cpuinfo").expect("/proc/cpuinfo on Linux");
        let flags = info.lines().find(|l| l.starts_with("flags")).expect("a flags line");
        assert_eq!(hardware_fma(), flags.split_whitespace().any(|w| w == "fma"), "{flags}");
    }
}
