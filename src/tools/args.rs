//! Reading tool arguments: strict keys first, then the tool's `Arguments` type deserialized from
//! them. Each field is an [`Arg<T>`], which takes any JSON: `T` is its schema and the type its
//! readers return, or [`Bad`], leaving the choice of message to the tool, so the spec's own
//! strings win over serde's.

use std::marker::PhantomData;

use serde::de::{self, Deserialize, DeserializeOwned, DeserializeSeed, Deserializer, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::schema::{NumberOrText, ParamValue};
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

/// One argument as given, any JSON (`null` the same as absent), read as its declared type `T`:
/// the field's type is its schema (`T`'s, plus the field's bounds) and what [`Arg::read`] returns
/// (`T`'s [`Read`]), so the two cannot drift. Deserializing it never fails, so the tool decides
/// what a bad value is called. Boxed, so a field is one pointer: the derived code moves fields
/// around, and unboxed values made it twice as large. `T` is only a marker: every `Arg<T>`
/// deserializes through the one `Option<Box<Value>>` path, so typing a field adds no
/// deserializing code to the wasm.
pub struct Arg<T>(Option<Box<Value>>, PhantomData<fn() -> T>);

impl<'de, T> Deserialize<'de> for Arg<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Arg<T>, D::Error> {
        Option::<Box<Value>>::deserialize(d).map(|v| Arg(v, PhantomData))
    }
}

/// A value that is absent when required, or of another JSON type than declared; the tool picks
/// the spec message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bad;

/// How a declared argument type is read from JSON. `of` checks the JSON type only (and a choice's
/// set); bounds and blank strings are the tool's to check, with its own messages.
pub trait Read {
    type Out<'a>;
    /// The value as this type, `None` when it is JSON of another type.
    fn of(v: &Value) -> Option<Self::Out<'_>>;
    /// What leaving it out reads as: `None` when it is required.
    fn absent<'a>() -> Option<Self::Out<'a>> {
        None
    }
}

impl<T: Read> Arg<T> {
    /// The value as its declared type: an `Option` one reads absence as `None`, any other refuses it.
    // Always inline, as are the `of`s and most readers below: each is a few instructions at its
    // call site, as the untyped reads were, where a copy per declared type cost the engine 1.7 KB
    // gzipped (-Oz inlines a function with two callers only when told).
    #[inline(always)]
    pub fn read(&self) -> Result<T::Out<'_>, Bad> {
        match self.get() {
            None => T::absent().ok_or(Bad),
            Some(v) => T::of(v).ok_or(Bad),
        }
    }
}

impl<T> Arg<T> {
    /// The value as given, `None` when absent or `null`: for a value the tool parses part by
    /// part, each part with its own message.
    pub fn get(&self) -> Option<&Value> {
        self.0.as_deref()
    }

    pub fn is_some(&self) -> bool {
        self.0.is_some()
    }
}

impl<T: Read> Read for Option<T> {
    type Out<'a> = Option<T::Out<'a>>;
    #[inline(always)]
    fn of(v: &Value) -> Option<Self::Out<'_>> {
        T::of(v).map(Some)
    }
    #[inline(always)]
    fn absent<'a>() -> Option<Self::Out<'a>> {
        Some(None)
    }
}

impl Read for f64 {
    type Out<'a> = f64;
    #[inline(always)]
    fn of(v: &Value) -> Option<f64> {
        v.as_f64()
    }
}

impl Read for i64 {
    type Out<'a> = i64;
    #[inline(always)]
    fn of(v: &Value) -> Option<i64> {
        v.as_i64()
    }
}

impl Read for bool {
    type Out<'a> = bool;
    #[inline(always)]
    fn of(v: &Value) -> Option<bool> {
        v.as_bool()
    }
}

impl Read for String {
    type Out<'a> = &'a str;
    #[inline(always)]
    fn of(v: &Value) -> Option<&str> {
        v.as_str()
    }
}

impl<T: Read> Read for Vec<T> {
    type Out<'a> = Vec<T::Out<'a>>;
    #[inline(always)]
    fn of(v: &Value) -> Option<Self::Out<'_>> {
        v.as_array()?.iter().map(T::of).collect()
    }
}

/// Effect parameters: the effect checks each value by its key, with its own messages.
impl Read for std::collections::BTreeMap<String, ParamValue> {
    type Out<'a> = &'a Map<String, Value>;
    #[inline(always)]
    fn of(v: &Value) -> Option<&Map<String, Value>> {
        v.as_object()
    }
}

/// Read by the property's kind: a number, or a colour's text.
impl Read for NumberOrText {
    type Out<'a> = &'a Value;
    #[inline(always)]
    fn of(v: &Value) -> Option<&Value> {
        (v.is_number() || v.is_string()).then_some(v)
    }
}

/// A string that is not empty (an id, a property path, a text), the most common argument. Read
/// as `&str`; the tool names a blank one (`Arg::id`).
pub struct NonEmpty;

