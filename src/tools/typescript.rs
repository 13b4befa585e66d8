//! TypeScript typings generated from the registry's JSON Schemas, so the `.d.ts` of the npm
//! package, tool validation, MCP and Gemini all describe the same arguments and results. The
//! output is committed as `js/generated/tools.ts`; a test fails when it drifts (regenerate with
//! `npm run typings`, which runs that test with `NEURALCUT_BLESS=1`, then again without it).

use std::fmt::Write;

use serde_json::{Map, Value};

use super::registry::{self, ToolDef, HOST_TOOLS, TOOLS};

/// Where the generated file lives, relative to the crate root.
pub const TYPINGS_PATH: &str = "js/generated/tools.ts";
/// The error codes alone, so that every module that throws (js/errors.ts) can check a code
/// without loading the tool catalog (about 156 KB of JS) into the effects and proxy entries.
pub const ERROR_CODES_PATH: &str = "js/generated/error-codes.ts";

/// The contents of [`ERROR_CODES_PATH`].
pub fn error_codes() -> String {
    let mut out = String::from("// Generated from src/error_code.rs by src/tools/typescript.rs (`npm run typings`): do not edit.\n\n");
    out.push_str("/** Every error code of the package (engine, tools, agent, proxy client, MCP, CLI), from src/error_code.rs.\n * The proxy's codes travel lower-cased on the wire (rate_limited). */\nexport const ERROR_CODES = [\n");
    for c in crate::ErrorCode::ALL {
        let _ = writeln!(out, "  \"{}\",", c.as_str());
    }
    out.push_str("] as const;\n\n/** A code of `ERROR_CODES`. */\nexport type ErrorCode = (typeof ERROR_CODES)[number];\n");
    out
}

/// `split_at` → `SplitAt`.
fn pascal(name: &str) -> String {
    name.split('_').map(|w| w[..1].to_uppercase() + &w[1..]).collect()
}

fn literal(v: &Value) -> String {
    v.to_string()
}

fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$') && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn doc(out: &mut String, indent: &str, schema: &Value) {
    if let Some(d) = schema.get("description").and_then(Value::as_str) {
        let _ = writeln!(out, "{indent}/** {} */", d.replace("*/", "*\\/").split('\n').map(str::trim).collect::<Vec<_>>().join(&format!("\n{indent} * ")));
    }
}

/// The TypeScript type of a schema, as it appears inline.
fn ts_type(schema: &Value, indent: &str) -> String {
    // A named type (`named_types`): its name.
    if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
        return r.rsplit('/').next().unwrap_or(r).to_string();
    }
    if let Some(c) = schema.get("const") {
        return literal(c);
    }
    if let Some(Value::Array(values)) = schema.get("enum") {
        return values.iter().map(literal).collect::<Vec<_>>().join(" | ");
    }
    if let (None, Some(Value::Array(alternatives))) = (schema.get("type"), schema.get("anyOf")) {
        return alternatives.iter().map(|a| ts_type(a, indent)).collect::<Vec<_>>().join(" | ");
    }
    match schema.get("type") {
        Some(Value::Array(types)) => types.iter().map(|t| ts_type(&single_type(schema, t), indent)).collect::<Vec<_>>().join(" | "),
        Some(Value::String(t)) => match t.as_str() {
            "string" => "string".into(),
            "number" | "integer" => "number".into(),
            "boolean" => "boolean".into(),
            "null" => "null".into(),
            "array" => {
                let item = schema.get("items").map_or("unknown".into(), |i| ts_type(i, indent));
                if item.contains(' ') && !item.starts_with('{') {
                    format!("({item})[]")
                } else {
                    format!("{item}[]")
                }
            }
            "object" => object_type(schema, indent),
            _ => "unknown".into(),
        },
        _ => "unknown".into(),
    }
}

/// The schema narrowed to one of its `type`s.
fn single_type(schema: &Value, t: &Value) -> Value {
    let mut s = schema.as_object().cloned().unwrap_or_default();
    s.insert("type".into(), t.clone());
    Value::Object(s)
}

