//! A JSON value whose objects keep their keys in the order written (the
//! JSON and SARIF reports and the clients' view), written by `serde_json`.

use std::io::{self, Write};

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

/// A JSON document whose objects keep their keys in the order written.
#[derive(Debug)]
pub(super) enum Ordered {
    /// A scalar (or any `serde_json` value).
    Value(Value),
    /// An array.
    Array(Vec<Ordered>),
    /// An object, keys in order.
    Object(Vec<(&'static str, Ordered)>),
}

/// A scalar.
pub(super) fn val(value: impl Into<Value>) -> Ordered {
    Ordered::Value(value.into())
}

/// An object with these keys, in this order.
pub(super) fn object<const N: usize>(fields: [(&'static str, Ordered); N]) -> Ordered {
    Ordered::Object(fields.into())
}

/// Writes `doc` as `serde_json::to_writer_pretty` does, then a newline.
pub(super) fn write_pretty(out: &mut dyn Write, doc: &Ordered) -> io::Result<()> {
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer_pretty(&mut out, doc)?;
    out.write_all(b"\n")?;
    out.flush()
}

impl Serialize for Ordered {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Ordered::Value(value) => value.serialize(s),
            Ordered::Array(items) => s.collect_seq(items),
            Ordered::Object(fields) => {
                let mut map = s.serialize_map(Some(fields.len()))?;
                for (key, value) in fields {
                    map.serialize_entry(key, value)?;
                }
                map.end()
            }
        }
    }
}