impl Read for NonEmpty {
    type Out<'a> = &'a str;
    #[inline(always)]
    fn of(v: &Value) -> Option<&str> {
        v.as_str()
    }
}

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

/// A fixed set of strings, such as `TEXT_POSITIONS`.
pub trait Choices {
    const ALL: &'static [&'static str];
}

/// Declares [`Choices`] types: `choices! { Positions = POSITIONS; }`.
macro_rules! choices {
    ($($(#[$meta:meta])* $name:ident = $all:expr;)*) => {$(
        $(#[$meta])*
        pub struct $name;
        impl $crate::tools::args::Choices for $name {
            const ALL: &'static [&'static str] = &$all;
        }
    )*};
}
pub(crate) use choices;

/// One of `C::ALL`: schema `{type: string, enum}`, read as the matching `&'static str`.
pub struct Choice<C>(PhantomData<C>);

impl<C: Choices> Read for Choice<C> {
    type Out<'a> = &'static str;
    #[inline(always)]
    fn of(v: &Value) -> Option<&'static str> {
        pick(v, C::ALL)
    }
}

/// Out of line and not generic: one copy for every set of choices.
#[inline(never)]
fn pick(v: &Value, all: &'static [&'static str]) -> Option<&'static str> {
    let s = v.as_str()?;
    all.iter().find(|c| **c == s).copied()
}

/// A choice as given (`None` when absent), or the error naming `key` and the choices. Out of line
/// and not generic, as `pick`.
#[inline(never)]
fn choose(v: Option<&Value>, key: &str, all: &'static [&'static str]) -> Result<Option<&'static str>, ToolError> {
    match v {
        None => Ok(None),
        Some(v) => pick(v, all).map(Some).ok_or_else(|| ToolError::invalid_argument(key, &one_of(all))),
    }
}

impl<C: Choices> schemars::JsonSchema for Choice<C> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Choice".into()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        C::ALL.join("|").into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "enum": C::ALL })
    }
}

/// `Arg<T>`'s schema is `T`'s, as `#[schemars(with = "T")]` would write it. The two hidden methods
/// are forwarded as schemars' own `transparent` derive does: they make an `Option` field optional.
impl<T: schemars::JsonSchema> schemars::JsonSchema for Arg<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        generator.subschema_for::<T>()
    }

    fn _schemars_private_is_option() -> bool {
        T::_schemars_private_is_option()
    }
}

impl Arg<NonEmpty> {
    /// A required non-empty string, or `err`.
    pub fn id(&self, err: fn() -> ToolError) -> Result<&str, ToolError> {
        match self.get().and_then(NonEmpty::of) {
            Some(s) if !s.trim().is_empty() => Ok(s),
            _ => Err(err()),
        }
    }
}

impl<T: Read> Arg<Vec<T>> {
    /// Each item as `T`, `None` for one of another JSON type; `Bad` when absent or not an array.
    /// Lazily, so the tool collects its own type in one pass.
    #[inline(always)]
    pub fn items(&self) -> Result<impl Iterator<Item = Option<T::Out<'_>>>, Bad> {
        Ok(self.get().and_then(Value::as_array).ok_or(Bad)?.iter().map(T::of))
    }
}

impl Arg<Vec<NonEmpty>> {
    /// A required array of non-empty strings with at least one entry, deduplicated in order.
    #[inline(always)]
    pub fn id_list(&self, err: fn() -> ToolError) -> Result<Vec<String>, ToolError> {
        id_list(self.get(), err)
    }
}

impl Arg<Option<Vec<NonEmpty>>> {
    /// As [`Arg::id_list`] when given.
    #[inline(always)]
    pub fn id_list(&self, err: fn() -> ToolError) -> Result<Option<Vec<String>>, ToolError> {
        match self.get() {
            None => Ok(None),
            v => id_list(v, err).map(Some),
        }
    }
}

fn id_list(value: Option<&Value>, err: fn() -> ToolError) -> Result<Vec<String>, ToolError> {
    let Some(Value::Array(items)) = value else { return Err(err()) };
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

impl Arg<f64> {
    /// A required time in seconds, converted to ticks; `Bad` when absent or not a finite number in
    /// range.
    // Out of line, as the optional one: five tools read a required time.
    #[inline(never)]
    pub fn seconds(&self) -> Result<i64, Bad> {
        ticks(self.get())?.ok_or(Bad)
    }
}

impl Arg<Option<f64>> {
    /// An optional time in seconds, converted to ticks; `Bad` when given but not a finite number
    /// in range.
    pub fn seconds(&self) -> Result<Option<i64>, Bad> {
        ticks(self.get())
    }

    /// An optional time in seconds, 0 or more, in ticks; `err` when given but not that (the
    /// windows and timing edits name their own bound).
    pub fn non_negative_seconds(&self, err: fn() -> ToolError) -> Result<Option<i64>, ToolError> {
        match ticks(self.get()) {
            Ok(Some(t)) if t < 0 => Err(err()),
            Ok(v) => Ok(v),
            Err(Bad) => Err(err()),
        }
    }
}

/// Seconds (read as `f64`, as declared) to ticks, for both the above: one copy.
#[inline(never)]
fn ticks(v: Option<&Value>) -> Result<Option<i64>, Bad> {
    match v {
        None => Ok(None),
        Some(v) => f64::of(v).and_then(seconds_to_ticks).map(Some).ok_or(Bad),
    }
}

impl<C: Choices> Arg<Choice<C>> {
    /// A required choice; `key` names it in the error.
    #[inline(always)]
    pub fn choice(&self, key: &str) -> Result<&'static str, ToolError> {
        // Absent reads as null, which is no choice: `Ok` is always `Some`.
        choose(Some(self.get().unwrap_or(&Value::Null)), key, C::ALL).map(Option::unwrap_or_default)
    }
}

