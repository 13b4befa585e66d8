//! The check behind each tool's `arguments_read_as_their_schema_says` test (`arguments!`): an
//! argument's schema and the type `run` reads both come from its field's `Arg<T>`, and this
//! shows, on the tool's example and on every case's arguments (batch steps included), that
//! `T`'s reader takes a value exactly when `T`'s schema says the value has the declared type.
//! Bounds and lengths are left out: the tools check those, with their own messages.

use serde::de::DeserializeOwned;
use serde_json::Value;

use super::registry::ToolDef;
use super::Args;

/// For each field in declared order: does the value as given read as the field's type?
pub trait Fields {
    fn reads(&self) -> Vec<bool>;
}

pub fn check<A: DeserializeOwned + Fields>(def: &ToolDef) {
    let schema = (def.types.input)();
    let required: Vec<&str> = schema["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    let calls = calls(def);
    for args in &calls {
        // A call refused before deserializing (a non-object, an unknown key) reads nothing.
        let Ok(checked) = Args::strict(def.name, def.args(), args) else { continue };
        let parsed: A = checked.parse().unwrap();
        for (name, reads) in def.args().iter().zip(parsed.reads()) {
            let given = args.get(*name).filter(|v| !v.is_null());
            let fits = match given {
                None => !required.contains(name),
                Some(v) => fits(&schema["properties"][*name], v),
            };
            assert_eq!(
                reads,
                fits,
                "{}.{name} = {}: read as its type: {reads}; its schema's type: {fits}",
                def.name,
                given.map_or("absent".into(), Value::to_string)
            );
        }
    }
}

/// The example call, and every case's arguments for this tool, from tests/cases.
fn calls(def: &ToolDef) -> Vec<Value> {
    let mut calls = vec![serde_json::from_str(def.example).unwrap()];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases");
    for entry in std::fs::read_dir(dir).unwrap() {
        let file: Value = serde_json::from_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap()).unwrap();
        for case in file["cases"].as_array().unwrap() {
            let tool = case.get("tool").or(file.get("tool")).and_then(Value::as_str);
            let args = case.get("args").cloned().unwrap_or(Value::Null);
            if tool == Some("batch") {
                for step in args["steps"].as_array().into_iter().flatten() {
                    if step["tool"] == def.name {
                        calls.push(step.get("args").cloned().unwrap_or(Value::Null));
                    }
                }
            }
            if tool == Some(def.name) {
                calls.push(args);
            }
        }
    }
    calls
}

/// Whether `v` has the type `schema` declares: `type`, `enum`, `const`, array items and the
/// branches of `oneOf`/`anyOf`; not bounds, lengths or an object's properties.
fn fits(schema: &Value, v: &Value) -> bool {
    for key in ["oneOf", "anyOf"] {
        if let Some(branches) = schema[key].as_array() {
            return branches.iter().any(|b| fits(b, v));
        }
    }
    let type_fits = |t: &str| match t {
        "number" => v.is_number(),
        "integer" => v.is_u64() || v.is_i64(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.as_array().is_some_and(|items| items.iter().all(|i| fits(&schema["items"], i))),
        "null" => v.is_null(),
        other => panic!("unknown schema type {other}"),
    };
    let typed = match &schema["type"] {
        Value::Null => true,
        Value::String(t) => type_fits(t),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).any(type_fits),
        other => panic!("bad schema type {other}"),
    };
    typed && schema["enum"].as_array().is_none_or(|e| e.contains(v)) && schema.get("const").is_none_or(|c| c == v)
}
