//! list_timeline's output, serialised straight from the timeline (on 10 000 elements a value
//! tree costs several times more than the text), with each track's text cached by identity.
//!
//! Tracks are immutable values shared by `Arc`: an edit replaces the tracks it touches and keeps
//! the others. So a track's text stays right for as long as that very `Arc` is alive, and after
//! a one-element edit list_timeline re-serialises one track instead of all of them.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::value::RawValue;

use super::Output;
use crate::effects;
use crate::model::{Element, ElementType, Timeline, Track};
use crate::time::{ticks_to_seconds, TICKS_PER_SECOND};

/// Track texts by track allocation. The `Weak` keeps the allocation (not the track) alive, so an
/// address in the map cannot be reused by another track while its entry exists.
#[derive(Clone, Debug, Default)]
pub struct ListingCache {
    tracks: HashMap<usize, (Weak<Track>, Box<RawValue>)>,
}

/// list_timeline's output for `tl`, reusing and refreshing `cache` when given.
pub fn list(tl: &Timeline, cache: Option<&mut ListingCache>) -> Output {
    let Some(cache) = cache else {
        let texts: Vec<Box<RawValue>> = tl.tracks.iter().map(|t| track_text(t)).collect();
        let texts: Vec<&RawValue> = texts.iter().map(|t| &**t).collect();
        return join(&texts, tl.end());
    };
    let mut fresh = HashMap::with_capacity(tl.tracks.len());
    for track in &tl.tracks {
        let key = Arc::as_ptr(track) as usize;
        let text = match cache.tracks.remove(&key) {
            Some((weak, text)) if weak.upgrade().is_some_and(|t| Arc::ptr_eq(&t, track)) => text,
            _ => track_text(track),
        };
        fresh.insert(key, (Arc::downgrade(track), text));
    }
    // Entries of tracks no longer in the timeline go now, with their allocations.
    cache.tracks = fresh;
    let texts: Vec<&RawValue> = tl.tracks.iter().map(|t| &*cache.tracks[&(Arc::as_ptr(t) as usize)].1).collect();
    join(&texts, tl.end())
}

fn track_text(track: &Track) -> Box<RawValue> {
    serde_json::value::to_raw_value(&TrackView(track)).expect("a track always serialises")
}

fn join(texts: &[&RawValue], end: i64) -> Output {
    Output::from_serialize(&Listing { tracks: texts, end })
}

struct Listing<'a> {
    tracks: &'a [&'a RawValue],
    end: i64,
}

impl Serialize for Listing<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("tracks", self.tracks)?;
        m.serialize_entry("duration", &Seconds(self.end))?;
        m.end()
    }
}

struct TrackView<'a>(&'a Track);
/// What list_timeline says of one element: ids and times, plus what an agent needs to recognise
/// it (text content, effect and params, sticker, volume).
struct ElementView<'a>(&'a Element);
struct Seconds(i64);

impl Serialize for Seconds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if self.0 % TICKS_PER_SECOND == 0 {
            s.serialize_i64(self.0 / TICKS_PER_SECOND)
        } else {
            s.serialize_f64(ticks_to_seconds(self.0))
        }
    }
}

/// Serialises a slice through a view constructor without collecting the views.
struct SeqView<'a, T, V, F: Fn(&'a T) -> V>(&'a [T], F);

impl<'a, T, V: Serialize, F: Fn(&'a T) -> V> Serialize for SeqView<'a, T, V, F> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(&self.1))
    }
}

impl Serialize for TrackView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("trackId", &t.id)?;
        m.serialize_entry("type", t.kind.as_str())?;
        if let Some(n) = &t.name {
            m.serialize_entry("name", n)?;
        }
        m.serialize_entry("elements", &SeqView(&t.elements, |e: &Arc<Element>| ElementView(e)))?;
        m.end()
    }
}

impl Serialize for ElementView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("elementId", &e.id)?;
        m.serialize_entry("type", e.kind.as_str())?;
        if let Some(a) = &e.asset_id {
            m.serialize_entry("assetId", a)?;
        }
        if let Some(n) = &e.name {
            m.serialize_entry("name", n)?;
        }
        m.serialize_entry("start", &Seconds(e.start))?;
        m.serialize_entry("end", &Seconds(e.end()))?;
        m.serialize_entry("duration", &Seconds(e.duration))?;
        match e.kind {
            ElementType::Video | ElementType::Audio => {
                m.serialize_entry("trimStart", &Seconds(e.trim_start))?;
                m.serialize_entry("volume", &effects::number(e.volume.unwrap_or(1.0)))?;
            }
            ElementType::Text => {
                m.serialize_entry("text", e.content.as_deref().unwrap_or_default())?;
                if let Some(p) = &e.position {
                    m.serialize_entry("position", p)?;
                }
            }
            ElementType::Sticker => {
                m.serialize_entry("stickerId", e.sticker_id.as_deref().unwrap_or_default())?;
                if let Some(p) = &e.position {
                    m.serialize_entry("position", p)?;
                }
            }
            ElementType::Effect => {
                m.serialize_entry("effectType", e.effect_type.as_deref().unwrap_or_default())?;
                m.serialize_entry("params", &e.params.clone().unwrap_or_default())?;
            }
            ElementType::Image => {}
        }
        m.end()
    }
}

