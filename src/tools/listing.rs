//! list_timeline's output, written straight from the timeline as JSON text, with each track's
//! text cached by identity.
//!
//! Tracks are immutable values shared by `Arc`: an edit replaces the tracks it touches and keeps
//! the others. So a track's text stays right for as long as that very `Arc` is alive, and after
//! a one-element edit list_timeline writes one track instead of all of them.
//!
//! The writer is by hand rather than through serde: on 10 000 elements serde's per-key escaping
//! and float formatting were most of the cost. Keys here are constants; ids and names are copied
//! as they are unless they need escaping; times are written from ticks, exactly. The text is
//! byte for byte what serde_json would write (a test checks the times; the tool cases, the rest).

use std::sync::{Arc, Weak};

use serde::Serialize;

use super::refs::Refs;
use super::Output;
use crate::model::{Element, ElementType, Timeline, Track};
use crate::properties;
use crate::time::{ticks_to_seconds, TICKS_PER_SECOND};

/// Track texts by track allocation, in the timeline's track order. The `Weak` keeps the allocation
/// (not the track) alive, so its address cannot be reused by another track while its entry exists.
/// A list, not a `HashMap` by address: a timeline has tens of tracks, and the map was 2.3 KB of
/// wasm (0.9 KB gzipped).
#[derive(Clone, Debug, Default)]
pub struct ListingCache {
    tracks: Vec<(Weak<Track>, Box<str>)>,
    /// The readable references (`clip-1`); a cached track text holds its elements' references,
    /// which never change, so the two stay in step.
    pub refs: Refs,
}