/// An object type: its properties (required or optional) and what else it allows.
fn object_type(schema: &Value, indent: &str) -> String {
    let empty = Map::new();
    let props = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    let required: Vec<&str> = schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let extra = match schema.get("additionalProperties") {
        Some(Value::Bool(false)) => None,
        Some(s @ Value::Object(_)) => Some(ts_type(s, indent)),
        _ => Some("unknown".to_string()),
    };
    if props.is_empty() {
        return match extra {
            // A closed object without properties: `{}` would accept anything.
            None => "Record<string, never>".into(),
            Some(t) => format!("{{ [key: string]: {t} }}"),
        };
    }
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    for (key, prop) in props {
        doc(&mut out, &inner, prop);
        let name = if is_identifier(key) { key.clone() } else { literal(&Value::from(key.as_str())) };
        let optional = if required.contains(&key.as_str()) { "" } else { "?" };
        let _ = writeln!(out, "{inner}{name}{optional}: {};", ts_type(prop, &inner));
    }
    // Open output objects stay open: tools may add fields beside the documented ones.
    if let Some(t) = extra.filter(|t| t != "unknown" || schema.get("additionalProperties").is_some()) {
        let _ = writeln!(out, "{inner}[key: string]: {t};");
    }
    out.push_str(indent);
    out.push('}');
    out
}

/// A named declaration: an interface for objects with properties, a type alias otherwise.
fn declaration(out: &mut String, name: &str, schema: &Value) {
    let ty = ts_type(schema, "");
    if ty.starts_with('{') {
        let _ = writeln!(out, "export interface {name} {ty}\n");
    } else {
        let _ = writeln!(out, "export type {name} = {ty};\n");
    }
}

/// Each tool's `<Name>Args` and `<Name>Result` declarations (`of` words their comments), then the
/// two maps (name, suffix, doc comment) that name them by tool.
fn tool_types<'a>(out: &mut String, tools: impl Iterator<Item = &'a ToolDef> + Clone, of: &str, maps: [(&str, &str, &str); 2]) {
    for tool in tools.clone() {
        let base = pascal(tool.name);
        let _ = writeln!(out, "/** Arguments of {of}`{}`: {} */", tool.name, tool.title);
        declaration(out, &format!("{base}Args"), &tool.input_schema());
        let _ = writeln!(out, "/** Result of {of}`{}`. */", tool.name);
        declaration(out, &format!("{base}Result"), &tool.output_schema());
    }
    for (map, suffix, doc) in maps {
        let _ = writeln!(out, "{doc}export interface {map} {{");
        for tool in tools.clone() {
            let _ = writeln!(out, "  {}: {}{suffix};", tool.name, pascal(tool.name));
        }
        out.push_str("}\n\n");
    }
}

/// The body of an errors record, each tool's messages by name, and its closing brace.
fn error_entries<'a>(out: &mut String, tools: impl Iterator<Item = &'a ToolDef>) {
    for tool in tools {
        let errors = serde_json::to_string(tool.errors).expect("strings serialise");
        let _ = writeln!(out, "  {}: {errors},", tool.name);
    }
    out.push_str("};\n\n");
}

