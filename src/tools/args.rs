//! Reading tool arguments: strict keys first, then typed getters that leave the choice of error
//! message to the tool, so the spec's own strings win over generic ones.

use serde_json::{Map, Value};

use super::ToolError;
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
            sorted.sort_unstable();
            return Err(ToolError::unknown_argument(tool, bad, &sorted));
        }
        Ok(Args { map })
    }

    /// Every argument as given.
    pub fn map(&self) -> &'a Map<String, Value> {
        self.map
    }

    /// The value of `key`; an explicit `null` counts as absent.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// A required non-empty string, or `err`.
    pub fn id(&self, key: &str, err: fn() -> ToolError) -> Result<&'a str, ToolError> {
        match self.get(key) {
            Some(Value::String(s)) if !s.trim().is_empty() => Ok(s.as_str()),
            _ => Err(err()),
        }
    }

    /// A required array of non-empty strings with at least one entry, deduplicated in order.
    pub fn id_list(&self, key: &str, err: fn() -> ToolError) -> Result<Vec<String>, ToolError> {
        let Some(Value::Array(items)) = self.get(key) else { return Err(err()) };
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
    pub fn seconds(&self, key: &str) -> Result<Option<i64>, ()> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => v.as_f64().and_then(seconds_to_ticks).map(Some).ok_or(()),
        }
    }

    /// An optional string that must be one of `choices`.
    pub fn choice(&self, key: &str, choices: &[&'static str]) -> Result<Option<&'static str>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => choices
                .iter()
                .find(|c| **c == s.as_str())
                .copied()
                .map(Some)
                .ok_or_else(|| ToolError::invalid_argument(key, &one_of(choices))),
            Some(_) => Err(ToolError::invalid_argument(key, &one_of(choices))),
        }
    }

    /// An optional string of any content.
    pub fn string(&self, key: &str) -> Result<Option<&'a str>, ToolError> {
        match self.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.as_str())),
            Some(_) => Err(ToolError::invalid_argument(key, "a string")),
        }
    }
}

pub fn one_of(choices: &[&str]) -> String {
    format!("one of: {}", choices.join(", "))
}
