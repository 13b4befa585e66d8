//! Reading JSON as the engine's field types with serde_json's own messages, but without serde's
//! typed visitors: each of those reaches `serde_json::Error::invalid_type`, whose text goes
//! through serde's `Unexpected` `Display`, and that one function keeps core's float printing
//! (its Grisu, Dragon and bignum code, about 20 KB of engine wasm) for its float arm. Here the
//! same texts are written directly; a float is written with zmij, as serde_json's own
//! `JsonUnexpected` writes it ("floating point `1.5`", "`2.0`", "`1e+21`"). Errors are still
//! `serde_json::Error`s (`Error::custom`, `missing_field`, `unknown_variant`, `invalid_length`,
//! none of which prints an `Unexpected`).
//!
//! Two ways in: [`Field::read`] from a `Value` (the project, the asset and sticker options), and
//! [`Expect`] for the few types read straight from JSON text (`Transform`, `ProviderReport`), a
//! `deserialize_any` visitor, so serde_json's parser never takes its typed paths either.

use serde::de::{self, Error as _, Visitor};
use serde_json::{Error, Map, Value};
use smol_str::SmolStr;

pub type Result<T> = std::result::Result<T, Error>;

/// What serde_json's error calls a value (`JsonUnexpected`).
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => format!("integer `{u}`"),
            (None, Some(i)) => format!("integer `{i}`"),
            _ => float(n.as_f64().unwrap_or(f64::NAN)),
        },
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".into(),
        Value::Object(_) => "map".into(),
    }
}

fn float(f: f64) -> String {
    format!("floating point `{}`", zmij::Buffer::new().format(f))
}

/// "invalid type: …, expected …", as `serde_json::from_value` writes it.
#[cold]
pub fn invalid_type(v: &Value, expected: &str) -> Error {
    Error::custom(format_args!("invalid type: {}, expected {expected}", unexpected(v)))
}

#[cold]
fn invalid_value(v: &Value, expected: &str) -> Error {
    Error::custom(format_args!("invalid value: {}, expected {expected}", unexpected(v)))
}

/// A type read from a JSON value as its `Deserialize` reads it from `serde_json::Value`.
pub trait Field: Sized {
    fn read(v: Value) -> Result<Self>;
}

impl Field for Value {
    fn read(v: Value) -> Result<Value> {
        Ok(v)
    }
}

impl Field for String {
    fn read(v: Value) -> Result<String> {
        match v {
            Value::String(s) => Ok(s),
            other => Err(invalid_type(&other, "a string")),
        }
    }
}

impl Field for SmolStr {
    fn read(v: Value) -> Result<SmolStr> {
        String::read(v).map(SmolStr::from)
    }
}

impl Field for bool {
    fn read(v: Value) -> Result<bool> {
        match v {
            Value::Bool(b) => Ok(b),
            other => Err(invalid_type(&other, "a boolean")),
        }
    }
}

impl Field for f64 {
    fn read(v: Value) -> Result<f64> {
        match v.as_f64() {
            Some(f) => Ok(f),
            None => Err(invalid_type(&v, "f64")),
        }
    }
}

/// An integer in `[min, max]`: serde's integer visitors take any JSON integer, call one out of
/// range an invalid value and a float an invalid type.
fn integer(v: &Value, min: i128, max: i128, name: &str) -> Result<i128> {
    let n = match v {
        Value::Number(n) => n,
        other => return Err(invalid_type(other, name)),
    };
    let i = match (n.as_u64(), n.as_i64()) {
        (Some(u), _) => i128::from(u),
        (None, Some(i)) => i128::from(i),
        _ => return Err(invalid_type(v, name)),
    };
    if (min..=max).contains(&i) {
        Ok(i)
    } else {
        Err(invalid_value(v, name))
    }
}

impl Field for u32 {
    fn read(v: Value) -> Result<u32> {
        integer(&v, 0, u32::MAX.into(), "u32").map(|i| i as u32)
    }
}

impl Field for u64 {
    fn read(v: Value) -> Result<u64> {
        integer(&v, 0, u64::MAX.into(), "u64").map(|i| i as u64)
    }
}

impl Field for i64 {
    fn read(v: Value) -> Result<i64> {
        integer(&v, i64::MIN.into(), i64::MAX.into(), "i64").map(|i| i as i64)
    }
}

impl<T: Field> Field for Option<T> {
    fn read(v: Value) -> Result<Option<T>> {
        match v {
            Value::Null => Ok(None),
            v => T::read(v).map(Some),
        }
    }
}

