//! load_asset_context across the boundary: the core's two steps, with the host's provider
//! (a Promise-returning JS callback) awaited in between by the TypeScript layer.

use crate::error_code::ErrorCode;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::{api_error, WasmEditor};
use crate::model::AssetType;
use crate::tools::context::{ContextRequest, ContextStep, ProviderReport};

/// Requests handed to the provider and not yet finished, by ticket: a list, as a host awaits a
/// few at a time (a `HashMap` here was 1.2 KB more wasm, 0.55 KB gzipped).
#[derive(Default)]
pub(super) struct Pending {
    next: u32,
    requests: Vec<(u32, ContextRequest)>,
}

#[wasm_bindgen]
impl WasmEditor {
    /// Step one. Returns a JSON string: `{ "kind": "done", "output": <output or error> }`, or
    /// `{ "kind": "fetch", "ticket": n, "request": { asset, previous } }` when the provider must
    /// be called. `supportedTypes` lists the asset types the provider accepts.
    #[wasm_bindgen(js_name = beginContext)]
    pub fn begin_context(&mut self, args_json: &str, supported_types: Vec<String>, now_ms: f64) -> Result<String, JsValue> {
        let supported = supported_types
            .iter()
            .map(|t| {
                AssetType::parse(t).ok_or_else(|| {
                    api_error(ErrorCode::InvalidProvider, &format!("contextProvider.supportedTypes may hold video, audio and image, not \"{t}\""))
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let args: Value = match serde_json::from_str(args_json) {
            Ok(v) => v,
            Err(_) => {
                return Ok(crate::text::json(&crate::text::obj([("kind", "done".into()), ("output", crate::ToolError::arguments_not_object().to_json())])))
            }
        };
        let out = match self.inner.begin_context(&args, &supported, now_ms) {
            Ok(ContextStep::Done(output)) => crate::text::obj([("kind", "done".into()), ("output", output)]),
            Err(e) => crate::text::obj([("kind", "done".into()), ("output", e.to_json())]),
            Ok(ContextStep::Fetch(request)) => {
                let p = &mut self.pending;
                p.next = p.next.wrapping_add(1);
                let ticket = p.next;
                let out = crate::text::obj([("kind", "fetch".into()), ("ticket", ticket.into()), ("request", json!(request))]);
                p.requests.retain(|(t, _)| *t != ticket);
                p.requests.push((ticket, request));
                out
            }
        };
        Ok(crate::text::json(&out))
    }

    /// Step two: what the provider reported for `ticket` — `reportJson` (a ProviderReport) on
    /// success, or `failure` (a short, safe detail) when it threw. Returns the tool's output or
    /// error as a JSON string.
    #[wasm_bindgen(js_name = finishContext)]
    pub fn finish_context(&mut self, ticket: u32, report_json: Option<String>, failure: Option<String>, now_ms: f64) -> Result<String, JsValue> {
        let at = self
            .pending
            .requests
            .iter()
            .position(|(t, _)| *t == ticket)
            .ok_or_else(|| api_error(ErrorCode::UnknownContextRequest, "finishContext was called with an unknown or finished ticket"))?;
        let (_, request) = self.pending.requests.swap_remove(at);
        let result = match (report_json, failure) {
            (Some(json), None) => ProviderReport::from_json(&json).map_err(|e| format!("the context provider returned an invalid report: {e}")),
            (_, Some(detail)) => Err(detail),
            (None, None) => Err("the context provider returned nothing".to_string()),
        };
        let out = match self.inner.finish_context(&request, result, now_ms) {
            Ok(v) => v,
            Err(e) => e.to_json(),
        };
        Ok(crate::text::json(&out))
    }

    /// Drops an asset's cached provider file; the next load_asset_context calls the provider.
    #[wasm_bindgen(js_name = forgetContext)]
    pub fn forget_context(&mut self, asset_id: &str) -> bool {
        self.inner.forget_context(asset_id)
    }
}