/// The whole generated module.
pub fn typings() -> String {
    let mut out = String::new();
    out.push_str("// Generated from the tool registry's JSON Schemas by src/tools/typescript.rs.\n");
    out.push_str("// Do not edit: run `npm run typings` after changing a schema.\n\n");
    let maps = [
        ("ToolArgsMap", "Args", "/** Each tool's arguments, by tool name. */\n"),
        ("ToolResultMap", "Result", "/** Each tool's successful result, by tool name. */\n"),
    ];
    tool_types(&mut out, TOOLS.iter().copied(), "", maps);
    out.push_str("/** The name of a tool. */\nexport type ToolName = keyof ToolArgsMap;\n\n");
    out.push_str("/** Every tool name, in catalog order. */\nexport const TOOL_NAMES: readonly ToolName[] = [\n");
    for tool in TOOLS {
        let _ = writeln!(out, "  {},", literal(&Value::from(tool.name)));
    }
    out.push_str("];\n\n");
    out.push_str(
        "/** Tools whose output carries text made by users or models (asset names, element text, summaries):\n \
         * data, never instructions. WebMCP's `untrustedContentHint`. */\n\
         export const UNTRUSTED_OUTPUT_TOOLS: readonly ToolName[] = [\n",
    );
    for tool in TOOLS.iter().filter(|t| t.annotations.untrusted_content) {
        let _ = writeln!(out, "  \"{}\",", tool.name);
    }
    out.push_str("];\n\n");
    out.push_str("/** The error messages each tool can return (the spec's strings; `<x>` marks a filled-in part). */\n");
    out.push_str("export const TOOL_ERRORS: Readonly<Record<ToolName, readonly string[]>> = {\n");
    error_entries(&mut out, TOOLS.iter().copied());
    let common = serde_json::to_string(registry::COMMON_ERRORS).expect("strings serialise");
    let _ = writeln!(out, "/** Errors any tool can return besides its own (argument checks, references, no timeline). */\nexport const COMMON_TOOL_ERRORS: readonly string[] = {common};\n");
    out.push_str("export { ERROR_CODES, type ErrorCode } from \"./error-codes.js\";\n\n");
    let _ = writeln!(
        out,
        "/** The engine's unit of time: every time in a project is a whole number of ticks (src/time.rs). */\nexport const TICKS_PER_SECOND = {};\n",
        crate::time::TICKS_PER_SECOND
    );
    let kinds: Vec<String> = crate::model::ElementType::ALL.iter().map(|k| literal(&Value::from(k.as_str()))).collect();
    let _ = writeln!(
        out,
        "/** Every element type, in the order `editor.elementKinds()` lists them (src/model/timeline.rs). */\nexport const ELEMENT_KINDS = [{}] as const;\n/** An element type a host may draw (`createEditor({{ elementKinds }})`). */\nexport type ElementKind = (typeof ELEMENT_KINDS)[number];\n",
        kinds.join(", ")
    );
    let masks: Vec<String> = crate::masks::KINDS.iter().map(|k| literal(&Value::from(*k))).collect();
    let _ = writeln!(
        out,
        "/** OpenCut's mask shapes, every one of which update_clip sets and the renderers draw (src/masks.rs). */\nexport const MASK_TYPES = [{}] as const;\n",
        masks.join(", ")
    );
    let effects: Vec<String> = crate::effects::EFFECTS.iter().map(|e| literal(&Value::from(e.id))).collect();
    let _ = writeln!(
        out,
        "/** An effect type of the effect registry: what `createEditor({{ effects }})` takes. */\nexport type EffectType = {};\n",
        effects.join(" | ")
    );
    out.push_str(
        "/** Every effect type, in registry order (the default of `createEditor({ effects })`). */\nexport const EFFECT_TYPES: readonly EffectType[] = [\n",
    );
    for e in &effects {
        let _ = writeln!(out, "  {e},");
    }
    out.push_str("];\n\n");
    effect_parameters(&mut out);
    boundary_types(&mut out);
    named_types(&mut out);
    out.push_str(CATALOG_HEADER);
    let catalog = serde_json::to_string_pretty(registry::catalog()).expect("the catalog serialises");
    let _ = writeln!(out, "export const TOOL_CATALOG: readonly ToolInfo[] = {catalog};\n");
    host_typings(&mut out);
    out
}

/// Records the engine hands to JS or takes from it outside the tools, written once in Rust.
/// The effect registry's parameter table (src/effects/mod.rs), for hosts that build effect
/// controls: the same numbers `get_effect` describes and the engine enforces.
fn effect_parameters(out: &mut String) {
    out.push_str("/** One numeric parameter of an effect (src/effects/mod.rs). */\nexport interface EffectParameter {\n  key: string;\n  label: string;\n  default: number;\n  min: number;\n  max: number;\n  step: number;\n  /** What the parameter does, in a few words. */\n  meaning: string;\n}\n\n");
    out.push_str("/** Each effect's parameters, in registry order: what `apply_effect` and `update_effect` accept. */\nexport const EFFECT_PARAMETERS: Readonly<Record<EffectType, readonly EffectParameter[]>> = {\n");
    for e in crate::effects::EFFECTS.iter() {
        let _ = writeln!(out, "  {}: [", literal(&Value::from(e.id)));
        for p in e.params {
            let _ = writeln!(
                out,
                "    {{ key: {}, label: {}, default: {}, min: {}, max: {}, step: {}, meaning: {} }},",
                literal(&Value::from(p.key)),
                literal(&Value::from(p.label)),
                crate::effects::number(p.default),
                crate::effects::number(p.min),
                crate::effects::number(p.max),
                crate::effects::number(p.step),
                literal(&Value::from(p.meaning)),
            );
        }
        out.push_str("  ],\n");
    }
    out.push_str("};\n\n");
}

fn boundary_types(out: &mut String) {
    use super::context::{ContextRecord, ProviderReport};
    use super::schema::output_schema;
    for (name, schema) in [
        ("AssetOptions", output_schema::<crate::AssetOptions>()),
        ("ActiveEffect", output_schema::<crate::effects::active::ActiveEffect>()),
        ("ContextRecord", output_schema::<ContextRecord>()),
        ("ProviderReport", output_schema::<ProviderReport>()),
    ] {
        doc(out, "", &schema);
        declaration(out, name, &schema);
    }
}

