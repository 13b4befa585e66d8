//! Subtitles at the tool boundary: a file of random cues (overlapping ones too) written here, by
//! this test's own writer, goes in with import_subtitles; the captions it makes are those cues
//! exactly (to the millisecond; ASS to the hundredth it holds), and export_subtitles then
//! import_subtitles gives the same captions and the same file again. Hostile inputs (random text,
//! a file past the cue bound) fail with the tool's error and change nothing.

use neuralcut::Editor;
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Clone, Debug, PartialEq)]
struct Cue {
    start: i64,
    end: i64,
    text: String,
}

fn clock(ms: i64, sep: &str) -> String {
    format!("{:02}:{:02}:{:02}{sep}{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
}

/// The cues as a file, the plainest way each format allows.
fn file(format: &str, cues: &[Cue]) -> String {
    let mut out = String::new();
    match format {
        "srt" => {
            for (i, c) in cues.iter().enumerate() {
                out += &format!("{}\r\n{} --> {}\r\n{}\r\n\r\n", i + 1, clock(c.start, ","), clock(c.end, ","), c.text.replace('\n', "\r\n"));
            }
        }
        "vtt" => {
            out += "\u{feff}WEBVTT\n\n";
            for c in cues {
                let text = c.text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
                out += &format!("{} --> {} line:90%\n{text}\n\n", clock(c.start, "."), clock(c.end, "."));
            }
        }
        _ => {
            out += "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n";
            for c in cues {
                let t = |ms: i64| format!("{}:{:02}:{:02}.{:02}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000 / 10);
                out += &format!("Dialogue: 0,{},{},Default,,0,0,0,,{}\n", t(c.start), t(c.end), c.text.replace('\n', "\\N"));
            }
        }
    }
    out
}

/// The captions on the timeline, in time order (ties in track order), in milliseconds.
fn captions(ed: &Editor) -> Vec<Cue> {
    let project: Value = serde_json::from_str(&ed.project_json().unwrap()).unwrap();
    let mut out: Vec<Cue> = project["timeline"]["tracks"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["elements"].as_array().unwrap())
        .filter(|e| e["type"] == "text" && e["name"].as_str().is_some_and(|n| n.starts_with("Caption ")))
        .map(|e| {
            let (start, duration) = (e["start"].as_i64().unwrap(), e["duration"].as_i64().unwrap());
            assert_eq!((start % 120, duration % 120), (0, 0), "whole milliseconds in ticks");
            Cue { start: start / 120, end: (start + duration) / 120, text: e["content"].as_str().unwrap().to_string() }
        })
        .collect();
    out.sort_by_key(|c| c.start);
    out
}

fn blank() -> Editor {
    Editor::from_json(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/blank.json")).unwrap()).unwrap()
}

fn import(ed: &mut Editor, format: &str, text: &str) -> Result<Value, neuralcut::ToolError> {
    ed.call_tool("import_subtitles", &json!({ "format": format, "text": text }))
}

fn export(ed: &mut Editor, format: &str) -> String {
    ed.call_tool("export_subtitles", &json!({ "format": format })).unwrap()["text"].as_str().unwrap().to_string()
}

/// A line of text: letters, digits, spaces inside, punctuation that means something in one of
/// the formats (`-->`, `&`, `<`, `,`), and text beyond ASCII. ASS has no escape for `{`, `}` and
/// `\`, so its lines go without them.
fn line(ass: bool) -> impl Strategy<Value = String> {
    let chars = if ass { "[a-zA-Z0-9 ,.!?'\"&;<>:é世🎬-]{1,24}" } else { "[a-zA-Z0-9 ,.!?'\"&;<>:{}\\\\é世🎬-]{1,24}" };
    // Text that looks like markup of one format or another, which must come back as text.
    let mut tricky = vec!["&lt;b&gt;", "&amp;", "&nbsp;x", "a --> b", "<i>x</i>", "1", "00:00:01,000 --> 00:00:02,000", "NOTE", "Dialogue: 0,x"];
    if !ass {
        tricky.extend(["{\\i1}x", "\\N", "\\h"]);
    }
    let random = chars.prop_map(|s| s.trim().to_string()).prop_filter("a line with text", |s| !s.is_empty());
    prop_oneof![3 => random, 1 => prop::sample::select(tricky).prop_map(str::to_string)]
}

fn cues(ass: bool) -> impl Strategy<Value = Vec<Cue>> {
    let cue = (0i64..10_000_000, 1i64..20_000, prop::collection::vec(line(ass), 1..3));
    prop::collection::vec(cue, 1..30).prop_map(move |v| {
        let mut cues: Vec<Cue> = v
            .into_iter()
            .map(|(start, len, lines)| {
                // ASS holds hundredths: cues of whole ones.
                let (start, len) = if ass { (start / 10 * 10, (len / 10).max(1) * 10) } else { (start, len) };
                Cue { start, end: start + len, text: lines.join("\n") }
            })
            .collect();
        cues.sort_by_key(|c| c.start);
        cues
    })
}

fn round_trip(format: &str, cues: &[Cue]) -> Result<(), TestCaseError> {
    let mut ed = blank();
    let made = import(&mut ed, format, &file(format, cues)).unwrap();
    prop_assert_eq!(made["count"].as_u64(), Some(cues.len() as u64));
    prop_assert_eq!(&captions(&ed), cues);
    let written = export(&mut ed, format);
    let mut again = blank();
    import(&mut again, format, &written).unwrap();
    prop_assert_eq!(&captions(&again), cues);
    prop_assert_eq!(export(&mut again, format), written);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn srt_cues_round_trip(cues in cues(false)) {
        round_trip("srt", &cues)?;
    }

    #[test]
    fn vtt_cues_round_trip(cues in cues(false)) {
        round_trip("vtt", &cues)?;
    }

    #[test]
    fn ass_cues_round_trip(cues in cues(true)) {
        round_trip("ass", &cues)?;
    }

    /// Text made of the formats' own pieces, in any order: never a panic, and either captions that
    /// export and import again as they are, or the tool's error with nothing changed.
    #[test]
    fn hostile_text_imports_or_fails_cleanly(
        pieces in prop::collection::vec(prop::sample::select(vec![
            "\n", "\r\n", "\r", " ", "1", "00:00:01,000", "00:00:02.5", "99999:59:59.999", "0:00:01.00", " --> ", "-->", ",", ".",
            ":", "WEBVTT", "NOTE", "[Events]", "Format: Start, End, Text", "Dialogue: ", "{\\i1}", "\\N", "<b>", "&amp;", "\u{feff}", "é", "Hi",
        ]), 0..60),
        format in prop::sample::select(vec!["srt", "vtt", "ass"]),
    ) {
        let text: String = pieces.concat();
        let mut ed = blank();
        let before = ed.project_json().unwrap();
        match import(&mut ed, format, &text) {
            Err(e) => {
                prop_assert_eq!(e.code.as_str(), "INVALID_SUBTITLES");
                prop_assert_eq!(ed.project_json().unwrap(), before);
            }
            Ok(_) => {
                let cues = captions(&ed);
                let written = export(&mut ed, format);
                let mut again = blank();
                import(&mut again, format, &written).unwrap();
                if format != "ass" {
                    prop_assert_eq!(captions(&again), cues);
                }
            }
        }
    }
}

/// A file past the bound on cues fails whole and adds nothing; one at it is taken.
#[test]
fn a_file_of_more_than_20000_cues_is_refused() {
    let cue = |i: i64| Cue { start: i * 1000, end: i * 1000 + 500, text: format!("cue {i}") };
    let mut ed = blank();
    let at: Vec<Cue> = (0..20_000).map(cue).collect();
    assert_eq!(import(&mut ed, "srt", &file("srt", &at)).unwrap()["count"], 20_000);
    let mut ed = blank();
    let past: Vec<Cue> = (0..20_001).map(cue).collect();
    let before = ed.project_json().unwrap();
    let err = import(&mut ed, "srt", &file("srt", &past)).unwrap_err();
    assert_eq!((err.code.as_str(), err.message.as_str()), ("INVALID_SUBTITLES", "Invalid subtitles: more than 20000 cues"));
    assert_eq!(ed.project_json().unwrap(), before);
}
