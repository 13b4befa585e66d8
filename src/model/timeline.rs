//! The timeline: typed tracks holding typed elements, shared by reference so that history
//! snapshots cost only what an edit touched.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use smol_str::SmolStr;

/// The kinds of track of the tool spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TrackType {
    Main,
    Overlay,
    Text,
    Effect,
    Audio,
}

impl TrackType {
    pub const ALL: [TrackType; 5] = [TrackType::Main, TrackType::Overlay, TrackType::Text, TrackType::Effect, TrackType::Audio];

    pub fn as_str(self) -> &'static str {
        match self {
            TrackType::Main => "main",
            TrackType::Overlay => "overlay",
            TrackType::Text => "text",
            TrackType::Effect => "effect",
            TrackType::Audio => "audio",
        }
    }

    pub fn parse(s: &str) -> Option<TrackType> {
        TrackType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Whether an element of `kind` may live on a track of this type.
    pub fn accepts(self, kind: ElementType) -> bool {
        use ElementType as E;
        match self {
            TrackType::Main => matches!(kind, E::Video | E::Image),
            TrackType::Overlay => matches!(kind, E::Video | E::Image | E::Sticker | E::Graphic),
            TrackType::Text => kind == E::Text,
            TrackType::Effect => kind == E::Effect,
            TrackType::Audio => kind == E::Audio,
        }
    }

    /// Audio tracks sit below the picture; every other track is part of the visual stack.
    pub fn is_visual(self) -> bool {
        self != TrackType::Audio
    }
}

/// The kinds of timeline element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ElementType {
    Video,
    Image,
    Audio,
    Text,
    Sticker,
    /// A shape drawn from one of OpenCut's graphic definitions (crate::graphics).
    Graphic,
    Effect,
}

impl ElementType {
    pub const ALL: [ElementType; 7] =
        [ElementType::Video, ElementType::Image, ElementType::Audio, ElementType::Text, ElementType::Sticker, ElementType::Graphic, ElementType::Effect];

    pub fn as_str(self) -> &'static str {
        match self {
            ElementType::Video => "video",
            ElementType::Image => "image",
            ElementType::Audio => "audio",
            ElementType::Text => "text",
            ElementType::Sticker => "sticker",
            ElementType::Graphic => "graphic",
            ElementType::Effect => "effect",
        }
    }

    /// Elements that play a span of a source file and so carry source trims.
    pub fn is_timed_media(self) -> bool {
        matches!(self, ElementType::Video | ElementType::Audio)
    }

    pub fn has_volume(self) -> bool {
        self.is_timed_media()
    }

    /// Stickers and graphics: what OpenCut keeps on graphic tracks, never with video or images.
    pub fn is_graphic(self) -> bool {
        matches!(self, ElementType::Sticker | ElementType::Graphic)
    }
}

/// The element types a host draws (and plays): `createEditor({ elementKinds })`. The tools that add
/// an element of another type refuse, and list_timeline names the others, so an agent does not add
/// what the host's preview cannot show (OpenCut classic at cf5e79e draws no sticker or effect
/// element until a host fixes its copy: docs/opencut.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ElementKinds(u8);

impl Default for ElementKinds {
    fn default() -> Self {
        ElementKinds::ALL
    }
}

impl ElementKinds {
    pub const ALL: ElementKinds = ElementKinds((1 << ElementType::ALL.len()) - 1);

    /// The set named by `names` (any order, repeats allowed); an unknown name is the error.
    pub fn from_names<S: AsRef<str>>(names: &[S]) -> Result<ElementKinds, String> {
        let mut bits = 0;
        for name in names {
            let i = ElementType::ALL.iter().position(|k| k.as_str() == name.as_ref()).ok_or_else(|| name.as_ref().to_string())?;
            bits |= 1 << i;
        }
        Ok(ElementKinds(bits))
    }

    pub fn has(self, kind: ElementType) -> bool {
        ElementType::ALL.iter().position(|k| *k == kind).is_some_and(|i| self.0 & (1 << i) != 0)
    }

