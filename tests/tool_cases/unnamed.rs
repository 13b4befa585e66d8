//! What a call did not name (docs/testing.md, "The case harness"): after a successful edit, undo
//! or redo, the saved elements a case does not name must be exactly as before.

use std::collections::{BTreeSet, HashMap};

use serde_json::{json, Value};

/// Every saved element by id: the track that holds it and its saved JSON (zero trims, which the
/// saved form leaves out, read as the 0 they mean).
fn saved_elements(project: &Option<Value>) -> HashMap<String, (String, Value)> {
    let mut out = HashMap::new();
    let tracks = project.as_ref().and_then(|p| p["timeline"]["tracks"].as_array().cloned()).unwrap_or_default();
    for t in &tracks {
        for e in t["elements"].as_array().into_iter().flatten() {
            let mut e = e.clone();
            for key in ["trimStart", "trimEnd"] {
                e.as_object_mut().expect("an element is an object").entry(key).or_insert(json!(0));
            }
            out.insert(e["id"].as_str().unwrap_or_default().to_string(), (t["id"].as_str().unwrap_or_default().to_string(), e));
        }
    }
    out
}

/// The saved fields list_timeline shows (src/tools/listing.rs writes them, in seconds or as is).
/// Not shown: trimEnd, retime (only its rate is listed), x, y, style, the transform (scaleX,
/// scaleY, rotate, opacity, blendMode), animations, locked and the fields kept without modelling.
const LISTED_FIELDS: &[&str] = &[
    "id",
    "type",
    "assetId",
    "name",
    "start",
    "duration",
    "hidden",
    "trimStart",
    "volume",
    "muted",
    "content",
    "position",
    "fontSize",
    "fontFamily",
    "color",
    "fontWeight",
    "fontStyle",
    "textAlign",
    "textDecoration",
    "background",
    "letterSpacing",
    "lineHeight",
    "backgroundPaddingX",
    "backgroundPaddingY",
    "backgroundOffsetX",
    "backgroundOffsetY",
    "backgroundCornerRadius",
    "stickerId",
    "effectType",
    "params",
];

/// After a successful edit: an element the case does not name is exactly as before, by id, track
/// and saved JSON, so a tool that touches a neighbour fails (a new or removed element is a
/// change too). An element named in `elements` may differ from before only in the fields named
/// there (`trackId` for its track); no field counts as derived, so a case that moves a text names
/// its new `x`/`y` as well as its `position`. In a case that states the whole `timeline`, every
/// element counts as named for the fields list_timeline shows ([`LISTED_FIELDS`]; the stated
/// timeline pins them, and its track): any other saved field that changed must be named in
/// `elements`, and an element that appears or goes must be in the stated timeline.
pub fn check_unnamed_elements(before: &Option<Value>, after: &Option<Value>, named: Option<&Value>, whole_timeline: bool) -> Result<(), String> {
    let (b, a) = (saved_elements(before), saved_elements(after));
    let named = named.and_then(Value::as_object);
    let mut ids: Vec<&String> = b.keys().chain(a.keys().filter(|id| !b.contains_key(*id))).collect();
    ids.sort();
    let mut problems = Vec::new();
    let describe = |e: Option<&(String, Value)>| e.map_or("absent".to_string(), |(t, e)| format!("on {t}: {e}"));
    for id in ids {
        let (was, now) = (b.get(id), a.get(id));
        if was == now {
            continue;
        }
        let fields = match named.and_then(|n| n.get(id)) {
            Some(Value::Object(f)) => Some(f),
            Some(_) => continue, // null: gone, checked with the named fields
            None if whole_timeline => None,
            None => {
                problems.push(format!("element {id}, which the case does not name, changed: before {}, after {}", describe(was), describe(now)));
                continue;
            }
        };
        // New or gone: the named fields (or the stated timeline) say what it is.
        let (Some((was_track, was)), Some((now_track, now))) = (was, now) else { continue };
        let is_named = |k: &str| fields.is_some_and(|f| f.contains_key(k)) || (whole_timeline && LISTED_FIELDS.contains(&k));
        if was_track != now_track && !is_named("trackId") && !whole_timeline {
            problems.push(format!("element {id} moved from {was_track} to {now_track}, and the case names no trackId"));
        }
        let keys: BTreeSet<&String> = was.as_object().unwrap().keys().chain(now.as_object().unwrap().keys()).collect();
        for k in keys.into_iter().filter(|k| !is_named(k) && was.get(*k) != now.get(*k)) {
            let show = |e: &Value| e.get(k).map_or("absent".into(), Value::to_string);
            problems.push(format!("element {id}.{k} changed ({} to {}), and the case does not name it", show(was), show(now)));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n    "))
    }
}
