//! Reading a query line: JSON, with every object's keys distinct.
//!
//! serde_json keeps the last of two equal keys; a query with a repeated field would then be
//! answered for a value its author may not have meant, so a repeated key is refused like a
//! misspelt one, with the JSON pointer of the repetition.
//!
//! A JSON number is read into the binary64 value it denotes (serde_json's `float_roundtrip`
//! parse is correctly rounded), which is what the format says it means: no text is kept, so a
//! line's numbers cost no allocation. A number beyond the binary64 range is refused with its
//! JSON pointer (kind `number`).

use std::borrow::Cow;
use std::cell::RefCell;
use std::fmt;

use compact_str::CompactString;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{Kind, QueryError};
use touchstone::query::error::child;

/// A parsed JSON value of a query line: objects keep their keys in order, in a vector (a
/// query's objects have a handful of keys, so a lookup is a short scan, and reading a line
/// hashes nothing); numbers are serde_json's (an unsigned or signed integer, or the binary64
/// value the text denotes).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(serde_json::Number),
    /// A string (inline up to 24 bytes).
    String(CompactString),
    /// An array.
    Array(Vec<Json>),
    /// An object, its keys distinct, in the line's order.
    Object(Vec<(CompactString, Json)>),
}

static NULL: Json = Json::Null;

/// The value of `key` among an object's fields (a short scan: see [`Json`]).
pub fn field<'a>(fields: &'a [(CompactString, Json)], key: &str) -> Option<&'a Json> {
    fields.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}

impl Json {
    /// The value of `key` in an object (`None` for a missing key or a non-object).
    pub fn get(&self, key: &str) -> Option<&Json> {
        field(self.as_object()?, key)
    }
    /// The fields of an object.
    pub fn as_object(&self) -> Option<&[(CompactString, Json)]> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }
    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }
    /// Whether this is an array.
    pub fn is_array(&self) -> bool {
        matches!(self, Json::Array(_))
    }
    /// A boolean's value.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Json::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// An integer written as one that fits `i64` (as serde_json's `as_i64`).
    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.as_i64(),
            _ => None,
        }
    }
    /// A string's text.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
    /// A non-negative integer written as one (as serde_json's `as_u64`).
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }
    /// A number's binary64 value.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Json::Number(n) => n.as_f64(),
            _ => None,
        }
    }
    /// The same value as a serde_json value (for echoing a query's parts in an answer).
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(a) => Value::Array(a.iter().map(Json::to_value).collect()),
            Json::Object(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect::<Map<_, _>>())
            }
        }
    }
}

impl std::ops::Index<&str> for Json {
    type Output = Json;
    fn index(&self, key: &str) -> &Json {
        self.get(key).unwrap_or(&NULL)
    }
}

impl std::ops::Index<usize> for Json {
    type Output = Json;
    fn index(&self, i: usize) -> &Json {
        match self {
            Json::Array(a) => a.get(i).unwrap_or(&NULL),
            _ => &NULL,
        }
    }
}

/// An answer's fields in the order they are written (`id` first): an object that is built by
/// pushing and written without hashing a key.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Out(Vec<(Cow<'static, str>, Value)>);

impl Out {
    /// No fields.
    pub fn new() -> Self {
        // Room for an answer's usual fields (id, status, values, features, points, steps, ...)
        // without regrowing.
        Out(Vec::with_capacity(12))
    }
    /// Put `key` first, with `value` unless the fields have it already (then theirs is kept
    /// and moved to the front).
    pub fn put_first(&mut self, key: Cow<'static, str>, value: Value) {
        match self.0.iter().position(|(k, _)| *k == key) {
            Some(i) => {
                let field = self.0.remove(i);
                self.0.insert(0, field);
            }
            None => self.0.insert(0, (key, value)),
        }
    }
    /// Add `key`, known not to be there yet (an op's own fields, written once each: no search).
    pub fn push(&mut self, key: &'static str, value: Value) {
        debug_assert!(self.get(key).is_none(), "field {key} written twice");
        self.0.push((Cow::Borrowed(key), value));
    }
    /// Set `key` (replacing its value, in place, when it is there already).
    pub fn insert(&mut self, key: Cow<'static, str>, value: Value) -> Option<Value> {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => Some(std::mem::replace(v, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }
    /// The value of `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The value of `key`, to change.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v)
    }
    /// The values, in order.
    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.0.iter().map(|(_, v)| v)
    }
    /// The keys, in order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|(k, _)| k.as_ref())
    }
    /// The fields as a JSON object.
    pub fn into_value(self) -> Value {
        Value::Object(self.0.into_iter().map(|(k, v)| (k.into_owned(), v)).collect())
    }
}