impl Field for Map<String, Value> {
    fn read(v: Value) -> Result<Map<String, Value>> {
        match v {
            Value::Object(m) => Ok(m),
            other => Err(invalid_type(&other, "a map")),
        }
    }
}

/// A struct of two `u32` fields as serde's derive reads it from a value: an object (other keys
/// ignored) or an array of two, `expecting` naming it ("struct FrameRate").
pub fn u32_pair(v: Value, expecting: &'static str, names: [&'static str; 2]) -> Result<(u32, u32)> {
    match v {
        Value::Array(items) => {
            let len = items.len();
            let mut items = items.into_iter();
            let with = |i| Error::invalid_length(i, &format!("{expecting} with 2 elements").as_str());
            let a = u32::read(items.next().ok_or_else(|| with(0))?)?;
            let b = u32::read(items.next().ok_or_else(|| with(1))?)?;
            if len > 2 {
                return Err(Error::invalid_length(len, &"fewer elements in array"));
            }
            Ok((a, b))
        }
        Value::Object(map) => {
            let (mut a, mut b) = (None, None);
            for (key, v) in map {
                if key == names[0] {
                    a = Some(u32::read(v)?);
                } else if key == names[1] {
                    b = Some(u32::read(v)?);
                }
            }
            Ok((a.ok_or_else(|| Error::missing_field(names[0]))?, b.ok_or_else(|| Error::missing_field(names[1]))?))
        }
        other => Err(invalid_type(&other, expecting)),
    }
}

/// A unit-only enum as serde's derive reads it from a value: its name as a string, or an object
/// of one key, the name, whose value is `null`. The index of the name in `variants`.
pub fn variant(v: Value, variants: &'static [&'static str]) -> Result<usize> {
    let (name, value) = match v {
        Value::String(s) => (s, None),
        Value::Object(map) => {
            if map.len() != 1 {
                return Err(Error::custom("invalid value: map, expected map with a single key"));
            }
            let Some((k, v)) = map.into_iter().next() else { unreachable!("one key") };
            (k, Some(v))
        }
        other => return Err(invalid_type(&other, "string or map")),
    };
    let i = variants.iter().position(|n| *n == name).ok_or_else(|| Error::unknown_variant(&name, variants))?;
    match value {
        None | Some(Value::Null) => Ok(i),
        Some(other) => Err(invalid_type(&other, "unit")),
    }
}

impl Field for crate::time::FrameRate {
    fn read(v: Value) -> Result<Self> {
        let (numerator, denominator) = u32_pair(v, "struct FrameRate", ["numerator", "denominator"])?;
        Ok(crate::time::FrameRate { numerator, denominator })
    }
}

impl Field for super::Canvas {
    fn read(v: Value) -> Result<Self> {
        let (width, height) = u32_pair(v, "struct Canvas", ["width", "height"])?;
        Ok(super::Canvas { width, height })
    }
}

impl Field for super::AssetType {
    fn read(v: Value) -> Result<Self> {
        use super::AssetType::*;
        Ok([Video, Audio, Image][variant(v, &["video", "audio", "image"])?])
    }
}

impl Field for super::TrackType {
    fn read(v: Value) -> Result<Self> {
        use super::TrackType::*;
        Ok([Main, Overlay, Text, Effect, Audio][variant(v, &["main", "overlay", "text", "effect", "audio"])?])
    }
}

impl Field for super::ElementType {
    fn read(v: Value) -> Result<Self> {
        use super::ElementType::*;
        Ok([Video, Image, Audio, Text, Sticker, Graphic, Effect][variant(v, &["video", "image", "audio", "text", "sticker", "graphic", "effect"])?])
    }
}

impl Field for crate::animation::Animations {
    fn read(v: Value) -> Result<Self> {
        Map::read(v).map(crate::animation::Animations::from_json)
    }
}

/// A scalar field read from JSON text by [`Expect`].
#[derive(Debug, PartialEq)]
pub enum Scalar {
    Null,
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Str(String),
}

impl Scalar {
    /// What serde_json's error calls it.
    fn describe(&self) -> String {
        match self {
            Scalar::Null => "null".into(),
            Scalar::Bool(b) => format!("boolean `{b}`"),
            Scalar::U64(u) => format!("integer `{u}`"),
            Scalar::I64(i) => format!("integer `{i}`"),
            Scalar::F64(f) => float(*f),
            Scalar::Str(s) => format!("string {s:?}"),
        }
    }

    /// The number [`F64`] or [`OPTION_F64`] took, as serde's `f64` reads it (`None` for `null`).
    pub fn number(self) -> Option<f64> {
        match self {
            Scalar::U64(u) => Some(u as f64),
            Scalar::I64(i) => Some(i as f64),
            Scalar::F64(f) => Some(f),
            _ => None,
        }
    }

