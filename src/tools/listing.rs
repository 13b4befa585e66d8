//! list_timeline's output, written straight from the timeline as JSON text, with each track's
//! text cached by identity.
//!
//! Tracks are immutable values shared by `Arc`: an edit replaces the tracks it touches and keeps
//! the others. So a track's text stays right for as long as that very `Arc` is alive, and after
//! a one-element edit list_timeline writes one track instead of all of them.
//!
//! The writer is by hand rather than through serde because on 10 000 elements serde's per-key
//! escaping was most of the cost: keys here are constants, and ids and names almost never need
//! escaping, so both are copied as they are. Rare values (floats, params, strings that need
//! escaping) still go through serde_json, so the text is byte for byte what serde would write.

use std::collections::HashMap;
use std::sync::{Arc, Weak};

use serde::Serialize;

use super::Output;
use crate::model::{Element, ElementType, Timeline, Track};
use crate::time::{ticks_to_seconds, TICKS_PER_SECOND};

/// Track texts by track allocation. The `Weak` keeps the allocation (not the track) alive, so an
/// address in the map cannot be reused by another track while its entry exists.
#[derive(Clone, Debug, Default)]
pub struct ListingCache {
    tracks: HashMap<usize, (Weak<Track>, Box<str>)>,
}

/// list_timeline's output for `tl`, reusing and refreshing `cache` when given.
pub fn list(tl: &Timeline, cache: Option<&mut ListingCache>) -> Output {
    let Some(cache) = cache else {
        let texts: Vec<Box<str>> = tl.tracks.iter().map(|t| track_text(t)).collect();
        return join(texts.iter().map(|t| &**t), tl.end());
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
    let texts = tl.tracks.iter().map(|t| &*cache.tracks[&(Arc::as_ptr(t) as usize)].1);
    join(texts, tl.end())
}

/// `{"tracks":[…],"duration":…}` around the tracks' texts.
fn join<'a>(texts: impl Iterator<Item = &'a str> + Clone, end: i64) -> Output {
    let len: usize = texts.clone().map(|t| t.len() + 1).sum();
    let mut w = Writer::with_capacity(len + 48);
    w.raw(r#"{"tracks":["#);
    for (i, text) in texts.enumerate() {
        if i > 0 {
            w.raw(",");
        }
        w.raw(text);
    }
    w.raw(r#"],"duration":"#);
    w.seconds(end);
    w.raw("}");
    Output::from_json_text(w.finish())
}

/// One track: `{"trackId":…,"type":…,"name"?:…,"elements":[…]}`.
fn track_text(t: &Track) -> Box<str> {
    // About 130 bytes per element of video; a guess that saves most regrowth.
    let mut w = Writer::with_capacity(64 + 160 * t.elements.len());
    w.raw(r#"{"trackId":"#);
    w.string(&t.id);
    w.raw(r#","type":""#);
    w.raw(t.kind.as_str());
    w.raw("\"");
    if let Some(n) = &t.name {
        w.raw(r#","name":"#);
        w.string(n);
    }
    w.raw(r#","elements":["#);
    // Read every element's common fields first, in a loop small enough for the CPU to have many
    // memory reads in flight; writing an entry is long enough that reading each element as its
    // turn comes left the writer waiting on memory for a quarter of its time.
    let common: Vec<Common> = t.elements.iter().map(|e| Common::of(e)).collect();
    for (i, c) in common.iter().enumerate() {
        if i > 0 {
            w.raw(",");
        }
        element(&mut w, c);
    }
    w.raw("]}");
    w.finish().into_boxed_str()
}

/// The fields of an element that every list_timeline entry reads.
struct Common<'a> {
    e: &'a Element,
    id: &'a str,
    kind: ElementType,
    asset_id: Option<&'a str>,
    name: Option<&'a str>,
    start: i64,
    duration: i64,
}

impl<'a> Common<'a> {
    fn of(e: &'a Element) -> Common<'a> {
        Common {
            e,
            id: &e.id,
            kind: e.kind,
            asset_id: e.asset_id.as_deref(),
            name: e.name.as_deref(),
            start: e.start,
            duration: e.duration,
        }
    }
}

/// What list_timeline says of one element: ids and times, plus what an agent needs to recognise
/// it (text content, effect and params, sticker, volume).
fn element(w: &mut Writer, c: &Common) {
    w.raw(r#"{"elementId":"#);
    w.string(c.id);
    w.raw(match c.kind {
        ElementType::Video => r#","type":"video""#,
        ElementType::Image => r#","type":"image""#,
        ElementType::Audio => r#","type":"audio""#,
        ElementType::Text => r#","type":"text""#,
        ElementType::Sticker => r#","type":"sticker""#,
        ElementType::Effect => r#","type":"effect""#,
    });
    if let Some(a) = c.asset_id {
        w.raw(r#","assetId":"#);
        w.string(a);
    }
    if let Some(n) = c.name {
        w.raw(r#","name":"#);
        w.string(n);
    }
    w.raw(r#","start":"#);
    w.seconds(c.start);
    w.raw(r#","end":"#);
    w.seconds(c.start + c.duration);
    w.raw(r#","duration":"#);
    w.seconds(c.duration);
    let e = c.e;
    match c.kind {
        ElementType::Video | ElementType::Audio => {
            w.raw(r#","trimStart":"#);
            w.seconds(e.trim_start);
            w.raw(r#","volume":"#);
            w.number(e.volume.unwrap_or(1.0));
        }
        ElementType::Text => {
            w.raw(r#","text":"#);
            w.string(e.content.as_deref().unwrap_or_default());
            w.position(e);
        }
        ElementType::Sticker => {
            w.raw(r#","stickerId":"#);
            w.string(e.sticker_id.as_deref().unwrap_or_default());
            w.position(e);
        }
        ElementType::Effect => {
            w.raw(r#","effectType":"#);
            w.string(e.effect_type.as_deref().unwrap_or_default());
            w.raw(r#","params":"#);
            match &e.params {
                Some(p) => w.serde(p),
                None => w.raw("{}"),
            }
        }
        ElementType::Image => {}
    }
    w.raw("}");
}

/// The text, and a scratch buffer for the values serde_json writes.
struct Writer(String, Vec<u8>);

impl Writer {
    fn with_capacity(n: usize) -> Writer {
        Writer(String::with_capacity(n), Vec::new())
    }

    fn finish(self) -> String {
        self.0
    }

    fn raw(&mut self, s: &str) {
        self.0.push_str(s);
    }

    /// A JSON string: copied between quotes when nothing in it needs escaping.
    fn string(&mut self, s: &str) {
        if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
            self.serde(s);
        } else {
            self.0.reserve(s.len() + 2);
            self.0.push('"');
            self.0.push_str(s);
            self.0.push('"');
        }
    }

    /// Seconds: whole numbers print without a fraction.
    fn seconds(&mut self, ticks: i64) {
        if ticks % TICKS_PER_SECOND == 0 {
            self.int(ticks / TICKS_PER_SECOND);
        } else {
            self.serde(&ticks_to_seconds(ticks));
        }
    }

    /// As [`crate::effects::number`] writes it: integral values without a fraction, NaN as null.
    fn number(&mut self, v: f64) {
        if v.fract() == 0.0 && v.abs() < 1e15 {
            self.int(v as i64);
        } else if v.is_finite() {
            self.serde(&v);
        } else {
            self.raw("null");
        }
    }

    /// Times under 100 s are most of a listing; writing their digits one by one skips a memcpy.
    fn int(&mut self, v: i64) {
        let digit = |d: i64| char::from(b'0' + d as u8);
        match v {
            0..=9 => self.0.push(digit(v)),
            10..=99 => {
                self.0.push(digit(v / 10));
                self.0.push(digit(v % 10));
            }
            _ => self.0.push_str(itoa::Buffer::new().format(v)),
        }
    }

    fn position(&mut self, e: &Element) {
        if let Some(p) = &e.position {
            self.raw(r#","position":"#);
            self.string(p);
        }
    }

    /// Values serde_json writes (floats, params, strings that need escaping), so they read
    /// exactly as in every other tool's output.
    fn serde<T: Serialize + ?Sized>(&mut self, v: &T) {
        self.1.clear();
        serde_json::to_writer(&mut self.1, v).expect("a listing value always serialises");
        self.0.push_str(std::str::from_utf8(&self.1).expect("serde_json writes UTF-8"));
    }
}
