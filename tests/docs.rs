//! docs/tools.md is generated from the tool registry, with every example run against
//! tests/fixtures/docs.json, so the reference cannot drift from the code. Regenerate with
//! `NEURALCUT_BLESS=1 cargo test --test docs`: it writes the file and then fails, so a blessed run
//! never counts as a pass; run it again without the switch.

use neuralcut::tools::context::{ContextProvider, ContextRequest, ContextStatus, ProviderReport};
use neuralcut::tools::registry::{ToolDef, COMMON_ERRORS, HOST_TOOLS, TOOLS};
use neuralcut::Editor;
use serde_json::Value;

const FIXTURE: &str = include_str!("fixtures/docs.json");
const DOC_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/tools.md");

/// A provider that answers at once, so the load_asset_context example shows a real output.
struct Ready;

impl ContextProvider for Ready {
    async fn load(&mut self, req: &ContextRequest) -> Result<ProviderReport, String> {
        Ok(ProviderReport {
            file_uri: format!("https://generativelanguage.googleapis.com/v1beta/files/{}", req.asset.id),
            status: ContextStatus::Active,
            expires_at: None,
            summary: Some("A person talks to the camera in an office.".into()),
        })
    }
}

/// Polls a future that never waits (the provider above answers at once).
fn ready<F: std::future::Future>(f: F) -> F::Output {
    let mut f = std::pin::pin!(f);
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    match f.as_mut().poll(&mut cx) {
        std::task::Poll::Ready(v) => v,
        std::task::Poll::Pending => panic!("the docs provider never waits"),
    }
}

fn type_of(schema: &Value) -> String {
    if let Some(values) = schema["enum"].as_array() {
        return values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(" \\| ");
    }
    if let Some(c) = schema.get("const") {
        return c.to_string();
    }
    match &schema["type"] {
        Value::String(t) if t == "array" => format!("{}[]", type_of(&schema["items"])),
        Value::String(t) => t.clone(),
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" \\| "),
        _ => "any".into(),
    }
}

fn fields(schema: &Value, with_description: bool) -> String {
    let required: Vec<&str> = schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let props = schema["properties"].as_object().cloned().unwrap_or_default();
    if props.is_empty() {
        return "None.\n".into();
    }
    let mut out = String::from(if with_description {
        "| name | type | required | description |\n|---|---|---|---|\n"
    } else {
        "| field | type | always |\n|---|---|---|\n"
    });
    for (name, prop) in &props {
        let req = if required.contains(&name.as_str()) { "yes" } else { "no" };
        if with_description {
            out += &format!("| `{name}` | {} | {req} | {} |\n", type_of(prop), prop["description"].as_str().unwrap_or(""));
        } else {
            out += &format!("| `{name}` | {} | {req} |\n", type_of(prop));
        }
    }
    out
}

fn example(tool: &ToolDef) -> String {
    let args: Value = serde_json::from_str(tool.example).expect("registry examples are JSON");
    let mut ed = Editor::from_json(FIXTURE).expect("docs fixture loads");
    if tool.name == "redo" {
        ed.call_tool("split", &serde_json::json!({ "times": [2.5] })).unwrap();
        ed.undo();
    }
    // The keyframe tools that change a keyframe need one: a fade in on the title first.
    if matches!(tool.name, "remove_keyframe" | "update_keyframe_curve") {
        for (time, value) in [(0.0, 0.0), (0.5, 1.0)] {
            ed.call_tool("upsert_keyframe", &serde_json::json!({ "elementId": "e7", "property": "opacity", "time": time, "value": value })).unwrap();
        }
    }
    // export_subtitles needs captions: import_subtitles's example first.
    if tool.name == "export_subtitles" {
        let file: Value = serde_json::from_str(neuralcut::tools::registry::find("import_subtitles").unwrap().example).unwrap();
        ed.call_tool("import_subtitles", &file).unwrap();
    }
    if tool.name == "undo" {
        ed.call_tool("split", &serde_json::json!({ "times": [2.5] })).unwrap();
    }
    let result = if tool.name == "load_asset_context" { ready(ed.load_asset_context(&mut Ready, &args, 0.0)) } else { ed.call_tool(tool.name, &args) };
    let out = result.unwrap_or_else(|e| panic!("the example of {} fails: {}", tool.name, e.message));
    format!("```json\n{}\n```\n\nreturns\n\n```json\n{}\n```\n", serde_json::to_string(&args).unwrap(), serde_json::to_string_pretty(&out).unwrap())
}

