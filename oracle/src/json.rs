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

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{Kind, QueryError};
use crate::input::child;

/// Parse one line: a JSON value whose objects have distinct keys (one pass: the value is
/// built by a visitor that refuses a repeated key; only then is the line walked again to name
/// the repetition's path).
pub fn parse_line(line: &str) -> Result<Value, QueryError> {
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

/// Builds a value, refusing a repeated key.
struct Build;

impl<'de> DeserializeSeed<'de> for Build {
    type Value = Value;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Build {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::from(i))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Value, E> {
        Ok(Value::from(u))
    }
    fn visit_f64<E: serde::de::Error>(self, x: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(x).map(Value::Number).ok_or_else(|| E::custom("not a finite number"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(v) = seq.next_element_seed(Build)? {
            out.push(v);
        }
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom("repeated key"));
            }
            let v = map.next_value_seed(Build)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
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
}