impl<C: Choices> Arg<Option<Choice<C>>> {
    /// An optional choice; `key` names it in the error.
    #[inline(always)]
    pub fn choice(&self, key: &str) -> Result<Option<&'static str>, ToolError> {
        choose(self.get(), key, C::ALL)
    }
}

impl Arg<Option<String>> {
    /// An optional string of any content; `key` names it in the error.
    #[inline(always)]
    pub fn string(&self, key: &str) -> Result<Option<&str>, ToolError> {
        string(self.get(), key, "a string")
    }
}

impl Arg<Option<NonEmpty>> {
    /// An optional string, empty or not (the tool finds no track named ""); `key` names it in the
    /// error.
    #[inline(always)]
    pub fn string(&self, key: &str) -> Result<Option<&str>, ToolError> {
        string(self.get(), key, "a string")
    }

    /// As `string`, the error saying the value is `what`.
    #[inline(always)]
    pub fn string_as(&self, key: &str, what: &str) -> Result<Option<&str>, ToolError> {
        string(self.get(), key, what)
    }
}

/// An optional string (read as `String` reads it), for both the above: one copy.
#[inline(never)]
fn string<'a>(v: Option<&'a Value>, key: &str, what: &str) -> Result<Option<&'a str>, ToolError> {
    match v {
        None => Ok(None),
        Some(v) => String::of(v).map(Some).ok_or_else(|| ToolError::invalid_argument(key, what)),
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
        first_id: Arg<NonEmpty>,
        times: Arg<Vec<f64>>,
    }

    fn parse(v: Value) -> Result<Two, ToolError> {
        Args::strict("t", &["firstId", "times"], &v)?.parse()
    }

    #[test]
    fn fields_come_by_name_whatever_the_order() {
        let two = parse(json!({ "times": [1, 2.5], "firstId": "e1" })).unwrap();
        assert_eq!(two.first_id.read(), Ok("e1"));
        assert_eq!(two.times.read(), Ok(vec![1.0, 2.5]));
    }

    #[test]
    fn missing_and_null_are_absent_and_any_value_is_taken() {
        let two = parse(json!({ "firstId": null })).unwrap();
        assert!(!two.first_id.is_some() && !two.times.is_some());
        assert_eq!(two.times.read(), Err(Bad));
        let two = parse(json!({ "firstId": { "x": [true] }, "times": ["soon"] })).unwrap();
        assert_eq!(two.first_id.id(ToolError::invalid_element_id).unwrap_err().message, "Invalid element id");
        assert_eq!(two.times.read(), Err(Bad));
        assert_eq!(two.times.get(), Some(&json!(["soon"])));
        assert!(parse(Value::Null).is_ok());
    }

    #[test]
    fn an_optional_type_reads_absence_as_none() {
        #[derive(serde::Deserialize)]
        struct One {
            at: Arg<Option<f64>>,
        }
        let one: One = Args::strict("t", &["at"], &json!({})).unwrap().parse().unwrap();
        assert_eq!((one.at.read(), one.at.seconds()), (Ok(None), Ok(None)));
        let one: One = Args::strict("t", &["at"], &json!({ "at": 1e300 })).unwrap().parse().unwrap();
        assert_eq!((one.at.read(), one.at.seconds()), (Ok(Some(1e300)), Err(Bad)));
    }

    #[test]
    fn unknown_keys_fail_before_deserializing() {
        let err = parse(json!({ "firstId": "e1", "extra": 1 })).err().unwrap();
        assert_eq!(err.message, "unknown argument \"extra\" for t; expected: firstId, times");
    }

    #[test]
    fn an_argument_type_that_is_not_a_struct_is_refused_and_says_so() {
        let map = Map::new();
        let err = i64::deserialize(Checked(&map)).unwrap_err();
        // Only a log or a panic shows this text: callers get `refused()`'s error.
        assert_eq!(err.to_string(), "arguments refused");
        assert_eq!(Args { map: &map }.parse::<i64>().unwrap_err().code, ToolError::arguments_not_object().code);
    }
}
