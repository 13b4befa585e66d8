//! The typed animation model: an element's keyframes (OpenCut v30+ `element.animations`), parsed
//! once when a project is read and written back in the shape it was read in.
//!
//! Exact round trips: every object keeps the order of its fields, and numbers stay JSON numbers
//! as they were (an integer stays an integer, `1.0` stays `1.0`). A field the model does not
//! understand (an unknown name, or a known name holding another type) is kept as its raw JSON
//! value in its place: OpenCut may store more than the model reads, and a project must still come
//! back byte-identical. Edits follow the serde_json map (preserve_order) the tools once edited
//! directly, so every output stays the same: a changed field keeps its place, a new one goes last,
//! a removed one is swapped with the last (`swap_remove`).

use serde_json::{Map, Number, Value};

/// Every animated path of an element (`transform.positionX`, `color`, …) with its channel, in
/// the order read or added.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Animations {
    paths: Vec<(String, Animation)>,
}

/// What one path holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Animation {
    /// An object with `keys`: one scalar or discrete channel.
    Channel(Channel),
    /// An object without `keys`: named channels (a colour's `r`, `g`, `b`, `a`).
    Group(Vec<(String, Part)>),
    /// Anything else, kept as read; it animates nothing.
    Raw(Value),
}

/// A member of a [`Animation::Group`].
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Channel(Channel),
    /// Not an object: kept as read.
    Raw(Value),
}

/// `{ keys, extrapolation? }`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Channel {
    keys: Vec<Key>,
    extrapolation: Option<Extrapolation>,
    layout: Layout<ChannelField>,
}

/// How a channel continues before its first key and after its last.
#[derive(Clone, Debug, PartialEq)]
pub struct Extrapolation {
    pub before: Extrap,
    pub after: Extrap,
    /// As read: nothing edits it, cuts copy it.
    raw: Value,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Extrap {
    Hold,
    Linear,
}

/// `segmentToNext`: how the value moves from a key to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Segment {
    Step,
    Linear,
    Bezier,
}

impl Segment {
    pub fn as_str(self) -> &'static str {
        match self {
            Segment::Step => "step",
            Segment::Linear => "linear",
            Segment::Bezier => "bezier",
        }
    }
}

/// A key's value: a number (scalar channels) or a held string or flag (discrete ones).
#[derive(Clone, Debug, PartialEq)]
pub enum KeyValue {
    Number(Number),
    Text(String),
    Flag(bool),
}

impl KeyValue {
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            KeyValue::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn to_value(&self) -> Value {
        match self {
            KeyValue::Number(n) => Value::Number(n.clone()),
            KeyValue::Text(s) => Value::String(s.clone()),
            KeyValue::Flag(b) => Value::Bool(*b),
        }
    }

    /// A number as NeuralCut writes one (integers without a fraction); `None` when not finite.
    pub fn number(v: f64) -> Option<KeyValue> {
        number(v).map(KeyValue::Number)
    }
}

/// A bezier handle: `dt` ticks and `dv` value from its key.
#[derive(Clone, Debug, PartialEq)]
pub struct Handle {
    pub dt: Number,
    pub dv: Number,
}

impl Handle {
    pub fn get(&self) -> (f64, f64) {
        (self.dt.as_f64().unwrap_or(0.0), self.dv.as_f64().unwrap_or(0.0))
    }
}

/// Which handle of a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    Left,
    Right,
}

/// One key: `{ id, time, value, segmentToNext?, tangentMode?, leftHandle?, rightHandle? }`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Key {
    id: Option<String>,
    time: Option<Number>,
    value: Option<KeyValue>,
    /// `Some(Linear)` also for a `segmentToNext` the model does not know (OpenCut reads it so).
    segment: Option<Segment>,
    tangent: Option<String>,
    left: Option<Handle>,
    right: Option<Handle>,
    layout: Layout<KeyField>,
}

/// A number as NeuralCut writes one: integers without a fraction (`crate::effects::number`).
pub fn number(v: f64) -> Option<Number> {
    match crate::effects::number(v) {
        Value::Number(n) => Some(n),
        _ => None,
    }
}

/// The field names of an object, in order; the typed value of a known one lives in its struct.
#[derive(Clone, Debug, PartialEq)]
struct Layout<F>(Vec<Slot<F>>);

