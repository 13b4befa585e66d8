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
        "flags" => COUNTRIES.iter().find(|c| c.0.eq_ignore_ascii_case(value)).map(flag),
        "shapes" => SHAPES.iter().find(|s| s.0 == value).map(shape),
        _ => None,
    }
}

fn flag(c: &(&'static str, &'static str, &'static str)) -> BuiltinSticker {
    BuiltinSticker { id: format!("flags:{}", c.0), name: c.1, provider: "flags" }
}

fn shape(s: &(&'static str, &'static str, &'static [&'static str])) -> BuiltinSticker {
    BuiltinSticker { id: format!("shapes:{}", s.0), name: s.1, provider: "shapes" }
}

/// Built-in stickers matching `query` (case-insensitive; empty matches all), flags then shapes.
/// Flags match on name, code or region ("europe", "South America"); shapes on name or keyword,
/// as OpenCut's panel searches them.
pub fn search(query: &str) -> Vec<BuiltinSticker> {
    let q = query.trim().to_lowercase();
    let hit = |s: &str| s.to_lowercase().contains(&q);
    let flags = COUNTRIES.iter().filter(|c| q.is_empty() || hit(c.0) || hit(c.1) || hit(c.2)).map(flag);
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

/// OpenCut's flag dataset (stickers/providers/countries-data.ts): code, name, region.
static COUNTRIES: [(&str, &str, &str); 254] = [
    ("AD", "Andorra", "Western Europe"),
    ("AE", "United Arab Emirates", "Middle East"),
    ("AF", "Afghanistan", "South Asia"),
    ("AG", "Antigua and Barbuda", "Caribbean"),
    ("AI", "Anguilla", "Caribbean"),
    ("AL", "Albania", "Southern Europe"),
    ("AM", "Armenia", "Middle East"),
    ("AO", "Angola", "Sub-Saharan Africa"),
    ("AQ", "Antarctica", "Antarctica"),
    ("AR", "Argentina", "South America"),
    ("AS", "American Samoa", "Oceania"),
    ("AT", "Austria", "Western Europe"),
    ("AU", "Australia", "Oceania"),
    ("AW", "Aruba", "Caribbean"),
    ("AX", "Aland Islands", "Northern Europe"),
    ("AZ", "Azerbaijan", "Middle East"),
    ("BA", "Bosnia and Herzegovina", "Southern Europe"),
    ("BB", "Barbados", "Caribbean"),
    ("BD", "Bangladesh", "South Asia"),
    ("BE", "Belgium", "Western Europe"),
    ("BF", "Burkina Faso", "Sub-Saharan Africa"),
    ("BG", "Bulgaria", "Eastern Europe"),
    ("BH", "Bahrain", "Middle East"),
    ("BI", "Burundi", "Sub-Saharan Africa"),
    ("BJ", "Benin", "Sub-Saharan Africa"),
    ("BL", "Saint Barthelemy", "Caribbean"),
    ("BM", "Bermuda", "North Atlantic"),
    ("BN", "Brunei", "Southeast Asia"),
    ("BO", "Bolivia", "South America"),
    ("BQ", "Caribbean Netherlands", "Caribbean"),
    ("BR", "Brazil", "South America"),
    ("BS", "Bahamas", "Caribbean"),
    ("BT", "Bhutan", "South Asia"),
    ("BV", "Bouvet Island", "Antarctica"),
    ("BW", "Botswana", "Sub-Saharan Africa"),
    ("BY", "Belarus", "Eastern Europe"),
    ("BZ", "Belize", "Central America"),
    ("CA", "Canada", "North America"),
    ("CC", "Cocos (Keeling) Islands", "Southeast Asia"),
    ("CD", "Democratic Republic of the Congo", "Sub-Saharan Africa"),
    ("CF", "Central African Republic", "Sub-Saharan Africa"),
    ("CG", "Republic of the Congo", "Sub-Saharan Africa"),
    ("CH", "Switzerland", "Western Europe"),
    ("CI", "Cote d'Ivoire", "Sub-Saharan Africa"),
    ("CK", "Cook Islands", "Oceania"),
    ("CL", "Chile", "South America"),
    ("CM", "Cameroon", "Sub-Saharan Africa"),
    ("CN", "China", "East Asia"),
    ("CO", "Colombia", "South America"),
    ("CR", "Costa Rica", "Central America"),
    ("CU", "Cuba", "Caribbean"),
    ("CV", "Cape Verde", "Sub-Saharan Africa"),
    ("CW", "Curacao", "Caribbean"),
    ("CX", "Christmas Island", "Oceania"),
    ("CY", "Cyprus", "Middle East"),
    ("CZ", "Czechia", "Eastern Europe"),
    ("DE", "Germany", "Western Europe"),
    ("DJ", "Djibouti", "Sub-Saharan Africa"),
    ("DK", "Denmark", "Northern Europe"),
    ("DM", "Dominica", "Caribbean"),
    ("DO", "Dominican Republic", "Caribbean"),
    ("DZ", "Algeria", "North Africa"),
    ("EC", "Ecuador", "South America"),
    ("EE", "Estonia", "Northern Europe"),
    ("EG", "Egypt", "North Africa"),
    ("EH", "Western Sahara", "North Africa"),
    ("ER", "Eritrea", "Sub-Saharan Africa"),
    ("ES", "Spain", "Southern Europe"),
    ("ET", "Ethiopia", "Sub-Saharan Africa"),
    ("EU", "European Union", "Western Europe"),
    ("FI", "Finland", "Northern Europe"),
    ("FJ", "Fiji", "Oceania"),
    ("FK", "Falkland Islands", "South America"),
    ("FM", "Micronesia", "Oceania"),
    ("FO", "Faroe Islands", "Northern Europe"),
    ("FR", "France", "Western Europe"),
    ("GA", "Gabon", "Sub-Saharan Africa"),
    ("GB-ENG", "England", "Western Europe"),
    ("GB-NIR", "Northern Ireland", "Western Europe"),
    ("GB-SCT", "Scotland", "Western Europe"),
    ("GB-WLS", "Wales", "Western Europe"),
    ("GB", "United Kingdom", "Western Europe"),
    ("GD", "Grenada", "Caribbean"),
    ("GE", "Georgia", "Middle East"),
    ("GF", "French Guiana", "South America"),
    ("GG", "Guernsey", "Western Europe"),
    ("GH", "Ghana", "Sub-Saharan Africa"),
    ("GI", "Gibraltar", "Southern Europe"),
    ("GL", "Greenland", "North America"),
    ("GM", "Gambia", "Sub-Saharan Africa"),
    ("GN", "Guinea", "Sub-Saharan Africa"),
    ("GP", "Guadeloupe", "Caribbean"),
    ("GQ", "Equatorial Guinea", "Sub-Saharan Africa"),
    ("GR", "Greece", "Southern Europe"),
    ("GS", "South Georgia and the South Sandwich Islands", "Atlantic Ocean"),
    ("GT", "Guatemala", "Central America"),
    ("GU", "Guam", "Oceania"),
    ("GW", "Guinea-Bissau", "Sub-Saharan Africa"),
    ("GY", "Guyana", "South America"),
    ("HK", "Hong Kong", "East Asia"),
    ("HM", "Heard Island and McDonald Islands", "Oceania"),
    ("HN", "Honduras", "Central America"),
    ("HR", "Croatia", "Southern Europe"),
    ("HT", "Haiti", "Caribbean"),
    ("HU", "Hungary", "Eastern Europe"),
    ("ID", "Indonesia", "Southeast Asia"),
    ("IE", "Ireland", "Western Europe"),
    ("IL", "Israel", "Middle East"),
    ("IM", "Isle of Man", "Western Europe"),
    ("IN", "India", "South Asia"),
    ("IO", "British Indian Ocean Territory", "South Asia"),
    ("IQ", "Iraq", "Middle East"),
    ("IR", "Iran", "Middle East"),
    ("IS", "Iceland", "Northern Europe"),
    ("IT", "Italy", "Southern Europe"),
    ("JE", "Jersey", "Western Europe"),
    ("JM", "Jamaica", "Caribbean"),
    ("JO", "Jordan", "Middle East"),
    ("JP", "Japan", "East Asia"),
    ("KE", "Kenya", "Sub-Saharan Africa"),
    ("KG", "Kyrgyzstan", "Central Asia"),
    ("KH", "Cambodia", "Southeast Asia"),
    ("KI", "Kiribati", "Oceania"),
    ("KM", "Comoros", "Sub-Saharan Africa"),
    ("KN", "Saint Kitts and Nevis", "Caribbean"),
    ("KP", "North Korea", "East Asia"),
    ("KR", "South Korea", "East Asia"),
    ("KW", "Kuwait", "Middle East"),
    ("KY", "Cayman Islands", "Caribbean"),
    ("KZ", "Kazakhstan", "Central Asia"),
    ("LA", "Laos", "Southeast Asia"),
    ("LB", "Lebanon", "Middle East"),
    ("LC", "Saint Lucia", "Caribbean"),
    ("LI", "Liechtenstein", "Western Europe"),
    ("LK", "Sri Lanka", "South Asia"),
    ("LR", "Liberia", "Sub-Saharan Africa"),
    ("LS", "Lesotho", "Sub-Saharan Africa"),
    ("LT", "Lithuania", "Northern Europe"),
    ("LU", "Luxembourg", "Western Europe"),
    ("LV", "Latvia", "Northern Europe"),
    ("LY", "Libya", "North Africa"),
    ("MA", "Morocco", "North Africa"),
    ("MC", "Monaco", "Western Europe"),
    ("MD", "Moldova", "Eastern Europe"),
    ("ME", "Montenegro", "Southern Europe"),
    ("MF", "Saint Martin", "Caribbean"),
    ("MG", "Madagascar", "Sub-Saharan Africa"),
    ("MH", "Marshall Islands", "Oceania"),
    ("MK", "North Macedonia", "Southern Europe"),
    ("ML", "Mali", "Sub-Saharan Africa"),
    ("MM", "Myanmar", "Southeast Asia"),
    ("MN", "Mongolia", "East Asia"),
    ("MO", "Macao", "East Asia"),
    ("MP", "Northern Mariana Islands", "Oceania"),
    ("MQ", "Martinique", "Caribbean"),
    ("MR", "Mauritania", "North Africa"),
    ("MS", "Montserrat", "Caribbean"),
    ("MT", "Malta", "Southern Europe"),
    ("MU", "Mauritius", "Sub-Saharan Africa"),
    ("MV", "Maldives", "South Asia"),
    ("MW", "Malawi", "Sub-Saharan Africa"),
    ("MX", "Mexico", "North America"),
    ("MY", "Malaysia", "Southeast Asia"),
    ("MZ", "Mozambique", "Sub-Saharan Africa"),
    ("NA", "Namibia", "Sub-Saharan Africa"),
    ("NC", "New Caledonia", "Oceania"),
    ("NE", "Niger", "Sub-Saharan Africa"),
    ("NF", "Norfolk Island", "Oceania"),
    ("NG", "Nigeria", "Sub-Saharan Africa"),
    ("NI", "Nicaragua", "Central America"),
    ("NL", "Netherlands", "Western Europe"),
    ("NO", "Norway", "Northern Europe"),
    ("NP", "Nepal", "South Asia"),
    ("NR", "Nauru", "Oceania"),
    ("NU", "Niue", "Oceania"),
    ("NZ", "New Zealand", "Oceania"),
    ("OM", "Oman", "Middle East"),
    ("PA", "Panama", "Central America"),
    ("PE", "Peru", "South America"),
    ("PF", "French Polynesia", "Oceania"),
    ("PG", "Papua New Guinea", "Oceania"),
    ("PH", "Philippines", "Southeast Asia"),
    ("PK", "Pakistan", "South Asia"),
    ("PL", "Poland", "Eastern Europe"),
    ("PM", "Saint Pierre and Miquelon", "North America"),
    ("PN", "Pitcairn Islands", "Oceania"),
    ("PR", "Puerto Rico", "Caribbean"),
    ("PS", "Palestine", "Middle East"),
    ("PT", "Portugal", "Southern Europe"),
    ("PW", "Palau", "Oceania"),
    ("PY", "Paraguay", "South America"),
    ("QA", "Qatar", "Middle East"),
    ("RE", "Reunion", "Sub-Saharan Africa"),
    ("RO", "Romania", "Eastern Europe"),
    ("RS", "Serbia", "Eastern Europe"),
    ("RU", "Russia", "Eastern Europe"),
    ("RW", "Rwanda", "Sub-Saharan Africa"),
    ("SA", "Saudi Arabia", "Middle East"),
    ("SB", "Solomon Islands", "Oceania"),
    ("SC", "Seychelles", "Sub-Saharan Africa"),
    ("SD", "Sudan", "North Africa"),
    ("SE", "Sweden", "Northern Europe"),
    ("SG", "Singapore", "Southeast Asia"),
    ("SH", "Saint Helena", "Atlantic Ocean"),
    ("SI", "Slovenia", "Southern Europe"),
    ("SJ", "Svalbard and Jan Mayen", "Northern Europe"),
    ("SK", "Slovakia", "Eastern Europe"),
    ("SL", "Sierra Leone", "Sub-Saharan Africa"),
    ("SM", "San Marino", "Southern Europe"),
    ("SN", "Senegal", "Sub-Saharan Africa"),
    ("SO", "Somalia", "Sub-Saharan Africa"),
    ("SR", "Suriname", "South America"),
    ("SS", "South Sudan", "Sub-Saharan Africa"),
    ("ST", "Sao Tome and Principe", "Sub-Saharan Africa"),
    ("SV", "El Salvador", "Central America"),
    ("SX", "Sint Maarten", "Caribbean"),
    ("SY", "Syria", "Middle East"),
    ("SZ", "Eswatini", "Sub-Saharan Africa"),
    ("TC", "Turks and Caicos Islands", "Caribbean"),
    ("TD", "Chad", "Sub-Saharan Africa"),
    ("TF", "French Southern Territories", "Oceania"),
    ("TG", "Togo", "Sub-Saharan Africa"),
    ("TH", "Thailand", "Southeast Asia"),
    ("TJ", "Tajikistan", "Central Asia"),
    ("TK", "Tokelau", "Oceania"),
    ("TL", "Timor-Leste", "Southeast Asia"),
    ("TM", "Turkmenistan", "Central Asia"),
    ("TN", "Tunisia", "North Africa"),
    ("TO", "Tonga", "Oceania"),
    ("TR", "Turkey", "Middle East"),
    ("TT", "Trinidad and Tobago", "Caribbean"),
    ("TV", "Tuvalu", "Oceania"),
    ("TW", "Taiwan", "East Asia"),
    ("TZ", "Tanzania", "Sub-Saharan Africa"),
    ("UA", "Ukraine", "Eastern Europe"),
    ("UG", "Uganda", "Sub-Saharan Africa"),
    ("US", "United States", "North America"),
    ("UY", "Uruguay", "South America"),
    ("UZ", "Uzbekistan", "Central Asia"),
    ("VA", "Vatican City", "Southern Europe"),
    ("VC", "Saint Vincent and the Grenadines", "Caribbean"),
    ("VE", "Venezuela", "South America"),
    ("VG", "British Virgin Islands", "Caribbean"),
    ("VI", "U.S. Virgin Islands", "Caribbean"),
    ("VN", "Vietnam", "Southeast Asia"),
    ("VU", "Vanuatu", "Oceania"),
    ("WF", "Wallis and Futuna", "Oceania"),
    ("WS", "Samoa", "Oceania"),
    ("XK", "Kosovo", "Eastern Europe"),
    ("YE", "Yemen", "Middle East"),
    ("YT", "Mayotte", "Sub-Saharan Africa"),
    ("ZA", "South Africa", "Sub-Saharan Africa"),
    ("ZM", "Zambia", "Sub-Saharan Africa"),
    ("ZW", "Zimbabwe", "Sub-Saharan Africa"),
];

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
        assert_eq!(search("").len(), COUNTRIES.len() + SHAPES.len());
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
