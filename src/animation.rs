//! Keyframes, typed ([`Animations`], parsed once when a project is read and written back in
//! OpenCut v30+'s exact shape: src/animation/model.rs), and the one evaluator every reader of an
//! animatable value goes through. The evaluator and the cuts read the typed model only.
//!
//! # Evaluating
//!
//! [`value_at`]`(element, property, local_ticks)` is the value OpenCut's renderer uses for
//! `property` (a param path such as `transform.positionX`, `opacity`, `volume`, `color`)
//! at `local_ticks` from the element's start: the animated value when the path has a channel, else
//! the element's own value, else the property's default (crate::properties names every property,
//! its unit and default). `None` when the element has no such property. Values are in the
//! properties' units: canvas pixels from the centre, scale factors, degrees, opacity 0–1, volume
//! in dB, colours as hex strings.
//!
//! Port of OpenCut's animation/interpolation.ts, bezier.ts and resolve.ts (cf5e79e): keys sorted
//! by time; before the first key and after the last, `extrapolation` (`hold` by default, or
//! `linear` along the nearest segment); between keys the left key's `segmentToNext` (`step` holds,
//! `linear` interpolates, `bezier` follows the handles, defaulting to a third of the segment,
//! solved for time by 20 bisections). A numeric path's channel counts only when it is scalar (it
//! has `extrapolation` or a key with `segmentToNext`); string and boolean paths use held discrete
//! keys. A colour is four scalar channels `{r, g, b, a}` in linear light, composed back to `#rrggbb`
//! (`#rrggbbaa` when alpha < 1).

mod model;
mod split;

pub use model::{number, Animation, Animations, Channel, Extrap, Extrapolation, Handle, Key, KeyValue, Segment, Side};
pub use split::{clamp_to_duration, split_animations, Halves};

use serde_json::Value;

use crate::model::Element;

/// The element's own (unanimated) value of the keyframable property `path`, the default where
/// it sets none; `None` when it has no such property (crate::properties).
pub fn base_value(e: &Element, path: &str) -> Option<Value> {
    // Keyframable properties never default by canvas size, so any height gives the same value.
    crate::properties::animatable_of(e, path).map(|p| p.value(e, 0))
}

/// The value of `property` at `local_ticks` from the element's start, as OpenCut renders it (see
/// the module docs). The one accessor for every animatable value.
pub fn value_at(element: &Element, property: &str, local_ticks: i64) -> Option<Value> {
    let base = base_value(element, property)?;
    let t = local_ticks.max(0) as f64;
    let Some(data) = element.animations.as_ref().and_then(|a| a.get(property)) else { return Some(base) };
    Some(resolve(data, t, base))
}

/// [`value_at`] for a numeric property, as a number (`None` for colours and unknown properties).
pub fn number_at(element: &Element, property: &str, local_ticks: i64) -> Option<f64> {
    value_at(element, property, local_ticks)?.as_f64()
}

/// OpenCut's `resolveAnimationPathValueAtTime`.
fn resolve(data: &Animation, t: f64, base: Value) -> Value {
    match data {
        Animation::Channel(c) => match &base {
            Value::Number(n) => {
                let fallback = n.as_f64().unwrap_or(0.0);
                let v = if c.is_scalar() { scalar_at(c, t, fallback) } else { fallback };
                crate::effects::number(v)
            }
            Value::String(_) | Value::Bool(_) if !c.is_scalar() => discrete_at(c.keys(), t).map_or(base, |v| v.to_value()),
            _ => base,
        },
        Animation::Group(_) => {
            let (Some(color), true) = (base.as_str(), ["r", "g", "b", "a"].iter().all(|k| data.has_part(k))) else { return base };
            let Some(linear) = parse_color(color) else { return base };
            let channel = |k: &str, fallback: f64| match data.part(k) {
                Some(c) if c.is_scalar() => scalar_at(c, t, fallback),
                _ => fallback,
            };
            let rgba = [channel("r", linear[0]), channel("g", linear[1]), channel("b", linear[2]), channel("a", linear[3])];
            Value::from(format_color(rgba))
        }
        Animation::Raw(_) => base,
    }
}

