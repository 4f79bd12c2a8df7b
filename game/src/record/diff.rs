//! The first difference between two JSON values, named by its path (`events[2].seat`).

use serde_json::Value;

/// A difference: where, what was expected there, what was found (`None`: nothing there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    pub path: String,
    pub expected: Option<String>,
    pub found: Option<String>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let show = |v: &Option<String>| v.clone().unwrap_or_else(|| "nothing".into());
        write!(
            f,
            "{}: expected {}, found {}",
            if self.path.is_empty() {
                "."
            } else {
                &self.path
            },
            show(&self.expected),
            show(&self.found)
        )
    }
}

/// The first place where `found` differs from `expected`, in document order of `expected`
/// (object keys in sorted order, then keys only `found` has), except for the keys of
/// [`FIRST_KEYS`], compared before the others: two events of different types differ in their
/// `type`, not in a field one has and the other lacks, and a line about another turn differs in
/// its `turn`, not in the dice that follow from it.
pub fn first_difference(expected: &Value, found: &Value) -> Option<Difference> {
    // Equal values are the rule: compare first, build paths only on the way to a difference.
    if expected == found {
        return None;
    }
    walk(expected, found, String::new())
}

/// Keys compared first, in this order: what kind of object it is (a line's or an event's `type`,
/// an outcome's `result`), then which turn, round and seat it is about.
const FIRST_KEYS: [&str; 5] = ["type", "result", "turn", "round", "seat"];

fn join_key(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn walk(expected: &Value, found: &Value, path: String) -> Option<Difference> {
    match (expected, found) {
        (Value::Object(e), Value::Object(f)) => {
            for tag in FIRST_KEYS {
                let (et, ft) = (e.get(tag), f.get(tag));
                if (et.is_some() || ft.is_some()) && et != ft {
                    return Some(Difference {
                        path: join_key(&path, tag),
                        expected: et.map(Value::to_string),
                        found: ft.map(Value::to_string),
                    });
                }
            }
            for (k, ev) in e {
                match f.get(k) {
                    Some(fv) if fv == ev => {}
                    Some(fv) => {
                        if let Some(d) = walk(ev, fv, join_key(&path, k)) {
                            return Some(d);
                        }
                    }
                    None => {
                        return Some(Difference {
                            path: join_key(&path, k),
                            expected: Some(ev.to_string()),
                            found: None,
                        })
                    }
                }
            }
            f.iter()
                .find(|(k, _)| !e.contains_key(*k))
                .map(|(k, fv)| Difference {
                    path: join_key(&path, k),
                    expected: None,
                    found: Some(fv.to_string()),
                })
        }
        (Value::Array(e), Value::Array(f)) => {
            for (i, ev) in e.iter().enumerate() {
                match f.get(i) {
                    Some(fv) if fv == ev => {}
                    Some(fv) => {
                        if let Some(d) = walk(ev, fv, format!("{path}[{i}]")) {
                            return Some(d);
                        }
                    }
                    None => {
                        return Some(Difference {
                            path: format!("{path}[{i}]"),
                            expected: Some(ev.to_string()),
                            found: None,
                        })
                    }
                }
            }
            f.get(e.len()).map(|fv| Difference {
                path: format!("{path}[{}]", e.len()),
                expected: None,
                found: Some(fv.to_string()),
            })
        }
        (e, f) if e == f => None,
        (e, f) => Some(Difference {
            path,
            expected: Some(e.to_string()),
            found: Some(f.to_string()),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_the_path_of_the_first_difference() {
        let e = json!({"events":[{"type":"bred"},{"animals":{"sheep":3}}]});
        let f = json!({"events":[{"type":"bred"},{"animals":{"sheep":4}}]});
        let d = first_difference(&e, &f).unwrap();
        assert_eq!(
            d.to_string(),
            "events[1].animals.sheep: expected 3, found 4"
        );
    }

    #[test]
    fn missing_and_extra_fields_and_elements() {
        let d = first_difference(&json!({"a":1,"b":2}), &json!({"a":1})).unwrap();
        assert_eq!(d.to_string(), "b: expected 2, found nothing");
        let d = first_difference(&json!({"a":1}), &json!({"a":1,"z":0})).unwrap();
        assert_eq!(d.to_string(), "z: expected nothing, found 0");
        let d = first_difference(&json!([1]), &json!([1, 2])).unwrap();
        assert_eq!(d.to_string(), "[1]: expected nothing, found 2");
        assert_eq!(first_difference(&json!({"a":[1]}), &json!({"a":[1]})), None);
    }

    #[test]
    fn objects_of_different_kinds_differ_in_their_kind() {
        let e = json!({"events":[{"type":"rolled","seat":0},{"type":"bred","seat":0,"gained":{"rabbit":1}}]});
        let f = json!({"events":[{"type":"rolled","seat":0},{"type":"fox","seat":0,"lost":{"rabbit":1}}]});
        let d = first_difference(&e, &f).unwrap();
        assert_eq!(
            d.to_string(),
            "events[1].type: expected \"bred\", found \"fox\""
        );
        let d = first_difference(
            &json!({"outcome":{"result":"win","seat":1,"last_standing":false}}),
            &json!({"outcome":{"result":"draw","round_cap":true}}),
        )
        .unwrap();
        assert_eq!(
            d.to_string(),
            "outcome.result: expected \"win\", found \"draw\""
        );
        let d = first_difference(&json!({"type":"turn","turn":3}), &json!({"turn":3})).unwrap();
        assert_eq!(d.to_string(), "type: expected \"turn\", found nothing");
        // A line about another turn: its turn number, not the dice that follow from it.
        let d = first_difference(
            &json!({"type":"turn","turn":2,"seat":1,"answer":null,"events":[{"type":"rolled","seat":1}]}),
            &json!({"type":"turn","turn":1,"seat":0,"answer":null,"events":[{"type":"rolled","seat":0}]}),
        )
        .unwrap();
        assert_eq!(d.to_string(), "turn: expected 2, found 1");
    }
}
