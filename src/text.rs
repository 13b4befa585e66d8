//! Text and number helpers that stand in for standard-library functions whose tables would
//! weigh on the engine wasm (docs/package.md, "Where the engine's bytes are"), each with the
//! same results:
//!
//! - `lowercase` (the search tools) and `capitalize`: ASCII here; other text, in the wasm engine,
//!   through JS's `String.prototype.toLowerCase`/`toUpperCase`, which the boundary installs
//!   (`set_host_case`): the same locale-free Unicode mappings (SpecialCasing and Final_Sigma
//!   included), without the standard library's case tables (about 12 KB raw each). Each side
//!   maps by its own Unicode version (Rust 1.95 and Node 20.20's ICU 78: both 17.0); a JS engine
//!   on an older version leaves the case of letters assigned since then as it is.
//! - `parse_finite_f64`: `str::parse::<f64>` through serde_json's number parser, which the engine
//!   carries anyway, rather than core's (its 10 KB table of powers of five and its code).
//! - `Num`: `{}` of an `f64` from zmij's shortest digits, which serde_json writes numbers with
//!   anyway, rather than core's float printing (Grisu, Dragon and their bignum).

/// `value.to_string()`, the same compact text through serde_json's writer to a `Vec`, which tool
/// outputs use anyway: `Value`'s `Display` instantiates the serializer twice more (over
/// `fmt::Write`, and pretty for `{:#}`), 2.2 KB of engine wasm.
pub fn json(value: &serde_json::Value) -> String {
    // Writing a `Value` cannot fail: its keys are strings.
    serde_json::to_string(value).unwrap_or_default()
}

/// `o.insert(key.into(), v)`, out of line: the writers build objects key by key, and each
/// inlined insert (the key's allocation and copy, then the map's insert) repeats that code.
#[inline(never)]
pub fn put(o: &mut serde_json::Map<String, serde_json::Value>, key: &str, v: serde_json::Value) {
    o.insert(key.to_owned(), v);
}

/// An object of these (key, value) pairs in their order, as `json!({ … })` builds it, through
/// `put`: `json!` inlines each key's allocation and value's conversion at every site.
#[inline(always)]
pub fn obj<const N: usize>(mut pairs: [(&str, serde_json::Value); N]) -> serde_json::Value {
    obj_of(&mut pairs)
}

/// `obj`'s body, once for every number of pairs (each value taken, `null` left behind).
#[inline(never)]
fn obj_of(pairs: &mut [(&str, serde_json::Value)]) -> serde_json::Value {
    let mut o = serde_json::Map::new();
    for (k, v) in pairs {
        put(&mut o, k, std::mem::take(v));
    }
    serde_json::Value::Object(o)
}

/// `s.to_lowercase()`.
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    host::lowercase(s)
}

/// `s` with its first character uppercased (`char::to_uppercase`), the rest as it is.
pub fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    let Some(first) = chars.next() else { return String::new() };
    let mut out = if first.is_ascii() { first.to_ascii_uppercase().to_string() } else { host::uppercase(&s[..first.len_utf8()]) };
    out.push_str(chars.as_str());
    out
}

/// `s.parse::<f64>().ok()` where that is finite; `None` where it fails or gives an infinity or
/// NaN. Rust's float syntax (`+1`, `.5`, `1.`, `007`, `1E5`) is rewritten as JSON's and read by
/// serde_json, whose `float_roundtrip` parser rounds correctly, as core's does.
pub fn parse_finite_f64(s: &str) -> Option<f64> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (mantissa, exponent) = match rest.find(['e', 'E']) {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |d: &str| d.bytes().all(|c| c.is_ascii_digit());
    if !digits(int) || !digits(frac) || (int.is_empty() && frac.is_empty()) {
        return None;
    }
    let mut json = String::with_capacity(s.len() + 2);
    if negative {
        json.push('-');
    }
    let int = int.trim_start_matches('0');
    json.push_str(if int.is_empty() { "0" } else { int });
    if !frac.is_empty() {
        json.push('.');
        json.push_str(frac);
    }
    if let Some(e) = exponent {
        let e_digits = e.strip_prefix(['+', '-']).unwrap_or(e);
        if e_digits.is_empty() || !digits(e_digits) {
            return None;
        }
        json.push('e');
        json.push_str(e);
    }
    // As a `Value`, not `from_str::<f64>`: the typed path keeps serde's `Unexpected` (and with it
    // core's float printing) in the wasm. The parse and the number are the same.
    serde_json::from_str::<serde_json::Value>(&json).ok().and_then(|v| v.as_f64()).filter(|v| v.is_finite())
}

/// `{}` of an `f64` (`format!("{x}")`, the way messages print numbers), the same text through
/// zmij. Core writes the shortest digits that read back as `x`, never with an exponent (1e21 is
/// "1000000000000000000000", 1e-7 "0.0000001", -0.0 "-0", 2.0 "2"); zmij finds the same digits
/// but writes "1e+21", "1e-7", "-0.0", "2.0", so they are laid out again here. Where two
/// shortest digit strings are equally near `x` (216486192242783.625: ".62" or ".63"), zmij picks
/// the even one and core the one away from zero; `is_tie` finds that case exactly. NaN and the
/// infinities are "NaN", "inf", "-inf" in both.
pub struct Num(pub f64);