impl<F> Default for Layout<F> {
    fn default() -> Self {
        Layout(Vec::new())
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Slot<F> {
    Known(F),
    /// A field kept as read: its name and raw value.
    Other(Box<(String, Value)>),
}

trait Field: Copy + PartialEq {
    fn name(self) -> &'static str;
}

impl<F: Field> Slot<F> {
    fn name(&self) -> &str {
        match self {
            Slot::Known(f) => f.name(),
            Slot::Other(o) => &o.0,
        }
    }
}

impl<F: Field> Layout<F> {
    fn position(&self, name: &str) -> Option<usize> {
        self.0.iter().position(|s| s.name() == name)
    }

    fn has(&self, f: F) -> bool {
        self.position(f.name()).is_some()
    }

    /// `f` now holds a typed value: in the place of its field, or last.
    fn set(&mut self, f: F) {
        match self.position(f.name()) {
            Some(i) => self.0[i] = Slot::Known(f),
            None => self.0.push(Slot::Known(f)),
        }
    }

    fn remove(&mut self, f: F) {
        if let Some(i) = self.position(f.name()) {
            self.0.swap_remove(i);
        }
    }

    fn other(&mut self, name: String, raw: Value) {
        self.0.push(Slot::Other(Box::new((name, raw))));
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum ChannelField {
    Keys,
    Extrapolation,
}

impl Field for ChannelField {
    fn name(self) -> &'static str {
        match self {
            ChannelField::Keys => "keys",
            ChannelField::Extrapolation => "extrapolation",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum KeyField {
    Id,
    Time,
    Value,
    Segment,
    Tangent,
    Left,
    Right,
}

impl Field for KeyField {
    fn name(self) -> &'static str {
        match self {
            KeyField::Id => "id",
            KeyField::Time => "time",
            KeyField::Value => "value",
            KeyField::Segment => "segmentToNext",
            KeyField::Tangent => "tangentMode",
            KeyField::Left => "leftHandle",
            KeyField::Right => "rightHandle",
        }
    }
}

impl Animations {
    /// Parses OpenCut's (and NeuralCut's) `animations` object.
    pub fn from_json(map: Map<String, Value>) -> Animations {
        Animations { paths: map.into_iter().map(|(path, v)| (path, Animation::from_json(v))).collect() }
    }

    /// The `animations` object in the shape it was read in (with the edits made since).
    pub fn to_json(&self) -> Map<String, Value> {
        self.paths.iter().map(|(path, a)| (path.clone(), a.to_json())).collect()
    }

    pub fn get(&self, path: &str) -> Option<&Animation> {
        self.paths.iter().find(|(p, _)| p == path).map(|(_, a)| a)
    }

    pub fn get_mut(&mut self, path: &str) -> Option<&mut Animation> {
        self.paths.iter_mut().find(|(p, _)| p == path).map(|(_, a)| a)
    }

    pub fn contains(&self, path: &str) -> bool {
        self.get(path).is_some()
    }

    /// The animation of `path`, made by `make` (and added last) where there is none.
    pub fn get_or_insert_with(&mut self, path: &str, make: impl FnOnce() -> Animation) -> &mut Animation {
        let i = match self.paths.iter().position(|(p, _)| p == path) {
            Some(i) => i,
            None => {
                self.paths.push((path.to_string(), make()));
                self.paths.len() - 1
            }
        };
        &mut self.paths[i].1
    }

    /// Sets `path` (in its place, or last).
    pub fn insert(&mut self, path: String, a: Animation) {
        match self.get_mut(&path) {
            Some(old) => *old = a,
            None => self.paths.push((path, a)),
        }
    }

    /// Removes `path`, the last path taking its place.
    pub fn remove(&mut self, path: &str) -> Option<Animation> {
        let i = self.paths.iter().position(|(p, _)| p == path)?;
        Some(self.paths.swap_remove(i).1)
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Animation)> {
        self.paths.iter().map(|(p, a)| (p.as_str(), a))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&str, &mut Animation)> {
        self.paths.iter_mut().map(|(p, a)| (p.as_str(), a))
    }
}

impl IntoIterator for Animations {
    type Item = (String, Animation);
    type IntoIter = std::vec::IntoIter<(String, Animation)>;
    fn into_iter(self) -> Self::IntoIter {
        self.paths.into_iter()
    }
}

impl FromIterator<(String, Animation)> for Animations {
    fn from_iter<I: IntoIterator<Item = (String, Animation)>>(iter: I) -> Self {
        Animations { paths: iter.into_iter().collect() }
    }
}

// NeuralCut's own project JSON holds the same object: (de)serialized through serde_json's map,
// whose code the element's other fields already use, so the wasm gains no serde instance.
impl serde::Serialize for Animations {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Animations {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Map::<String, Value>::deserialize(d).map(Animations::from_json)
    }
}

impl Animation {
    pub fn from_json(v: Value) -> Animation {
        match v {
            Value::Object(o) if o.contains_key("keys") => Animation::Channel(Channel::from_json(o)),
            Value::Object(o) => Animation::Group(
                o.into_iter()
                    .map(|(name, v)| {
                        let part = match v {
                            Value::Object(c) => Part::Channel(Channel::from_json(c)),
                            raw => Part::Raw(raw),
                        };
                        (name, part)
                    })
                    .collect(),
            ),
            raw => Animation::Raw(raw),
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            Animation::Channel(c) => Value::Object(c.to_json()),
            Animation::Group(parts) => Value::Object(
                parts
                    .iter()
                    .map(|(name, p)| {
                        let v = match p {
                            Part::Channel(c) => Value::Object(c.to_json()),
                            Part::Raw(raw) => raw.clone(),
                        };
                        (name.clone(), v)
                    })
                    .collect(),
            ),
            Animation::Raw(raw) => raw.clone(),
        }
    }

    /// The group member `name` when it is a channel.
    pub fn part(&self, name: &str) -> Option<&Channel> {
        match self {
            Animation::Group(parts) => parts.iter().find(|(n, _)| n == name).and_then(|(_, p)| if let Part::Channel(c) = p { Some(c) } else { None }),
            _ => None,
        }
    }

    pub fn part_mut(&mut self, name: &str) -> Option<&mut Channel> {
        match self {
            Animation::Group(parts) => parts.iter_mut().find(|(n, _)| n == name).and_then(|(_, p)| if let Part::Channel(c) = p { Some(c) } else { None }),
            _ => None,
        }
    }

    /// Whether the group has a member `name`, channel or not.
    pub fn has_part(&self, name: &str) -> bool {
        matches!(self, Animation::Group(parts) if parts.iter().any(|(n, _)| n == name))
    }
}

impl Channel {
    /// An empty channel, `{ "keys": [] }`.
    pub fn new() -> Channel {
        let mut c = Channel::default();
        c.layout.set(ChannelField::Keys);
        c
    }

    /// `{ keys, extrapolation? }` as NeuralCut writes a cut channel.
    pub fn with_keys(keys: Vec<Key>, extrapolation: Option<Extrapolation>) -> Channel {
        let mut c = Channel::new();
        c.keys = keys;
        if extrapolation.is_some() {
            c.layout.set(ChannelField::Extrapolation);
        }
        c.extrapolation = extrapolation;
        c
    }

    fn from_json(o: Map<String, Value>) -> Channel {
        let mut c = Channel::default();
        for (name, v) in o {
            match (name.as_str(), v) {
                ("keys", Value::Array(list)) if list.iter().all(Value::is_object) => {
                    c.keys = list.into_iter().filter_map(|k| if let Value::Object(k) = k { Some(Key::from_json(k)) } else { None }).collect();
                    c.layout.set(ChannelField::Keys);
                }
                ("extrapolation", raw) => {
                    c.extrapolation = Some(Extrapolation::from_json(raw));
                    c.layout.set(ChannelField::Extrapolation);
                }
                (_, raw) => c.layout.other(name, raw),
            }
        }
        c
    }

    fn to_json(&self) -> Map<String, Value> {
        let mut o = Map::new();
        for slot in &self.layout.0 {
            match slot {
                Slot::Known(ChannelField::Keys) => {
                    o.insert("keys".into(), Value::Array(self.keys.iter().map(|k| Value::Object(k.to_json())).collect()));
                }
                Slot::Known(ChannelField::Extrapolation) => {
                    if let Some(x) = &self.extrapolation {
                        o.insert("extrapolation".into(), x.raw.clone());
                    }
                }
                Slot::Other(other) => {
                    o.insert(other.0.clone(), other.1.clone());
                }
            }
        }
        o
    }

    /// The keys, in stored order (an unreadable `keys` reads as none).
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The keys to edit where `keys` is a list of keys (`None` where it is kept raw).
    pub fn keys_in_place(&mut self) -> Option<&mut Vec<Key>> {
        self.layout.0.contains(&Slot::Known(ChannelField::Keys)).then_some(&mut self.keys)
    }

    /// The keys to edit; a `keys` that was not a list of keys becomes an empty list.
    pub fn keys_mut(&mut self) -> &mut Vec<Key> {
        self.layout.set(ChannelField::Keys);
        &mut self.keys
    }

    /// Takes the keys and the extrapolation out (a cut rebuilds the channel from them).
    pub fn into_parts(self) -> (Vec<Key>, Option<Extrapolation>) {
        (self.keys, self.extrapolation)
    }

    pub fn extrapolation(&self) -> Option<&Extrapolation> {
        self.extrapolation.as_ref()
    }

    /// Whether a `keys` field is there (readable or not).
    pub fn has_keys(&self) -> bool {
        self.layout.has(ChannelField::Keys)
    }

    /// OpenCut's `isScalarChannel`: it has `extrapolation`, or a key has `segmentToNext`.
    pub fn is_scalar(&self) -> bool {
        self.extrapolation.is_some() || self.keys.iter().any(|k| k.segment.is_some())
    }
}

impl Extrapolation {
    fn from_json(raw: Value) -> Extrapolation {
        let side = |s: &str| match raw.get(s).and_then(Value::as_str) {
            Some("linear") => Extrap::Linear,
            _ => Extrap::Hold,
        };
        Extrapolation { before: side("before"), after: side("after"), raw }
    }
}

impl Key {
    /// `{ id, time, value }`.
    pub fn new(id: &str, time: f64, value: Option<KeyValue>) -> Key {
        let mut k = Key::default();
        k.set_id(id.to_string());
        k.set_time(time);
        k.set_value(value);
        k
    }

    fn from_json(o: Map<String, Value>) -> Key {
        let mut k = Key::default();
        for (name, v) in o {
            let raw = match (name.as_str(), v) {
                ("id", Value::String(s)) => {
                    k.id = Some(s);
                    k.layout.set(KeyField::Id);
                    continue;
                }
                ("time", Value::Number(n)) => {
                    k.time = Some(n);
                    k.layout.set(KeyField::Time);
                    continue;
                }
                ("value", v @ (Value::Number(_) | Value::String(_) | Value::Bool(_))) => {
                    k.value = Some(match v {
                        Value::Number(n) => KeyValue::Number(n),
                        Value::String(s) => KeyValue::Text(s),
                        Value::Bool(b) => KeyValue::Flag(b),
                        _ => unreachable!("matched above"),
                    });
                    k.layout.set(KeyField::Value);
                    continue;
                }
                ("segmentToNext", v) => {
                    let known = match v.as_str() {
                        Some("step") => Some(Segment::Step),
                        Some("linear") => Some(Segment::Linear),
                        Some("bezier") => Some(Segment::Bezier),
                        _ => None,
                    };
                    k.segment = Some(known.unwrap_or(Segment::Linear));
                    if known.is_some() {
                        k.layout.set(KeyField::Segment);
                        continue;
                    }
                    v
                }
                ("tangentMode", Value::String(s)) => {
                    k.tangent = Some(s);
                    k.layout.set(KeyField::Tangent);
                    continue;
                }
                (side @ ("leftHandle" | "rightHandle"), v) => {
                    let field = if side == "leftHandle" { KeyField::Left } else { KeyField::Right };
                    let parsed = v.as_object().and_then(|h| Some((h.get("dt")?.as_number()?.clone(), h.get("dv")?.as_number()?.clone(), h)));
                    let Some((dt, dv, h)) = parsed.filter(|(dt, dv, _)| dt.as_f64().is_some() && dv.as_f64().is_some()) else {
                        k.layout.other(name, v);
                        continue;
                    };
                    let canonical = h.len() == 2 && h.keys().next().map(String::as_str) == Some("dt");
                    *k.handle_slot(field) = Some(Handle { dt, dv });
                    if canonical {
                        k.layout.set(field);
                        continue;
                    }
                    v
                }
                (_, v) => v,
            };
            k.layout.other(name, raw);
        }
        k
    }

    fn to_json(&self) -> Map<String, Value> {
        let mut o = Map::new();
        for slot in &self.layout.0 {
            let (name, v) = match slot {
                Slot::Other(other) => (other.0.as_str(), other.1.clone()),
                Slot::Known(f) => {
                    let v = match f {
                        KeyField::Id => self.id.clone().map(Value::String),
                        KeyField::Time => self.time.clone().map(Value::Number),
                        KeyField::Value => self.value.as_ref().map(KeyValue::to_value),
                        KeyField::Segment => self.segment.map(|s| Value::from(s.as_str())),
                        KeyField::Tangent => self.tangent.clone().map(Value::String),
                        KeyField::Left | KeyField::Right => self.handle_ref(*f).map(|h| {
                            let mut m = Map::new();
                            m.insert("dt".into(), Value::Number(h.dt.clone()));
                            m.insert("dv".into(), Value::Number(h.dv.clone()));
                            Value::Object(m)
                        }),
                    };
                    let Some(v) = v else { continue };
                    (f.name(), v)
                }
            };
            o.insert(name.to_string(), v);
        }
        o
    }

    fn handle_slot(&mut self, f: KeyField) -> &mut Option<Handle> {
        if f == KeyField::Left {
            &mut self.left
        } else {
            &mut self.right
        }
    }

    fn handle_ref(&self, f: KeyField) -> Option<&Handle> {
        if f == KeyField::Left {
            self.left.as_ref()
        } else {
            self.right.as_ref()
        }
    }

    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The time in ticks from the element's start, as stored.
    pub fn time_number(&self) -> Option<&Number> {
        self.time.as_ref()
    }

    pub fn time(&self) -> Option<f64> {
        self.time.as_ref().and_then(Number::as_f64)
    }

    /// The time when it is stored as a whole number of ticks.
    pub fn ticks(&self) -> Option<i64> {
        self.time.as_ref().and_then(Number::as_i64)
    }

    pub fn value(&self) -> Option<&KeyValue> {
        self.value.as_ref()
    }

    pub fn segment(&self) -> Option<Segment> {
        self.segment
    }

    pub fn tangent(&self) -> Option<&str> {
        self.tangent.as_deref()
    }

    pub fn has_tangent(&self) -> bool {
        self.layout.has(KeyField::Tangent)
    }

    pub fn has_id(&self) -> bool {
        self.layout.has(KeyField::Id)
    }

    pub fn handle(&self, side: Side) -> Option<&Handle> {
        self.handle_ref(side.field())
    }

    pub fn set_id(&mut self, id: String) {
        self.id = Some(id);
        self.layout.set(KeyField::Id);
    }

    /// Sets the time (a whole number of ticks written without a fraction).
    pub fn set_time(&mut self, t: f64) {
        match number(t) {
            Some(n) => {
                self.time = Some(n);
                self.layout.set(KeyField::Time);
            }
            None => self.set_raw(KeyField::Time, Value::Null),
        }
    }

    /// Sets the value; `None` writes `null` (a value the model could not hold).
    pub fn set_value(&mut self, v: Option<KeyValue>) {
        match v {
            Some(v) => {
                self.value = Some(v);
                self.layout.set(KeyField::Value);
            }
            None => self.set_raw(KeyField::Value, Value::Null),
        }
    }

    pub fn set_segment(&mut self, s: Segment) {
        self.segment = Some(s);
        self.layout.set(KeyField::Segment);
    }

    pub fn set_tangent(&mut self, t: &str) {
        self.tangent = Some(t.to_string());
        self.layout.set(KeyField::Tangent);
    }

    /// Sets a handle to `(dt, dv)`, or removes it (`None`).
    pub fn set_handle(&mut self, side: Side, h: Option<(f64, f64)>) {
        let f = side.field();
        match h.map(|(dt, dv)| (number(dt), number(dv))) {
            None => {
                *self.handle_slot(f) = None;
                self.layout.remove(f);
            }
            Some((Some(dt), Some(dv))) => {
                *self.handle_slot(f) = Some(Handle { dt, dv });
                self.layout.set(f);
            }
            Some((dt, dv)) => {
                // Not finite: written as null, as a JSON map would, and read as no handle.
                let mut m = Map::new();
                m.insert("dt".into(), dt.map_or(Value::Null, Value::Number));
                m.insert("dv".into(), dv.map_or(Value::Null, Value::Number));
                self.set_raw(f, Value::Object(m));
            }
        }
    }

    /// A handle exactly as given (a whole `dt` and a `dv` number).
    pub fn set_handle_numbers(&mut self, side: Side, dt: Number, dv: Number) {
        let f = side.field();
        *self.handle_slot(f) = Some(Handle { dt, dv });
        self.layout.set(f);
    }

    /// A known field holding a raw value in its place (the typed value cleared).
    fn set_raw(&mut self, f: KeyField, raw: Value) {
        match f {
            KeyField::Id => self.id = None,
            KeyField::Time => self.time = None,
            KeyField::Value => self.value = None,
            KeyField::Segment => self.segment = None,
            KeyField::Tangent => self.tangent = None,
            KeyField::Left => self.left = None,
            KeyField::Right => self.right = None,
        }
        let slot = Slot::Other(Box::new((f.name().to_string(), raw)));
        match self.layout.position(f.name()) {
            Some(i) => self.layout.0[i] = slot,
            None => self.layout.0.push(slot),
        }
    }
}

impl Side {
    fn field(self) -> KeyField {
        match self {
            Side::Left => KeyField::Left,
            Side::Right => KeyField::Right,
        }
    }
}
