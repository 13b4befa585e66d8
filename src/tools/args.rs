//! Reading tool arguments: strict keys first, then the tool's `Arguments` type deserialized from
//! them. A field whose bad value has a spec message is an [`Arg`], which takes any JSON; its typed
//! getters leave the choice of message to the tool, so the spec's own strings win over serde's.

use serde::de::{self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::{Ctx, Output, ToolError};
use crate::time::seconds_to_ticks;

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

/// The arguments of one call, checked against the tool's accepted keys.
#[derive(Clone, Copy)]
pub struct Args<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Args<'a> {
    /// `null` counts as no arguments; anything else must be an object whose keys are all accepted.
    pub fn strict(tool: &str, accepted: &[&str], value: &'a Value) -> Result<Args<'a>, ToolError> {
        let map = match value {
            Value::Null => EMPTY.get_or_init(Map::new),
            Value::Object(m) => m,
            _ => return Err(ToolError::arguments_not_object()),
        };
        if let Some(bad) = map.keys().find(|k| !accepted.contains(&k.as_str())) {
            let mut sorted = accepted.to_vec();
            crate::sort::small_sort(&mut sorted);
            return Err(ToolError::unknown_argument(tool, bad, &sorted));
        }
        Ok(Args { map })
    }

    /// Every argument as given.
    pub fn map(&self) -> &'a Map<String, Value> {
        self.map
    }

    /// The tool's argument type. Its fields are [`Arg`]s, which take any JSON, so the tool gives
    /// its own message for a bad value; serde's text never reaches a caller (a type that could
    /// still fail would get the shared shape error).
    pub fn parse<A: DeserializeOwned>(&self) -> Result<A, ToolError> {
        A::deserialize(Checked(self.map)).map_err(|_| refused())
    }
}

/// Runs a tool's `run` with its argument type deserialized (the registry's `typed!`). Out of line,
/// with `run` a parameter, so each tool's entry stays one call (inlined there, this glue cost the
/// engine 1.5 KB gzipped).
#[inline(never)]
pub fn call<A: DeserializeOwned>(ctx: &mut Ctx, args: Args, run: fn(&mut Ctx, A) -> Result<Output, ToolError>) -> Result<Output, ToolError> {
    match A::deserialize(Checked(args.map)) {
        Ok(a) => run(ctx, a),
        Err(_) => Err(refused()),
    }
}

#[cold]
#[inline(never)]
fn refused() -> ToolError {
    ToolError::arguments_not_object()
}

/// The checked arguments as a serde deserializer: it hands the argument type its fields' values
/// in declared order, looked up by name (`strict` has refused any other key), so the derived code
/// is one step per field, with no key matching. Its error has no text, so the wasm keeps none of
/// serde's messages (deserializing from the `serde_json::Map` itself cost the engine 18 KB gzipped).
struct Checked<'a>(&'a Map<String, Value>);

/// The fields still to hand out.
struct InOrder<'a> {
    fields: std::slice::Iter<'static, &'static str>,
    map: &'a Map<String, Value>,
}

/// One field's value, `None` when the call left it out.
struct Slot<'a>(Option<&'a Value>);

#[derive(Debug)]
pub struct Refused;

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("arguments refused")
    }
}

impl std::error::Error for Refused {}

impl de::Error for Refused {
    fn custom<T: std::fmt::Display>(_: T) -> Refused {
        Refused
    }
}

impl<'de> Deserializer<'de> for Checked<'de> {
    type Error = Refused;

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, fields: &'static [&'static str], visitor: V) -> Result<V::Value, Refused> {
        visitor.visit_seq(InOrder { fields: fields.iter(), map: self.0 })
    }

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Refused> {
        Err(Refused)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

impl<'de> SeqAccess<'de> for InOrder<'de> {
    type Error = Refused;

    // Out of line: one copy for all fields, not one per field of every argument type.
    #[inline(never)]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Refused> {
        match self.fields.next() {
            None => Ok(None),
            Some(name) => seed.deserialize(Slot(self.map.get(*name))).map(Some),
        }
    }
}