impl std::fmt::Display for Num {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        let x = self.0;
        let mut buf = zmij::Buffer::new();
        let text = buf.format(x);
        if !x.is_finite() {
            return f.write_str(text);
        }
        let (mantissa, exp) = text.split_once('e').unwrap_or((text, "0"));
        let (sign, mantissa) = match mantissa.strip_prefix('-') {
            Some(m) => ("-", m),
            None => ("", mantissa),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        // x = 0.d1…dn × 10^point, the digits without leading or trailing zeros (at most 17).
        let mut point = int.len() as i32 + exp.trim_start_matches('+').parse::<i32>().unwrap_or(0);
        let mut digits = [b'0'; 24];
        let mut n = 0;
        for b in int.bytes().chain(frac.bytes()) {
            if n == 0 && b == b'0' {
                point -= 1;
            } else if n < digits.len() {
                digits[n] = b;
                n += 1;
            }
        }
        while n > 0 && digits[n - 1] == b'0' {
            n -= 1;
        }
        f.write_str(sign)?;
        if n == 0 {
            return f.write_str("0");
        }
        if is_tie(x.abs(), &digits[..n], point) {
            // The next digit string up: ...d+1, carrying over nines (99.5 is 100).
            while n > 0 && digits[n - 1] == b'9' {
                n -= 1;
            }
            if n == 0 {
                digits[0] = b'1';
                n = 1;
                point += 1;
            } else {
                digits[n - 1] += 1;
            }
        }
        let d = std::str::from_utf8(&digits[..n]).unwrap_or_default();
        let zeros = |f: &mut std::fmt::Formatter, k: i32| (0..k).try_for_each(|_| f.write_str("0"));
        if point <= 0 {
            f.write_str("0.")?;
            zeros(f, -point)?;
            f.write_str(d)
        } else if point as usize >= n {
            f.write_str(d)?;
            zeros(f, point - n as i32)
        } else {
            let (a, b) = d.split_at(point as usize);
            f.write_str(a)?;
            f.write_str(".")?;
            f.write_str(b)
        }
    }
}

/// Whether `x` (positive, finite) is exactly halfway between 0.`digits` × 10^`point` and the next
/// number of as many digits, i.e. x × 10^k = `digits`·10 + 5 for k = digits + 1 − point. With at
/// most 18 digits that needs 5^k to divide it, so k ≤ 25; x = m × 2^e (m odd) makes
/// x × 10^k = m × 5^k × 2^(k+e), a whole number only when k + e ≥ 0.
fn is_tie(x: f64, digits: &[u8], point: i32) -> bool {
    let k = digits.len() as i32 + 1 - point;
    if !(1..=25).contains(&k) {
        return false;
    }
    let half = digits.iter().fold(0u128, |a, d| a * 10 + u128::from(d - b'0')) * 10 + 5;
    let bits = x.to_bits();
    let (m, e) = match (bits >> 52) as i32 {
        0 => (bits, -1074),
        b => (bits & ((1 << 52) - 1) | 1 << 52, b - 1075),
    };
    let tz = m.trailing_zeros() as i32;
    let (scaled, shift) = (u128::from(m >> tz) * 5u128.pow(k as u32), k + e + tz);
    (0..scaled.leading_zeros() as i32).contains(&shift) && scaled << shift == half
}

#[cfg(all(target_arch = "wasm32", feature = "engine"))]
mod host {
    use std::sync::OnceLock;

    type Case = fn(&str) -> String;
    static CASE: OnceLock<(Case, Case)> = OnceLock::new();

    pub fn set(lower: Case, upper: Case) {
        let _ = CASE.set((lower, upper));
    }

    fn get() -> &'static (Case, Case) {
        CASE.get().expect("the wasm boundary installs the host's case mappings")
    }

    pub fn lowercase(s: &str) -> String {
        (get().0)(s)
    }

    pub fn uppercase(s: &str) -> String {
        (get().1)(s)
    }
}

#[cfg(not(all(target_arch = "wasm32", feature = "engine")))]
mod host {
    pub fn lowercase(s: &str) -> String {
        s.to_lowercase()
    }

    pub fn uppercase(s: &str) -> String {
        s.to_uppercase()
    }
}

/// Called once by the wasm boundary, before any editor exists: the host's lowercase and
/// uppercase (`String.prototype.toLowerCase`, `toUpperCase`).
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub fn set_host_case(lower: fn(&str) -> String, upper: fn(&str) -> String) {
    host::set(lower, upper);
}

