//! Exact parsing of rational numbers written as text.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Zero;

/// The longest number text accepted (characters): longer input is a limit error, because exact
/// arithmetic on hostile input can blow up in size.
pub const MAX_NUMBER_CHARS: usize = 10_000;
/// The largest |exponent| accepted in a decimal number (`0.1e2501` is accepted, `1e2501` not:
/// the limit is on the value's decimal scale). A checked bound before any power of ten is
/// computed; 10²⁵⁰⁰ is beyond [`MAX_NUMBER_BITS`] anyway.
pub const MAX_DECIMAL_EXPONENT: i64 = 2_500;
/// The most bits a parsed number may have, numerator and denominator in lowest terms together.
/// Every binary64 value needs at most 1,128 (5e-324 is 1/2¹⁰⁷⁴), so exact decimal expansions of
/// doubles fit with room to spare; past it, one operation of exact arithmetic on such numbers
/// (a gcd of 10⁵-bit integers takes tens of milliseconds, and the cost is quadratic) would make
/// a single step of a query too long for its time limit to be honoured.
pub const MAX_NUMBER_BITS: u64 = 8192;

/// The size limits one number's text is parsed under: [`NumberLimits::DEFAULT`] for every
/// input; wider ones where a number may be a result of the inputs (an oracle's claim of an exact
/// output, which grows with the inputs' own sizes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NumberLimits {
    /// The most characters of the text.
    pub chars: usize,
    /// The largest |decimal scale| of a decimal number.
    pub decimal_exponent: i64,
    /// The most bits in lowest terms, numerator and denominator together.
    pub bits: u64,
}

impl NumberLimits {
    /// The limits of input numbers: [`MAX_NUMBER_CHARS`], [`MAX_DECIMAL_EXPONENT`],
    /// [`MAX_NUMBER_BITS`].
    pub const DEFAULT: NumberLimits =
        NumberLimits { chars: MAX_NUMBER_CHARS, decimal_exponent: MAX_DECIMAL_EXPONENT, bits: MAX_NUMBER_BITS };

    /// Limits admitting numbers of up to `bits` bits (at least the default ones): a fraction of
    /// that many bits has fewer than `bits` decimal digits, and a decimal's scale is below
    /// `bits · log10 2` (10^k needs 3.32·k bits).
    pub fn for_bits(bits: u64) -> NumberLimits {
        let bits = bits.max(MAX_NUMBER_BITS);
        NumberLimits {
            chars: usize::try_from(bits).unwrap_or(usize::MAX).saturating_add(64).max(MAX_NUMBER_CHARS),
            decimal_exponent: i64::try_from(bits * 3 / 10).unwrap_or(i64::MAX).max(MAX_DECIMAL_EXPONENT),
            bits,
        }
    }
}

/// Why a number was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumberError {
    /// Empty text.
    #[error("empty number")]
    Empty,
    /// NaN or an infinity: touchstone only takes finite numbers.
    #[error("number is not finite: {0}")]
    NotFinite(String),
    /// Not of the accepted forms.
    #[error("not a number: {text:?} ({reason})")]
    Invalid {
        /// The text (cut to 64 characters).
        text: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// `p/0`.
    #[error("zero denominator in {0:?}")]
    ZeroDenominator(String),
    /// Longer than the limit (by default [`MAX_NUMBER_CHARS`]).
    #[error("number text of {len} characters exceeds the limit of {limit}")]
    TooLong {
        /// The text's length.
        len: usize,
        /// The limit.
        limit: usize,
    },
    /// A decimal scale beyond the limit (by default [`MAX_DECIMAL_EXPONENT`]).
    #[error("the number's decimal scale {scale} is beyond the limit of 10^±{limit}")]
    ExponentTooLarge {
        /// The scale, as `10^k`.
        scale: String,
        /// The limit.
        limit: i64,
    },
    /// More bits in lowest terms than the limit (by default [`MAX_NUMBER_BITS`]).
    #[error("the number has {bits} bits (numerator and denominator), over the limit of {limit}")]
    TooManyBits {
        /// The number's bits.
        bits: u64,
        /// The limit.
        limit: u64,
    },
}

