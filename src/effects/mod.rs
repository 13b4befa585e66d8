//! The effect registry: the seven effects, their parameters and how parameters are validated.
//! Static data, not project-dependent.

pub mod active;
pub mod fast;
pub mod pyramid;
pub mod reference;

use crate::text::Num;
use serde_json::{Map, Value};

/// One numeric parameter of an effect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamDef {
    pub key: &'static str,
    pub label: &'static str,
    pub default: f64,
    pub min: f64,
    pub max: f64,
    pub step: f64,
    /// What the parameter does, in a few words; get_effect's description starts with it.
    pub meaning: &'static str,
}

impl ParamDef {
    /// The human-readable description get_effect returns: what the parameter does, then the
    /// spec's range sentence, e.g. "Percent of the way to grey; 0 leaves colour. Number between 0
    /// and 100, step 1. Default: 100". Without the first part an agent learns the vignette
    /// radius's range but not what it is.
    pub fn description(&self) -> String {
        format!("{} {}", self.meaning, self.range())
    }

    /// The spec's sentence: "Number between 0 and 100, step 1. Default: 15".
    pub fn range(&self) -> String {
        format!("Number between {} and {}, step {}. Default: {}", Num(self.min), Num(self.max), Num(self.step), Num(self.default))
    }
}

/// One registered effect.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EffectDef {
    pub id: &'static str,
    pub name: &'static str,
    pub description: &'static str,
    pub keywords: &'static [&'static str],
    pub params: &'static [ParamDef],
}

const fn p(key: &'static str, label: &'static str, default: f64, min: f64, max: f64, step: f64, meaning: &'static str) -> ParamDef {
    ParamDef { key, label, default, min, max, step, meaning }
}

/// Every effect, in the order list_effects returns them.
pub static EFFECTS: [EffectDef; 7] = [
    EffectDef {
        id: "blur",
        name: "Blur",
        description: "Gaussian blur of the picture below the effect track. Intensity 0 leaves it sharp.",
        keywords: &["gaussian", "soften", "defocus", "blurry"],
        params: &[p(
            "intensity",
            "Intensity",
            15.0,
            0.0,
            100.0,
            1.0,
            "How strong the blur is; 0 leaves the picture sharp, 100 is a soft blur of about 20 pixels on a 1080p frame.",
        )],
    },
    EffectDef {
        id: "brightness-contrast",
        name: "Brightness & Contrast",
        description: "Shifts brightness and scales contrast around mid-grey.",
        keywords: &["brightness", "contrast", "exposure", "light", "dark", "levels"],
        params: &[
            p("brightness", "Brightness", 0.0, -1.0, 1.0, 0.01, "Added to every channel; -1 is black, 1 is white."),
            p("contrast", "Contrast", 1.0, 0.0, 3.0, 0.01, "Multiplies the distance from mid-grey; 1 leaves it unchanged."),
        ],
    },
    EffectDef {
        id: "grayscale",
        name: "Grayscale",
        description: "Removes colour, leaving luminance (Rec. 709 weights).",
        keywords: &["black and white", "monochrome", "desaturate", "greyscale", "b&w"],
        params: &[p("intensity", "Intensity", 100.0, 0.0, 100.0, 1.0, "Percent of the way to grey; 0 leaves colour.")],
    },
    EffectDef {
        id: "saturation",
        name: "Saturation",
        description: "Scales colour saturation: below 100 washes colour out, above 100 makes it vivid.",
        keywords: &["color", "colour", "vibrance", "vivid", "desaturate"],
        params: &[p("saturation", "Saturation", 100.0, 0.0, 300.0, 1.0, "Percent of the original saturation; 0 is grey.")],
    },
    EffectDef {
        id: "sepia",
        name: "Sepia",
        description: "Warm brown vintage tone.",
        keywords: &["vintage", "old", "retro", "warm", "brown"],
        params: &[p("intensity", "Intensity", 100.0, 0.0, 100.0, 1.0, "Percent of the way to full sepia.")],
    },
    EffectDef {
        id: "invert",
        name: "Invert",
        description: "Inverts colours, like a photographic negative.",
        keywords: &["negative", "inverse", "reverse colors"],
        params: &[p("intensity", "Intensity", 100.0, 0.0, 100.0, 1.0, "Percent of the way to the full negative.")],
    },
    EffectDef {
        id: "vignette",
        name: "Vignette",
        description: "Darkens the edges of the frame toward the corners.",
        keywords: &["edges", "corners", "dark edges", "cinematic", "frame"],
        params: &[
            p("radius", "Radius", 75.0, 10.0, 100.0, 1.0, "Where darkening starts, in percent of the centre-to-corner distance."),
            p("softness", "Softness", 35.0, 5.0, 80.0, 1.0, "Width of the fade from clear to dark, in percent."),
        ],
    },
];