    /// The names in the set (`drawn`) or out of it, in ElementType::ALL's order.
    pub fn names(self, drawn: bool) -> Vec<&'static str> {
        ElementType::ALL.into_iter().filter(|k| self.has(*k) == drawn).map(ElementType::as_str).collect()
    }
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// One element on a track. Times are ticks. Fields that only some types use are optional; the
/// project loader checks that each type has what it needs. Unknown fields ride along in `extra`.
///
/// `repr(C)` keeps the fields in the order written, so the ones list_timeline and the edits read
/// for every element (id to volume) share the first two cache lines; Rust's own layout spread them
/// over five, and a cold listing of 10 000 elements spent most of its time waiting on memory.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[repr(C)]
pub struct Element {
    pub id: SmolStr,
    #[serde(rename = "type")]
    pub kind: ElementType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<SmolStr>,
    pub start: i64,
    pub duration: i64,
    /// Source time cut off the head (video and audio).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trim_start: i64,
    /// Source time cut off the tail (video and audio).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub trim_end: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asset_id: Option<SmolStr>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume: Option<f64>,
    /// Text content (text elements).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// Text style preset: plain, subtitle, hook or label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub style: Option<String>,
    /// Named placement of a text or sticker (`top`, `bottom-left`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// Pixel offset of the element's centre from the canvas centre (text and stickers).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_size: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_weight: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sticker_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Map<String, Value>>,
    /// Playback speed of a video or audio clip (OpenCut's `retime`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retime: Option<Retime>,
    /// Not drawn (OpenCut's `hidden`; visual elements). Absent is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Silent (OpenCut's `params.muted`; video and audio). Absent is audible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub muted: Option<bool>,
    /// Text style beyond the presets (OpenCut's text params); absent means OpenCut's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_family: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub font_style: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_align: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_decoration: Option<String>,
    /// OpenCut's visual params (`transform.scaleX`, `transform.scaleY`, `transform.rotate` in
    /// degrees, `opacity` 0–1, `blendMode`); absent means OpenCut's default (1, 1, 0, 1, normal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rotate: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opacity: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blend_mode: Option<String>,
    /// The rest of a text's style (pixels; line height a multiple of the font size) and of its
    /// background box (paddings and offsets in pixels at the default font size, corner radius in
    /// percent), `background_color` being the box colour kept while the box is off. Absent means
    /// the default of crate::properties.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub letter_spacing: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_height: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_color: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_padding_x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_padding_y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_offset_x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_offset_y: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub background_corner_radius: Option<f64>,
    /// A graphic's shape: OpenCut's `definitionId` (crate::graphics); its definition params
    /// (fill, stroke, …) are in `params`, as an effect element's are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub definition_id: Option<String>,
    /// Whether a video's own sound plays (absent is on).
    #[serde(default, rename = "isSourceAudioEnabled", skip_serializing_if = "Option::is_none")]
    pub source_audio: Option<bool>,
    /// Keyframes, typed (property path → channel, [`crate::animation::Animations`]); read
    /// and written in OpenCut v30+'s exact shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub animations: Option<crate::animation::Animations>,
    /// Fields this engine does not model, kept and written back unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Element {
    /// A bare element of `kind`; callers fill in the per-type fields.
    pub fn new(id: String, kind: ElementType, start: i64, duration: i64) -> Element {
        Element {
            id: id.into(),
            kind,
            name: None,
            start,
            duration,
            trim_start: 0,
            trim_end: 0,
            asset_id: None,
            volume: None,
            content: None,
            style: None,
            position: None,
            x: None,
            y: None,
            font_size: None,
            color: None,
            font_weight: None,
            background: None,
            sticker_id: None,
            effect_type: None,
            params: None,
            retime: None,
            hidden: None,
            muted: None,
            font_family: None,
            font_style: None,
            text_align: None,
            text_decoration: None,
            scale_x: None,
            scale_y: None,
            rotate: None,
            opacity: None,
            blend_mode: None,
            letter_spacing: None,
            line_height: None,
            background_color: None,
            background_padding_x: None,
            background_padding_y: None,
            background_offset_x: None,
            background_offset_y: None,
            background_corner_radius: None,
            definition_id: None,
            source_audio: None,
            animations: None,
            extra: Map::new(),
        }
    }

