//! SubRip, WebVTT and ASS: cues read from a file's text and written back. Reading follows what
//! OpenCut's importer takes (apps/web/src/subtitles/srt.ts and ass.ts at cf5e79e: blocks or
//! `Dialogue:` lines, `,` or `.` before 1 to 3 fraction digits, ASS override blocks `{...}`
//! dropped, `\N` a line break) but refuses a malformed cue, naming its line, where OpenCut skips
//! it: a caller must not lose cues without knowing.

/// One cue: timeline ticks, and its lines joined by `\n` (each trimmed, none empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cue {
    pub start: i64,
    pub end: i64,
    pub text: String,
}

pub const FORMATS: [&str; 3] = ["srt", "vtt", "ass"];

/// More cues than a feature film has several times over: a bound on what one call builds.
pub const MAX_CUES: usize = 20_000;

/// Ticks in a millisecond: the files' times convert exactly.
const TICKS_PER_MS: i64 = 120;

/// What is wrong, and on which line (0: the file as a whole).
pub type Bad = (usize, &'static str);

/// A cue's text as the timeline and every format hold it: lines trimmed, blank lines dropped.
pub fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
    }
    out
}

fn digits(s: &str, min: usize, max: usize) -> Option<i64> {
    let ok = (min..=max).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| s.bytes().fold(0, |n, b| n * 10 + i64::from(b - b'0')))
}

/// `[H:]MM:SS[.,]f` with 1 to 3 fraction digits (`5` is 500 ms, `05` 50 ms), hours up to 5 digits.
fn time(s: &str) -> Option<i64> {
    let (clock, frac) = s.rsplit_once(['.', ','])?;
    let ms = digits(frac, 1, 3)? * [100, 10, 1][frac.len() - 1];
    let mut parts = clock.rsplit(':');
    let sec = digits(parts.next()?, 2, 2)?;
    let min = digits(parts.next()?, 1, 2)?;
    let hours = parts.next().map_or(Some(0), |h| digits(h, 1, 5))?;
    (parts.next().is_none() && sec < 60 && min < 60).then_some(((hours * 60 + min) * 60 + sec) * 1000 + ms)
}

/// `start --> end [settings]` (SRT's coordinates and VTT's cue settings after the end are ignored).
fn timing(line: &str) -> Option<(i64, i64)> {
    let (a, b) = line.split_once("-->")?;
    Some((time(a.trim())?, time(b.trim_start().split([' ', '\t']).next()?)?))
}

type Parsed = Result<Vec<Cue>, Bad>;

fn cue(line: usize, start: i64, end: i64, text: String) -> Result<Cue, Bad> {
    if end <= start {
        return Err((line, "the cue ends before it starts"));
    }
    if text.is_empty() {
        return Err((line, "the cue has no text"));
    }
    Ok(Cue { start: start * TICKS_PER_MS, end: end * TICKS_PER_MS, text })
}

fn push(cues: &mut Vec<Cue>, c: Cue) -> Result<(), Bad> {
    if cues.len() == MAX_CUES {
        return Err((0, "more than 20000 cues"));
    }
    cues.push(c);
    Ok(())
}

/// The text with no byte-order mark, and `\n` ending every line (`\r\n` and `\r` do too).
fn normalize(input: &str) -> String {
    let input = input.strip_prefix('\u{feff}').unwrap_or(input);
    input.replace("\r\n", "\n").replace('\r', "\n")
}

/// Reads a file's cues in file order; the error names the line and what is wrong there.
pub fn parse(format: &str, input: &str) -> Parsed {
    let text = normalize(input);
    let cues = if format == "ass" { ass(&text) } else { blocks(&text, format == "vtt") }?;
    if cues.is_empty() {
        return Err((0, "no cues found"));
    }
    Ok(cues)
}

