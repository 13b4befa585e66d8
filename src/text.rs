//! Lowercasing for the search tools (`list_effects`, `list_stickers`): `str::to_lowercase`.
//! ASCII text is lowercased here; other text, in the wasm engine, by JS's
//! `String.prototype.toLowerCase`, which the boundary installs (`set_host_lowercase`): the same
//! locale-free Unicode mapping (SpecialCasing and Final_Sigma included), without the standard
//! library's case tables and their code, about 6 KB of the gzipped engine (docs/package.md).

/// `s.to_lowercase()`.
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    host::lowercase(s)
}

#[cfg(all(target_arch = "wasm32", feature = "engine"))]
mod host {
    use std::sync::OnceLock;

    static LOWERCASE: OnceLock<fn(&str) -> String> = OnceLock::new();

    pub fn set(f: fn(&str) -> String) {
        let _ = LOWERCASE.set(f);
    }

    pub fn lowercase(s: &str) -> String {
        (LOWERCASE.get().expect("the wasm boundary installs the host's lowercase"))(s)
    }
}

#[cfg(not(all(target_arch = "wasm32", feature = "engine")))]
mod host {
    pub fn lowercase(s: &str) -> String {
        s.to_lowercase()
    }
}

/// Called once by the wasm boundary, before any editor exists.
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub fn set_host_lowercase(f: fn(&str) -> String) {
    host::set(f);
}

#[cfg(test)]
mod tests {
    use super::lowercase;

    #[test]
    fn matches_to_lowercase() {
        // The cases tests/js/api.test.mjs gives JS's toLowerCase in the wasm engine.
        assert_eq!(lowercase("ÅNGSTRÖM"), "ångström");
        assert_eq!(lowercase("ὈΔΥΣΣΕΎΣ"), "ὀδυσσεύς");
        assert_eq!(lowercase("İSTANBUL"), "i\u{307}stanbul");
        assert_eq!(lowercase("\u{212A}elvin"), "kelvin");
        for s in ["", "Brightness & Contrast", "ÅNGSTRÖM", "ὈΔΥΣΣΕΎΣ", "İstanbul", "\u{212A}elvin", "ß", "Σ", "ΑΣ b"] {
            assert_eq!(lowercase(s), s.to_lowercase(), "{s}");
        }
    }
}