// Native only: proptest is a native dev-dependency (the wasm32 test build runs src/wasm's tests).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn case_mappings_match_the_standard_library() {
        // The cases tests/js/api.test.mjs gives JS's toLowerCase in the wasm engine.
        assert_eq!(lowercase("ÅNGSTRÖM"), "ångström");
        assert_eq!(lowercase("ὈΔΥΣΣΕΎΣ"), "ὀδυσσεύς");
        assert_eq!(lowercase("İSTANBUL"), "i\u{307}stanbul");
        assert_eq!(lowercase("\u{212A}elvin"), "kelvin");
        for s in ["", "Brightness & Contrast", "ÅNGSTRÖM", "ὈΔΥΣΣΕΎΣ", "İstanbul", "\u{212A}elvin", "ß", "Σ", "ΑΣ b"] {
            assert_eq!(lowercase(s), s.to_lowercase(), "{s}");
        }
        for s in ["", "blur", "brightness-contrast", "x", "éclat", "ßa", "ŉb", "ǆ", "1st"] {
            let mut c = s.chars();
            let std: String = c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default();
            assert_eq!(capitalize(s), std, "{s}");
        }
    }

    #[test]
    fn json_is_value_display() {
        let values = [
            serde_json::json!(null),
            serde_json::json!(1.5),
            serde_json::json!(-0.0),
            serde_json::json!(1e300),
            serde_json::json!(u64::MAX),
            serde_json::json!("a \"quoted\"\n line \u{7f} é"),
            serde_json::json!({ "b": [1, { "c": null }], "a": true, "": {} }),
            serde_json::json!([]),
        ];
        for v in values {
            assert_eq!(json(&v), v.to_string());
        }
    }

    fn same_as_core(s: &str) {
        let core = s.parse::<f64>().ok().filter(|v| v.is_finite());
        assert_eq!(parse_finite_f64(s).map(f64::to_bits), core.map(f64::to_bits), "{s:?}");
    }

    #[test]
    fn parse_finite_f64_matches_core_on_edge_cases() {
        for s in [
            "",
            "+",
            "-",
            ".",
            "-.",
            "e5",
            "1e",
            "1e+",
            "1e-",
            "1.e5",
            ".5e-3",
            "+.5",
            "-0",
            "-0.0",
            "+0",
            "00",
            "-00.000",
            "007",
            "1.",
            "-1.",
            "255",
            "127.5",
            " 1",
            "1 ",
            "1_0",
            "0x10",
            "inf",
            "-inf",
            "infinity",
            "NaN",
            "nan",
            "1e400",
            "-1e400",
            "1e-400",
            "-1e-400",
            "0e99999999999999999999",
            "1e99999999999999999999",
            "1e-99999999999999999999",
            "-0e-5",
            "4.9e-324",
            "2.4703282292062327e-324",
            "2.4703282292062328e-324",
            "1.7976931348623157e308",
            "1.7976931348623158e308",
            "1.7976931348623159e308",
            "9007199254740993",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "-18446744073709551617",
            "0.1",
            "0.30000000000000004",
            "1E5",
            "1e+05",
            "2.2250738585072011e-308",
            "123456789012345678901234567890e-10",
            "1..2",
            "1.2.3",
            "--1",
            "+-1",
            "1e5e5",
            "١",
        ] {
            same_as_core(s);
        }
    }

    #[test]
    // The ties are written as their exact binary values, more digits than either printer gives.
    #[allow(clippy::excessive_precision)]
    fn num_prints_as_core_does() {
        let cases = [
            0.0,
            -0.0,
            1.0,
            -2.5,
            100.0,
            0.01,
            1e-7,
            1e15,
            1e16,
            1e21,
            1.5e300,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.1 + 0.2,
            1.0 / 3.0,
        ];
        // Ties, where zmij alone gives ".62", ".812", ".2": and 99.5-like carries.
        let ties = [216486192242783.625, -34900697272382.8125, 981446413237567.25, 1421183740409638.25, 999999999999999.5, 99999999999999.9375];
        for x in cases.into_iter().chain(ties) {
            assert_eq!(Num(x).to_string(), x.to_string(), "{x:e}");
        }
    }

    proptest! {
        #[test]
        fn num_matches_core_on_any_bits(bits in any::<u64>()) {
            let x = f64::from_bits(bits);
            prop_assert_eq!(Num(x).to_string(), x.to_string());
        }

        /// Numbers from 2^-10 to 2^60 with few fraction bits, where ties between two shortest
        /// digit strings happen.
        #[test]
        fn num_matches_core_on_short_fractions(exp in 1013u64..1083, mantissa in any::<u64>(), cut in 0u32..52) {
            let x = f64::from_bits(exp << 52 | (mantissa & ((1 << 52) - 1)) >> cut << cut);
            prop_assert_eq!(Num(x).to_string(), x.to_string());
        }

        #[test]
        fn parse_finite_f64_matches_core_on_float_syntax(s in r"[+-]?[0-9]{0,25}(\.[0-9]{0,25})?([eE][+-]?[0-9]{1,4})?") {
            same_as_core(&s);
        }

        #[test]
        fn parse_finite_f64_matches_core_on_printed_floats(bits in any::<u64>(), exp in any::<bool>()) {
            let v = f64::from_bits(bits);
            same_as_core(&if exp { format!("{v:e}") } else { format!("{v}") });
        }

        #[test]
        fn parse_finite_f64_matches_core_on_any_text(s in r"[-+0-9.eE ]{0,12}|\PC{0,8}") {
            same_as_core(&s);
        }
    }
}
