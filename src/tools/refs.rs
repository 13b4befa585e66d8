//! Readable references: `clip-1`, `text-3`, `sticker-2`, `effect-1`, short names an agent can use
//! instead of opaque ids (OpenCut's are UUIDs).
//!
//! Stability: a reference is handed out the first time an element is seen (list_timeline, or a
//! call that uses a reference), in listing order, and is never given to another element or taken
//! back while the editor lives. Edits, undo and redo never renumber: a split's new right part gets
//! the next free number, a deleted element's reference stays reserved (undo brings it back under
//! the same name). Loading a project starts afresh. The table lives beside the listing cache,
//! outside the project and its history. `clip` covers video, image and audio elements.
//!
//! Tools take a reference wherever they take an element id (`elementId`, `elementIds`); outputs
//! always give canonical ids.

use crate::error_code::ErrorCode;
use std::collections::HashMap;

use serde_json::{Map, Value};
use smol_str::SmolStr;

use super::ToolError;
use crate::model::{ElementType, Timeline};

/// The reference classes, in the order their names are tried.
const CLASSES: [&str; 5] = ["clip", "text", "sticker", "effect", "graphic"];

fn class_of(kind: ElementType) -> usize {
    match kind {
        ElementType::Video | ElementType::Image | ElementType::Audio => 0,
        ElementType::Text => 1,
        ElementType::Sticker => 2,
        ElementType::Effect => 3,
        ElementType::Graphic => 4,
    }
}

/// The reference table: element id ↔ (class, number).
#[derive(Clone, Debug, Default)]
pub struct Refs {
    by_id: HashMap<SmolStr, (usize, u32)>,
    by_ref: HashMap<(usize, u32), SmolStr>,
    next: [u32; 5],
}

impl Refs {
    /// The element's reference, handing out the next number of its class if it has none yet.
    pub fn of(&mut self, id: &SmolStr, kind: ElementType) -> String {
        let (class, n) = match self.by_id.get(id) {
            Some(r) => *r,
            None => {
                let class = class_of(kind);
                self.next[class] += 1;
                let r = (class, self.next[class]);
                self.by_id.insert(id.clone(), r);
                self.by_ref.insert(r, id.clone());
                r
            }
        };
        format!("{}-{n}", CLASSES[class])
    }

    /// Gives every element of `tl` that has none a reference, in listing order.
    pub fn assign(&mut self, tl: &Timeline) {
        for t in &tl.tracks {
            for e in &t.elements {
                if !self.by_id.contains_key(&e.id) {
                    self.of(&e.id, e.kind);
                }
            }
        }
    }

    /// The canonical id `s` stands for: `None` when `s` is an element id or not shaped like a
    /// reference (the tool then judges it), the element's id when `s` is one of its references,
    /// an error listing the candidates when the reference is unknown or ambiguous.
    pub fn resolve(&mut self, tl: &Timeline, s: &str) -> Result<Option<SmolStr>, ToolError> {
        let Some((class, n)) = parse(s) else { return Ok(None) };
        self.assign(tl);
        let is_id = tl.find(s).is_some();
        let target = self.by_ref.get(&(class, n)).filter(|id| tl.find(id).is_some()).cloned();
        match (is_id, target) {
            (true, Some(id)) if id != s => Err(ToolError::new(
                ErrorCode::AmbiguousReference,
                format!("Ambiguous reference {s}: it is both an element id and the reference of element {id}"),
            )
            .with("candidates", vec![s.to_string(), id.to_string()])
            .with_hint("Use the elementId from list_timeline.")),
            (true, _) => Ok(None),
            (false, Some(id)) => Ok(Some(id)),
            (false, None) => {
                let candidates = self.candidates(tl, class);
                let listed = if candidates.is_empty() {
                    format!("the timeline has no {} elements", CLASSES[class])
                } else {
                    format!("candidates: {}", candidates.join(", "))
                };
                Err(ToolError::new(ErrorCode::UnknownReference, format!("Unknown reference {s}; {listed}"))
                    .with("candidates", candidates)
                    .with_hint("Call list_timeline to see each element's ref."))
            }
        }
    }

    /// `clip-2 (e24)` for every element of `class` on the timeline, in reference order.
    fn candidates(&self, tl: &Timeline, class: usize) -> Vec<String> {
        let mut found: Vec<(u32, &str)> = tl
            .tracks
            .iter()
            .flat_map(|t| t.elements.iter())
            .filter_map(|e| self.by_id.get(&e.id).filter(|(c, _)| *c == class).map(|(_, n)| (*n, e.id.as_str())))
            .collect();
        // Numbers are unique within a class, so ordering by number alone is the full order.
        crate::sort::stable_sort_by_key(&mut found, |&(n, _)| i64::from(n));
        found.into_iter().map(|(n, id)| format!("{}-{n} ({id})", CLASSES[class])).collect()
    }

    /// `args` with every reference under an id key replaced by its element id, or `None` when
    /// nothing needed replacing.
    pub fn resolve_args(&mut self, tl: Option<&Timeline>, args: &Map<String, Value>) -> Result<Option<Value>, ToolError> {
        let Some(tl) = tl else { return Ok(None) };
        let mut out: Option<Map<String, Value>> = None;
        for key in ["elementId", "elementIds"] {
            let Some(v) = args.get(key) else { continue };
            let replaced = match v {
                Value::String(s) => self.resolve(tl, s)?.map(|id| Value::from(id.as_str())),
                Value::Array(items) => {
                    let mut changed = false;
                    let mut list = Vec::with_capacity(items.len());
                    for item in items {
                        match item.as_str().map(|s| self.resolve(tl, s)).transpose()?.flatten() {
                            Some(id) => {
                                changed = true;
                                list.push(Value::from(id.as_str()));
                            }
                            None => list.push(item.clone()),
                        }
                    }
                    changed.then_some(Value::Array(list))
                }
                _ => None,
            };
            if let Some(new) = replaced {
                out.get_or_insert_with(|| args.clone()).insert(key.to_string(), new);
            }
        }
        Ok(out.map(Value::Object))
    }
}

/// `clip-3` → (0, 3). Case and a missing dash are forgiven (`Clip3`).
fn parse(s: &str) -> Option<(usize, u32)> {
    let lower = s.trim().to_ascii_lowercase();
    CLASSES.iter().enumerate().find_map(|(class, name)| {
        let rest = lower.strip_prefix(name)?;
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        digits.parse().ok().map(|n| (class, n))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_reference_shapes() {
        assert_eq!(parse("clip-3"), Some((0, 3)));
        assert_eq!(parse("Text-12"), Some((1, 12)));
        assert_eq!(parse("sticker2"), Some((2, 2)));
        assert_eq!(parse("effect-1"), Some((3, 1)));
        assert_eq!(parse("clip-0"), None);
        assert_eq!(parse("clip-"), None);
        assert_eq!(parse("e24"), None);
        assert_eq!(parse("clip-1a"), None);
        assert_eq!(parse("video-1"), None);
    }
}
