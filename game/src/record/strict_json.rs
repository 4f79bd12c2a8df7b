//! Strict JSON, for records and the league journal. `serde_json` keeps the last of two equal keys
//! of an object without a word; RECORDS.md says a reader refuses a name given twice, so a line is
//! parsed here into a `serde_json::Value` that refuses duplicate keys, naming where. The number of
//! values a line may hold is bounded too, so that the parsed tree of one line stays within a known
//! size whatever the line (a `Value` takes up to about twenty times the bytes of its text).

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Why a line is not strict JSON.
#[derive(Debug)]
pub enum StrictError {
    /// Not JSON at all (serde_json's message, with its column).
    Syntax(serde_json::Error),
    /// An object names `key` twice; `path` is where the object is (`""` for the line itself).
    Duplicate { path: String, key: String },
    /// More than `max` values (scalars, arrays, objects and keys) in one line.
    TooManyValues { max: usize },
}

impl fmt::Display for StrictError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            StrictError::Syntax(e) => write!(f, "not JSON: {e}"),
            StrictError::Duplicate { path, key } if path.is_empty() => {
                write!(f, "key `{key}` given twice")
            }
            StrictError::Duplicate { path, key } => write!(f, "{path}: key `{key}` given twice"),
            StrictError::TooManyValues { max } => {
                write!(f, "more than {max} JSON values in one line")
            }
        }
    }
}

impl std::error::Error for StrictError {}

/// Parses `text` (one JSON value, whitespace around it allowed) with at most `max_values`
/// values, refusing duplicate keys.
pub fn parse(text: &str, max_values: usize) -> Result<Value, StrictError> {
    let state = RefCell::new(State {
        values: 0,
        max_values,
        path: Vec::new(),
        problem: None,
    });
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Node { state: &state }
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|()| v));
    match (parsed, state.into_inner().problem) {
        (_, Some(problem)) => Err(problem),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => Err(StrictError::Syntax(e)),
    }
}

struct State {
    values: usize,
    max_values: usize,
    path: Vec<Segment>,
    problem: Option<StrictError>,
}

enum Segment {
    Key(String),
    Index(usize),
}

impl State {
    fn count<E: de::Error>(&mut self) -> Result<(), E> {
        self.values += 1;
        if self.values > self.max_values {
            self.problem = Some(StrictError::TooManyValues {
                max: self.max_values,
            });
            return Err(E::custom("too many values"));
        }
        Ok(())
    }

    fn path_text(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            match seg {
                Segment::Key(k) => {
                    if !s.is_empty() {
                        s.push('.');
                    }
                    s.push_str(k);
                }
                Segment::Index(i) => s.push_str(&format!("[{i}]")),
            }
        }
        s
    }
}

/// One value of the tree being built; shares the counter and the path with its parent.
#[derive(Clone, Copy)]
struct Node<'s> {
    state: &'s RefCell<State>,
}

impl<'de> DeserializeSeed<'de> for Node<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.state.borrow_mut().count()?;
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Node<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        loop {
            self.state.borrow_mut().path.push(Segment::Index(out.len()));
            let next = seq.next_element_seed(self);
            self.state.borrow_mut().path.pop();
            match next? {
                Some(v) => out.push(v),
                None => return Ok(Value::Array(out)),
            }
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let mut state = self.state.borrow_mut();
            state.count()?;
            if out.contains_key(&key) {
                state.problem = Some(StrictError::Duplicate {
                    path: state.path_text(),
                    key,
                });
                return Err(de::Error::custom("duplicate key"));
            }
            state.path.push(Segment::Key(key));
            drop(state);
            let value = map.next_value_seed(self);
            let Some(Segment::Key(key)) = self.state.borrow_mut().path.pop() else {
                unreachable!("the key pushed above")
            };
            out.insert(key, value?);
        }
        Ok(Value::Object(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_what_serde_json_parses() {
        let text = r#" {"a":[1,-2,3.5,null,true,"x\n"],"b":{"c":{}},"d":[]} "#;
        assert_eq!(
            parse(text, 100).unwrap(),
            serde_json::from_str::<Value>(text).unwrap()
        );
        assert_eq!(parse("18446744073709551615", 1).unwrap(), json!(u64::MAX));
    }

    #[test]
    fn refuses_a_key_given_twice_and_says_where() {
        let e = parse(r#"{"outcome":1,"outcome":2}"#, 100).unwrap_err();
        assert_eq!(e.to_string(), "key `outcome` given twice");
        let e = parse(r#"{"final":{"herds":[{},{"rabbit":0,"rabbit":54}]}}"#, 100).unwrap_err();
        assert_eq!(e.to_string(), "final.herds[1]: key `rabbit` given twice");
        // serde_json alone keeps the last one.
        let lax: Value = serde_json::from_str(r#"{"rabbit":0,"rabbit":54}"#).unwrap();
        assert_eq!(lax, json!({"rabbit": 54}));
    }

    #[test]
    fn counts_values_and_stops_at_the_limit() {
        assert!(parse("[1,2,3]", 4).is_ok());
        let e = parse("[1,2,3,4]", 4).unwrap_err();
        assert!(matches!(e, StrictError::TooManyValues { max: 4 }), "{e}");
        // A key counts as a value.
        assert!(parse(r#"{"a":1}"#, 2).is_err());
        assert!(parse(r#"{"a":1}"#, 3).is_ok());
    }

    #[test]
    fn syntax_errors_and_trailing_text_are_not_json() {
        for bad in ["", "{", "[1,]", "{} {}", "nul"] {
            let e = parse(bad, 100).unwrap_err();
            assert!(matches!(e, StrictError::Syntax(_)), "{bad}: {e}");
            assert!(e.to_string().starts_with("not JSON: "), "{e}");
        }
    }
}
