//! Reading a query line: JSON, with every object's keys distinct.
//!
//! serde_json keeps the last of two equal keys; a query with a repeated field would then be
//! answered for a value its author may not have meant, so a repeated key is refused like a
//! misspelt one, with the JSON pointer of the repetition.

use std::cell::RefCell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{Kind, QueryError};
use crate::input::child;

/// The key under which serde_json (feature `arbitrary_precision`) passes a number's text.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Parse one line: a JSON value whose objects have distinct keys (one pass: the value is
/// built by a visitor that refuses a repeated key; only then is the line walked again to name
/// the repetition's path).
pub fn parse_line(line: &str) -> Result<Value, QueryError> {
    let mut de = serde_json::Deserializer::from_str(line);
    let parsed = Build.deserialize(&mut de).and_then(|v| de.end().map(|()| v));
    parsed.map_err(|e| {
        let repeated = RefCell::new(None);
        let mut de = serde_json::Deserializer::from_str(line);
        let _ = Find { path: String::new(), repeated: &repeated }.deserialize(&mut de);
        match repeated.into_inner() {
            Some((path, key)) => {
                QueryError::new(Kind::Json, &path, format!("the key {key:?} is repeated in one object"))
            }
            None => QueryError::new(Kind::Json, "", format!("not valid JSON: {e}")),
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
            if key == NUMBER_TOKEN {
                // serde_json's way of passing a number's text (feature arbitrary_precision).
                let text: String = map.next_value()?;
                let n = text.parse::<serde_json::Number>().map_err(serde::de::Error::custom)?;
                return Ok(Value::Number(n));
            }
            if out.contains_key(&key) {
                return Err(serde::de::Error::custom("repeated key"));
            }
            let v = map.next_value_seed(Build)?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// Walks a value, recording the first repeated key (its path and name).
struct Find<'a> {
    path: String,
    repeated: &'a RefCell<Option<(String, String)>>,
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
        while seq.next_element_seed(Find { path: child(&self.path, i), repeated: self.repeated })?.is_some() {
            i += 1;
        }
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = std::collections::HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if key == NUMBER_TOKEN {
                map.next_value::<serde::de::IgnoredAny>()?;
                continue;
            }
            let path = child(&self.path, &key);
            if !seen.insert(key.clone()) {
                *self.repeated.borrow_mut() = Some((path, key));
                return Err(serde::de::Error::custom("repeated key"));
            }
            map.next_value_seed(Find { path, repeated: self.repeated })?;
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
            parse_line(r#"{"a": 1e400, "b": [1, 2.5, -3, 123456789012345678901234567890], "c": {"d": null}}"#).is_ok()
        );
        assert_eq!(parse_line("[1,").unwrap_err().kind, Kind::Json);
    }
}
