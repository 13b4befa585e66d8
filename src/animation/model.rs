//! The typed animation model: an element's keyframes (OpenCut v30+ `element.animations`), parsed
//! once when a project is read and written back in the shape it was read in (model/json.rs).
//!
//! Exact round trips: every object keeps the order of its fields, and numbers stay JSON numbers
//! as they were (an integer stays an integer, `1.0` stays `1.0`). A field the model does not
//! understand (an unknown name, or a known name holding another type) is kept as its raw JSON
//! value in its place: OpenCut may store more than the model reads, and a project must still come
//! back byte-identical. Edits follow the serde_json map (preserve_order) the tools once edited
//! directly, so every output stays the same: a changed field keeps its place, a new one goes last,
//! a removed one is swapped with the last (`swap_remove`).
//!
//! What is kept raw also stays out of the evaluator and the tools, where reading the JSON
//! directly once saw part of it: a `keys` list holding anything but objects reads as no keys, a
//! key value other than a number, string or flag as no value, an id that is not a string as none.
//! OpenCut writes none of these.

mod json;

use serde_json::{Number, Value};

/// Every animated path of an element (`transform.positionX`, `color`, …) with its channel, in
/// the order read or added.
#[derive(Clone, Debug, Default)]
pub struct Animations {
    paths: Vec<(String, Animation)>,
}

/// What one path (or one member of a group) holds.
#[derive(Clone, Debug)]
pub enum Animation {
    /// An object with `keys` (any object, in a group): one scalar or discrete channel.
    Channel(Channel),
    /// An object without `keys`: named channels (a colour's `r`, `g`, `b`, `a`).
    Group(Vec<(String, Animation)>),
    /// Anything else, kept as read; it animates nothing.
    Raw(Value),
}

/// `{ keys, extrapolation? }`.
#[derive(Clone, Debug, Default)]
pub struct Channel {
    keys: Vec<Key>,
    extrapolation: Option<Extrapolation>,
    layout: Layout,
}

/// How a channel continues before its first key and after its last.
#[derive(Clone, Debug)]
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

/// A key's value: a number (scalar channels) or a held string or flag (discrete ones).
#[derive(Clone, Debug)]
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

/// A bezier handle: `dt` ticks and `dv` value from its key (`None`: not finite, written `null`).
#[derive(Clone, Debug)]
pub struct Handle {
    pub dt: Option<Number>,
    pub dv: Option<Number>,
}

impl Handle {
    /// `(dt, dv)`; `None` where one is not a number (OpenCut then uses no handle).
    pub fn get(&self) -> Option<(f64, f64)> {
        Some((self.dt.as_ref()?.as_f64()?, self.dv.as_ref()?.as_f64()?))
    }
}

/// Which handle of a key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Side {
    Left = 0,
    Right = 1,
}

/// One key: `{ id, time, value, segmentToNext?, tangentMode?, leftHandle?, rightHandle? }`.
#[derive(Clone, Debug, Default)]
pub struct Key {
    id: Option<String>,
    time: Option<Number>,
    value: Option<KeyValue>,
    /// `Some(Linear)` also for a `segmentToNext` the model does not know (OpenCut reads it so).
    segment: Option<Segment>,
    tangent: Option<String>,
    /// Left, right.
    handles: [Option<Handle>; 2],
    layout: Layout,
}

/// A number as NeuralCut writes one: integers without a fraction (`crate::effects::number`).
pub fn number(v: f64) -> Option<Number> {
    match crate::effects::number(v) {
        Value::Number(n) => Some(n),
        _ => None,
    }
}

/// The fields the model reads, of channels and keys.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Field {
    Keys,
    Extrapolation,
    Id,
    Time,
    Value,
    Segment,
    Tangent,
    Left,
    Right,
}

const NAMES: [&str; 9] = ["keys", "extrapolation", "id", "time", "value", "segmentToNext", "tangentMode", "leftHandle", "rightHandle"];

/// The field names of an object, in order; the typed value of a known one lives in its struct.
#[derive(Clone, Debug, Default)]
struct Layout(Vec<Slot>);

#[derive(Clone, Debug)]
enum Slot {
    Known(Field),
    /// A field kept as read: its name and raw value.
    Other(Box<(String, Value)>),
}

impl Slot {
    fn name(&self) -> &str {
        match self {
            Slot::Known(f) => NAMES[*f as usize],
            Slot::Other(o) => &o.0,
        }
    }
}

impl Layout {
    fn position(&self, f: Field) -> Option<usize> {
        self.0.iter().position(|s| s.name() == NAMES[f as usize])
    }

    fn has(&self, f: Field) -> bool {
        self.position(f).is_some()
    }

    /// `slot` in the place of the field of its name, or last.
    fn put(&mut self, f: Field, slot: Slot) {
        match self.position(f) {
            Some(i) => self.0[i] = slot,
            None => self.0.push(slot),
        }
    }

    /// `f` now holds a typed value.
    fn set(&mut self, f: Field) {
        self.put(f, Slot::Known(f));
    }

    fn remove(&mut self, f: Field) {
        if let Some(i) = self.position(f) {
            self.0.swap_remove(i);
        }
    }
}

