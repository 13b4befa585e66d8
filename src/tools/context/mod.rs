//! load_asset_context without I/O: the core validates the call, answers from its cache, or tells
//! the host which asset to hand to its context provider (Gemini, through the proxy), then records
//! what the provider reported. The waiting happens in the host; the core never blocks.

mod cache;
pub mod load_asset_context;

pub use cache::ContextCache;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Ctx, ToolError};
use crate::model::{Asset, AssetType};

pub const PROVIDER: &str = "gemini";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ContextStatus {
    Active,
    Processing,
    Failed,
}

/// A cached provider file reference: the spec's cache entry plus the provider's expiry and summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContextRecord {
    pub asset_id: String,
    pub provider: String,
    pub file_uri: String,
    pub status: ContextStatus,
    /// Milliseconds since the Unix epoch, from the host's clock.
    pub created_at: f64,
    /// Milliseconds since the Unix epoch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires_at: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

impl ContextRecord {
    fn usable(&self, now: f64) -> bool {
        self.status != ContextStatus::Failed && self.expires_at.is_none_or(|t| t > now)
    }
}

/// What the host's provider is asked to do: make `asset` available, polling `previous` if it is
/// still processing rather than uploading again.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContextRequest {
    pub asset: Asset,
    pub previous: Option<ContextRecord>,
}

/// What a context provider reports back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProviderReport {
    pub file_uri: String,
    pub status: ContextStatus,
    /// Milliseconds since the Unix epoch.
    #[serde(default)]
    pub expires_at: Option<f64>,
    #[serde(default)]
    pub summary: Option<String>,
}

impl ProviderReport {
    /// A report from JSON text (`finishContext`), as `serde_json::from_str::<ProviderReport>`
    /// reads it (`model::fields::Expect`, which says where the position of an error can differ;
    /// a test compares them).
    pub fn from_json(text: &str) -> Result<ProviderReport, serde_json::Error> {
        crate::model::fields::from_text(text, report::Seed)
    }
}

/// `ProviderReport`'s derived visitor (`deny_unknown_fields`, the two options defaulted), over
/// `deserialize_any`.
mod report {
    use serde::de::{Error, MapAccess, SeqAccess, Visitor};
    use std::fmt;

    use super::{ContextStatus, ProviderReport};
    use crate::model::fields::{Expect, Scalar, OPTION_F64, OPTION_STRING, STRING};

    const FIELDS: &[&str] = &["fileUri", "status", "expiresAt", "summary"];
    const STATUS: Expect = Expect::variants(&["active", "processing", "failed"]);

    fn status(s: Scalar) -> ContextStatus {
        match s.text().as_deref() {
            Some("active") => ContextStatus::Active,
            Some("processing") => ContextStatus::Processing,
            _ => ContextStatus::Failed,
        }
    }

    pub struct Seed;

    impl<'de> serde::de::DeserializeSeed<'de> for Seed {
        type Value = ProviderReport;
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<ProviderReport, D::Error> {
            d.deserialize_any(Named("struct ProviderReport"))
        }
    }