/// list_timeline's output for `tl`, reusing and refreshing `cache` when given.
pub fn list(tl: &Timeline, cache: Option<&mut ListingCache>) -> Output {
    let Some(cache) = cache else {
        let mut refs = Refs::default();
        let texts: Vec<Box<str>> = tl.tracks.iter().map(|t| track_text(t, &mut refs)).collect();
        return join(texts.iter().map(|t| &**t), tl.end());
    };
    let mut fresh = Vec::with_capacity(tl.tracks.len());
    for track in &tl.tracks {
        let cached = cache.tracks.iter().position(|(weak, _)| std::ptr::eq(weak.as_ptr(), Arc::as_ptr(track)));
        // The same address is the same track: the entry's `Weak` keeps the allocation, so no other
        // track can be made there, and a track cannot change in place while a `Weak` to it exists
        // (`Arc::get_mut` refuses, `Arc::make_mut` moves it).
        let text = match cached.map(|i| cache.tracks.swap_remove(i)) {
            Some((_, text)) => text,
            None => track_text(track, &mut cache.refs),
        };
        fresh.push((Arc::downgrade(track), text));
    }
    // Entries of tracks no longer in the timeline go now, with their allocations.
    cache.tracks = fresh;
    join(cache.tracks.iter().map(|(_, text)| &**text), tl.end())
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
fn track_text(t: &Track, refs: &mut Refs) -> Box<str> {
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
    // The host's track switches, when on: a hidden track is not drawn, a muted one is silent.
    if t.hidden == Some(true) {
        w.raw(r#","hidden":true"#);
    }
    if t.muted == Some(true) {
        w.raw(r#","muted":true"#);
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
        element(&mut w, c, refs);
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
        Common { e, id: &e.id, kind: e.kind, asset_id: e.asset_id.as_deref(), name: e.name.as_deref(), start: e.start, duration: e.duration }
    }
}

/// What list_timeline says of one element: ids and times, plus what an agent needs to recognise
/// it (text content, effect and params, sticker, volume).
fn element(w: &mut Writer, c: &Common, refs: &mut Refs) {
    w.raw(r#"{"elementId":"#);
    w.string(c.id);
    w.raw(r#","ref":""#);
    w.raw(&refs.of(&c.e.id, c.kind));
    w.raw("\"");
    w.raw(match c.kind {
        ElementType::Video => r#","type":"video""#,
        ElementType::Image => r#","type":"image""#,
        ElementType::Audio => r#","type":"audio""#,
        ElementType::Text => r#","type":"text""#,
        ElementType::Sticker => r#","type":"sticker""#,
        ElementType::Graphic => r#","type":"graphic""#,
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
    if e.hidden == Some(true) {
        w.raw(r#","hidden":true"#);
    }
    if let Some((shape, _)) = crate::masks::first(e).filter(|_| crate::masks::takes_mask(e)) {
        w.raw(r#","mask":"#);
        w.string(shape);
    }
    match c.kind {
        ElementType::Video | ElementType::Audio => {
            // Defaults are left out: on a long timeline they are most of the text an agent reads.
            if e.trim_start != 0 {
                w.raw(r#","trimStart":"#);
                w.seconds(e.trim_start);
            }
            if let Some(r) = e.retime.as_ref().filter(|r| r.rate != 1.0) {
                w.raw(r#","rate":"#);
                w.number(r.rate);
            }
            if let Some(v) = e.volume.filter(|&v| v != 1.0) {
                w.raw(r#","volume":"#);
                w.number(v);
            }
            if e.muted == Some(true) {
                w.raw(r#","muted":true"#);
            }
        }
        ElementType::Text => {
            w.raw(r#","text":"#);
            w.string(e.content.as_deref().unwrap_or_default());
            w.position(e);
            w.text_style(e);
        }
        ElementType::Sticker => {
            w.raw(r#","stickerId":"#);
            w.string(e.sticker_id.as_deref().unwrap_or_default());
            w.position(e);
        }
        ElementType::Graphic => {
            w.raw(r#","shape":"#);
            w.string(e.definition_id.as_deref().unwrap_or_default());
            if let Some(p) = &e.params {
                w.raw(r#","params":"#);
                w.serde(p);
            }
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
        // No early exit: the check runs branch-free (and vectorised on long strings).
        let needs_escape = s.bytes().fold(false, |acc, b| acc | (b < 0x20) | (b == b'"') | (b == b'\\'));
        if needs_escape {
            self.serde(s);
        } else {
            self.0.reserve(s.len() + 2);
            self.0.push('"');
            self.0.push_str(s);
            self.0.push('"');
        }
    }

    /// Seconds: whole numbers print without a fraction, other times as the shortest text that
    /// reads back as the same `f64`, which is what serde_json writes too.
    fn seconds(&mut self, ticks: i64) {
        if ticks % TICKS_PER_SECOND == 0 {
            self.int(ticks / TICKS_PER_SECOND);
        } else if let Some((whole, micros)) = exact_decimal(ticks) {
            self.int(whole);
            self.0.push('.');
            // Six digits of millionths, leading zeros kept and trailing zeros dropped; one char at
            // a time is cheaper here than formatting a number and copying it.
            let (mut rest, mut scale) = (micros, 100_000);
            while rest > 0 {
                self.0.push(char::from(b'0' + (rest / scale) as u8));
                rest %= scale;
                scale /= 10;
            }
        } else {
            self.0.push_str(zmij::Buffer::new().format_finite(ticks_to_seconds(ticks)));
        }
    }

    /// As [`crate::effects::number`] writes it: integral values without a fraction, NaN as null.
    fn number(&mut self, v: f64) {
        if let Some(whole) = crate::effects::whole_number(v) {
            self.int(whole);
        } else if v.is_finite() {
            self.serde(&v);
        } else {
            self.raw("null");
        }
    }

    /// Times under 10 000 s are nearly every time in a listing; copying their digits from a table
    /// is a fixed-size copy instead of a formatted number and a memcpy call.
    fn int(&mut self, v: i64) {
        const PAIRS: &str = concat!(
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839",
            "40414243444546474849505152535455565758596061626364656667686970717273747576777879",
            "8081828384858687888990919293949596979899"
        );
        let pair = |w: &mut Writer, p: i64| w.0.push_str(&PAIRS[2 * p as usize..2 * p as usize + 2]);
        match v {
            0..=9 => self.0.push(char::from(b'0' + v as u8)),
            10..=99 => pair(self, v),
            100..=999 => {
                self.0.push(char::from(b'0' + (v / 100) as u8));
                pair(self, v % 100);
            }
            1000..=9999 => {
                pair(self, v / 100);
                pair(self, v % 100);
            }
            _ => self.0.push_str(itoa::Buffer::new().format(v)),
        }
    }

    /// `"textStyle":{…}` with the style fields the element has (absent ones are the defaults).
    fn text_style(&mut self, e: &Element) {
        let strings = [
            ("fontFamily", &e.font_family),
            ("color", &e.color),
            ("fontWeight", &e.font_weight),
            ("fontStyle", &e.font_style),
            ("textAlign", &e.text_align),
            ("textDecoration", &e.text_decoration),
            ("background", &e.background),
        ];
        // Left out at OpenCut's defaults, which every text OpenCut made spells out.
        let numbers = [
            ("letterSpacing", e.letter_spacing),
            ("lineHeight", e.line_height),
            ("background.paddingX", e.background_padding_x),
            ("background.paddingY", e.background_padding_y),
            ("background.offsetX", e.background_offset_x),
            ("background.offsetY", e.background_offset_y),
            ("background.cornerRadius", e.background_corner_radius),
        ]
        .map(|(k, v)| (k, v.filter(|v| properties::find(k).is_none_or(|p| p.default != properties::Default::Number(*v)))));
        if e.font_size.is_none() && strings.iter().all(|(_, v)| v.is_none()) && numbers.iter().all(|(_, v)| v.is_none()) {
            return;
        }
        self.raw(r#","textStyle":{"#);
        let mut first = true;
        let mut key = |w: &mut Self, key: &str| {
            w.raw(if first { "\"" } else { ",\"" });
            w.raw(key);
            w.raw("\":");
            first = false;
        };
        if let Some(size) = e.font_size {
            key(self, "fontSize");
            self.number(size);
        }
        for (k, value) in strings {
            if let Some(v) = value {
                key(self, k);
                self.string(v);
            }
        }
        for (k, value) in numbers {
            if let Some(v) = value {
                key(self, k);
                self.number(v);
            }
        }
        self.raw("}");
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

/// `ticks` as whole seconds and millionths when that decimal is exact, which is when `ticks` is a
/// multiple of 3 (120 000 = 3 · 2⁶ · 5⁴). Below 2³² s an `f64` step is under a millionth of a
/// second, so no shorter decimal reads back as the same `f64`: this text is the shortest one.
fn exact_decimal(ticks: i64) -> Option<(i64, i64)> {
    const LIMIT: i64 = (1 << 32) * TICKS_PER_SECOND;
    (ticks % 3 == 0 && (0..LIMIT).contains(&ticks)).then(|| (ticks / TICKS_PER_SECOND, ticks % TICKS_PER_SECOND / 3 * 25))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(ticks: i64) -> String {
        let mut w = Writer::with_capacity(32);
        w.seconds(ticks);
        w.finish()
    }

    /// After an edit that replaces one track, list_timeline writes that track again and reuses the
    /// other's text (the same allocation), and the result is what an uncached listing writes.
    #[test]
    fn only_a_replaced_track_is_written_again() {
        let mut tl = Timeline::with_main("main".into());
        tl.tracks.push(Arc::new(Track::new("a1".into(), crate::model::TrackType::Audio)));
        let mut cache = ListingCache::default();
        list(&tl, Some(&mut cache));
        let texts = |c: &ListingCache| c.tracks.iter().map(|(_, t)| t.as_ptr()).collect::<Vec<_>>();
        let before = texts(&cache);
        let mut renamed = (*tl.tracks[1]).clone();
        renamed.name = Some("Music".into());
        tl.tracks[1] = Arc::new(renamed);
        let out = list(&tl, Some(&mut cache)).to_value();
        let after = texts(&cache);
        assert_eq!(after[0], before[0], "the main track's text is the cached one");
        assert_ne!(after[1], before[1], "the renamed track is written again");
        assert_eq!(out["tracks"][1]["name"], serde_json::json!("Music"), "{out}");
        assert_eq!(out, list(&tl, None).to_value());
    }

    /// Strings are written as serde_json writes them, whichever mix of quotes, backslashes and
    /// control characters they hold (two of a kind must not cancel out in the escape check).
    #[test]
    fn strings_match_serde_json() {
        for s in ["plain", "", "a\"b", "a\"b\"c", "\\\\", "\"\\", "tab\there\nnew", "\u{1}\u{2}", "\u{1}\"", "\\\u{1f}", "é \u{7f}", "x\"\\\u{1}"] {
            let mut w = Writer::with_capacity(8);
            w.string(s);
            assert_eq!(w.finish(), serde_json::to_string(s).unwrap(), "{s:?}");
        }
    }

    /// The decimal shortcut must write what serde_json writes for the same seconds.
    #[test]
    fn seconds_match_serde_json() {
        let far = (1i64 << 32) * TICKS_PER_SECOND;
        let samples = (0..400_000).chain((0..20_000).map(|i| i * 7_919 + 1)).chain((0..20_000).map(|i| far - 1 - i * 104_729)).chain([
            far,
            far + 3,
            i64::MAX / 2,
            -3,
            -120_000,
            -1,
        ]);
        for ticks in samples {
            let seconds = ticks_to_seconds(ticks);
            let expected = if ticks % TICKS_PER_SECOND == 0 {
                serde_json::to_string(&(ticks / TICKS_PER_SECOND)).unwrap()
            } else {
                serde_json::to_string(&seconds).unwrap()
            };
            assert_eq!(written(ticks), expected, "ticks {ticks}");
        }
    }
}