impl From<Map<String, Value>> for Out {
    fn from(m: Map<String, Value>) -> Self {
        Out(m.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect())
    }
}

impl From<Value> for Out {
    /// An object's fields (anything else: none).
    fn from(v: Value) -> Self {
        match v {
            Value::Object(m) => m.into(),
            _ => Out::new(),
        }
    }
}

impl IntoIterator for Out {
    type Item = (Cow<'static, str>, Value);
    type IntoIter = std::vec::IntoIter<(Cow<'static, str>, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Extend<(Cow<'static, str>, Value)> for Out {
    fn extend<I: IntoIterator<Item = (Cow<'static, str>, Value)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl serde::Serialize for Out {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k.as_ref(), v)?;
        }
        m.end()
    }
}

/// Parse one line: a JSON value whose objects have distinct keys (one pass: the value is
/// built by a visitor that refuses a repeated key; only then is the line walked again to name
/// the repetition's path).
pub fn parse_line(line: &str) -> Result<Json, QueryError> {
    if let Some(v) = fast::parse(line) {
        return Ok(v);
    }
    let mut de = serde_json::Deserializer::from_str(line);
    let parsed = Build.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    parsed.map_err(|e| {
        let (repeated, failed) = (RefCell::new(None), RefCell::new(None));
        let mut de = serde_json::Deserializer::from_str(line);
        let _ = Find { path: String::new(), repeated: &repeated, failed: &failed }.deserialize(&mut de);
        match (repeated.into_inner(), failed.into_inner()) {
            (Some((path, key)), _) => {
                QueryError::new(Kind::Json, &path, format!("the key {key:?} is repeated in one object"))
            }
            (None, Some(path)) if e.to_string().starts_with("number out of range") => QueryError::new(
                Kind::Number,
                &path,
                "a JSON number beyond the binary64 range; write it as a string for its exact value",
            ),
            _ => QueryError::new(Kind::Json, "", format!("not valid JSON: {e}")),
        }
    })
}

/// The `id` of a line that does not parse as a query (a number beyond binary64's range, a
/// repeated key, a syntax error after the id): read leniently, every other value skipped
/// unchecked, so an error line still echoes the id it can. The last `id` key read wins, as in
/// a parsed object; `null` when there is none, or it is itself unreadable.
pub fn id_of(line: &str) -> Value {
    struct TopLevel<'a>(&'a RefCell<Value>);
    impl<'de> Visitor<'de> for TopLevel<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a JSON object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                if key == "id" {
                    *self.0.borrow_mut() = map.next_value::<Value>().unwrap_or(Value::Null);
                } else {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }
    let id = RefCell::new(Value::Null);
    let mut de = serde_json::Deserializer::from_str(line);
    let _ = de.deserialize_map(TopLevel(&id));
    id.into_inner()
}

/// Powers of ten exact in binary64 (10¹⁵ < 2⁵³).
const POWERS_OF_TEN: [f64; 16] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/// The binary64 value of a decimal `digits` (ASCII digits and one `.`, `fraction` digits after
/// it) of at most 15 digits in all, or `None` for a longer one: its digits make an integer
/// m < 10¹⁵ < 2⁵³ and 10^fraction is at most 10¹⁵, both exact in binary64, so the one rounded
/// division m / 10^fraction is the correctly rounded value (Clinger's fast path), the value
/// `str::parse` gives, without scanning the text a second time. Most coordinates written with
/// a few decimals are such numbers.
fn short_decimal(digits: &[u8], fraction: usize) -> Option<f64> {
    if digits.len() > 16 || fraction > 15 {
        return None;
    }
    let mut m: u64 = 0;
    let mut count = 0;
    for &b in digits {
        if b != b'.' {
            m = m * 10 + u64::from(b - b'0');
            count += 1;
        }
    }
    (count <= 15).then(|| m as f64 / POWERS_OF_TEN[fraction])
}

