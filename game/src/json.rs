//! A JSON value that borrows its strings from the text it was parsed from, and otherwise behaves
//! exactly as `serde_json::Value` (without the `preserve_order` feature) does: objects keep their
//! keys sorted, numbers are `serde_json::Number`s
//! (`-0` and fractions are floats), and serializing gives the very bytes `Value` would. Unlike
//! `Value`, which keeps the last of two equal keys, it refuses an object that names a key twice,
//! as RECORDS.md asks of every reader of records.
//!
//! The report used to parse every record line into `Value`, copy each turn's map, and serialize it
//! again; the B-tree nodes and the copied keys were most of the report's time. This type keeps the
//! report's output byte for byte while allocating one vector per array or object, and none per
//! string that has no escape.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Number;

#[derive(Clone, Debug, PartialEq)]
pub enum Json<'a> {
    Null,
    Bool(bool),
    Number(Number),
    String(Cow<'a, str>),
    Array(Vec<Json<'a>>),
    Object(Object<'a>),
}

/// An object's entries, sorted by key (byte order, as a `BTreeMap<String, _>`), keys unique.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Object<'a> {
    entries: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'a> Json<'a> {
    /// The value of `key` when this is an object that has it (as `Value::get`).
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        match self {
            Json::Object(o) => o.get(key),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Json::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(o) => Some(o),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}

impl<'a> Object<'a> {
    /// Sorts `entries` by key; `Err` names a key given twice.
    fn from_entries(mut entries: Vec<(Cow<'a, str>, Json<'a>)>) -> Result<Object<'a>, String> {
        // Records the arena writes are already sorted or small.
        if !entries.is_sorted_by(|a, b| a.0 < b.0) {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            if let Some(pair) = entries.windows(2).find(|w| w[0].0 == w[1].0) {
                return Err(pair[0].0.clone().into_owned());
            }
        }
        Ok(Object { entries })
    }

    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.entries
            .binary_search_by(|(k, _)| k.as_ref().cmp(key))
            .ok()
            .map(|i| &self.entries[i].1)
    }

    /// Entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.entries.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// Serializes this object without the key `drop` and with the entries of `set` added
    /// (replacing any of the same key): what `Map::remove` and `Map::insert` on a `Value` and then
    /// serializing would give. `set` must be sorted by key.
    pub fn serialize_edited<S, V>(
        &self,
        serializer: S,
        drop: &str,
        set: &[(&str, V)],
    ) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        V: Serialize,
    {
        debug_assert!(set.is_sorted_by(|a, b| a.0 < b.0), "set is sorted");
        let mut map = serializer.serialize_map(None)?;
        let mut set = set.iter().peekable();
        for (key, value) in self.iter() {
            while let Some((k, v)) = set.next_if(|(k, _)| *k < key) {
                map.serialize_entry(k, v)?;
            }
            if set.peek().is_some_and(|(k, _)| *k == key) || key == drop {
                continue;
            }
            map.serialize_entry(key, value)?;
        }
        for (k, v) in set {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Serialize for Json<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(a) => serializer.collect_seq(a),
            Json::Object(o) => o.serialize(serializer),
        }
    }
}

impl Serialize for Object<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.iter())
    }
}

/// Compact JSON, as `Value`'s `Display`: error messages quote record values this way.
impl fmt::Display for Json<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let text = serde_json::to_string(self).map_err(|_| fmt::Error)?;
        f.write_str(&text)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Json<'de>, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

/// `serde_json::Value`'s visitor, with borrowed strings.
struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any valid JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Json<'de>, E> {
        Ok(Json::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Json<'de>, E> {
        Ok(Json::Number(n.into()))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Json<'de>, E> {
        Ok(Number::from_f64(n).map_or(Json::Null, Json::Number))
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Json<'de>, E> {
        Ok(Json::String(Cow::Owned(s)))
    }

    fn visit_unit<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_none<E>(self) -> Result<Json<'de>, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Json<'de>, D::Error> {
        Json::deserialize(d)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json<'de>, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json<'de>, A::Error> {
        let mut entries = Vec::new();
        while let Some((Key(key), value)) = map.next_entry()? {
            entries.push((key, value));
        }
        Object::from_entries(entries)
            .map(Json::Object)
            .map_err(|key| serde::de::Error::custom(format!("key `{key}` given twice")))
    }
}

/// An object key, borrowed when it has no escape.
struct Key<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Key<'de>, D::Error> {
        deserializer.deserialize_str(KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a string key")
    }

    fn visit_borrowed_str<E>(self, s: &'de str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Borrowed(s)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Key<'de>, E> {
        Ok(Key(Cow::Owned(s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_given_twice_is_refused() {
        let ok: Json = serde_json::from_str(r#"{"b":1,"a":{"y":2,"x":3}}"#).unwrap();
        assert_eq!(
            ok.get("a").and_then(|a| a.get("x")).and_then(Json::as_u64),
            Some(3)
        );
        for text in [
            r#"{"outcome":1,"outcome":2}"#,
            r#"{"final":{"stock":{"rabbit":0,"sheep":1,"rabbit":54}}}"#,
        ] {
            let e = serde_json::from_str::<Json>(text).unwrap_err().to_string();
            assert!(e.contains("given twice"), "{text}: {e}");
        }
    }
}