/// A scalar key, normalised as OpenCut does before evaluating.
#[derive(Clone, Copy, Debug)]
struct Point {
    time: f64,
    value: f64,
    segment: Segment,
    left: Option<(f64, f64)>,
    right: Option<(f64, f64)>,
}

/// `normalizeScalarChannel`: the keys with a numeric time and value, sorted by time (stable),
/// missing segments linear, handles clamped into their segment.
fn scalar_keys(keys: &[Key]) -> Vec<Point> {
    let mut out: Vec<Point> = keys
        .iter()
        .filter_map(|k| {
            Some(Point {
                time: k.time()?,
                value: k.value()?.as_f64()?,
                segment: k.segment().unwrap_or(Segment::Linear),
                left: k.handle(Side::Left).and_then(Handle::get),
                right: k.handle(Side::Right).and_then(Handle::get),
            })
        })
        .collect();
    crate::sort::stable_sort_by_key(&mut out, |k| crate::sort::total_order_key(k.time));
    let times: Vec<f64> = out.iter().map(|k| k.time).collect();
    for (i, k) in out.iter_mut().enumerate() {
        k.left = match i.checked_sub(1).map(|p| times[p]) {
            Some(prev) => k.left.map(|(dt, dv)| (dt.min(0.0).max(-(k.time - prev).max(1.0)), dv)),
            None => None,
        };
        k.right = match times.get(i + 1) {
            Some(next) => k.right.map(|(dt, dv)| (dt.max(0.0).min((next - k.time).max(1.0)), dv)),
            None => None,
        };
    }
    out
}

fn edge(mode: Extrap, edge: &Point, neighbor: Option<&Point>, t: f64) -> f64 {
    match neighbor {
        Some(n) if mode == Extrap::Linear && n.time != edge.time => edge.value + (t - edge.time) / (n.time - edge.time) * (n.value - edge.value),
        _ => edge.value,
    }
}

fn bezier(p: f64, p0: f64, p1: f64, p2: f64, p3: f64) -> f64 {
    let mt = 1.0 - p;
    mt * mt * mt * p0 + 3.0 * mt * mt * p * p1 + 3.0 * mt * p * p * p2 + p * p * p * p3
}

/// OpenCut's `getScalarChannelValueAtTime`.
fn scalar_at(channel: &Channel, t: f64, fallback: f64) -> f64 {
    scalar_value(&scalar_keys(channel.keys()), channel.extrapolation(), t, fallback)
}

/// The value at `t` of a channel's normalised keys and its `extrapolation`.
fn scalar_value(keys: &[Point], ext: Option<&Extrapolation>, t: f64, fallback: f64) -> f64 {
    let (Some(first), Some(last)) = (keys.first(), keys.last()) else { return fallback };
    let (before, after) = ext.map_or((Extrap::Hold, Extrap::Hold), |x| (x.before, x.after));
    if t < first.time {
        return edge(before, first, keys.get(1), t);
    }
    if t == first.time {
        return first.value;
    }
    if t > last.time {
        return edge(after, last, keys.len().checked_sub(2).and_then(|i| keys.get(i)), t);
    }
    if t == last.time {
        return last.value;
    }
    for pair in keys.windows(2) {
        let (l, r) = (&pair[0], &pair[1]);
        if t == r.time {
            return r.value;
        }
        if !(t >= l.time && t <= r.time) {
            continue;
        }
        if l.segment == Segment::Step {
            return l.value;
        }
        let span = r.time - l.time;
        if span == 0.0 {
            return r.value;
        }
        if l.segment == Segment::Linear {
            let p = ((t - l.time) / span).clamp(0.0, 1.0);
            return l.value + (r.value - l.value) * p;
        }
        let (_, value) = bezier_at(l, r, t);
        return value;
    }
    last.value
}