    /// The string [`STRING`], [`OPTION_STRING`] or an enum's [`Expect`] took (`None` for `null`).
    pub fn text(self) -> Option<String> {
        match self {
            Scalar::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// What one field of JSON text may be, as a serde seed: a `deserialize_any` visitor, so
/// serde_json's parser visits the value as it finds it and the error is written here, as its
/// typed path writes it (the parser adds the position). One visitor for every field type, so the
/// parser's dispatch is in the wasm once. One difference from the typed path: an array or an
/// object where a scalar was expected is reported after its opening bracket, where the typed
/// path reports it before (one column on; two for an empty one).
#[derive(Clone, Copy)]
pub struct Expect {
    /// serde's name of the type ("f64", "a string").
    name: &'static str,
    accept: fn(&Scalar) -> bool,
    /// A unit-only enum's names (empty for any other type): its name, or an object of one key,
    /// the name, whose value is `null`; anything else is "expected value", as the parser's
    /// `deserialize_enum` says (at the end of the value, where the parser says at its start).
    variants: &'static [&'static str],
}

fn is_number(s: &Scalar) -> bool {
    matches!(s, Scalar::U64(_) | Scalar::I64(_) | Scalar::F64(_))
}

fn is_str(s: &Scalar) -> bool {
    matches!(s, Scalar::Str(_))
}

pub const F64: Expect = Expect { name: "f64", accept: is_number, variants: &[] };
pub const STRING: Expect = Expect { name: "a string", accept: is_str, variants: &[] };
/// `Option<f64>`: `null` is `None`, as serde reads an option (the parser's `deserialize_option`).
pub const OPTION_F64: Expect = Expect { name: "f64", accept: |s| *s == Scalar::Null || is_number(s), variants: &[] };
pub const OPTION_STRING: Expect = Expect { name: "a string", accept: |s| *s == Scalar::Null || is_str(s), variants: &[] };
const UNIT: Expect = Expect { name: "unit", accept: |s| *s == Scalar::Null, variants: &[] };

impl Expect {
    /// A unit-only enum of these names (serde's `rename_all` applied); reads as [`Scalar::Str`].
    pub const fn variants(names: &'static [&'static str]) -> Expect {
        Expect { name: "", accept: is_str, variants: names }
    }

    fn take<E: de::Error>(self, s: Scalar) -> std::result::Result<Scalar, E> {
        if !self.variants.is_empty() {
            return match s {
                Scalar::Str(name) => self.variant(name),
                _ => Err(E::custom("expected value")),
            };
        }
        if (self.accept)(&s) {
            Ok(s)
        } else {
            Err(E::custom(format_args!("invalid type: {}, expected {}", s.describe(), self.name)))
        }
    }

    fn variant<E: de::Error>(self, name: String) -> std::result::Result<Scalar, E> {
        match self.variants.contains(&name.as_str()) {
            true => Ok(Scalar::Str(name)),
            false => Err(E::unknown_variant(&name, self.variants)),
        }
    }

    fn not_scalar<E: de::Error>(self, what: &str) -> E {
        match self.variants.is_empty() {
            true => E::custom(format_args!("invalid type: {what}, expected {}", self.name)),
            false => E::custom("expected value"),
        }
    }
}

impl<'de> de::DeserializeSeed<'de> for Expect {
    type Value = Scalar;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Scalar, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Expect {
    type Value = Scalar;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(self.name)
    }