/// What an error shows in place of input text it must not quote ([`NumberError::redacted`],
/// and the mesh reader's errors).
pub const WITHHELD: &str = "(text withheld)";

impl NumberError {
    /// The same error without the number's text (for a reader that reports to someone who may
    /// not read the input itself: the oracle reading a file on a query's behalf).
    pub fn redacted(self) -> Self {
        let withheld = || WITHHELD.to_string();
        match self {
            NumberError::NotFinite(_) => NumberError::NotFinite(withheld()),
            NumberError::Invalid { reason, .. } => NumberError::Invalid { text: withheld(), reason },
            NumberError::ZeroDenominator(_) => NumberError::ZeroDenominator(withheld()),
            NumberError::ExponentTooLarge { limit, .. } => NumberError::ExponentTooLarge { scale: withheld(), limit },
            other => other,
        }
    }

    /// Whether the rejection is a size limit rather than malformed text.
    pub fn is_limit(&self) -> bool {
        matches!(
            self,
            NumberError::TooLong { .. } | NumberError::ExponentTooLarge { .. } | NumberError::TooManyBits { .. }
        )
    }
}

fn invalid(text: &str, reason: &'static str) -> NumberError {
    NumberError::Invalid { text: excerpt(text, 24), reason }
}

/// At most `n` characters of `text` for a message, with `…` when cut.
pub fn excerpt(text: &str, n: usize) -> String {
    let mut out: String = text.chars().take(n).collect();
    if text.chars().nth(n).is_some() {
        out.push('…');
    }
    out
}

/// Parse an exact rational: an integer (`"-12"`), a decimal with optional exponent
/// (`"0.1"`, `"1.5e-3"`, `".5"`, `"2."`), or a fraction of integers (`"-3/7"`).
///
/// A decimal means its exact decimal value, never a rounded binary one.
///
/// ```
/// use num_rational::BigRational;
/// use touchstone::scalar::parse_rational;
/// assert_eq!(parse_rational("1.5e-3").unwrap(), BigRational::new(3.into(), 2000.into()));
/// assert_eq!(parse_rational("-6/14").unwrap(), BigRational::new((-3).into(), 7.into()));
/// assert!(parse_rational("NaN").is_err());
/// ```
pub fn parse_rational(text: &str) -> Result<BigRational, NumberError> {
    parse_rational_within(text, &NumberLimits::DEFAULT)
}

/// [`parse_rational`] under other size limits.
pub fn parse_rational_within(text: &str, limits: &NumberLimits) -> Result<BigRational, NumberError> {
    let q = parse_unchecked(text, limits)?;
    let bits = q.numer().bits() + q.denom().bits();
    if bits > limits.bits {
        return Err(NumberError::TooManyBits { bits, limit: limits.bits });
    }
    Ok(q)
}

fn parse_unchecked(text: &str, limits: &NumberLimits) -> Result<BigRational, NumberError> {
    super::rational::made_one();
    let s = text.trim();
    if s.is_empty() {
        return Err(NumberError::Empty);
    }
    if s.len() > limits.chars {
        return Err(NumberError::TooLong { len: s.len(), limit: limits.chars });
    }
    let lower = s.to_ascii_lowercase();
    let unsigned = lower.trim_start_matches(['+', '-']);
    if matches!(unsigned, "nan" | "inf" | "infinity") {
        return Err(NumberError::NotFinite(s.to_string()));
    }
    if let Some((p, q)) = s.split_once('/') {
        let p = parse_integer(p, s)?;
        let q = parse_integer(q, s)?;
        if q.is_zero() {
            return Err(NumberError::ZeroDenominator(s.to_string()));
        }
        return Ok(BigRational::new(p, q));
    }
    parse_decimal(s, limits.decimal_exponent)
}

fn parse_integer(part: &str, whole: &str) -> Result<BigInt, NumberError> {
    let (neg, digits) = split_sign(part);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid(whole, "a fraction must be two integers p/q"));
    }
    let v = BigInt::parse_bytes(digits.as_bytes(), 10).ok_or_else(|| invalid(whole, "bad integer"))?;
    Ok(if neg { -v } else { v })
}