    struct Named(&'static str);

    impl<'de> Visitor<'de> for Named {
        type Value = ProviderReport;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str(self.0)
        }

        crate::model::fields::not_a_struct!();

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ProviderReport, A::Error> {
            let short = |i| A::Error::invalid_length(i, &"struct ProviderReport with 4 elements");
            let file_uri = seq.next_element_seed(STRING)?.and_then(Scalar::text).ok_or_else(|| short(0))?;
            let status = seq.next_element_seed(STATUS)?.map(status).ok_or_else(|| short(1))?;
            let expires_at = seq.next_element_seed(OPTION_F64)?.and_then(Scalar::number);
            let summary = seq.next_element_seed(OPTION_STRING)?.and_then(Scalar::text);
            Ok(ProviderReport { file_uri, status, expires_at, summary })
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ProviderReport, A::Error> {
            // Each field as it came (`None` while not seen), `null` for an option given as null.
            let mut given: [Option<Scalar>; 4] = [None, None, None, None];
            while let Some(key) = map.next_key_seed(STRING)?.and_then(Scalar::text) {
                let Some(i) = FIELDS.iter().position(|f| *f == key) else { return Err(A::Error::unknown_field(&key, FIELDS)) };
                if given[i].is_some() {
                    return Err(A::Error::duplicate_field(FIELDS[i]));
                }
                given[i] = Some(map.next_value_seed([STRING, STATUS, OPTION_F64, OPTION_STRING][i])?);
            }
            let [file_uri, status_given, expires_at, summary] = given;
            Ok(ProviderReport {
                file_uri: file_uri.and_then(Scalar::text).ok_or_else(|| A::Error::missing_field("fileUri"))?,
                status: status_given.map(status).ok_or_else(|| A::Error::missing_field("status"))?,
                expires_at: expires_at.and_then(Scalar::number),
                summary: summary.and_then(Scalar::text),
            })
        }
    }
}

/// The next step of a load_asset_context call.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // one per call, returned at once: boxing would only add an allocation
pub enum ContextStep {
    /// Answered from the cache.
    Done(Value),
    /// The host must call its provider with this request, then `finish`.
    Fetch(ContextRequest),
}

/// An asynchronous context provider, for Rust hosts and tests. The JS package drives the same two
/// steps with a Promise-returning callback.
pub trait ContextProvider {
    fn supported_types(&self) -> &[AssetType] {
        &[AssetType::Video, AssetType::Audio, AssetType::Image]
    }
    /// Uploads or polls; `Err` carries a safe, human-readable detail.
    fn load(&mut self, request: &ContextRequest) -> impl std::future::Future<Output = Result<ProviderReport, String>>;
}

fn output(record: &ContextRecord, cached: bool) -> Value {
    let mut out = crate::text::obj([
        ("assetId", record.asset_id.as_str().into()),
        ("status", if record.status == ContextStatus::Active { "loaded" } else { "processing" }.into()),
        ("cached", cached.into()),
        ("provider", PROVIDER.into()),
        ("fileUri", record.file_uri.as_str().into()),
    ]);
    if let Some(s) = &record.summary {
        out["summary"] = Value::from(s.clone());
    }
    out
}

/// Resolves the asset by id, or by file name when exactly one asset has that name.
fn resolve<'a>(assets: &'a [Asset], key: &str) -> Option<&'a Asset> {
    assets.iter().find(|a| a.id == key).or_else(|| {
        let mut named = assets.iter().filter(|a| a.name == key);
        match (named.next(), named.next()) {
            (Some(a), None) => Some(a),
            _ => None,
        }
    })
}

/// Step one: validate, answer from the cache, or ask for a provider call.
pub fn begin(ctx: &Ctx, args: load_asset_context::Arguments, cache: &ContextCache, supported: &[AssetType], now: f64) -> Result<ContextStep, ToolError> {
    let key = args.asset_id.id(ToolError::asset_not_found)?;
    let project = ctx.project()?;
    let asset = resolve(&project.assets, key).ok_or_else(|| ToolError::asset_not_found().with_hint("Call list_project_assets to get asset ids."))?;
    if !supported.contains(&asset.kind) {
        return Err(ToolError::unsupported_asset_type());
    }
    let previous = cache.get(&asset.id).filter(|r| r.usable(now));
    match previous {
        Some(r) if r.status == ContextStatus::Active => Ok(ContextStep::Done(output(r, true))),
        _ => Ok(ContextStep::Fetch(ContextRequest { asset: asset.clone(), previous: previous.cloned() })),
    }
}