/// SRT and VTT: blocks of consecutive non-blank lines, each a cue. In VTT the first block is the
/// header, and NOTE, STYLE and REGION blocks are skipped.
fn blocks(text: &str, vtt: bool) -> Parsed {
    let mut cues = Vec::new();
    let mut block: Vec<&str> = Vec::new();
    // The number of the block's first line, and whether the VTT header is still to come.
    let (mut first, mut header) = (0, vtt);
    for (i, line) in text.split('\n').chain([""]).map(str::trim).enumerate() {
        if !line.is_empty() {
            if block.is_empty() {
                first = i + 1;
            }
            block.push(line);
            continue;
        }
        let Some(word) = block.first().map(|l| l.split([' ', '\t']).next().unwrap_or("")) else { continue };
        if header {
            if first != 1 || word != "WEBVTT" {
                break;
            }
            if let Some(at) = block.iter().position(|l| l.contains("-->")) {
                return Err((at + 1, "a blank line must end the WEBVTT header"));
            }
            header = false;
        } else if !(vtt && matches!(word, "NOTE" | "STYLE" | "REGION") && !block[0].contains("-->")) {
            push(&mut cues, timed_block(first, &block, vtt)?)?;
        }
        block.clear();
    }
    if header {
        return Err((1, "a WebVTT file starts with WEBVTT"));
    }
    Ok(cues)
}

/// A block's timing line (its first or, after a cue number or identifier, its second) and text;
/// VTT's tags dropped and its entities decoded.
fn timed_block(n: usize, block: &[&str], vtt: bool) -> Result<Cue, Bad> {
    let at = usize::from(!block[0].contains("-->"));
    let line = block.get(at).filter(|l| l.contains("-->")).ok_or((n, "no timing line (start --> end)"))?;
    let (start, end) = timing(line).ok_or((n + at, "malformed timing"))?;
    let mut text = block[at + 1..].join("\n");
    if vtt {
        text = replace_all(&strip(&text, '<', '>'), &[("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", " "), ("&amp;", "&")]);
    }
    cue(n + at, start, end, clean(&text))
}

/// `text` with each pair's first replaced by its second, in order (one replace for every use).
fn replace_all(text: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in pairs {
        if out.contains(from) {
            out = out.replace(from, to);
        }
    }
    out
}

/// `text` without the spans from `open` to the next `close` (VTT's tags, ASS's override blocks);
/// an unclosed one stays.
fn strip(text: &str, open: char, close: char) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(open) {
        let Some(j) = rest[i..].find(close) else { break };
        plain.push_str(&rest[..i]);
        rest = &rest[i + j + 1..];
    }
    plain.push_str(rest);
    plain
}

/// ASS: the Events section's `Dialogue:` lines, read by its `Format:` line (Start, End, and Text
/// last, which may hold commas); override blocks dropped, `\N` and `\n` line breaks, `\h` a space.
fn ass(text: &str) -> Parsed {
    let mut cues = Vec::new();
    let mut events = false;
    // Where Start, End and Text are among the Format line's fields.
    let mut format: Option<[usize; 3]> = None;
    for (i, line) in text.split('\n').map(str::trim).enumerate() {
        let n = i + 1;
        let Some((kind, fields)) = line.split_once(':').filter(|_| events) else {
            if line.starts_with('[') && line.ends_with(']') {
                events = line[1..line.len() - 1].trim().eq_ignore_ascii_case("events");
            }
            continue;
        };
        if kind == "Format" {
            let mut at = [usize::MAX; 3];
            let mut count = 0;
            for (k, f) in fields.split(',').enumerate() {
                count = k + 1;
                for (slot, name) in at.iter_mut().zip(["start", "end", "text"]) {
                    if f.trim().eq_ignore_ascii_case(name) {
                        *slot = k;
                    }
                }
            }
            if at[0] == usize::MAX || at[1] == usize::MAX || at[2] != count - 1 {
                return Err((n, "the Format line needs Start, End and Text last"));
            }
            format = Some(at);
        } else if kind == "Dialogue" {
            let at = format.ok_or((n, "a Dialogue line before the Events Format line"))?;
            // The three fields, and how many there are (Text takes the rest, commas and all).
            let (mut picked, mut count) = ([""; 3], 0);
            for (k, f) in fields.splitn(at[2] + 1, ',').enumerate() {
                count = k + 1;
                for (slot, a) in picked.iter_mut().zip(at) {
                    if k == a {
                        *slot = f.trim();
                    }
                }
            }
            let [start, end, body] = picked;
            if count <= at[2] {
                return Err((n, "a Dialogue line with fewer fields than its Format line"));
            }
            let (Some(start), Some(end)) = (time(start), time(end)) else { return Err((n, "malformed timing")) };
            let body = replace_all(&strip(body, '{', '}'), &[("\\N", "\n"), ("\\n", "\n"), ("\\h", " ")]);
            push(&mut cues, cue(n, start, end, clean(&body))?)?;
        }
    }
    Ok(cues)
}