    pub fn end(&self) -> i64 {
        self.start + self.duration
    }

    /// The playback rate: source ticks per timeline tick (1 without a retime).
    pub fn rate(&self) -> f64 {
        self.retime.as_ref().map_or(1.0, |r| r.rate)
    }

    /// Source ticks that `clip_ticks` of timeline time play, rounded once to a whole tick as
    /// OpenCut does (`roundMediaTime(clipTime · rate)`).
    pub fn source_ticks(&self, clip_ticks: i64) -> i64 {
        match &self.retime {
            None => clip_ticks,
            Some(r) => r.source_ticks(clip_ticks),
        }
    }

    /// Timeline ticks that play `source_ticks` of source, rounded to a whole tick.
    pub fn clip_ticks(&self, source_ticks: i64) -> i64 {
        match &self.retime {
            None => source_ticks,
            Some(r) => r.clip_ticks(source_ticks),
        }
    }

    /// Whether the element plays past a source `source` ticks long. A retimed clip may reach
    /// [`Retime::END_SLACK`] past it: whole ticks make `round(duration · rate)` overshoot by a
    /// few, and OpenCut's own speed change and split leave such clips (up to rate/2 + 1/2 tick per
    /// edit). A player holds the last frame there.
    pub fn plays_past(&self, source: i64) -> bool {
        let end = self.trim_start.saturating_add(self.source_ticks(self.duration));
        let slack = if self.rate() != 1.0 { Retime::END_SLACK } else { 0 };
        end > source.saturating_add(slack)
    }

    /// Source duration for video/audio: what was trimmed plus what plays. OpenCut keeps
    /// `trimStart + round(duration · rate) + trimEnd = sourceDuration`.
    pub fn source_span(&self) -> i64 {
        self.trim_start.saturating_add(self.source_ticks(self.duration)).saturating_add(self.trim_end)
    }
}

/// OpenCut's `RetimeConfig`: a constant playback rate for a video or audio clip. Source time at
/// clip time `t` is `trimStart + t · rate`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Retime {
    /// Written as a whole number when it is one (`2`, not `2.0`), as OpenCut's JSON has it.
    #[serde(serialize_with = "whole_or_float")]
    pub rate: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maintain_pitch: Option<bool>,
    /// Keys this engine does not model, kept and written back unchanged.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Retime {
    /// OpenCut's clamp range (retime/rate.ts).
    pub const MIN_RATE: f64 = 0.01;
    pub const MAX_RATE: f64 = 5.0;
    /// Ticks a retimed clip's rounded play may reach past its source (1 ms); see
    /// [`Element::plays_past`].
    pub const END_SLACK: i64 = 120;

    pub fn new(rate: f64) -> Retime {
        Retime { rate, maintain_pitch: None, extra: Map::new() }
    }

    /// Whether the rate is one OpenCut would keep unclamped.
    pub fn is_valid(&self) -> bool {
        self.rate.is_finite() && (Self::MIN_RATE..=Self::MAX_RATE).contains(&self.rate)
    }

    /// Source ticks played by `clip_ticks` of timeline time (OpenCut's `getSourceSpanAtClipTime`
    /// then `roundMediaTime`: half away from zero, never negative).
    pub fn source_ticks(&self, clip_ticks: i64) -> i64 {
        round_ticks((clip_ticks.max(0) as f64) * self.rate)
    }

    /// Timeline ticks that play `source_ticks` of source (`getTimelineDurationForSourceSpan`).
    pub fn clip_ticks(&self, source_ticks: i64) -> i64 {
        round_ticks((source_ticks.max(0) as f64) / self.rate)
    }
}

fn whole_or_float<S: serde::Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
    match crate::effects::whole_number(*v) {
        Some(whole) => s.serialize_i64(whole),
        None => s.serialize_f64(*v),
    }
}

fn round_ticks(t: f64) -> i64 {
    // `as` saturates, so a huge product cannot wrap.
    t.round() as i64
}