/// A strict reader of the plain line (what engines and generators write): it gives the value
/// serde_json's reading gives, or `None` for anything it does not handle (string escapes or
/// control characters, integers beyond 64 bits, numbers beyond the binary64 range, `-0`,
/// deep nesting, objects of many keys, repeated keys, any syntax error), which serde_json
/// then reads, with its error messages. Numbers with a fraction or exponent are read by the
/// standard library's correctly rounded parser, as serde_json's `float_roundtrip` reads them
/// (decimals of at most 15 digits by [`short_decimal`], to the same value).
mod fast {
    use super::short_decimal;
    use super::{CompactString, Json, SCAN_KEYS};

    /// Nesting deeper than this is left to serde_json (and its recursion limit).
    const MAX_DEPTH: usize = 64;

    pub fn parse(line: &str) -> Option<Json> {
        let mut r = Reader { text: line, s: line.as_bytes(), i: 0 };
        let v = r.value(0)?;
        r.ws();
        (r.i == r.s.len()).then_some(v)
    }

    struct Reader<'a> {
        text: &'a str,
        s: &'a [u8],
        i: usize,
    }

    impl<'a> Reader<'a> {
        fn ws(&mut self) {
            while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.s.get(self.i) {
                self.i += 1;
            }
        }
        fn eat(&mut self, b: u8) -> bool {
            self.ws();
            if self.s.get(self.i) == Some(&b) {
                self.i += 1;
                true
            } else {
                false
            }
        }
        fn literal(&mut self, word: &[u8], v: Json) -> Option<Json> {
            self.s[self.i..].starts_with(word).then(|| {
                self.i += word.len();
                v
            })
        }
        fn value(&mut self, depth: usize) -> Option<Json> {
            self.ws();
            match *self.s.get(self.i)? {
                b'{' if depth < MAX_DEPTH => self.object(depth + 1),
                b'[' if depth < MAX_DEPTH => self.array(depth + 1),
                b'"' => self.string().map(|s| Json::String(s.into())),
                b't' => self.literal(b"true", Json::Bool(true)),
                b'f' => self.literal(b"false", Json::Bool(false)),
                b'n' => self.literal(b"null", Json::Null),
                b'-' | b'0'..=b'9' => self.number(),
                _ => None,
            }
        }
        /// A string without escapes or control characters (the opening quote is next).
        fn string(&mut self) -> Option<&'a str> {
            let start = self.i + 1;
            let len = self.s[start..].iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
            if self.s[start + len] != b'"' {
                return None;
            }
            self.i = start + len + 1;
            // Cut at ASCII bytes: char boundaries.
            self.text.get(start..start + len)
        }
        fn digits(&mut self) -> usize {
            let n = self.s[self.i..].iter().take_while(|b| b.is_ascii_digit()).count();
            self.i += n;
            n
        }
        #[inline(always)]
        fn number(&mut self) -> Option<Json> {
            let start = self.i;
            let negative = self.s[self.i] == b'-';
            self.i += usize::from(negative);
            let int_start = self.i;
            let n = self.digits();
            // JSON: no leading zero (a lone 0 is fine), at least one digit.
            if n == 0 || (n > 1 && self.s[int_start] == b'0') {
                return None;
            }
            let mut float = false;
            let mut fraction = 0;
            if self.s.get(self.i) == Some(&b'.') {
                self.i += 1;
                fraction = self.digits();
                if fraction == 0 {
                    return None;
                }
                float = true;
            }
            if float && !matches!(self.s.get(self.i), Some(b'e' | b'E')) {
                if let Some(x) = short_decimal(&self.s[int_start..self.i], fraction) {
                    let x = if negative { -x } else { x };
                    return serde_json::Number::from_f64(x).map(Json::Number);
                }
            }
            if let Some(b'e' | b'E') = self.s.get(self.i) {
                self.i += 1;
                if let Some(b'+' | b'-') = self.s.get(self.i) {
                    self.i += 1;
                }
                if self.digits() == 0 {
                    return None;
                }
                float = true;
            }
            let text = self.text.get(start..self.i)?;
            if float {
                let x: f64 = text.parse().ok()?;
                return serde_json::Number::from_f64(x).filter(|_| x.is_finite()).map(Json::Number);
            }
            if negative {
                // serde_json reads -0 as the double -0.0: leave it to serde_json.
                let i: i64 = text.parse().ok().filter(|&i| i != 0)?;
                Some(Json::Number(i.into()))
            } else {
                let u: u64 = text.parse().ok()?;
                Some(Json::Number(u.into()))
            }
        }
        fn array(&mut self, depth: usize) -> Option<Json> {
            self.i += 1;
            let mut out = Vec::new();
            if self.eat(b']') {
                return Some(Json::Array(out));
            }
            loop {
                // Numbers (most of a query's array items) read here, not through the recursive
                // `value`: its returned enum goes through memory and stalls the load after it.
                self.ws();
                let v = match self.s.get(self.i) {
                    Some(b'-' | b'0'..=b'9') => self.number()?,
                    _ => self.value(depth)?,
                };
                out.push(v);
                if self.eat(b']') {
                    return Some(Json::Array(out));
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
        fn object(&mut self, depth: usize) -> Option<Json> {
            self.i += 1;
            let mut out: Vec<(CompactString, Json)> = Vec::new();
            if self.eat(b'}') {
                return Some(Json::Object(out));
            }
            loop {
                self.ws();
                if self.s.get(self.i) != Some(&b'"') || out.len() >= SCAN_KEYS {
                    return None;
                }
                let key = self.string()?;
                if out.iter().any(|(k, _)| k == key) || !self.eat(b':') {
                    return None;
                }
                let v = self.value(depth)?;
                out.push((key.into(), v));
                if self.eat(b'}') {
                    return Some(Json::Object(out));
                }
                if !self.eat(b',') {
                    return None;
                }
            }
        }
    }
}

/// Builds a value, refusing a repeated key.
struct Build;

/// Past this many keys an object's repetition check uses a hash set (below it, a scan).
const SCAN_KEYS: usize = 16;

impl<'de> DeserializeSeed<'de> for Build {
    type Value = Json;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Json, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
        Ok(Json::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
        Ok(Json::Number(i.into()))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
        Ok(Json::Number(u.into()))
    }
    fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Json, E> {
        serde_json::Number::from_f64(x).map(Json::Number).ok_or_else(|| E::custom("not a finite number"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Json, E> {
        Ok(Json::String(s.into()))
    }
    fn visit_string<E>(self, s: String) -> Result<Json, E> {
        Ok(Json::String(s.into()))
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(4096));
        while let Some(v) = seq.next_element_seed(Build)? {
            out.push(v);
        }
        Ok(Json::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut out: Vec<(CompactString, Json)> = Vec::new();
        // A hostile line's object of many keys is checked in linear time, not quadratic.
        let mut seen: Option<std::collections::HashSet<CompactString>> = None;
        while let Some(key) = map.next_key::<String>()? {
            let key = CompactString::from(key);
            let repeated = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None if out.len() < SCAN_KEYS => out.iter().any(|(k, _)| *k == key),
                None => {
                    let mut set: std::collections::HashSet<CompactString> =
                        out.iter().map(|(k, _)| k.clone()).collect();
                    let repeated = !set.insert(key.clone());
                    seen = Some(set);
                    repeated
                }
            };
            if repeated {
                return Err(serde::de::Error::custom("repeated key"));
            }
            let v = map.next_value_seed(Build)?;
            out.push((key, v));
        }
        Ok(Json::Object(out))
    }
}

/// Walks a value, recording the first repeated key (its path and name), and the path of the
/// innermost value that failed to parse (a number out of range).
struct Find<'a> {
    path: String,
    repeated: &'a RefCell<Option<(String, String)>>,
    failed: &'a RefCell<Option<String>>,
}

impl Find<'_> {
    /// Record `path` as where the walk failed, unless a deeper path was recorded already.
    fn fail_at(&self, path: String) {
        let mut f = self.failed.borrow_mut();
        if f.is_none() {
            *f = Some(path);
        }
    }
}

impl<'de> DeserializeSeed<'de> for Find<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Find<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0usize;
        loop {
            let path = child(&self.path, i);
            match seq.next_element_seed(Find { path: path.clone(), repeated: self.repeated, failed: self.failed }) {
                Ok(Some(())) => i += 1,
                Ok(None) => return Ok(()),
                Err(e) => {
                    self.fail_at(path);
                    return Err(e);
                }
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = child(&self.path, &key);
            if !seen.insert(key.clone()) {
                *self.repeated.borrow_mut() = Some((path, key));
                return Err(serde::de::Error::custom("repeated key"));
            }
            let seed = Find { path: path.clone(), repeated: self.repeated, failed: self.failed };
            if let Err(e) = map.next_value_seed(seed) {
                self.fail_at(path);
                return Err(e);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_refused_where_they_are() {
        let e = parse_line(r#"{"op": "orient3d", "op": "validate"}"#).unwrap_err();
        assert_eq!((e.kind, e.at.as_str()), (Kind::Json, "/op"));
        let e = parse_line(r#"{"a": {"box": [1, 1, 1], "box": [2, 2, 2]}}"#).unwrap_err();
        assert_eq!(e.at, "/a/box");
        let e = parse_line(r#"{"x": [1, {"k": 1, "k": 2}]}"#).unwrap_err();
        assert_eq!(e.at, "/x/1/k");
        // Distinct keys, numbers of every size, nesting: accepted.
        assert!(
            parse_line(r#"{"a": 1e300, "b": [1, 2.5, -3, 123456789012345678901234567890], "c": {"d": null}}"#).is_ok()
        );
        assert_eq!(parse_line("[1,").unwrap_err().kind, Kind::Json);
    }

    /// serde_json's reading of a line (the path every line took before the fast reader).
    fn by_serde(line: &str) -> Option<Json> {
        let mut de = serde_json::Deserializer::from_str(line);
        Build.deserialize(&mut de).and_then(|v| de.end().map(|()| v)).ok()
    }

    /// The fast reader gives serde_json's value (bit for bit: `{:?}` tells integers from
    /// doubles and shows -0.0) or leaves the line to it.
    fn agrees(line: &str) -> bool {
        match fast::parse(line) {
            None => true,
            Some(v) => by_serde(line).is_some_and(|w| format!("{v:?}") == format!("{w:?}")),
        }
    }

    #[test]
    fn the_fast_reader_reads_as_serde_json_or_leaves_the_line_to_it() {
        let taken = [
            r#"{"id":0,"op":"distance","a":{"box":[1,0.5,2]},"pose_b":{"quaternion":[-0.12,1e-3,2E+2,7],"translation":[0,-1,18446744073709551615]}}"#,
            " { \"a\" : [ ] , \"b\" : { } , \"c\" : [ true , false , null ] } \t\r\n",
            r#"[-9223372036854775808, 0, 0.0, -0.0, 4.9e-324, 1.7976931348623157e308, 2.2250738585072011e-308, 9007199254740993.0, "é ☃"]"#,
        ];
        for line in taken {
            assert!(fast::parse(line).is_some(), "{line}");
            assert!(agrees(line), "{line}");
        }
        let left = [
            r#"{"a":"x\ny"}"#,
            "{\"a\":\"tab\there\"}",
            "[-0]",
            "[01]",
            "[1.]",
            "[.5]",
            "[1e]",
            "[+1]",
            "[1e400]",
            "[18446744073709551616]",
            "[-9223372036854775809]",
            r#"{"a":1,"a":2}"#,
            "[1,]",
            r#"{"a":1,}"#,
            "[1] x",
            "[nul]",
            "",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
        ];
        for line in left {
            assert!(fast::parse(line).is_none(), "{line}");
        }
        // Random token soups (mostly invalid) and random valid lines.
        let tokens = [
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            " ",
            "\"k\"",
            "\"j\"",
            "\"\\u00e9\"",
            "0",
            "-0",
            "7",
            "-12",
            "01",
            "1.",
            "2.50",
            "1e5",
            "-3E-2",
            "1e400",
            "-1e-400",
            "18446744073709551616",
            "true",
            "null",
            "nul",
            "\"",
            "\\",
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let (mut taken, mut total) = (0, 0);
        for _ in 0..200_000 {
            let len = 1 + next(12);
            let line: String = (0..len).map(|_| tokens[next(tokens.len())]).collect();
            assert!(agrees(&line), "{line}");
            total += 1;
            taken += usize::from(fast::parse(&line).is_some());
        }
        assert!(taken > 100, "the soup should hold some valid lines ({taken} of {total})");
        fn tree(next: &mut impl FnMut(usize) -> usize, depth: usize) -> Value {
            match next(if depth > 3 { 5 } else { 7 }) {
                0 => Value::Null,
                1 => Value::Bool(next(2) == 0),
                2 => serde_json::json!((next(1 << 20) as i64 - (1 << 19)) as f64 / 64.0),
                3 => serde_json::json!(next(1 << 30) as i64 - (1 << 29)),
                4 => serde_json::json!(format!("s{}", next(100))),
                5 => Value::Array((0..next(4)).map(|_| tree(next, depth + 1)).collect()),
                _ => Value::Object((0..next(4)).map(|i| (format!("k{i}"), tree(next, depth + 1))).collect()),
            }
        }
        for _ in 0..20_000 {
            let line = tree(&mut next, 0).to_string();
            assert!(fast::parse(&line).is_some(), "{line}");
            assert!(agrees(&line), "{line}");
        }
    }

    #[test]
    fn numbers_are_binary64_and_beyond_the_range_is_refused_where_it_is() {
        let v = parse_line(r#"{"a": [0.1, 9007199254740993, -5e-324]}"#).unwrap();
        assert_eq!(v["a"][0].as_f64(), Some(0.1));
        // The integer 2^53 + 1 denotes the double 2^53 (round half to even).
        assert_eq!(v["a"][1].as_f64(), Some(9007199254740992.0));
        assert_eq!(v["a"][2].as_f64(), Some(-5e-324));
        let e = parse_line(r#"{"points": [[0, 0, 0], [0, 1e999, 1]]}"#).unwrap_err();
        assert_eq!((e.kind, e.at.as_str()), (Kind::Number, "/points/1/1"));
        let e = parse_line(r#"{"a": {"b": -1e400}}"#).unwrap_err();
        assert_eq!((e.kind, e.at.as_str()), (Kind::Number, "/a/b"));
    }

    /// Clinger's fast path gives `str::parse`'s value, bit for bit, on decimals of up to 15
    /// digits (every split of the digits around the point, leading and trailing zeros, both
    /// signs), and declines longer ones; through the reader too.
    #[test]
    fn short_decimals_are_parsed_as_the_standard_library_parses_them() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut cases: Vec<String> =
            ["0.0", "0.1", "0.000000000000001", "999999999999999.9", "99999999999999.9", "1.5", "0.30000000000000"]
                .iter()
                .map(|s| s.to_string())
                .collect();
        for _ in 0..20_000 {
            let total = 2 + (next() % 15) as usize;
            let point = 1 + (next() % (total as u64 - 1)) as usize;
            let digits: String = (0..total).map(|_| char::from(b'0' + (next() % 10) as u8)).collect();
            let (int, frac) = digits.split_at(point);
            let int = int.trim_start_matches('0');
            cases.push(format!("{}.{frac}", if int.is_empty() { "0" } else { int }));
        }
        let mut fast = 0;
        for case in &cases {
            let (int, frac) = case.split_once('.').unwrap();
            let expected: f64 = case.parse().unwrap();
            match short_decimal(case.as_bytes(), frac.len()) {
                Some(x) => {
                    fast += 1;
                    assert_eq!(x.to_bits(), expected.to_bits(), "{case}");
                }
                None => assert!(int.len() + frac.len() > 15, "{case} declined"),
            }
            for sign in ["", "-"] {
                let v = parse_line(&format!("{{\"x\": {sign}{case}}}")).unwrap();
                let want: f64 = format!("{sign}{case}").parse().unwrap();
                assert_eq!(v["x"].as_f64().unwrap().to_bits(), want.to_bits(), "{sign}{case}");
            }
        }
        assert!(fast > 15_000, "{fast} of {} took the fast path", cases.len());
    }
}