/// The records that cross the boundary as JSON outside the tools, each declared once under its
/// schema name (`#[schemars(rename)]`) and referred to by it: the frame and its layers
/// (src/frame.rs), the audio plan (src/audio.rs), the saved project and its assets (src/model),
/// frame rates (src/time.rs) and a failed call (src/tools/error.rs).
fn named_types(out: &mut String) {
    let mut g = schemars::generate::SchemaSettings::draft2020_12().for_deserialize().into_generator();
    g.subschema_for::<crate::frame::Frame>();
    g.subschema_for::<crate::audio::AudioPlan>();
    g.subschema_for::<crate::model::Project>();
    g.subschema_for::<super::ToolErrorJson>();
    let mut defs = g.take_definitions(true);
    fold_tags(&mut defs);
    for (name, mut schema) in defs {
        super::schema::tidy_named(&mut schema);
        doc(out, "", &schema);
        declaration(out, &name, &schema);
    }
}

/// An internally tagged enum (`#[serde(tag = "kind")]`) lists each variant as its type's `$ref`
/// plus the tag; the tag moves into that type (`MediaFrameLayer` has `kind: "media"`), so the
/// enum is a plain union of named types and each variant narrows on its tag.
fn fold_tags(defs: &mut Map<String, Value>) {
    let mut moves = Vec::new();
    for def in defs.values_mut().filter_map(Value::as_object_mut) {
        // Written as `anyOf`, the union `ts_type` reads (variants with distinct tags never overlap).
        if let Some(variants) = def.remove("oneOf") {
            def.insert("anyOf".into(), variants);
        }
        for variant in def.get_mut("anyOf").and_then(Value::as_array_mut).into_iter().flatten() {
            let Some(Value::String(target)) = variant.get("$ref").cloned() else { continue };
            let Some(Value::Object(props)) = variant.get("properties").cloned() else { continue };
            let doc = variant.get("description").cloned();
            *variant = serde_json::json!({ "$ref": target });
            moves.push((target.rsplit('/').next().unwrap_or(&target).to_string(), props, doc));
        }
    }
    for (name, props, doc) in moves {
        let Some(Value::Object(def)) = defs.get_mut(&name) else { continue };
        let mut merged = props.clone();
        if let Some(Value::Object(own)) = def.remove("properties") {
            merged.extend(own);
        }
        def.insert("properties".into(), Value::Object(merged));
        let mut required: Vec<Value> = props.keys().map(|k| Value::from(k.as_str())).collect();
        if let Some(Value::Array(own)) = def.remove("required") {
            required.extend(own);
        }
        def.insert("required".into(), Value::Array(required));
        if let (Some(d), false) = (doc, def.contains_key("description")) {
            def.insert("description".into(), d);
        }
    }
}

/// The host tools (registry::HOST_TOOLS): their types, errors and catalog entries, apart from the
/// engine's so that `ToolName` stays the engine's own.
fn host_typings(out: &mut String) {
    out.push_str("// Host tools: answered by the JS side (registry::HOST_TOOLS), offered where they can run.\n\n");
    tool_types(out, HOST_TOOLS.iter(), "the host tool ", [("HostToolArgsMap", "Args", ""), ("HostToolResultMap", "Result", "")]);
    out.push_str("/** The name of a host tool. */\nexport type HostToolName = keyof HostToolArgsMap;\n\n");
    out.push_str("/** The error messages each host tool can return (`<x>` marks a filled-in part). */\n");
    out.push_str("export const HOST_TOOL_ERRORS: Readonly<Record<HostToolName, readonly string[]>> = {\n");
    error_entries(out, HOST_TOOLS.iter());
    out.push_str(
        "/** A host tool's catalog entry; `untrustedContentHint` marks output that carries text made by users or models. */\n\
         export interface HostToolInfo extends Omit<ToolInfo, \"name\" | \"annotations\"> {\n  name: HostToolName;\n  \
         annotations: ToolInfo[\"annotations\"] & { untrustedContentHint?: true };\n}\n\n",
    );
    let entries: Vec<Value> = HOST_TOOLS
        .iter()
        .map(|t| {
            let mut info = t.info();
            if t.annotations.untrusted_content {
                info["annotations"]["untrustedContentHint"] = Value::Bool(true);
            }
            info
        })
        .collect();
    let catalog = serde_json::to_string_pretty(&entries).expect("the catalog serialises");
    let _ = writeln!(out, "/** Every host tool's catalog entry, in order. */\nexport const HOST_TOOL_CATALOG: readonly HostToolInfo[] = {catalog};\n");
    out.push_str(
        "/** A one-line summary template per tool, engine and host (registry `summary`): `{arg}`, `{arg:time}` (mm:ss.cc),\n \
         * `{arg:q}` (quoted), `{arg:n noun}` (count and noun), `[...]` left out when an argument in it is missing.\n \
         * `summarizeCall` in `neuralcut/agent` renders them. */\n\
         export const TOOL_SUMMARIES: Readonly<Record<ToolName | HostToolName, string>> = {\n",
    );
    for tool in TOOLS.iter().copied().chain(HOST_TOOLS) {
        let _ = writeln!(out, "  {}: {},", tool.name, literal(&Value::from(tool.summary)));
    }
    out.push_str("};\n");
}

