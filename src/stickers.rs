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

/// OpenCut's flag dataset (stickers/providers/countries-data.ts): one `code|name|region` line per
/// flag, region an index into [`REGIONS`]. One packed string rather than a table of string
/// slices: the slices' pointers cost the engine wasm about 2 KB gzipped.
static COUNTRIES: &str = "\
AD|Andorra|0\n\
AE|United Arab Emirates|1\n\
AF|Afghanistan|2\n\
AG|Antigua and Barbuda|3\n\
AI|Anguilla|3\n\
AL|Albania|4\n\
AM|Armenia|1\n\
AO|Angola|5\n\
AQ|Antarctica|6\n\
AR|Argentina|7\n\
AS|American Samoa|8\n\
AT|Austria|0\n\
AU|Australia|8\n\
AW|Aruba|3\n\
AX|Aland Islands|9\n\
AZ|Azerbaijan|1\n\
BA|Bosnia and Herzegovina|4\n\
BB|Barbados|3\n\
BD|Bangladesh|2\n\
BE|Belgium|0\n\
BF|Burkina Faso|5\n\
BG|Bulgaria|10\n\
BH|Bahrain|1\n\
BI|Burundi|5\n\
BJ|Benin|5\n\
BL|Saint Barthelemy|3\n\
BM|Bermuda|11\n\
BN|Brunei|12\n\
BO|Bolivia|7\n\
BQ|Caribbean Netherlands|3\n\
BR|Brazil|7\n\
BS|Bahamas|3\n\
BT|Bhutan|2\n\
BV|Bouvet Island|6\n\
BW|Botswana|5\n\
BY|Belarus|10\n\
BZ|Belize|13\n\
CA|Canada|14\n\
CC|Cocos (Keeling) Islands|12\n\
CD|Democratic Republic of the Congo|5\n\
CF|Central African Republic|5\n\
CG|Republic of the Congo|5\n\
CH|Switzerland|0\n\
CI|Cote d'Ivoire|5\n\
CK|Cook Islands|8\n\
CL|Chile|7\n\
CM|Cameroon|5\n\
CN|China|15\n\
CO|Colombia|7\n\
CR|Costa Rica|13\n\
CU|Cuba|3\n\
CV|Cape Verde|5\n\
CW|Curacao|3\n\
CX|Christmas Island|8\n\
CY|Cyprus|1\n\
CZ|Czechia|10\n\
DE|Germany|0\n\
DJ|Djibouti|5\n\
DK|Denmark|9\n\
DM|Dominica|3\n\
DO|Dominican Republic|3\n\
DZ|Algeria|16\n\
EC|Ecuador|7\n\
EE|Estonia|9\n\
EG|Egypt|16\n\
EH|Western Sahara|16\n\
ER|Eritrea|5\n\
ES|Spain|4\n\
ET|Ethiopia|5\n\
EU|European Union|0\n\
FI|Finland|9\n\
FJ|Fiji|8\n\
FK|Falkland Islands|7\n\
FM|Micronesia|8\n\
FO|Faroe Islands|9\n\
FR|France|0\n\
GA|Gabon|5\n\
GB-ENG|England|0\n\
GB-NIR|Northern Ireland|0\n\
GB-SCT|Scotland|0\n\
GB-WLS|Wales|0\n\
GB|United Kingdom|0\n\
GD|Grenada|3\n\
GE|Georgia|1\n\
GF|French Guiana|7\n\
GG|Guernsey|0\n\
GH|Ghana|5\n\
GI|Gibraltar|4\n\
GL|Greenland|14\n\
GM|Gambia|5\n\
GN|Guinea|5\n\
GP|Guadeloupe|3\n\
GQ|Equatorial Guinea|5\n\
GR|Greece|4\n\
GS|South Georgia and the South Sandwich Islands|17\n\
GT|Guatemala|13\n\
GU|Guam|8\n\
GW|Guinea-Bissau|5\n\
GY|Guyana|7\n\
HK|Hong Kong|15\n\
HM|Heard Island and McDonald Islands|8\n\
HN|Honduras|13\n\
HR|Croatia|4\n\
HT|Haiti|3\n\
HU|Hungary|10\n\
ID|Indonesia|12\n\
IE|Ireland|0\n\
IL|Israel|1\n\
IM|Isle of Man|0\n\
IN|India|2\n\
IO|British Indian Ocean Territory|2\n\
IQ|Iraq|1\n\
IR|Iran|1\n\
IS|Iceland|9\n\
IT|Italy|4\n\
JE|Jersey|0\n\
JM|Jamaica|3\n\
JO|Jordan|1\n\
JP|Japan|15\n\
KE|Kenya|5\n\
KG|Kyrgyzstan|18\n\
KH|Cambodia|12\n\
KI|Kiribati|8\n\
KM|Comoros|5\n\
KN|Saint Kitts and Nevis|3\n\
KP|North Korea|15\n\
KR|South Korea|15\n\
KW|Kuwait|1\n\
KY|Cayman Islands|3\n\
KZ|Kazakhstan|18\n\
LA|Laos|12\n\
LB|Lebanon|1\n\
LC|Saint Lucia|3\n\
LI|Liechtenstein|0\n\
LK|Sri Lanka|2\n\
LR|Liberia|5\n\
LS|Lesotho|5\n\
LT|Lithuania|9\n\
LU|Luxembourg|0\n\
LV|Latvia|9\n\
LY|Libya|16\n\
MA|Morocco|16\n\
MC|Monaco|0\n\
MD|Moldova|10\n\
ME|Montenegro|4\n\
MF|Saint Martin|3\n\
MG|Madagascar|5\n\
MH|Marshall Islands|8\n\
MK|North Macedonia|4\n\
ML|Mali|5\n\
MM|Myanmar|12\n\
MN|Mongolia|15\n\
MO|Macao|15\n\
MP|Northern Mariana Islands|8\n\
MQ|Martinique|3\n\
MR|Mauritania|16\n\
MS|Montserrat|3\n\
MT|Malta|4\n\
MU|Mauritius|5\n\
MV|Maldives|2\n\
MW|Malawi|5\n\
MX|Mexico|14\n\
MY|Malaysia|12\n\
MZ|Mozambique|5\n\
NA|Namibia|5\n\
NC|New Caledonia|8\n\
NE|Niger|5\n\
NF|Norfolk Island|8\n\
NG|Nigeria|5\n\
NI|Nicaragua|13\n\
NL|Netherlands|0\n\
NO|Norway|9\n\
NP|Nepal|2\n\
NR|Nauru|8\n\
NU|Niue|8\n\
NZ|New Zealand|8\n\
OM|Oman|1\n\
PA|Panama|13\n\
PE|Peru|7\n\
PF|French Polynesia|8\n\
PG|Papua New Guinea|8\n\
PH|Philippines|12\n\
PK|Pakistan|2\n\
PL|Poland|10\n\
PM|Saint Pierre and Miquelon|14\n\
PN|Pitcairn Islands|8\n\
PR|Puerto Rico|3\n\
PS|Palestine|1\n\
PT|Portugal|4\n\
PW|Palau|8\n\
PY|Paraguay|7\n\
QA|Qatar|1\n\
RE|Reunion|5\n\
RO|Romania|10\n\
RS|Serbia|10\n\
RU|Russia|10\n\
RW|Rwanda|5\n\
SA|Saudi Arabia|1\n\
SB|Solomon Islands|8\n\
SC|Seychelles|5\n\
SD|Sudan|16\n\
SE|Sweden|9\n\
SG|Singapore|12\n\
SH|Saint Helena|17\n\
SI|Slovenia|4\n\
SJ|Svalbard and Jan Mayen|9\n\
SK|Slovakia|10\n\
SL|Sierra Leone|5\n\
SM|San Marino|4\n\
SN|Senegal|5\n\
SO|Somalia|5\n\
SR|Suriname|7\n\
SS|South Sudan|5\n\
ST|Sao Tome and Principe|5\n\
SV|El Salvador|13\n\
SX|Sint Maarten|3\n\
SY|Syria|1\n\
SZ|Eswatini|5\n\
TC|Turks and Caicos Islands|3\n\
TD|Chad|5\n\
TF|French Southern Territories|8\n\
TG|Togo|5\n\
TH|Thailand|12\n\
TJ|Tajikistan|18\n\
TK|Tokelau|8\n\
TL|Timor-Leste|12\n\
TM|Turkmenistan|18\n\
TN|Tunisia|16\n\
TO|Tonga|8\n\
TR|Turkey|1\n\
TT|Trinidad and Tobago|3\n\
TV|Tuvalu|8\n\
TW|Taiwan|15\n\
TZ|Tanzania|5\n\
UA|Ukraine|10\n\
UG|Uganda|5\n\
US|United States|14\n\
UY|Uruguay|7\n\
UZ|Uzbekistan|18\n\
VA|Vatican City|4\n\
VC|Saint Vincent and the Grenadines|3\n\
VE|Venezuela|7\n\
VG|British Virgin Islands|3\n\
VI|U.S. Virgin Islands|3\n\
VN|Vietnam|12\n\
VU|Vanuatu|8\n\
WF|Wallis and Futuna|8\n\
WS|Samoa|8\n\
XK|Kosovo|10\n\
YE|Yemen|1\n\
YT|Mayotte|5\n\
ZA|South Africa|5\n\
ZM|Zambia|5\n\
ZW|Zimbabwe|5\n";

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
