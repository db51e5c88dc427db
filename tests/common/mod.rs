//! Shared by the integration tests.

/// Instantiate generic test bodies `fn body<S: Scalar>()` once per backend: `f64`,
/// `BigRational`, and with `--features rug` `RugRational` and `BigFloat<256>`.
#[macro_export]
macro_rules! for_each_backend {
    ($($body:ident),* $(,)?) => {
        mod f64_backend { $( #[test] fn $body() { super::$body::<f64>() } )* }
        mod big_rational { $( #[test] fn $body() { super::$body::<num_rational::BigRational>() } )* }
        #[cfg(feature = "rug")]
        mod rug_rational { $( #[test] fn $body() { super::$body::<touchstone::scalar::RugRational>() } )* }
        #[cfg(feature = "rug")]
        mod big_float_256 { $( #[test] fn $body() { super::$body::<touchstone::scalar::BigFloat<256>>() } )* }
    };
}
