//! A tool's argument and result types become its JSON Schemas (2020-12) through schemars: the
//! field names, types, bounds and doc comments are the schema, so nothing is written twice.
//! Inputs are closed (`deny_unknown_fields`: `additionalProperties: false`); outputs are open,
//! since fields may be added beside the documented ones.
//!
//! The accepted argument names (`ToolDef::args`, checked on every call in the wasm too) come from
//! the argument type's serde field names, read through its `Deserialize` impl, which costs the
//! wasm a few bytes where the schemas would cost kilobytes.
//!
//! The run functions receive their argument type deserialized (`tools::args`): each field is an
//! `Arg<T>`, which takes any JSON, with `T` both its schema and the type `run` reads it as (the
//! tool names a bad value with its spec message; `tools::reads` checks the two agree on the case
//! files). Most write their output with `json!`, so the result types are read for their shape and
//! never built (`#[allow(dead_code)]`); `tests/tool_cases.rs` checks every output against its
//! result type's schema, so a type that drifts from what its tool writes fails there.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde_json::{Map, Value};

/// What a tool's types give its definition: the accepted argument names and both schemas.
#[derive(Clone, Copy)]
pub struct Types {
    pub args: fn() -> &'static [&'static str],
    pub input: fn() -> Value,
    pub output: fn() -> Value,
}

impl Types {
    /// `A` is the argument type (a struct with named fields), `R` the result type.
    ///
    /// The schemas reach agents through the generated catalog (js/generated/tools.ts) and docs;
    /// the wasm only checks argument names, so it keeps no schema code (a pointer to it here
    /// would keep all of schemars: about 36 KB gzipped). There both schemas are `null`.
    pub const fn of<A: for<'de> Deserialize<'de> + JsonSchema, R: JsonSchema>() -> Types {
        if cfg!(target_arch = "wasm32") {
            Types { args: field_names::<A>, input: no_schema, output: no_schema }
        } else {
            Types { args: field_names::<A>, input: input_schema::<A>, output: output_schema::<R> }
        }
    }
}

fn no_schema() -> Value {
    Value::Null
}

// A tool that takes no arguments.
#[derive(serde::Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The serde field names of a struct, as its `Deserialize` impl declares them (renames applied).
pub fn field_names<T: for<'de> Deserialize<'de>>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

/// A deserializer that records the fields `deserialize_struct` is asked for, then stops.
struct FieldNames<'a>(&'a mut &'static [&'static str]);

#[derive(Debug)]
struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("field names read")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Stop {
        Stop
    }
}

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = Stop;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Stop> {
        Err(Stop)
    }

    fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, fields: &'static [&'static str], _: V) -> Result<V::Value, Stop> {
        *self.0 = fields;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
}

/// Both schemas read their type the same way: an `Option` field may be absent, any other is
/// required.
fn generator() -> SchemaGenerator {
    schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true).for_deserialize().into_generator()
}

pub fn input_schema<A: JsonSchema>() -> Value {
    tidy(generator().into_root_schema_for::<A>())
}

pub fn output_schema<R: JsonSchema>() -> Value {
    tidy(generator().into_root_schema_for::<R>())
}

/// Drops what schemars adds that clients do not need: the Rust type's name as the root title,
/// number formats (`double`, `int64`) and `null` as a value of an optional field (an optional
/// argument is left out, never sent as null; an optional output field is absent, never null). An
/// unconstrained subschema is written `{}`. The root always lists `required`, empty or not.
fn tidy(schema: Schema) -> Value {
    let mut v = schema.to_value();
    if let Value::Object(root) = &mut v {
        root.remove("title");
        root.entry("properties").or_insert_with(|| Value::Object(Map::new()));
        root.entry("required").or_insert_with(|| Value::Array(vec![]));
    }
    walk(&mut v);
    v
}

/// A named type's schema (a `$defs` entry) tidied like a root's. A flattened map of extra fields
/// (`additionalProperties: true`) keeps the type open, as `{}`.
pub fn tidy_named(schema: &mut Value) {
    if let Some(extra) = schema.get_mut("additionalProperties").filter(|a| **a == Value::Bool(true)) {
        *extra = Value::Object(Map::new());
    }
    walk(schema);
}

fn walk(schema: &mut Value) {
    not_null(schema);
    let Value::Object(map) = schema else { return };
    map.remove("format");
    if map.get("additionalProperties") == Some(&Value::Bool(true)) {
        map.remove("additionalProperties");
    }
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        props.values_mut().for_each(subschema);
    }
    for key in ["items", "additionalProperties"] {
        if let Some(s) = map.get_mut(key) {
            subschema(s);
        }
    }
    for key in ["oneOf", "anyOf"] {
        if let Some(Value::Array(list)) = map.get_mut(key) {
            list.iter_mut().for_each(subschema);
        }
    }
    // Keywords in a steady, readable order: what it is first, what it means last.
    let mut sorted = Map::new();
    for key in ["$schema", "type"] {
        if let Some(v) = map.remove(key) {
            sorted.insert(key.into(), v);
        }
    }
    let last: Vec<(String, Value)> =
        ["required", "additionalProperties", "description"].iter().filter_map(|k| map.remove(*k).map(|v| (k.to_string(), v))).collect();
    sorted.extend(std::mem::take(map));
    sorted.extend(last);
    *map = sorted;
}

