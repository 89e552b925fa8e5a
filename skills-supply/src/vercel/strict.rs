//! JSON read as `serde_json` reads it into a [`Value`], except that a key
//! repeated in an object is an error naming it: `serde_json`'s `Value`
//! keeps the last, as JavaScript's `JSON.parse` does, so a lock holding a
//! skill twice would be read as the second while a reviewer reads the
//! first.

use std::cell::RefCell;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Parses `bytes` as one JSON document; on a repeated key, the error is
/// `serde_json`'s (with its line and column) and the key is in `repeated`.
pub(super) fn from_slice(
    bytes: &[u8],
    repeated: &RefCell<Option<String>>,
) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value = Strict { repeated }.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// A [`Value`] that refuses repeated keys; `repeated` gets the key.
#[derive(Clone, Copy)]
struct Strict<'a> {
    repeated: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
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
        // JSON has no NaN or infinity: a finite number always converts.
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

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(self)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(self)?;
            if members.contains_key(&key) {
                let e = de::Error::custom(format_args!("`{key}` appears twice in one object"));
                *self.repeated.borrow_mut() = Some(key);
                return Err(e);
            }
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}