/// The placeholders of a summary template: (argument, format). Errors name what is wrong.
pub fn summary_placeholders(template: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let mut optional = false;
    let mut rest = template;
    while let Some(i) = rest.find(['{', '[', ']', '}']) {
        let c = rest.as_bytes()[i];
        match c {
            b'[' if optional => return Err("nested [".into()),
            b'[' => optional = true,
            b']' if !optional => return Err("] without [".into()),
            b']' => optional = false,
            b'}' => return Err("} without {".into()),
            _ => {
                let end = rest[i..].find('}').ok_or("{ without }")? + i;
                let inner = &rest[i + 1..end];
                let (arg, format) = inner.split_once(':').unwrap_or((inner, ""));
                out.push((arg.to_string(), format.to_string()));
                rest = &rest[end + 1..];
                continue;
            }
        }
        rest = &rest[i + 1..];
    }
    if optional {
        return Err("[ without ]".into());
    }
    Ok(out)
}

/// The catalog is shipped as JS, not built by the wasm at run time: the schema builders then stay
/// out of the wasm (tens of KB of code) and `editor.tools()` costs one copy.
const CATALOG_HEADER: &str = "/** A tool's catalog entry (the same catalog MCP, WebMCP and Gemini are given). */
export interface ToolInfo {
  name: ToolName;
  title: string;
  description: string;
  /** JSON Schema 2020-12 of the arguments. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema 2020-12 of a successful result. */
  outputSchema: Record<string, unknown>;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
}

