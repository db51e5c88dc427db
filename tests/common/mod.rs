//! Shared by the integration tests.

/// Instantiate generic test bodies `fn body<S: Scalar>()` once per backend: `f64`,
/// `BigRational`, `Exact` (the fast exact backend: the same exact answers), `Interval` and
/// `MidRad` (the two filter backends, certain decisions: each decision the body checks must be
/// the exact one or `Uncertain`, see [`decided`]), and with `--features rug` `RugRational` and
/// `BigFloat<256>`.
#[macro_export]
macro_rules! for_each_backend {
    ($($body:ident),* $(,)?) => {
        mod f64_backend { $( #[test] fn $body() { super::$body::<f64>() } )* }
        mod big_rational { $( #[test] fn $body() { super::$body::<num_rational::BigRational>() } )* }
        mod exact { $( #[test] fn $body() { super::$body::<touchstone::scalar::Exact>() } )* }
        mod interval { $( #[test] fn $body() { super::$body::<touchstone::scalar::Interval>() } )* }
        mod midrad { $( #[test] fn $body() { super::$body::<touchstone::scalar::MidRad>() } )* }
        #[cfg(feature = "rug")]
        mod rug_rational { $( #[test] fn $body() { super::$body::<touchstone::scalar::RugRational>() } )* }
        #[cfg(feature = "rug")]
        mod big_float_256 { $( #[test] fn $body() { super::$body::<touchstone::scalar::BigFloat<256>>() } )* }
    };
}

/// Whether a decision of backend `S` is admissible when the exact one is `expected`: equal, or
/// for a backend with certain decisions but inexact values (the filters) `Uncertain::Close`
/// (never a different answer).
#[allow(dead_code)]
pub fn decided<S: touchstone::scalar::Scalar, T: PartialEq>(
    got: &Result<T, touchstone::scalar::Uncertain>,
    expected: &T,
) -> bool {
    match got {
        Ok(g) => g == expected,
        Err(touchstone::scalar::Uncertain::Close) => S::CERTAIN_DECISIONS && !S::EXACT_VALUES,
        Err(_) => false,
    }
}

/// A deterministic generator (xorshift) for the tests' generic inputs.
#[allow(dead_code)]
pub struct Rng(pub u64);

#[allow(dead_code)]
impl Rng {
    /// The next 64 bits.
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// An integer in [−m, m].
    pub fn int(&mut self, m: i64) -> i64 {
        (self.next() % (2 * m as u64 + 1)) as i64 - m
    }
    /// A binary64 in [−1, 1) with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}
pub mod doubles;