impl<'de> Deserializer<'de> for Slot<'de> {
    type Error = Refused;

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.0 {
            None | Some(Value::Null) => visitor.visit_none(),
            // An owned copy: the engine already deserializes from owned values (a borrowed one
            // would add serde_json's by-reference deserializer to the wasm).
            Some(v) => visitor.visit_some(v.clone()).map_err(|_| Refused),
        }
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Refused> {
        match self.0 {
            None => visitor.visit_none(),
            Some(v) => v.clone().deserialize_any(visitor).map_err(|_| Refused),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

/// One argument as given: any JSON, `null` the same as absent. Deserializing it never fails, so
/// the tool decides what a bad value is called. Boxed, so a field is one pointer: the derived code
/// moves fields around, and unboxed values made it twice as large.
#[derive(Clone, Debug, Default)]
pub struct Arg(Option<Box<Value>>);

impl<'de> Deserialize<'de> for Arg {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Arg, D::Error> {
        Option::<Box<Value>>::deserialize(d).map(Arg)
    }
}

impl Arg {
    /// The value as given, `None` when absent or `null`.
    pub fn get(&self) -> Option<&Value> {
        self.0.as_deref()
    }

    pub fn is_some(&self) -> bool {
        self.0.is_some()
    }

    /// A required non-empty string, or `err`.
    pub fn id(&self, err: fn() -> ToolError) -> Result<&str, ToolError> {
        match self.get() {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.as_str()),
            _ => Err(err()),
        }
    }

    /// A required array of non-empty strings with at least one entry, deduplicated in order.
    pub fn id_list(&self, err: fn() -> ToolError) -> Result<Vec<String>, ToolError> {
        let Some(Value::Array(items)) = self.get() else { return Err(err()) };
        let mut out: Vec<String> = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::String(s) if !s.trim().is_empty() => {
                    if !out.iter().any(|o| o == s) {
                        out.push(s.clone());
                    }
                }
                _ => return Err(err()),
            }
        }
        if out.is_empty() {
            return Err(err());
        }
        Ok(out)
    }

    /// An optional time in seconds, converted to ticks. `Err(())` when present but not a finite
    /// number in range; the caller picks the message.
    #[allow(clippy::result_unit_err)] // the tool, not this reader, knows which spec message applies
    pub fn seconds(&self) -> Result<Option<i64>, ()> {
        match self.get() {
            None => Ok(None),
            Some(v) => v.as_f64().and_then(seconds_to_ticks).map(Some).ok_or(()),
        }
    }

    /// An optional string that must be one of `choices`; `key` names it in the error.
    pub fn choice(&self, key: &str, choices: &[&'static str]) -> Result<Option<&'static str>, ToolError> {
        match self.get() {
            None => Ok(None),
            Some(Value::String(s)) => {
                choices.iter().find(|c| **c == s.as_str()).copied().map(Some).ok_or_else(|| ToolError::invalid_argument(key, &one_of(choices)))
            }
            Some(_) => Err(ToolError::invalid_argument(key, &one_of(choices))),
        }
    }

    /// An optional string of any content; `key` names it in the error.
    pub fn string(&self, key: &str) -> Result<Option<&str>, ToolError> {
        match self.get() {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(ToolError::invalid_argument(key, "a string")),
        }
    }
}

/// An [`Arg`] whose schema is a non-empty string (an id, a property path, a text), the most
/// common argument. Read like any `Arg`: the tool still names a missing or bad value. The wasm
/// keeps no schemas, so there it is `Arg` itself: a type of its own cost the engine 2.4 KB
/// (270 bytes gzipped) of deserializing code.
#[cfg(target_arch = "wasm32")]
pub type NonEmpty = Arg;

// There the argument types still derive `JsonSchema` (`Types::of` asks for it), so `Arg` needs
// an impl; it is never called. Natively `Arg` has none: a field must say its schema.
#[cfg(target_arch = "wasm32")]
impl schemars::JsonSchema for Arg {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NonEmpty".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "minLength": 1 })
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Debug, Default)]
pub struct NonEmpty(Arg);

#[cfg(not(target_arch = "wasm32"))]
impl<'de> Deserialize<'de> for NonEmpty {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NonEmpty, D::Error> {
        Arg::deserialize(d).map(NonEmpty)
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl std::ops::Deref for NonEmpty {
    type Target = Arg;

    fn deref(&self) -> &Arg {
        &self.0
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl schemars::JsonSchema for NonEmpty {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "NonEmpty".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "minLength": 1 })
    }
}

pub fn one_of(choices: &[&str]) -> String {
    format!("one of: {}", choices.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Two {
        first_id: Arg,
        times: Arg,
    }

    fn parse(v: Value) -> Result<Two, ToolError> {
        Args::strict("t", &["firstId", "times"], &v)?.parse()
    }

    #[test]
    fn fields_come_by_name_whatever_the_order() {
        let two = parse(json!({ "times": [1, 2.5], "firstId": "e1" })).unwrap();
        assert_eq!(two.first_id.get(), Some(&json!("e1")));
        assert_eq!(two.times.get(), Some(&json!([1, 2.5])));
    }

    #[test]
    fn missing_and_null_are_absent_and_any_value_is_taken() {
        let two = parse(json!({ "firstId": null })).unwrap();
        assert!(!two.first_id.is_some() && !two.times.is_some());
        let two = parse(json!({ "firstId": { "x": [true] }, "times": "soon" })).unwrap();
        assert_eq!(two.first_id.id(ToolError::invalid_element_id).unwrap_err().message, "Invalid element id");
        assert_eq!(two.times.seconds(), Err(()));
        assert!(parse(Value::Null).is_ok());
    }

    #[test]
    fn unknown_keys_fail_before_deserializing() {
        let err = parse(json!({ "firstId": "e1", "extra": 1 })).err().unwrap();
        assert_eq!(err.message, "unknown argument \"extra\" for t; expected: firstId, times");
    }
}