/// Undoes what schemars does to the schema of an `Option`: `type: [T, "null"]`, `null` added to an
/// `enum` (a `const` becomes a two-value `enum`), or `anyOf: [T, {type: null}]`.
fn not_null(schema: &mut Value) {
    let is_null = |s: &Value| s.get("type").and_then(Value::as_str) == Some("null");
    let Value::Object(map) = schema else { return };
    // A type that says null on purpose (`NullableString`) keeps it.
    if map.remove("x-nullable").is_some() {
        return;
    }
    if let Some(Value::Array(list)) = map.get("anyOf") {
        if list.len() == 2 && list.iter().any(is_null) {
            let mut inner = list.iter().find(|s| !is_null(s)).cloned().unwrap_or_default();
            map.remove("anyOf");
            if let Value::Object(inner_map) = &mut inner {
                inner_map.extend(std::mem::take(map));
            }
            *schema = inner;
            return not_null(schema);
        }
    }
    if let Some(Value::Array(types)) = map.get_mut("type") {
        if types.len() > 1 {
            types.retain(|t| t != "null");
            if types.len() == 1 {
                let only = types.remove(0);
                map.insert("type".into(), only);
            }
        }
    }
    if let Some(Value::Array(values)) = map.get_mut("enum") {
        if values.contains(&Value::Null) {
            values.retain(|v| !v.is_null());
            if values.len() == 1 {
                let only = values.remove(0);
                map.remove("enum");
                map.insert("const".into(), only);
            }
        }
    }
}

fn subschema(s: &mut Value) {
    if *s == Value::Bool(true) {
        *s = Value::Object(Map::new());
    }
    walk(s);
}

/// Schema-only stand-ins for fields whose Rust value is loosely typed (mostly outputs; `Where`, an
/// id or a point, is an argument the JS side reads).
macro_rules! loose {
    ($($(#[$doc:meta])* $name:ident => $schema:tt;)*) => {$(
        $(#[$doc])*
        #[derive(serde::Deserialize)]
        pub struct $name;
        impl JsonSchema for $name {
            fn schema_name() -> Cow<'static, str> {
                stringify!($name).into()
            }
            fn inline_schema() -> bool {
                true
            }
            fn json_schema(_: &mut SchemaGenerator) -> Schema {
                json_schema!($schema)
            }
        }
    )*};
}

loose! {
    /// Any JSON value.
    AnyValue => {};
    /// A JSON object of any shape.
    AnyObject => { "type": "object" };
    /// A JSON array of any items.
    AnyArray => { "type": "array" };
    /// An effect parameter's value.
    ParamValue => { "type": ["number", "string", "boolean"] };
    /// A number, or text such as a colour.
    NumberOrText => { "type": ["number", "string"] };
    /// Where a drag starts or ends: an automation id, or a point in page pixels.
    Where => {
        "type": ["string", "object"],
        "description": "An automation id from ui_elements, or {x, y} in page pixels",
        "properties": { "x": { "type": "number" }, "y": { "type": "number" } },
        "required": ["x", "y"],
        "additionalProperties": false,
    };
    /// A string, or null when there is none (the page writes null, not nothing).
    NullableString => { "type": ["string", "null"], "x-nullable": true };
    /// A flag the page writes only when it is set.
    True => { "const": true };
}

/// A list of `T` in an output type. schemars writes `Vec<T>`'s schema through its own serializer,
/// which moves properties named like keywords (`type`, `description`, `format`) to the front of
/// `T`'s properties; this keeps them in field order.
pub struct List<T>(std::marker::PhantomData<T>);

impl<T: JsonSchema> JsonSchema for List<T> {
    fn schema_name() -> Cow<'static, str> {
        format!("List_of_{}", T::schema_name()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut map = Map::new();
        map.insert("type".into(), "array".into());
        map.insert("items".into(), generator.subschema_for::<T>().to_value());
        Schema::from(map)
    }
}

/// For an untagged enum whose shapes never overlap: schemars writes `anyOf`, the schema says
/// `oneOf`, as it always did.
pub fn one_of(schema: &mut Schema) {
    if let Some(obj) = schema.as_object_mut() {
        if let Some(list) = obj.remove("anyOf") {
            obj.insert("oneOf".into(), list);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_are_the_renamed_declared_ones_and_a_non_struct_has_none() {
        #[derive(serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        #[allow(dead_code)]
        struct Two {
            element_id: u8,
            at: u8,
        }
        assert_eq!(field_names::<Two>(), ["elementId", "at"]);
        assert!(field_names::<i64>().is_empty());
        // The reader stops at once; its error's text shows only in a log or a panic.
        let mut fields: &'static [&'static str] = &[];
        assert_eq!(i64::deserialize(FieldNames(&mut fields)).unwrap_err().to_string(), "field names read");
    }
}