/// A track: elements sorted by start, never overlapping.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Track {
    pub id: String,
    #[serde(rename = "type")]
    pub kind: TrackType,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default)]
    pub elements: Vec<Arc<Element>>,
    /// Not drawn (OpenCut's track `hidden`). Absent is shown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<bool>,
    /// Silent (OpenCut's track `muted`). Absent is audible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub muted: Option<bool>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Track {
    pub fn new(id: String, kind: TrackType) -> Track {
        Track { id, kind, name: None, elements: Vec::new(), hidden: None, muted: None, extra: Map::new() }
    }

    /// The first element that overlaps `[start, end)`, ignoring elements whose id is in `skip`.
    pub fn first_overlap(&self, start: i64, end: i64, skip: &dyn Fn(&str) -> bool) -> Option<&Element> {
        // Elements are sorted and disjoint, so ends are sorted too: skip everything ending at or
        // before `start`, then only the next few can overlap.
        let from = self.elements.partition_point(|e| e.end() <= start);
        self.elements[from..].iter().take_while(|e| e.start < end).map(|e| e.as_ref()).find(|e| !skip(&e.id))
    }

    /// What an overlay track holds as OpenCut stores it: a graphic track (stickers and graphics, `Some(true)`)
    /// or a video track (video and images, `Some(false)`), never both (OpenCut's
    /// validateElementTrackCompatibility); `None` while it is empty. Judged by its first element.
    pub fn overlay_group(&self) -> Option<bool> {
        (self.kind == TrackType::Overlay).then(|| self.elements.first().map(|e| e.kind.is_graphic())).flatten()
    }

    /// Whether a new element of `kind` may join this track: its type accepts it, and an overlay
    /// track takes only its group (see [`Track::overlay_group`]).
    pub fn takes(&self, kind: ElementType) -> bool {
        self.kind.accepts(kind) && self.overlay_group().is_none_or(|graphic| graphic == kind.is_graphic())
    }

    /// Inserts keeping the order by start. The caller has checked for overlap.
    pub fn insert_sorted(&mut self, element: Arc<Element>) {
        let at = self.elements.partition_point(|e| e.start < element.start);
        self.elements.insert(at, element);
    }

    pub fn end(&self) -> i64 {
        self.elements.last().map_or(0, |e| e.end())
    }
}

/// The active timeline (OpenCut's scene): tracks from the top of the picture down, audio last.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Timeline {
    pub tracks: Vec<Arc<Track>>,
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Timeline {
    /// A timeline holding only the one main track.
    pub fn with_main(main_id: String) -> Timeline {
        Timeline { tracks: vec![Arc::new(Track::new(main_id, TrackType::Main))], extra: Map::new() }
    }

    pub fn element_count(&self) -> usize {
        self.tracks.iter().map(|t| t.elements.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.tracks.iter().all(|t| t.elements.is_empty())
    }

    pub fn track_index(&self, id: &str) -> Option<usize> {
        self.tracks.iter().position(|t| t.id == id)
    }

    /// Finds an element by id: (track index, element index).
    pub fn find(&self, id: &str) -> Option<(usize, usize)> {
        self.tracks.iter().enumerate().find_map(|(ti, t)| t.elements.iter().position(|e| e.id == id).map(|ei| (ti, ei)))
    }

    pub fn element(&self, id: &str) -> Option<(&Track, &Element)> {
        self.find(id).map(|(ti, ei)| (self.tracks[ti].as_ref(), self.tracks[ti].elements[ei].as_ref()))
    }

    /// A mutable track; copies it first if a history snapshot still shares it.
    pub fn track_mut(&mut self, index: usize) -> &mut Track {
        Arc::make_mut(&mut self.tracks[index])
    }

    pub fn main_index(&self) -> Option<usize> {
        self.tracks.iter().position(|t| t.kind == TrackType::Main)
    }

    /// The end of the last element, in ticks.
    pub fn end(&self) -> i64 {
        self.tracks.iter().map(|t| t.end()).max().unwrap_or(0)
    }

    /// Whether two timelines are the same value, comparing shared parts by pointer first.
    pub fn same_as(&self, other: &Timeline) -> bool {
        self.tracks.len() == other.tracks.len() && self.tracks.iter().zip(&other.tracks).all(|(a, b)| Arc::ptr_eq(a, b) || a == b) && self.extra == other.extra
    }
}