fn split_sign(s: &str) -> (bool, &str) {
    if let Some(rest) = s.strip_prefix('-') {
        (true, rest)
    } else if let Some(rest) = s.strip_prefix('+') {
        (false, rest)
    } else {
        (false, s)
    }
}

fn parse_decimal(s: &str, max_scale: i64) -> Result<BigRational, NumberError> {
    let (neg, body) = split_sign(s);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (int_part, frac_part) = match mantissa.split_once('.') {
        Some((i, f)) => (i, f),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(invalid(s, "no digits"));
    }
    if !int_part.bytes().chain(frac_part.bytes()).all(|b| b.is_ascii_digit()) {
        return Err(invalid(s, "expected digits, '.', an exponent or p/q"));
    }
    let mut exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let (eneg, edigits) = split_sign(e);
            if edigits.is_empty() || !edigits.bytes().all(|b| b.is_ascii_digit()) {
                return Err(invalid(s, "bad exponent"));
            }
            let magnitude: i64 = match edigits.trim_start_matches('0') {
                "" => 0,
                d if d.len() > 12 => {
                    return Err(NumberError::ExponentTooLarge {
                        scale: format!("10^{}", excerpt(e, 24)),
                        limit: max_scale,
                    })
                }
                d => d.parse().map_err(|_| invalid(s, "bad exponent"))?,
            };
            if eneg {
                -magnitude
            } else {
                magnitude
            }
        }
    };
    exp -= frac_part.len() as i64;
    let digits: String = int_part.chars().chain(frac_part.chars()).collect();
    let mut n = BigInt::parse_bytes(digits.as_bytes(), 10).ok_or_else(|| invalid(s, "bad digits"))?;
    if n.is_zero() {
        return Ok(BigRational::zero());
    }
    // The limit applies to the value's scale, so "1e10000" passes but "1e10001" does not,
    // however the digits are split between mantissa and exponent.
    let scale = exp + digits.trim_start_matches('0').len() as i64 - 1;
    if scale.abs() > max_scale {
        // The scale, not the exponent as written: "0.1e-10000" is 10^-10001.
        return Err(NumberError::ExponentTooLarge { scale: format!("10^{scale}"), limit: max_scale });
    }
    if neg {
        n = -n;
    }
    let ten = BigInt::from(10);
    Ok(if exp >= 0 {
        BigRational::from_integer(n * num_traits::pow(ten, exp as usize))
    } else {
        BigRational::new(n, num_traits::pow(ten, (-exp) as usize))
    })
}