/// The bezier segment from `l` to `r` at time `t`: its curve parameter (solved by 20
/// bisections, as OpenCut does) and value.
fn bezier_at(l: &Point, r: &Point, t: f64) -> (f64, f64) {
    let (span, delta) = (r.time - l.time, r.value - l.value);
    let (rdt, rdv) = l.right.unwrap_or((span / 3.0, delta / 3.0));
    let (ldt, ldv) = r.left.unwrap_or((-span / 3.0, -delta / 3.0));
    let (mut lo, mut hi) = (0.0, 1.0);
    for _ in 0..20 {
        let mid = (lo + hi) / 2.0;
        if bezier(mid, l.time, l.time + rdt, r.time + ldt, r.time) < t {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let p = (lo + hi) / 2.0;
    (p, bezier(p, l.value, l.value + rdv, r.value + ldv, r.value))
}

/// OpenCut's `getDiscreteChannelValueAtTime`: the value of the last key at or before `t` (of
/// those with a numeric time and a value).
fn discrete_at(keys: &[Key], t: f64) -> Option<&KeyValue> {
    let mut keys: Vec<(f64, &KeyValue)> = keys.iter().filter_map(|k| Some((k.time()?, k.value()?))).collect();
    crate::sort::stable_sort_by_key(&mut keys, |k| crate::sort::total_order_key(k.0));
    keys.into_iter().take_while(|(time, _)| *time <= t).last().map(|(_, v)| v)
}

fn srgb_to_linear(v: f64) -> f64 {
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(v: f64) -> f64 {
    let v = v.clamp(0.0, 1.0);
    if v <= 0.0031308 {
        v * 12.92
    } else {
        1.055 * v.powf(1.0 / 2.4) - 0.055
    }
}

/// `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb(r, g, b)` or `rgba(r, g, b, a)` as linear-light
/// `[r, g, b, a]` (OpenCut's `parseColorToLinearRgba`).
pub fn parse_color(s: &str) -> Option<[f64; 4]> {
    let s = s.trim().to_ascii_lowercase();
    let srgb: [f64; 4] = if let Some(hex) = s.strip_prefix('#') {
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let digit = |i: usize| u8::from_str_radix(&hex[i..i + 1], 16).ok().map(|d| f64::from(d * 17) / 255.0);
        let pair = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok().map(|d| f64::from(d) / 255.0);
        match hex.len() {
            3 => [digit(0)?, digit(1)?, digit(2)?, 1.0],
            4 => [digit(0)?, digit(1)?, digit(2)?, digit(3)?],
            6 => [pair(0)?, pair(2)?, pair(4)?, 1.0],
            8 => [pair(0)?, pair(2)?, pair(4)?, pair(6)?],
            _ => return None,
        }
    } else {
        let inner = s.strip_prefix("rgba(").or_else(|| s.strip_prefix("rgb("))?.strip_suffix(')')?;
        // parse_finite_f64: parse::<f64> without core's tables; its infinities were refused below anyway.
        let parts: Vec<f64> = inner.split(',').map(|p| crate::text::parse_finite_f64(p.trim())).collect::<Option<_>>()?;
        match parts[..] {
            [r, g, b] => [r / 255.0, g / 255.0, b / 255.0, 1.0],
            [r, g, b, a] => [r / 255.0, g / 255.0, b / 255.0, a],
            _ => return None,
        }
    };
    if srgb.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let c = |v: f64| srgb_to_linear(v.clamp(0.0, 1.0));
    Some([c(srgb[0]), c(srgb[1]), c(srgb[2]), srgb[3].clamp(0.0, 1.0)])
}

/// Linear-light `[r, g, b, a]` as `#rrggbb`, or `#rrggbbaa` when alpha < 1 (OpenCut's
/// `formatLinearRgba`, culori's hex rounding).
pub fn format_color(rgba: [f64; 4]) -> String {
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let (r, g, b) = (byte(linear_to_srgb(rgba[0])), byte(linear_to_srgb(rgba[1])), byte(linear_to_srgb(rgba[2])));
    let a = rgba[3].clamp(0.0, 1.0);
    if a < 1.0 {
        format!("#{r:02x}{g:02x}{b:02x}{:02x}", byte(a))
    } else {
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

#[cfg(test)]
mod tests;