fn render() -> String {
    let common: String = COMMON_ERRORS.iter().map(|e| format!("- `{e}`\n")).collect();
    let mut md = format!(
        "# Tool reference\n\n\
         Generated from the tool registry (`src/tools/registry.rs`) by `tests/docs.rs`: do not edit by hand, run \
         `NEURALCUT_BLESS=1 cargo test --test docs`. Every example below is run against `tests/fixtures/docs.json` \
         when the tests run.\n\n\
         Conventions: every time is in timeline seconds (the engine keeps exact integer ticks, 120 000 per second, \
         and rounds a seconds value to the nearest tick). Unknown arguments are refused with an error that names them. \
         A failed call changes nothing. Errors come back as `{{ \"error\": <message>, \"code\": <STABLE_CODE>, \"hint\"?: … }}`; \
         the messages are the tool spec's own strings.\n\n\
         Besides the errors listed under each tool, any tool can return these (`<x>` marks a filled-in part):\n\n{common}\n\
         | tool | title | read-only | destructive | idempotent | open world | untrusted output |\n|---|---|---|---|---|---|---|\n",
    );
    let yes = |b: bool| if b { "yes" } else { "no" };
    for t in TOOLS {
        let a = t.annotations;
        md += &format!(
            "| [`{}`](#{}) | {} | {} | {} | {} | {} | {} |\n",
            t.name,
            t.name,
            t.title,
            yes(a.read_only),
            yes(a.destructive),
            yes(a.idempotent),
            yes(a.open_world),
            yes(a.untrusted_content)
        );
    }
    for t in TOOLS {
        md += &format!("\n## {}\n\n**{}.** {}\n\n### Arguments\n\n{}", t.name, t.title, t.description, fields(&t.input_schema(), true));
        md += &format!("\n### Output\n\n{}", fields(&t.output_schema(), false));
        md += "\n### Errors\n\n";
        if t.errors.is_empty() {
            md += "None: it always answers.\n";
        }
        for e in t.errors {
            md += &format!("- `{e}`\n");
        }
        md += &format!("\n### Example\n\n{}", example(t));
    }
    md += "\n# Host tools\n\n\
           Declared in the same registry (`HOST_TOOLS`) but answered by the JS side, and offered only where they \
           can run: `media_import` in Node sessions (`npx neuralcut mcp`, with or without `--bridge`, and the CLI; docs/mcp.md), \
           `transcribe_video` by the in-page agent (docs/agent.md) and by `npx neuralcut mcp --whisper <model>` (docs/transcribe.md), `detect_silences` and `detect_scenes` by the in-page agent, WebMCP, `npx neuralcut mcp` (with or without `--bridge`) and the CLI \
           (docs/silences.md, docs/scenes.md), `review_clip` by the in-page agent in a browser that can encode video (docs/agent.md), `render_preview` wherever a compositor is at \
           hand (MCP, WebMCP with a renderer, the in-page agent, the CLI's `render-frame`; docs/render.md), \
           `export_video`, `jobs_list` and `jobs_cancel` in `npx neuralcut mcp` (docs/export.md), the `ui_*` tools \
           in `npx neuralcut mcp --bridge` (docs/bridge.md), \
           `list_skills` and `load_skill` by the in-page agent, `submit_plan` and `ask_user` by the in-page \
           agent when its host passes `onPlan` and `askUser` (docs/agent.md). \
           `editor.tools()` does not list them; `HOST_TOOL_CATALOG` in the typings does. Every tool, engine and \
           host, has a one-line summary template for tool cards (`TOOL_SUMMARIES`, rendered by `summarizeCall`).\n";
    for t in HOST_TOOLS {
        md += &format!("\n## {}\n\n**{}.** {}\n\n### Arguments\n\n{}", t.name, t.title, t.description, fields(&t.input_schema(), true));
        md += &format!("\n### Output\n\n{}", fields(&t.output_schema(), false));
        md += "\n### Errors\n\n";
        for e in t.errors {
            md += &format!("- `{e}`\n");
        }
    }
    md
}

const ERRORS_PATH: &str = "docs/errors.md";

