//! OpenCut's built-in sticker providers (apps/web/src/stickers at opencut-classic cf5e79e), so
//! `add_sticker` takes the ids OpenCut's own sticker panel writes and `list_stickers` can show
//! them. A sticker id is `provider:value`; OpenCut parses it by trimming the whole id, cutting at
//! the first `:` (neither side empty) and trimming both sides (sticker-id.ts). The provider name
//! is matched exactly. Per provider:
//! - `flags`: value a country or region code of OpenCut's dataset, any case (OpenCut lowercases
//!   it for the file name); the panel writes it upper-case (`flags:US`), and so does NeuralCut.
//! - `shapes`: a graphic definition id (`rectangle`, `ellipse`, `polygon`, `star`) or one of the
//!   older presets (`square`, `circle`, `triangle`, `hexagon`, `diamond`), exact case. OpenCut
//!   draws any other value as a rectangle; NeuralCut refuses it instead of guessing.
//! - `logos`: registered but empty (no search results, and its URL is the id itself), so no logo
//!   id can be drawn and none is accepted.

/// A built-in sticker: its id as OpenCut writes it, its display name and its provider.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinSticker {
    pub id: String,
    pub name: &'static str,
    pub provider: &'static str,
}

/// OpenCut's sticker providers, in its registration order.
pub const PROVIDERS: [&str; 3] = ["logos", "flags", "shapes"];

/// OpenCut's `parseStickerId`: `(provider, value)`, or `None` where OpenCut throws.
pub fn parse_id(id: &str) -> Option<(&str, &str)> {
    let id = id.trim();
    let at = id.find(':')?;
    if at == 0 || at == id.len() - 1 {
        return None;
    }
    Some((id[..at].trim(), id[at + 1..].trim()))
}

/// The built-in sticker an id names, with the id in OpenCut's own spelling.
pub fn resolve(id: &str) -> Option<BuiltinSticker> {
    let (provider, value) = parse_id(id)?;
    match provider {
        "flags" => countries().find(|c| c.0.eq_ignore_ascii_case(value)).map(flag),
        "shapes" => SHAPES.iter().find(|s| s.0 == value).map(shape),
        _ => None,
    }
}

fn flag(c: (&'static str, &'static str, &'static str)) -> BuiltinSticker {
    BuiltinSticker { id: format!("flags:{}", c.0), name: c.1, provider: "flags" }
}

fn shape(s: &(&'static str, &'static str, &'static [&'static str])) -> BuiltinSticker {
    BuiltinSticker { id: format!("shapes:{}", s.0), name: s.1, provider: "shapes" }
}

/// Built-in stickers matching `query` (case-insensitive; empty matches all), flags then shapes.
/// Flags match on name, code or region ("europe", "South America"); shapes on name or keyword,
/// as OpenCut's panel searches them.
pub fn search(query: &str) -> Vec<BuiltinSticker> {
    let q = crate::text::lowercase(query.trim());
    let hit = |s: &str| crate::text::lowercase(s).contains(&q);
    let flags = countries().filter(|c| q.is_empty() || hit(c.0) || hit(c.1) || hit(c.2)).map(flag);
    let shapes = SHAPES.iter().filter(|s| q.is_empty() || hit(s.0) || hit(s.1) || s.2.iter().any(|k| hit(k))).map(shape);
    flags.chain(shapes).collect()
}

/// Shape stickers: key, name, keywords. The graphic definitions first (graphics/definitions),
/// then the older presets (stickers/providers/shapes.ts), which the panel no longer lists but
/// OpenCut still draws.
static SHAPES: [(&str, &str, &[&str]); 9] = [
    ("rectangle", "Rectangle", &["rectangle", "square", "box"]),
    ("ellipse", "Ellipse", &["ellipse", "circle", "oval"]),
    ("polygon", "Polygon", &["polygon", "triangle", "pentagon", "hexagon", "diamond"]),
    ("star", "Star", &["star", "sparkle", "burst"]),
    ("square", "Square", &[]),
    ("circle", "Circle", &[]),
    ("triangle", "Triangle", &[]),
    ("hexagon", "Hexagon", &[]),
    ("diamond", "Diamond", &[]),
];

/// OpenCut's flag dataset (stickers/providers/countries-data.ts), kept as data in
/// stickers/countries.txt: one `code|name|region` line per flag, region an index into
/// [`REGIONS`]. One packed string rather than a table of string slices: the slices' pointers
/// cost the engine wasm about 2 KB gzipped.
static COUNTRIES: &str = include_str!("stickers/countries.txt");

/// The regions of OpenCut's flag dataset, in order of first use.
static REGIONS: [&str; 19] = [
    "Western Europe",
    "Middle East",
    "South Asia",
    "Caribbean",
    "Southern Europe",
    "Sub-Saharan Africa",
    "Antarctica",
    "South America",
    "Oceania",
    "Northern Europe",
    "Eastern Europe",
    "North Atlantic",
    "Southeast Asia",
    "Central America",
    "North America",
    "East Asia",
    "North Africa",
    "Atlantic Ocean",
    "Central Asia",
];

/// Every flag of the dataset: (code, name, region).
fn countries() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    COUNTRIES.lines().filter_map(|line| {
        let mut parts = line.split('|');
        let (code, name, region) = (parts.next()?, parts.next()?, parts.next()?);
        Some((code, name, REGIONS.get(region.parse::<usize>().ok()?).copied().unwrap_or("")))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_as_opencut_parses_them() {
        assert_eq!(parse_id("flags:US"), Some(("flags", "US")));
        assert_eq!(parse_id("  flags : us "), Some(("flags", "us")));
        assert_eq!(parse_id("a:b:c"), Some(("a", "b:c")));
        for bad in ["", "   ", "flags", ":US", "flags:", " flags: "] {
            assert_eq!(parse_id(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn flags_take_any_case_and_come_back_upper_case() {
        let us = resolve("flags:us").unwrap();
        assert_eq!((us.id.as_str(), us.name, us.provider), ("flags:US", "United States", "flags"));
        assert_eq!(resolve(" flags : Us ").unwrap().id, "flags:US");
        assert_eq!(resolve("flags:gb-sct").unwrap().name, "Scotland");
        assert_eq!(resolve("flags:ZZ"), None);
        assert_eq!(resolve("Flags:US"), None, "provider names are exact");
        assert_eq!(resolve("logos:opencut"), None);
        assert_eq!(resolve("emoji:star"), None);
    }

    #[test]
    fn shapes_are_exact_definition_ids_or_presets() {
        assert_eq!(resolve("shapes:star").unwrap().name, "Star");
        assert_eq!(resolve("shapes:hexagon").unwrap().id, "shapes:hexagon");
        assert_eq!(resolve("shapes:Star"), None);
        assert_eq!(resolve("shapes:blob"), None);
    }

    #[test]
    fn search_matches_names_codes_regions_and_keywords() {
        let ids = |q: &str| search(q).into_iter().map(|s| s.id).collect::<Vec<_>>();
        assert_eq!(countries().count(), 254, "OpenCut's dataset");
        assert_eq!(search("").len(), 254 + SHAPES.len());
        assert!(ids("france").contains(&"flags:FR".to_string()));
        assert!(ids("EUROPE").contains(&"flags:DE".to_string()));
        assert!(!ids("europe").contains(&"flags:US".to_string()));
        assert_eq!(ids("oval"), ["shapes:ellipse"]);
        assert!(ids("zzzz").is_empty());
        // Codes are unique, so every listed id resolves back to itself.
        for s in search("") {
            assert_eq!(resolve(&s.id).map(|r| r.id), Some(s.id.clone()));
        }
    }
}