/// `10^k` as a rational, for any integer `k`.
#[cfg(test)]
fn pow10(k: i64) -> BigRational {
    let p = num_traits::pow(BigInt::from(10), k.unsigned_abs() as usize);
    if k >= 0 {
        BigRational::from_integer(p)
    } else {
        BigRational::new(BigInt::from(1), p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(p: i64, d: i64) -> BigRational {
        BigRational::new(p.into(), d.into())
    }

    #[test]
    fn accepted_forms() {
        assert_eq!(parse_rational("12").unwrap(), q(12, 1));
        assert_eq!(parse_rational("-3/7").unwrap(), q(-3, 7));
        assert_eq!(parse_rational("0.1").unwrap(), q(1, 10));
        assert_eq!(parse_rational("1.5e-3").unwrap(), q(3, 2000));
        assert_eq!(parse_rational("1.5E+3").unwrap(), q(1500, 1));
        assert_eq!(parse_rational(".5").unwrap(), q(1, 2));
        assert_eq!(parse_rational("2.").unwrap(), q(2, 1));
        assert_eq!(parse_rational("+4/-8").unwrap(), q(-1, 2));
        assert_eq!(parse_rational("-0").unwrap(), q(0, 1));
        assert_eq!(parse_rational(" 7 ").unwrap(), q(7, 1));
        assert_eq!(parse_rational("1e2400").unwrap(), pow10(2_400));
        assert_eq!(parse_rational("0.0001e2404").unwrap(), pow10(2_400));
        // 5e-324 exactly, as a decimal: 751 significant digits, 1,075 bits in lowest terms.
        let tiny = format!("{}e-1074", num_bigint::BigInt::from(5).pow(1074));
        assert_eq!(parse_rational(&tiny).unwrap(), BigRational::from_float(5e-324).unwrap());
    }

    #[test]
    fn rejected_forms() {
        assert_eq!(parse_rational(""), Err(NumberError::Empty));
        assert!(matches!(parse_rational("NaN"), Err(NumberError::NotFinite(_))));
        assert!(matches!(parse_rational("-inf"), Err(NumberError::NotFinite(_))));
        assert!(matches!(parse_rational("1/0"), Err(NumberError::ZeroDenominator(_))));
        assert!(matches!(parse_rational("1.2.3"), Err(NumberError::Invalid { .. })));
        assert!(matches!(parse_rational("0x10"), Err(NumberError::Invalid { .. })));
        assert!(matches!(parse_rational("1e"), Err(NumberError::Invalid { .. })));
        assert!(matches!(parse_rational("."), Err(NumberError::Invalid { .. })));
        assert!(matches!(parse_rational("1/2/3"), Err(NumberError::Invalid { .. })));
        assert!(parse_rational("1e2501").unwrap_err().is_limit());
        assert!(parse_rational("1e-2501").unwrap_err().is_limit());
        // Within the scale, beyond the bits: 10^2470 has 8,206 bits (plus 1 for the denominator).
        assert_eq!(parse_rational("1e2470"), Err(NumberError::TooManyBits { bits: 8207, limit: 8192 }));
        let huge = format!("{}/3", "7".repeat(2500));
        assert!(matches!(parse_rational(&huge), Err(NumberError::TooManyBits { .. })));
        assert!(parse_rational("1e99999999999999999999").unwrap_err().is_limit());
        assert!(parse_rational(&"1".repeat(MAX_NUMBER_CHARS + 1)).unwrap_err().is_limit());
    }
}

#[cfg(test)]
mod limit_tests {
    use super::*;

    #[test]
    fn the_scale_limit_names_the_scale_whatever_the_split() {
        assert!(parse_rational("1e-2400").is_ok());
        assert!(parse_rational("10e-2401").is_ok());
        let e = parse_rational("0.1e-2500").unwrap_err();
        assert_eq!(e, NumberError::ExponentTooLarge { scale: "10^-2501".into(), limit: 2500 });
        assert!(e.to_string().contains("10^-2501"), "{e}");
        assert_eq!(parse_rational("1e-2501").unwrap_err(), e);
        assert!(parse_rational("1e2400").is_ok());
        assert_eq!(
            parse_rational("100e2499").unwrap_err(),
            NumberError::ExponentTooLarge { scale: "10^2501".into(), limit: 2500 }
        );
    }

    #[test]
    fn wider_limits_admit_results_of_many_bits() {
        let big = format!("1/{}", "3".repeat(5000));
        assert!(parse_rational(&big).unwrap_err().is_limit());
        let wide = NumberLimits::for_bits(1 << 16);
        assert!(parse_rational_within(&big, &wide).is_ok());
        assert!(parse_rational_within("1e10000", &wide).is_ok(), "10^10000 has 33,220 bits");
        assert!(parse_rational_within("1e20000", &wide).unwrap_err().is_limit(), "66,439 bits");
        assert!(parse_rational_within("1e-5000", &wide).is_ok());
        // Never narrower than the default.
        assert_eq!(NumberLimits::for_bits(10), NumberLimits::DEFAULT);
        let e = parse_rational_within(&"7".repeat(70_000), &wide).unwrap_err();
        assert_eq!(e, NumberError::TooLong { len: 70_000, limit: (1 << 16) + 64 });
    }

    #[test]
    fn messages_quote_only_an_excerpt() {
        let long = format!("root:{}", "x".repeat(100));
        match parse_rational(&long).unwrap_err() {
            NumberError::Invalid { text, .. } => assert_eq!(text.chars().count(), 25, "{text}"),
            e => panic!("{e:?}"),
        }
        assert_eq!(excerpt("short", 24), "short");
    }
}