fn errors_md() -> String {
    let mut md = String::from(
        "# Error codes\n\n\
         Generated from `src/error_code.rs` by `tests/docs.rs` (`NEURALCUT_BLESS=1 cargo test --test docs`). Every \
         error of the package carries one of these codes: tool failures as `{ error, code, ... }` values, thrown errors \
         as `NeuralCutError` (or a subclass that adds fields: `AgentError`, `ProxyError`, `UploadRefusedError`, \
         `HistoryTooLargeError`, `MediaProbeError`, the proxy's `RequestError`, `BudgetError`, `StoreError` and \
         `UpstreamError`) with `code`, typed `ErrorCode`. The list is `ERROR_CODES` in the typings; codes only the \
         TypeScript layer gives are declared in the same Rust list. The proxy sends its codes lower-cased on the wire \
         (`rate_limited`); `ProxyError.code` upper-cases them (`RATE_LIMITED`), and is `HTTP_ERROR` for an answer \
         with no code of this list (`status` holds the HTTP status). A call cancelled through an `AbortSignal` \
         rejects with the signal's reason, as `fetch` does. The effects module's errors carry `INVALID_EFFECT_LIST`, \
         `INVALID_OPTIONS`, `SOURCE_TOO_SMALL`, `NO_CANVAS`, `NOTHING_RENDERED`, `RENDERER_DESTROYED`, `RENDER_FAILED` \
         and, for a GPU backend asked for by name that cannot open, `NO_GPU`.\n\n\
         | code | meaning |\n|---|---|\n",
    );
    for c in neuralcut::ErrorCode::ALL {
        md += &format!("| `{}` | {} |\n", c.as_str(), c.meaning());
    }
    md
}

#[test]
fn errors_md_matches_the_codes() {
    let fresh = errors_md();
    if std::env::var_os("NEURALCUT_BLESS").is_some() {
        std::fs::write(ERRORS_PATH, &fresh).unwrap();
        panic!("NEURALCUT_BLESS: wrote {ERRORS_PATH}; this run fails on purpose: review the diff, then run the tests without NEURALCUT_BLESS");
    }
    let current = std::fs::read_to_string(ERRORS_PATH).unwrap_or_default();
    assert!(
        current == fresh,
        "{ERRORS_PATH} is out of date: run `NEURALCUT_BLESS=1 cargo test --test docs`, review the diff, and run it again without the switch"
    );
}

/// Every tool, engine or host, has both schemas, made from its types, and accepts exactly the
/// arguments its input schema lists (both come from the argument type).
#[test]
fn every_tool_has_an_input_and_an_output_schema() {
    for t in TOOLS.iter().copied().chain(HOST_TOOLS) {
        assert!(t.input_schema().is_object(), "{}: no input schema", t.name);
        assert!(t.output_schema().is_object(), "{}: no output schema", t.name);
        let input = t.input_schema();
        let mut props: Vec<&str> = input["properties"].as_object().unwrap().keys().map(String::as_str).collect();
        let mut args = t.args().to_vec();
        args.sort_unstable();
        props.sort_unstable();
        assert_eq!(args, props, "{}: ToolDef.args must be the input schema's properties", t.name);
    }
}

/// A newcomer finds a tool from its name in one step: its module `src/tools/<family>/<name>.rs`
/// (definition, types, run function), its cases `tests/cases/<name>.json` and its section in
/// docs/tools.md.
#[test]
fn every_tool_is_found_from_its_name() {
    let modules: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/src/tools"))
        .unwrap()
        .map(|d| d.unwrap().path())
        .filter(|p| p.is_dir())
        .flat_map(|dir| std::fs::read_dir(dir).unwrap().map(|f| f.unwrap().file_name().to_string_lossy().into_owned()))
        .collect();
    let docs = std::fs::read_to_string(DOC_PATH).unwrap();
    for t in TOOLS {
        assert_eq!(modules.iter().filter(|m| **m == format!("{}.rs", t.name)).count(), 1, "{}: no module src/tools/*/{}.rs", t.name, t.name);
        let cases = match t.name {
            "undo" | "redo" => concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/undo_redo.json").to_string(),
            name => format!("{}/tests/cases/{name}.json", env!("CARGO_MANIFEST_DIR")),
        };
        assert!(std::path::Path::new(&cases).exists(), "{}: no {cases}", t.name);
        assert!(docs.contains(&format!("\n## {}\n", t.name)), "{}: not in {DOC_PATH}", t.name);
    }
}

#[test]
fn tools_md_matches_the_registry() {
    let fresh = render();
    if std::env::var_os("NEURALCUT_BLESS").is_some() {
        std::fs::write(DOC_PATH, &fresh).unwrap();
        panic!("NEURALCUT_BLESS: wrote docs/tools.md; this run fails on purpose: review the diff, then run the tests without NEURALCUT_BLESS");
    }
    let current = std::fs::read_to_string(DOC_PATH).unwrap_or_default();
    assert!(
        current == fresh,
        "docs/tools.md is out of date: run `NEURALCUT_BLESS=1 cargo test --test docs`, review the diff, and run it again without the switch"
    );
    assert_eq!(fresh.matches("\n## ").count(), TOOLS.len() + HOST_TOOLS.len());
}