impl Animations {
    pub fn get(&self, path: &str) -> Option<&Animation> {
        find(&self.paths, path)
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
    pub fn remove(&mut self, path: &str) {
        if let Some(i) = self.paths.iter().position(|(p, _)| p == path) {
            self.paths.swap_remove(i);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &Animation)> {
        self.paths.iter().map(|(p, a)| (p.as_str(), a))
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Animation> {
        self.paths.iter_mut().map(|(_, a)| a)
    }

    /// The paths and their animations, moved out.
    pub fn into_paths(self) -> Vec<(String, Animation)> {
        self.paths
    }

    pub fn from_paths(paths: Vec<(String, Animation)>) -> Animations {
        Animations { paths }
    }
}

fn find<'a>(list: &'a [(String, Animation)], name: &str) -> Option<&'a Animation> {
    list.iter().find(|(n, _)| n == name).map(|(_, a)| a)
}

impl Animation {
    /// The group member `name` when it is a channel.
    pub fn part(&self, name: &str) -> Option<&Channel> {
        match self {
            Animation::Group(parts) => match find(parts, name) {
                Some(Animation::Channel(c)) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }

    pub fn part_mut(&mut self, name: &str) -> Option<&mut Channel> {
        match self {
            Animation::Group(parts) => match parts.iter_mut().find(|(n, _)| n == name) {
                Some((_, Animation::Channel(c))) => Some(c),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether the group has a member `name`, channel or not.
    pub fn has_part(&self, name: &str) -> bool {
        matches!(self, Animation::Group(parts) if find(parts, name).is_some())
    }

    /// Calls `f` on its channels: itself, or a group's members that are channels.
    pub fn each_channel(&mut self, f: &mut dyn FnMut(&mut Channel)) {
        match self {
            Animation::Channel(c) => f(c),
            Animation::Group(parts) => parts.iter_mut().for_each(|(_, p)| p.each_channel(f)),
            Animation::Raw(_) => {}
        }
    }
}

impl Channel {
    /// An empty channel, `{ "keys": [] }`.
    pub fn new() -> Channel {
        Channel::with_keys(Vec::new(), None)
    }

    /// `{ keys, extrapolation? }` as NeuralCut writes a cut channel.
    pub fn with_keys(keys: Vec<Key>, extrapolation: Option<Extrapolation>) -> Channel {
        let mut layout = Layout::default();
        layout.set(Field::Keys);
        if extrapolation.is_some() {
            layout.set(Field::Extrapolation);
        }
        Channel { keys, extrapolation, layout }
    }

    /// The keys, in stored order (an unreadable `keys` reads as none).
    pub fn keys(&self) -> &[Key] {
        &self.keys
    }

    /// The keys to edit where `keys` is a list of keys (`None` where it is kept raw).
    pub fn keys_in_place(&mut self) -> Option<&mut Vec<Key>> {
        self.layout.0.iter().any(|s| matches!(s, Slot::Known(Field::Keys))).then_some(&mut self.keys)
    }

    /// The keys to edit; a `keys` that was not a list of keys becomes an empty list.
    pub fn keys_mut(&mut self) -> &mut Vec<Key> {
        self.layout.set(Field::Keys);
        &mut self.keys
    }

    /// Takes the keys and the extrapolation out (a cut rebuilds the channel from them).
    pub fn into_parts(self) -> (Vec<Key>, Option<Extrapolation>) {
        (self.keys, self.extrapolation)
    }

    pub fn extrapolation(&self) -> Option<&Extrapolation> {
        self.extrapolation.as_ref()
    }

    /// OpenCut's `isScalarChannel`: it has `extrapolation`, or a key has `segmentToNext`.
    pub fn is_scalar(&self) -> bool {
        self.extrapolation.is_some() || self.keys.iter().any(|k| k.segment.is_some())
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

    pub fn id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    /// The time in ticks from the element's start.
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

    /// Whether it has a `tangentMode` (readable or not).
    pub fn has_tangent(&self) -> bool {
        self.layout.has(Field::Tangent)
    }

    pub fn has_id(&self) -> bool {
        self.layout.has(Field::Id)
    }

    pub fn handle(&self, side: Side) -> Option<&Handle> {
        self.handles[side as usize].as_ref()
    }

    pub fn set_id(&mut self, id: String) {
        self.id = Some(id);
        self.layout.set(Field::Id);
    }

    /// Sets the time (a whole number of ticks written without a fraction); not finite, `null`.
    pub fn set_time(&mut self, t: f64) {
        self.time = number(t);
        self.set_or_null(Field::Time, self.time.is_some());
    }

    /// Sets the value; `None` writes `null` (a value the model could not hold).
    pub fn set_value(&mut self, v: Option<KeyValue>) {
        let known = v.is_some();
        self.value = v;
        self.set_or_null(Field::Value, known);
    }

    pub fn set_segment(&mut self, s: Segment) {
        self.segment = Some(s);
        self.layout.set(Field::Segment);
    }

    pub fn set_tangent(&mut self, t: &str) {
        self.tangent = Some(t.to_string());
        self.layout.set(Field::Tangent);
    }

    /// Sets a handle to `(dt, dv)`, or removes it (`None`).
    pub fn set_handle(&mut self, side: Side, h: Option<(f64, f64)>) {
        match h {
            Some((dt, dv)) => self.set_handle_numbers(side, number(dt), number(dv)),
            None => {
                self.handles[side as usize] = None;
                self.layout.remove(if side == Side::Left { Field::Left } else { Field::Right });
            }
        }
    }

    /// A handle exactly as given.
    pub fn set_handle_numbers(&mut self, side: Side, dt: Option<Number>, dv: Option<Number>) {
        self.handles[side as usize] = Some(Handle { dt, dv });
        self.layout.set(if side == Side::Left { Field::Left } else { Field::Right });
    }

    /// `f` typed where `known`, else `null` in its place.
    fn set_or_null(&mut self, f: Field, known: bool) {
        let slot = if known { Slot::Known(f) } else { Slot::Other(Box::new((NAMES[f as usize].into(), Value::Null))) };
        self.layout.put(f, slot);
    }
}