/// Step two: record the provider's report and answer the call.
pub fn finish(cache: &mut ContextCache, request: &ContextRequest, result: Result<ProviderReport, String>, now: f64) -> Result<Value, ToolError> {
    let asset_id = request.asset.id.clone();
    let report = match result {
        Ok(r) if r.status != ContextStatus::Failed && !r.file_uri.is_empty() => r,
        Ok(r) => {
            let detail = if r.file_uri.is_empty() { "provider returned no file" } else { "provider could not process the file" };
            return Err(failed(cache, &asset_id, &r.file_uri, now, detail));
        }
        Err(detail) => return Err(failed(cache, &asset_id, "", now, &detail)),
    };
    let reused = request.previous.as_ref().filter(|p| p.file_uri == report.file_uri);
    let record = ContextRecord {
        asset_id: asset_id.clone(),
        provider: PROVIDER.to_string(),
        file_uri: report.file_uri,
        status: report.status,
        created_at: reused.map_or(now, |p| p.created_at),
        expires_at: report.expires_at,
        summary: report.summary.or_else(|| reused.and_then(|p| p.summary.clone())),
    };
    let out = output(&record, reused.is_some());
    cache.insert(record);
    Ok(out)
}

fn failed(cache: &mut ContextCache, asset_id: &str, file_uri: &str, now: f64, detail: &str) -> ToolError {
    cache.insert(ContextRecord {
        asset_id: asset_id.to_string(),
        provider: PROVIDER.to_string(),
        file_uri: file_uri.to_string(),
        status: ContextStatus::Failed,
        created_at: now,
        expires_at: None,
        summary: None,
    });
    ToolError::context_failed().with("details", detail)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: ContextStatus, expires_at: Option<f64>) -> ContextRecord {
        ContextRecord { asset_id: "a1".into(), provider: "gemini".into(), file_uri: "files/x".into(), status, created_at: 0.0, expires_at, summary: None }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn provider_report_text_reads_as_from_str_does() {
        let texts = [
            r#"{"fileUri":"gs://a","status":"active","expiresAt":1733000000000,"summary":"A clip"}"#,
            r#"{"fileUri":"gs://a","status":"processing"}"#,
            r#"{"status":"failed","fileUri":"u","expiresAt":null,"summary":null}"#,
            r#"{"fileUri":"u","status":"ready"}"#,
            r#"{"fileUri":"u","status":{"active":null}}"#,
            r#"{"fileUri":"u","status":{"nope":null}}"#,
            r#"{"fileUri":"u","status":{"active":1}}"#,
            r#"{"fileUri":5,"status":"active"}"#,
            r#"{"fileUri":"u","status":"active","expiresAt":"soon"}"#,
            r#"{"fileUri":"u","status":"active","summary":1.5}"#,
            r#"{"fileUri":"u","status":"active","other":1}"#,
            r#"{"fileUri":"u","fileUri":"v","status":"active"}"#,
            r#"{"status":"active"}"#,
            r#"{"fileUri":"u"}"#,
            r#"["u","active",1,"s"]"#,
            r#"["u","active"]"#,
            r#"["u"]"#,
            r#"{"fileUri":"u","status":5}"#,
            "null",
            "[]",
            "\"report\"",
            "{",
        ];
        let differs = [
            r#"{"fileUri":["u"],"status":"active"}"#,
            r#"{"fileUri":"u","status":"active","summary":{"a":1}}"#,
            r#"{"fileUri":"u","status":null}"#,
            r#"{"fileUri":"u","status":true}"#,
        ];
        crate::model::fields::tests::same_text(ProviderReport::from_json, &texts, &differs);
    }

    /// A file the provider says expires at `t` is gone at `t` itself: the cache must not hand it
    /// out at that instant (cargo-mutants found `t > now` replaceable by `t >= now`).
    #[test]
    fn a_record_is_usable_strictly_before_it_expires_and_never_when_failed() {
        assert!(record(ContextStatus::Active, Some(1000.0)).usable(999.0));
        assert!(!record(ContextStatus::Active, Some(1000.0)).usable(1000.0));
        assert!(!record(ContextStatus::Active, Some(1000.0)).usable(1001.0));
        assert!(record(ContextStatus::Processing, None).usable(1e15), "no expiry: usable");
        assert!(!record(ContextStatus::Failed, None).usable(0.0));
    }
}