pub fn find(id: &str) -> Option<&'static EffectDef> {
    EFFECTS.iter().find(|e| e.id == id)
}

/// The effect types a host can render: a subset of [`EFFECTS`]. The effect tools offer only
/// these, so an agent never writes an effect the host's renderer would fail on (OpenCut's own
/// registry, for one, holds only `blur`). An editor setting, not part of the project.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EffectSet(u8);

impl Default for EffectSet {
    fn default() -> Self {
        EffectSet::ALL
    }
}

impl EffectSet {
    /// Every registered effect (the default).
    pub const ALL: EffectSet = EffectSet((1 << EFFECTS.len()) - 1);

    /// The set named by `ids` (any order, repeats allowed). An id that is not a registered
    /// effect is returned as the error: a host cannot offer what this engine cannot describe.
    pub fn from_ids<S: AsRef<str>>(ids: &[S]) -> Result<EffectSet, String> {
        let mut bits = 0u8;
        for id in ids {
            let id = id.as_ref();
            let i = EFFECTS.iter().position(|e| e.id == id).ok_or_else(|| id.to_string())?;
            bits |= 1 << i;
        }
        Ok(EffectSet(bits))
    }

    fn has(self, index: usize) -> bool {
        self.0 & (1 << index) != 0
    }

    pub fn contains(self, id: &str) -> bool {
        EFFECTS.iter().position(|e| e.id == id).is_some_and(|i| self.has(i))
    }

    /// The definition of `id` when it is in the set.
    pub fn find(self, id: &str) -> Option<&'static EffectDef> {
        EFFECTS.iter().enumerate().find(|(i, e)| e.id == id && self.has(*i)).map(|(_, e)| e)
    }

    /// The effects of the set, in registry order.
    pub fn defs(self) -> impl Iterator<Item = &'static EffectDef> {
        EFFECTS.iter().enumerate().filter(move |(i, _)| self.has(*i)).map(|(_, e)| e)
    }

    pub fn ids(self) -> Vec<&'static str> {
        self.defs().map(|e| e.id).collect()
    }

    /// [`search`] within the set.
    pub fn search(self, query: &str) -> Vec<&'static EffectDef> {
        search(query).into_iter().filter(|e| self.contains(e.id)).collect()
    }
}

/// Effects whose id, name or keywords contain `query`, case-insensitively. An empty query
/// matches everything.
pub fn search(query: &str) -> Vec<&'static EffectDef> {
    let q = crate::text::lowercase(query.trim());
    EFFECTS
        .iter()
        .filter(|e| {
            q.is_empty() || e.id.contains(&q) || crate::text::lowercase(e.name).contains(&q) || e.keywords.iter().any(|k| k.contains(&q) || q.contains(k))
        })
        .collect()
}

/// Why a parameter patch was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamError {
    /// Not an object, or a value of the wrong type.
    Invalid {
        key: Option<String>,
    },
    Unknown(String),
    BelowMin(&'static str, f64),
    AboveMax(&'static str, f64),
}

/// A parameter limit as error messages print it. Not `f64`'s own `Display`: linking Rust's float
/// formatting cost the browser effects module 9.1 KB of its 102 KB gzipped (measured with the
/// WebGPU-only build, docs/effects.md), and these messages are its only use. The registry's limits are whole
/// numbers (`limits_print_exactly`), printed as integers; any other value prints with at most
/// four decimals.
pub struct Limit(pub f64);

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = self.0;
        if !v.is_finite() || v.abs() >= 1e15 {
            // Not a registry limit; only the sign and size matter in a message.
            return f.write_str(if v.is_nan() {
                "NaN"
            } else if v < 0.0 {
                "-huge"
            } else {
                "huge"
            });
        }
        let sign = if v < 0.0 { "-" } else { "" };
        // Ten-thousandths, rounded half up; `as` is exact below 2^53.
        let n = (v.abs() * 10_000.0 + 0.5).floor() as u64;
        let (whole, frac) = (n / 10_000, n % 10_000);
        if frac == 0 {
            return write!(f, "{sign}{whole}");
        }
        let digits = format!("{frac:04}");
        write!(f, "{sign}{whole}.{}", digits.trim_end_matches('0'))
    }
}