/// `n` in decimal, zero-padded to `width` digits.
fn num(out: &mut String, n: i64, width: usize) {
    let digits = n.to_string();
    out.extend(std::iter::repeat_n('0', width.saturating_sub(digits.len())));
    out.push_str(&digits);
}

/// `H:MM:SS<sep>fff` (`hours` digits at least), or ASS's `H:MM:SS.cc` from hundredths.
fn clock(out: &mut String, ms: i64, hours: usize, sep: char, hundredths: bool) {
    num(out, ms / 3_600_000, hours);
    for part in [ms / 60_000 % 60, ms / 1000 % 60] {
        out.push(':');
        num(out, part, 2);
    }
    out.push(sep);
    if hundredths {
        num(out, ms % 1000 / 10, 2);
    } else {
        num(out, ms % 1000, 3);
    }
}

/// The cues as a file of `format`, times in the nearest millisecond. ASS holds hundredths: its
/// times are rounded to them, a cue keeping at least one.
pub fn write(format: &str, cues: &[Cue], width: u32, height: u32) -> String {
    let ms = |t: i64| (t + TICKS_PER_MS / 2) / TICKS_PER_MS;
    let mut out = String::new();
    if format == "ass" {
        out.push_str("[Script Info]\nScriptType: v4.00+\nPlayResX: ");
        num(&mut out, width.into(), 1);
        out.push_str("\nPlayResY: ");
        num(&mut out, height.into(), 1);
        out.push_str("\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, Bold, Alignment, MarginV\nStyle: Default,Arial,");
        num(&mut out, (height / 18).into(), 1);
        out.push_str(",&H00FFFFFF,-1,2,");
        num(&mut out, (height / 20).into(), 1);
        out.push_str("\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n");
    } else if format == "vtt" {
        out.push_str("WEBVTT\n\n");
    }
    for (i, c) in cues.iter().enumerate() {
        let (start, end) = (ms(c.start), ms(c.end).max(ms(c.start) + 1));
        if format == "ass" {
            let (start, end) = ((start + 5) / 10, ((end + 5) / 10).max((start + 5) / 10 + 1));
            out.push_str("Dialogue: 0,");
            clock(&mut out, start * 10, 1, '.', true);
            out.push(',');
            clock(&mut out, end * 10, 1, '.', true);
            out.push_str(",Default,,0,0,0,,");
            out.push_str(&replace_all(&c.text, &[("\n", "\\N")]));
            out.push('\n');
            continue;
        }
        let vtt = format == "vtt";
        if !vtt {
            num(&mut out, i as i64 + 1, 1);
            out.push('\n');
        }
        let sep = if vtt { '.' } else { ',' };
        clock(&mut out, start, 2, sep, false);
        out.push_str(" --> ");
        clock(&mut out, end, 2, sep, false);
        out.push('\n');
        if vtt {
            out.push_str(&replace_all(&c.text, &[("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")]));
        } else {
            out.push_str(&c.text);
        }
        out.push_str("\n\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(start: i64, end: i64, text: &str) -> Cue {
        Cue { start: start * TICKS_PER_MS, end: end * TICKS_PER_MS, text: text.into() }
    }

    fn srt_time(t: &str) -> Parsed {
        parse("srt", &format!("{t} --> 99999:00:00,000\nx\n"))
    }

    #[test]
    fn a_time_reads_hours_minutes_seconds_and_one_to_three_fraction_digits() {
        let start = |t: &str| srt_time(t).map(|c| c[0].start / TICKS_PER_MS);
        assert_eq!(start("01:02:03,004"), Ok(3_723_004));
        assert_eq!(start("1:02.5"), Ok(62_500), "no hours, one minute digit, 5 is 500 ms");
        assert_eq!(start("1:02.05"), Ok(62_050));
        assert_eq!(start("12345:00:00.000"), Ok(12_345 * 3_600_000), "hours up to five digits");
        assert_eq!(start("00:59:59.999"), Ok(3_599_999));
        for bad in [
            "00:00:60,000",
            "00:60:00,000",
            "123456:00:00,000",
            "00:00:01,0000",
            "00:00:01",
            "00:00:1,000",
            "00:000:01,000",
            "1:00:00:01,000",
            "00:00:01,",
            "00:0a:01,000",
        ] {
            assert_eq!(srt_time(bad), Err((1, "malformed timing")), "{bad}");
        }
    }

    #[test]
    fn a_cue_must_end_after_it_starts_and_hold_text() {
        assert_eq!(parse("srt", "00:00:01,000 --> 00:00:01,000\nx\n"), Err((1, "the cue ends before it starts")));
        assert_eq!(parse("srt", "00:00:01,000 --> 00:00:01,001\nx\n"), Ok(vec![ms(1000, 1001, "x")]));
        assert_eq!(parse("srt", "2\n00:00:01,000 --> 00:00:02,000\n"), Err((2, "the cue has no text")));
    }

    #[test]
    fn srt_blocks_may_start_with_a_number_and_name_their_first_line() {
        let text = "\n\n1\n00:00:01,000 --> 00:00:02,000\n one \n  two\n\n\n00:00:03,000 --> 00:00:04,000 X1:5\nthree\n";
        assert_eq!(parse("srt", text), Ok(vec![ms(1000, 2000, "one\ntwo"), ms(3000, 4000, "three")]));
        assert_eq!(parse("srt", "\n\n7\nnot a timing\n"), Err((3, "no timing line (start --> end)")));
        assert_eq!(parse("srt", "\n7\n00:00:01,000 --> soon\nx\n"), Err((3, "malformed timing")));
        // A NOTE block is VTT's; in SubRip its timing line makes it a cue.
        assert_eq!(parse("srt", "NOTE\n00:00:01,000 --> 00:00:02,000\nx\n"), Ok(vec![ms(1000, 2000, "x")]));
        assert_eq!(parse("srt", ""), Err((0, "no cues found")));
    }

    #[test]
    fn vtt_needs_its_header_first_and_skips_its_other_blocks() {
        let cue = "00:00:01.000 --> 00:00:02.000 align:start\n<b>a</b> &lt;b&gt; &amp;lt; x&nbsp;y\n";
        assert_eq!(
            parse("vtt", &format!("WEBVTT - title\nKind: captions\n\nNOTE a note\n\nSTYLE\n::cue {{}}\n\nREGION\nid:r\n\n{cue}")),
            Ok(vec![ms(1000, 2000, "a <b> &lt; x y")])
        );
        assert_eq!(parse("vtt", &format!("\nWEBVTT\n\n{cue}")), Err((1, "a WebVTT file starts with WEBVTT")), "a blank line before the header");
        assert_eq!(parse("vtt", &format!("WEBVTTX\n\n{cue}")), Err((1, "a WebVTT file starts with WEBVTT")));
        assert_eq!(parse("vtt", &format!("WEBVTT\nKind: captions\n{cue}")), Err((3, "a blank line must end the WEBVTT header")));
        assert_eq!(parse("vtt", "WEBVTT\n\nNOTE only a note\n"), Err((0, "no cues found")));
        // An unclosed tag stays as text.
        assert_eq!(parse("vtt", "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\na <b c\n"), Ok(vec![ms(1000, 2000, "a <b c")]));
    }

    #[test]
    fn ass_reads_dialogue_by_its_format_line_in_the_events_section() {
        let head = "[Script Info]\nTitle: t\n\n[ Events ]\nFormat: Layer, Start, End, Style, Text\n";
        let text = format!("{head}Comment: 0,0:00:09.00,0:00:10.00,Default,skip\nDialogue: 0,0:00:01.50,0:00:02.25,Default,{{\\i1}}a, b\\Nc\\nd\\he\n");
        assert_eq!(parse("ass", &text), Ok(vec![ms(1500, 2250, "a, b\nc\nd e")]));
        // Only the Events section's lines are read.
        let elsewhere = "[V4+ Styles]\nFormat: Start, End, Text\nDialogue: 0:00:01.00,0:00:02.00,x\n";
        assert_eq!(parse("ass", elsewhere), Err((0, "no cues found")));
        // A line that only starts or only ends like a section header is no header.
        let stray = "[Events]\nFormat: Start, End, Text\na stray line]\n[or this\nDialogue: 0:00:01.00,0:00:02.00,x\n";
        assert_eq!(parse("ass", stray), Ok(vec![ms(1000, 2000, "x")]));
        let reordered = "[Events]\nFormat: End, Start, Text\nDialogue: 0:00:02.00,0:00:01.00,x\n";
        assert_eq!(parse("ass", reordered), Ok(vec![ms(1000, 2000, "x")]));
        assert_eq!(parse("ass", "[Events]\nFormat: Start, End\n"), Err((2, "the Format line needs Start, End and Text last")));
        assert_eq!(parse("ass", "[Events]\nFormat: Start, Text, End\n"), Err((2, "the Format line needs Start, End and Text last")));
        assert_eq!(parse("ass", "[Events]\nFormat: End, Text\n"), Err((2, "the Format line needs Start, End and Text last")));
        assert_eq!(parse("ass", "[Events]\nFormat: Start, Text\n"), Err((2, "the Format line needs Start, End and Text last")));
        assert_eq!(parse("ass", "[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,x\n"), Err((2, "a Dialogue line before the Events Format line")));
        assert_eq!(parse("ass", &format!("{head}Dialogue: 0,0:00:01.00,0:00:02.00\n")), Err((6, "a Dialogue line with fewer fields than its Format line")));
        assert_eq!(
            parse("ass", &format!("{head}Dialogue: 0,0:00:01.00,0:00:02.00,Default\n")),
            Err((6, "a Dialogue line with fewer fields than its Format line"))
        );
        assert_eq!(parse("ass", &format!("{head}Dialogue: 0,0:00:01.00,two,Default,x\n")), Err((6, "malformed timing")));
    }

    #[test]
    fn written_times_round_to_the_millisecond_and_a_cue_keeps_one() {
        // 1.5 ms rounds up to 2, 1.49 ms down to 1; a cue shorter than half a millisecond keeps one.
        let cues = [
            Cue { start: 180, end: 120 * 1000 + 59, text: "a".into() },
            Cue { start: 3_600_000 * TICKS_PER_MS, end: 3_600_000 * TICKS_PER_MS + 10, text: "b\nc".into() },
        ];
        assert_eq!(write("srt", &cues, 1920, 1080), "1\n00:00:00,002 --> 00:00:01,000\na\n\n2\n01:00:00,000 --> 01:00:00,001\nb\nc\n\n");
        assert_eq!(write("vtt", &[ms(61_001, 62_010, "x < y & z > w")], 1920, 1080), "WEBVTT\n\n00:01:01.001 --> 00:01:02.010\nx &lt; y &amp; z &gt; w\n\n");
    }

    #[test]
    fn ass_is_written_with_its_canvas_and_hundredths() {
        // 1,004 ms rounds down to 1.00 s, 2,005 ms up to 2.01 s; a cue under half a hundredth keeps one.
        let cues = [ms(1_004, 2_005, "a\nb"), ms(3_600_000, 3_600_001, "c")];
        let expected = "[Script Info]\nScriptType: v4.00+\nPlayResX: 1280\nPlayResY: 720\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, Bold, Alignment, MarginV\nStyle: Default,Arial,40,&H00FFFFFF,-1,2,36\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.01,Default,,0,0,0,,a\\Nb\nDialogue: 0,1:00:00.00,1:00:00.01,Default,,0,0,0,,c\n";
        assert_eq!(write("ass", &cues, 1280, 720), expected);
    }

    #[test]
    fn a_cue_text_is_its_trimmed_lines_without_blank_ones() {
        assert_eq!(clean("  a \n\n \t\n b\r\nc  "), "a\nb\nc");
        assert_eq!(clean(" \n "), "");
    }
}
