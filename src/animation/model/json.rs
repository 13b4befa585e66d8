//! The model from and to JSON: OpenCut's `animations` object, which NeuralCut's project JSON
//! holds too. Fields in order, numbers as read, what the model does not read kept raw in place.

use serde_json::{Map, Value};

use super::{Animation, Animations, Channel, Extrap, Extrapolation, Field, Handle, Key, KeyValue, Layout, Segment, Slot, NAMES};

impl Animations {
    /// Parses an `animations` object.
    pub fn from_json(map: Map<String, Value>) -> Animations {
        Animations { paths: named(map, false) }
    }

    /// The `animations` object in the shape it was read in (with the edits made since).
    pub fn to_json(&self) -> Map<String, Value> {
        write_named(&self.paths)
    }
}

/// The paths of `animations` (or, `in_group`, the members of a group: any object a channel).
fn named(map: Map<String, Value>, in_group: bool) -> Vec<(String, Animation)> {
    let mut out = Vec::with_capacity(map.len());
    for (name, v) in map {
        let a = match v {
            Value::Object(o) if in_group || o.contains_key("keys") => Animation::Channel(Channel::from_json(o)),
            Value::Object(o) => Animation::Group(named(o, true)),
            raw => Animation::Raw(raw),
        };
        out.push((name, a));
    }
    out
}

fn write_named(list: &[(String, Animation)]) -> Map<String, Value> {
    let mut o = Map::new();
    for (name, a) in list {
        let v = match a {
            Animation::Channel(c) => Value::Object(c.to_json()),
            Animation::Group(parts) => Value::Object(write_named(parts)),
            Animation::Raw(raw) => raw.clone(),
        };
        o.insert(name.clone(), v);
    }
    o
}

/// The same JSON: equal models write equal objects.
impl PartialEq for Animations {
    fn eq(&self, other: &Animations) -> bool {
        self.to_json() == other.to_json()
    }
}

// Through serde_json's map, whose code the element's other fields already use: the wasm gains
// no serde instance of its own.
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

impl Layout {
    fn other(&mut self, name: String, raw: Value) {
        self.0.push(Slot::Other(Box::new((name, raw))));
    }
}

impl Channel {
    fn from_json(o: Map<String, Value>) -> Channel {
        let mut c = Channel::default();
        for (name, v) in o {
            match (name.as_str(), v) {
                ("keys", Value::Array(list)) if list.iter().all(Value::is_object) => {
                    for k in list {
                        if let Value::Object(k) = k {
                            c.keys.push(Key::from_json(k));
                        }
                    }
                    c.layout.set(Field::Keys);
                }
                ("extrapolation", raw) => {
                    let side = |s: &str| if raw.get(s).and_then(Value::as_str) == Some("linear") { Extrap::Linear } else { Extrap::Hold };
                    c.extrapolation = Some(Extrapolation { before: side("before"), after: side("after"), raw });
                    c.layout.set(Field::Extrapolation);
                }
                (_, raw) => c.layout.other(name, raw),
            }
        }
        c
    }

    fn to_json(&self) -> Map<String, Value> {
        let mut o = Map::new();
        for slot in &self.layout.0 {
            let v = match slot {
                Slot::Known(Field::Keys) => Value::Array(self.keys.iter().map(|k| Value::Object(k.to_json())).collect()),
                Slot::Known(_) => self.extrapolation.as_ref().map_or(Value::Null, |x| x.raw.clone()),
                Slot::Other(other) => other.1.clone(),
            };
            o.insert(slot.name().to_string(), v);
        }
        o
    }
}

impl Key {
    fn from_json(o: Map<String, Value>) -> Key {
        let mut k = Key::default();
        for (name, v) in o {
            let field = NAMES.iter().position(|n| *n == name).map(|i| FIELDS[i]);
            match (field, v) {
                (Some(Field::Id), Value::String(s)) => k.id = Some(s),
                (Some(Field::Time), Value::Number(n)) => k.time = Some(n),
                (Some(Field::Value), Value::Number(n)) => k.value = Some(KeyValue::Number(n)),
                (Some(Field::Value), Value::String(s)) => k.value = Some(KeyValue::Text(s)),
                (Some(Field::Value), Value::Bool(b)) => k.value = Some(KeyValue::Flag(b)),
                (Some(Field::Tangent), Value::String(s)) => k.tangent = Some(s),
                (Some(Field::Segment), v) => {
                    let known = NAMES_OF_SEGMENTS.iter().position(|s| v.as_str() == Some(*s));
                    k.segment = Some([Segment::Step, Segment::Linear, Segment::Bezier][known.unwrap_or(1)]);
                    if known.is_none() {
                        k.layout.other(name, v);
                        continue;
                    }
                }
                (Some(f @ (Field::Left | Field::Right)), v) => {
                    let i = (f == Field::Right) as usize;
                    let h = v.as_object();
                    let num = |key: &str| h.and_then(|h| h.get(key)).and_then(Value::as_number).filter(|n| n.as_f64().is_some()).cloned();
                    if let (Some(dt), Some(dv)) = (num("dt"), num("dv")) {
                        k.handles[i] = Some(Handle { dt: Some(dt), dv: Some(dv) });
                    }
                    // Typed only as exactly `{dt, dv}`; any other shape is written back as read.
                    let exact = k.handles[i].is_some() && h.is_some_and(|h| h.len() == 2 && h.keys().next().is_some_and(|f| f == "dt"));
                    if !exact {
                        k.layout.other(name, v);
                        continue;
                    }
                }
                (_, v) => {
                    k.layout.other(name, v);
                    continue;
                }
            };
            if let Some(f) = field {
                k.layout.set(f);
            }
        }
        k
    }

    fn to_json(&self) -> Map<String, Value> {
        let mut o = Map::new();
        for slot in &self.layout.0 {
            let v = match slot {
                Slot::Other(other) => other.1.clone(),
                Slot::Known(f) => match f {
                    Field::Id => self.id.clone().map(Value::String),
                    Field::Time => self.time.clone().map(Value::Number),
                    Field::Value => self.value.as_ref().map(KeyValue::to_value),
                    Field::Segment => self.segment.map(|s| Value::from(NAMES_OF_SEGMENTS[s as usize])),
                    Field::Tangent => self.tangent.clone().map(Value::String),
                    _ => self.handles[(*f == Field::Right) as usize].as_ref().map(|h| {
                        let mut m = Map::new();
                        crate::text::put(&mut m, "dt", h.dt.clone().map_or(Value::Null, Value::Number));
                        crate::text::put(&mut m, "dv", h.dv.clone().map_or(Value::Null, Value::Number));
                        Value::Object(m)
                    }),
                }
                .unwrap_or(Value::Null),
            };
            o.insert(slot.name().to_string(), v);
        }
        o
    }
}

const NAMES_OF_SEGMENTS: [&str; 3] = ["step", "linear", "bezier"];

/// The fields of `NAMES`, in its order.
const FIELDS: [Field; 9] = [Field::Keys, Field::Extrapolation, Field::Id, Field::Time, Field::Value, Field::Segment, Field::Tangent, Field::Left, Field::Right];