impl EffectDef {
    pub fn param(&self, key: &str) -> Option<&'static ParamDef> {
        self.params.iter().find(|p| p.key == key)
    }

    /// Every parameter at its default, in declaration order.
    pub fn defaults(&self) -> Map<String, Value> {
        self.params.iter().map(|p| (p.key.to_string(), number(p.default))).collect()
    }

    /// Merges `patch` over `base` after checking each key and value against the definitions.
    /// Keys keep the declaration order.
    pub fn merge_params(&self, base: &Map<String, Value>, patch: &Map<String, Value>) -> Result<Map<String, Value>, ParamError> {
        for (key, value) in patch {
            let def = self.param(key).ok_or_else(|| ParamError::Unknown(key.clone()))?;
            let v = value.as_f64().ok_or(ParamError::Invalid { key: Some(key.clone()) })?;
            if v < def.min {
                return Err(ParamError::BelowMin(def.key, def.min));
            }
            if v > def.max {
                return Err(ParamError::AboveMax(def.key, def.max));
            }
        }
        let mut merged = Map::new();
        for def in self.params {
            let v = patch.get(def.key).or_else(|| base.get(def.key)).cloned().unwrap_or_else(|| number(def.default));
            merged.insert(def.key.to_string(), v);
        }
        Ok(merged)
    }

    /// Reads a parameter as a number, falling back to its default.
    pub fn value(&self, params: &Map<String, Value>, key: &str) -> f64 {
        let def = self.param(key);
        params.get(key).and_then(Value::as_f64).or(def.map(|d| d.default)).unwrap_or(0.0)
    }
}

/// A JSON number that prints integers without a fraction (15 rather than 15.0).
pub fn number(v: f64) -> Value {
    if let Some(whole) = whole_number(v) {
        Value::from(whole)
    } else {
        serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
    }
}

/// `v` as an integer when it is one that JSON should show without a fraction.
pub fn whole_number(v: f64) -> Option<i64> {
    (v.fract() == 0.0 && v.abs() < 1e15).then_some(v as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_say_what_then_the_spec_range() {
        assert_eq!(find("blur").unwrap().params[0].range(), "Number between 0 and 100, step 1. Default: 15");
        assert_eq!(
            find("brightness-contrast").unwrap().params[0].description(),
            "Added to every channel; -1 is black, 1 is white. Number between -1 and 1, step 0.01. Default: 0"
        );
        for e in &EFFECTS {
            for p in e.params {
                assert!(p.meaning.ends_with('.') && p.meaning.len() > 10, "{}.{} says what it does", e.id, p.key);
            }
        }
    }

    #[test]
    fn search_is_case_insensitive_over_names_and_keywords() {
        let ids = |q| search(q).into_iter().map(|e| e.id).collect::<Vec<_>>();
        assert_eq!(ids("BLUR"), ["blur"]);
        assert_eq!(ids("vintage"), ["sepia"]);
        assert_eq!(ids("").len(), 7);
        assert!(ids("zzz").is_empty());
    }

    #[test]
    fn an_effect_set_offers_only_its_members() {
        assert_eq!(EffectSet::default(), EffectSet::ALL);
        assert_eq!(EffectSet::ALL.ids().len(), 7);
        let blur = EffectSet::from_ids(&["blur", "blur"]).unwrap();
        assert_eq!(blur.ids(), ["blur"]);
        assert!(blur.find("blur").is_some() && blur.find("sepia").is_none());
        assert!(!blur.contains("glow"));
        assert_eq!(blur.search("").len(), 1);
        assert!(blur.search("vintage").is_empty());
        let two = EffectSet::from_ids(&["vignette", "sepia"]).unwrap();
        assert_eq!(two.ids(), ["sepia", "vignette"], "registry order");
        assert_eq!(EffectSet::from_ids::<&str>(&[]).unwrap().ids().len(), 0);
        assert_eq!(EffectSet::from_ids(&["blur", "glow"]), Err("glow".to_string()));
    }

    #[test]
    fn limits_print_exactly() {
        for def in EFFECTS {
            for p in def.params {
                for v in [p.min, p.max] {
                    assert_eq!(Limit(v).to_string(), v.to_string(), "{}.{}", def.id, p.key);
                }
            }
        }
        let cases = [(0.0, "0"), (-0.0, "0"), (-1.0, "-1"), (100.0, "100"), (0.5, "0.5"), (-2.25, "-2.25"), (0.01, "0.01"), (1.23456, "1.2346")];
        for (v, text) in cases {
            assert_eq!(Limit(v).to_string(), text, "{v}");
        }
        assert_eq!(Limit(f64::NAN).to_string(), "NaN");
        assert_eq!(Limit(f64::INFINITY).to_string(), "huge");
        assert_eq!(Limit(-1e300).to_string(), "-huge");
    }

    #[test]
    fn merge_checks_ranges_and_keeps_order() {
        let vignette = find("vignette").unwrap();
        let patch = serde_json::json!({"softness": 50}).as_object().unwrap().clone();
        let merged = vignette.merge_params(&vignette.defaults(), &patch).unwrap();
        assert_eq!(Value::Object(merged), serde_json::json!({"radius": 75, "softness": 50}));
        let bad = serde_json::json!({"radius": 5}).as_object().unwrap().clone();
        assert_eq!(vignette.merge_params(&Map::new(), &bad), Err(ParamError::BelowMin("radius", 10.0)));
    }
}