/** Every tool's catalog entry, in order: `registry::catalog()` of the Rust crate. */
";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_written_bare_only_when_it_is_a_javascript_identifier() {
        for key in ["a", "elementId", "_private", "$ref", "x1", "snake_case", "a$b"] {
            assert!(is_identifier(key), "{key}");
        }
        for key in ["", "1x", "transform.scaleX", "with-dash", "two words", "é", "_-"] {
            assert!(!is_identifier(key), "{key}");
        }
    }

    /// Fails when the committed typings differ from freshly generated ones. With
    /// `NEURALCUT_BLESS=1` it rewrites the file and then fails all the same, so a blessed run
    /// never counts as a pass (`npm run typings` runs it again without the switch).
    #[test]
    fn committed_typings_match_the_registry() {
        let bless = std::env::var_os("NEURALCUT_BLESS").is_some();
        for (rel, fresh) in [(TYPINGS_PATH, typings()), (ERROR_CODES_PATH, error_codes())] {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
            if bless {
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(&path, &fresh).unwrap();
                continue;
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(committed == fresh, "{rel} is out of date with the tool registry: run `npm run typings` and commit it");
        }
        assert!(!bless, "NEURALCUT_BLESS: wrote {TYPINGS_PATH} and {ERROR_CODES_PATH}; this run fails on purpose: review the diff, then run the tests without NEURALCUT_BLESS");
    }

    /// `ToolErrorResult` is generated from `ToolErrorJson`; `ToolError::to_json` writes the JSON.
    #[test]
    fn tool_error_json_has_the_generated_shape() {
        let schema = super::super::schema::output_schema::<super::super::ToolErrorJson>();
        let e = crate::ToolError::invalid_argument("times", "an array").with_hint("Pass seconds");
        let json = e.to_json();
        let Value::Object(fields) = &json else { panic!("{json}") };
        let props = schema["properties"].as_object().unwrap();
        assert_eq!(props.keys().collect::<Vec<_>>(), ["error", "code", "hint"]);
        assert_eq!(fields.keys().take(3).collect::<Vec<_>>(), ["error", "code", "hint"], "{json}");
        assert!(crate::ErrorCode::ALL.iter().any(|c| json["code"] == c.as_str()));
        assert!(schema.get("additionalProperties").is_none_or(|a| a != false), "details ride beside error");
        assert_eq!(json["argument"], "times");
    }

    #[test]
    fn every_tool_has_argument_and_result_types() {
        let t = typings();
        for tool in TOOLS {
            assert!(t.contains(&format!("  {}: {}Args;", tool.name, pascal(tool.name))), "{}", tool.name);
            assert!(t.contains(&format!("  {}: {}Result;", tool.name, pascal(tool.name))), "{}", tool.name);
        }
    }

    /// Each summary is a short line whose placeholders name the tool's own arguments with a
    /// known format; time formats only on numbers, counts only on arrays, required arguments
    /// outside `[...]`.
    #[test]
    fn summaries_name_real_arguments_with_known_formats() {
        for tool in TOOLS.iter().copied().chain(HOST_TOOLS) {
            let t = tool.summary;
            assert!(!t.is_empty() && t.len() <= 80 && t.chars().next().unwrap().is_uppercase(), "{}: {t:?}", tool.name);
            let schema = tool.input_schema();
            let required: Vec<&str> = schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
            let mut optional_part = String::new();
            let mut depth = false;
            for ch in t.chars() {
                if ch == '[' {
                    depth = true;
                }
                if depth {
                    optional_part.push(ch);
                }
                if ch == ']' {
                    depth = false;
                }
            }
            for (arg, format) in summary_placeholders(t).unwrap_or_else(|e| panic!("{}: {e}", tool.name)) {
                assert!(tool.args().contains(&arg.as_str()), "{}: {{{arg}}} is not an argument", tool.name);
                let ty = &schema["properties"][&arg]["type"];
                match format.split(' ').next().unwrap() {
                    "" | "q" => {}
                    "time" => assert!(ty == "number" || schema["properties"][&arg]["items"]["type"] == "number", "{}: {arg} is not seconds", tool.name),
                    "n" => assert!(ty == "array" && format.split(' ').count() == 2, "{}: {arg}:{format}", tool.name),
                    other => panic!("{}: unknown format {other}", tool.name),
                }
                if !required.contains(&arg.as_str()) {
                    assert!(optional_part.contains(&format!("{{{arg}")), "{}: optional {arg} must sit inside [...]", tool.name);
                }
            }
        }
        let err = |t: &str| summary_placeholders(t).unwrap_err();
        assert_eq!(
            [err("a [b"), err("a {b"), err("[a [b]]"), err("a] b"), err("a} b"), err("[{x}] ]")],
            ["[ without ]", "{ without }", "nested [", "] without [", "} without {", "] without ["]
        );
        let pairs = |v: &[(&str, &str)]| v.iter().map(|(a, f)| (a.to_string(), f.to_string())).collect::<Vec<_>>();
        assert_eq!(summary_placeholders("Cut {elementId} at {time:time}[ to {end:time}]"), Ok(pairs(&[("elementId", ""), ("time", "time"), ("end", "time")])));
    }

    #[test]
    fn schemas_map_to_typescript() {
        let closed = serde_json::json!({ "type": "object", "properties": { "times": { "type": "array", "items": { "type": "number" } }, "x-y": { "enum": ["a", "b"] } }, "required": ["times"], "additionalProperties": false });
        assert_eq!(ts_type(&closed, ""), "{\n  times: number[];\n  \"x-y\"?: \"a\" | \"b\";\n}");
        let empty = serde_json::json!({ "type": "object", "properties": {}, "additionalProperties": false });
        assert_eq!(ts_type(&empty, ""), "Record<string, never>");
        let map = serde_json::json!({ "type": "object", "additionalProperties": { "type": ["number", "string"] } });
        assert_eq!(ts_type(&map, ""), "{ [key: string]: number | string }");
        assert_eq!(ts_type(&serde_json::json!({ "type": "array", "items": { "enum": [1, 2] } }), ""), "(1 | 2)[]");
        assert_eq!(ts_type(&serde_json::json!({ "const": "gemini" }), ""), "\"gemini\"");
    }
}