    fn visit_unit<E: de::Error>(self) -> std::result::Result<Scalar, E> {
        self.take(Scalar::Null)
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> std::result::Result<Scalar, E> {
        self.take(Scalar::Bool(b))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> std::result::Result<Scalar, E> {
        self.take(Scalar::U64(u))
    }

    fn visit_i64<E: de::Error>(self, i: i64) -> std::result::Result<Scalar, E> {
        self.take(Scalar::I64(i))
    }

    fn visit_f64<E: de::Error>(self, f: f64) -> std::result::Result<Scalar, E> {
        self.take(Scalar::F64(f))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<Scalar, E> {
        self.take(Scalar::Str(s.to_owned()))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> std::result::Result<Scalar, A::Error> {
        Err(self.not_scalar("sequence"))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> std::result::Result<Scalar, A::Error> {
        if self.variants.is_empty() {
            return Err(self.not_scalar("map"));
        }
        // The enum's one-key form: the name, then `null`, then the end of the object.
        let Some(name) = map.next_key_seed(STRING)?.and_then(Scalar::text) else { return Err(de::Error::custom("expected value")) };
        let name = self.variant(name)?;
        map.next_value_seed(UNIT)?;
        match map.next_key_seed(STRING)? {
            None => Ok(name),
            Some(_) => Err(de::Error::custom("expected value")),
        }
    }
}

/// The `visit_*` methods of a struct's visitor for a value that is neither an object nor an
/// array: serde's "invalid type: …, expected struct X", the type named by `expecting`.
macro_rules! not_a_struct {
    () => {
        fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: null, expected {}", self.0)))
        }
        fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: boolean `{b}`, expected {}", self.0)))
        }
        fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: integer `{u}`, expected {}", self.0)))
        }
        fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: integer `{i}`, expected {}", self.0)))
        }
        fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: floating point `{}`, expected {}", zmij::Buffer::new().format(f), self.0)))
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
            Err(E::custom(format_args!("invalid type: string {s:?}, expected {}", self.0)))
        }
    };
}
pub(crate) use not_a_struct;

/// `serde_json::from_str` with a seed: the value, then nothing but whitespace.
pub fn from_text<'de, S: de::DeserializeSeed<'de>>(text: &'de str, seed: S) -> Result<S::Value> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

// Native only: the derives they stand in for are the reference.
#[cfg(all(test, not(target_arch = "wasm32")))]
pub(crate) mod tests {
    use super::*;
    use serde::de::DeserializeOwned;
    use serde_json::json;
    use std::fmt::Debug;

    fn values() -> Vec<Value> {
        let texts = [
            "null",
            "true",
            "false",
            "0",
            "1",
            "-1",
            "-0",
            "4294967295",
            "4294967296",
            "-9223372036854775808",
            "9223372036854775808",
            "18446744073709551615",
            "18446744073709551616",
            "1.5",
            "-0.0",
            "2.0",
            "1e21",
            "1e300",
            "5e-324",
            "\"\"",
            "\"x\"",
            "\"video\"",
            "\"q\\\"\\n\\u00e9\"",
            "[]",
            "[1]",
            "[30, 1]",
            "[30, 1, 2]",
            "[\"a\", 1]",
            "[1, -1]",
            "{}",
            "{\"numerator\": 30, \"denominator\": 1}",
            "{\"numerator\": 30}",
            "{\"denominator\": 1.5, \"numerator\": 2}",
            "{\"width\": 2, \"height\": 3, \"x\": 1}",
            "{\"video\": null}",
            "{\"video\": 1}",
            "{\"main\": null}",
            "{\"nope\": null}",
            "{\"a\": 1, \"b\": 2}",
            "\"sticker\"",
            "\"Video\"",
        ];
        texts.iter().map(|t| serde_json::from_str(t).unwrap()).collect()
    }

    fn same<T: Field + DeserializeOwned + PartialEq + Debug>() {
        for v in values() {
            let ours = T::read(v.clone()).map_err(|e| e.to_string());
            assert_eq!(ours, serde_json::from_value::<T>(v.clone()).map_err(|e| e.to_string()), "{v}");
        }
    }

    #[test]
    fn fields_read_as_their_deserialize_does() {
        same::<String>();
        same::<SmolStr>();
        same::<bool>();
        same::<f64>();
        same::<u32>();
        same::<u64>();
        same::<i64>();
        same::<Option<u32>>();
        same::<Option<String>>();
        same::<Option<f64>>();
        same::<Map<String, Value>>();
        same::<crate::time::FrameRate>();
        same::<Option<crate::time::FrameRate>>();
        same::<super::super::Canvas>();
        same::<super::super::AssetType>();
        same::<super::super::TrackType>();
        same::<super::super::ElementType>();
        assert_eq!(f64::read(json!(1e21)).unwrap(), 1e21);
    }

    /// The texts read as `serde_json::from_str` reads them, position included; `differs` the
    /// documented cases (an array or object where a scalar was expected, a status that is not a
    /// string or object), where only the position does.
    pub(crate) fn same_text<T: PartialEq + Debug + DeserializeOwned>(read: fn(&str) -> Result<T>, texts: &[&str], differs: &[&str]) {
        let strip = |e: String| e.split(" at line ").next().unwrap_or_default().to_string();
        for t in texts {
            assert_eq!(read(t).map_err(|e| e.to_string()), serde_json::from_str::<T>(t).map_err(|e| e.to_string()), "{t}");
        }
        for t in differs {
            let (ours, theirs) = (read(t).map_err(|e| e.to_string()), serde_json::from_str::<T>(t).map_err(|e| e.to_string()));
            assert_ne!(ours, theirs, "{t} is read the same: move it to the texts");
            assert_eq!(ours.map_err(strip), theirs.map_err(strip), "{t}");
        }
    }
}
