//! Scene cuts measured from decoded frames (detect_scenes). The page hands each decoded frame
//! over as it comes, in the decoder's own pixel layout (I420, NV12, RGBA or BGRA), and the meter
//! shrinks it to a grid of at most 64 × 36 cells and compares that with the frame before.
//!
//! A frame's score is the mean absolute difference of its cells from the previous frame's, over
//! three channels (Y, U, V, or R, G, B), each in 0–1. A hard cut is one frame whose score stands
//! out: at least `threshold`, at least [`SceneMeter::CONTRAST`] times the mean score of the frames
//! before it in the shot, and higher than the frame after it. Within a steady shot the scores
//! stay near zero; a fade or a slow pan changes every frame a little, so its scores are raised but
//! even, and no single frame stands out. The cut is reported at the first frame of the new shot,
//! so it is exact to the frame.

use std::collections::VecDeque;

/// A decoded frame's pixel layout (WebCodecs' `VideoPixelFormat` names).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelFormat {
    /// Y plane, then U and V at half width and height. I420A's alpha plane after them is ignored.
    I420,
    /// Y plane, then one plane of interleaved U, V at half width and height.
    Nv12,
    /// Four bytes a pixel, R G B A (RGBX too).
    Rgba,
    /// Four bytes a pixel, B G R A (BGRX too).
    Bgra,
}

impl PixelFormat {
    /// WebCodecs' name for it; `None` for a layout the meter does not read.
    pub fn from_name(name: &str) -> Option<PixelFormat> {
        match name {
            "I420" | "I420A" => Some(PixelFormat::I420),
            "NV12" => Some(PixelFormat::Nv12),
            "RGBA" | "RGBX" => Some(PixelFormat::Rgba),
            "BGRA" | "BGRX" => Some(PixelFormat::Bgra),
            _ => None,
        }
    }

    /// Bytes a `width` × `height` frame needs at least.
    fn bytes(self, width: usize, height: usize) -> usize {
        match self {
            PixelFormat::I420 | PixelFormat::Nv12 => width * height + 2 * width.div_ceil(2) * height.div_ceil(2),
            PixelFormat::Rgba | PixelFormat::Bgra => width * height * 4,
        }
    }
}

/// The grid frames are compared at: enough to tell two shots apart, cheap to compare.
pub const GRID: (usize, usize) = (64, 36);

/// Luma samples read per frame at most: larger frames are read on a sparser lattice (a 720p
/// frame every third pixel), which keeps a frame's cost near a decoder's.
const SAMPLES: usize = 1 << 16;

/// Finds hard cuts in frames pushed in order.
#[derive(Clone, Debug)]
pub struct SceneMeter {
    threshold: f64,
    /// The grid of the first frame (smaller than [`GRID`] for tiny frames); later frames use it.
    grid: Option<(usize, usize)>,
    previous: Option<Vec<f32>>,
    /// Scores of the recent frames (newest last), for the contrast test.
    recent: VecDeque<f64>,
    /// The frame waiting for the next one to confirm it as a peak: (time, score, mean before).
    pending: Option<(f64, f64, f64)>,
    cuts: Vec<f64>,
    frames: u64,
}

/// Why a frame or a meter is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SceneError {
    Size,
    Threshold,
}

impl SceneMeter {
    /// How many frames before a candidate set its baseline.
    pub const WINDOW: usize = 12;
    /// How far above the baseline a cut's score must be.
    pub const CONTRAST: f64 = 4.0;
    /// The default `threshold`: a tenth of the full range per channel, on average.
    pub const DEFAULT_THRESHOLD: f64 = 0.1;

    pub fn new(threshold: f64) -> Result<SceneMeter, SceneError> {
        if !threshold.is_finite() || threshold <= 0.0 || threshold > 1.0 {
            return Err(SceneError::Threshold);
        }
        Ok(SceneMeter { threshold, grid: None, previous: None, recent: VecDeque::new(), pending: None, cuts: Vec::new(), frames: 0 })
    }

    /// One frame shown from `time` seconds, `width` × `height` in `format`. A frame whose bytes
    /// are too few, of no size or over 16384 a side, is skipped: `Err(Size)`.
    pub fn push(&mut self, time: f64, format: PixelFormat, width: u32, height: u32, data: &[u8]) -> Result<(), SceneError> {
        let (w, h) = (width as usize, height as usize);
        if w == 0 || h == 0 || w > 16384 || h > 16384 || data.len() < format.bytes(w, h) || !time.is_finite() {
            return Err(SceneError::Size);
        }
        let grid = *self.grid.get_or_insert((GRID.0.min(w), GRID.1.min(h)));
        let cells = shrink(format, w, h, data, grid);
        self.frames += 1;
        let Some(prev) = self.previous.replace(cells) else { return Ok(()) };
        let now = self.previous.as_ref().expect("just set");
        let sum: f64 = now.iter().zip(&prev).map(|(a, b)| (a - b).abs() as f64).sum();
        let score = sum / now.len() as f64;
        // The frame before is a cut if it stood out and this one is lower.
        if let Some((at, s, base)) = self.pending.take() {
            if s > score && s >= Self::CONTRAST * base.max(score) {
                self.cuts.push(at);
                // A new shot: its baseline starts again.
                self.recent.clear();
            }
        }
        let base = if self.recent.is_empty() { 0.0 } else { self.recent.iter().sum::<f64>() / self.recent.len() as f64 };
        if score >= self.threshold && score >= Self::CONTRAST * base {
            self.pending = Some((time, score, base));
        }
        self.recent.push_back(score);
        if self.recent.len() > Self::WINDOW {
            self.recent.pop_front();
        }
        Ok(())
    }

    /// Frames measured so far.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// The cuts so far, in seconds; a candidate on the last frame counts (nothing follows it).
    pub fn cuts(&self) -> Vec<f64> {
        let mut out = self.cuts.clone();
        if let Some((at, s, base)) = self.pending {
            if s >= Self::CONTRAST * base {
                out.push(at);
            }
        }
        out
    }
}

/// The frame's mean of each channel over each grid cell, in 0–1: `gw × gh × 3` values.
fn shrink(format: PixelFormat, w: usize, h: usize, data: &[u8], (gw, gh): (usize, usize)) -> Vec<f32> {
    let step = ((w * h) as f64 / SAMPLES as f64).sqrt().floor().max(1.0) as usize;
    let mut sums = vec![0f32; gw * gh * 3];
    let mut counts = vec![0u32; gw * gh];
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    for y in (0..h).step_by(step) {
        let gy = y * gh / h;
        for x in (0..w).step_by(step) {
            let cell = gy * gw + x * gw / w;
            let px = match format {
                PixelFormat::I420 => {
                    let c = (y / 2) * cw + x / 2;
                    [data[y * w + x], data[w * h + c], data[w * h + cw * ch + c]]
                }
                PixelFormat::Nv12 => {
                    let c = w * h + (y / 2) * cw * 2 + (x / 2) * 2;
                    [data[y * w + x], data[c], data[c + 1]]
                }
                PixelFormat::Rgba => {
                    let i = (y * w + x) * 4;
                    [data[i], data[i + 1], data[i + 2]]
                }
                PixelFormat::Bgra => {
                    let i = (y * w + x) * 4;
                    [data[i + 2], data[i + 1], data[i]]
                }
            };
            for (k, v) in px.into_iter().enumerate() {
                sums[cell * 3 + k] += v as f32;
            }
            counts[cell] += 1;
        }
    }
    for (cell, &n) in counts.iter().enumerate() {
        for k in 0..3 {
            sums[cell * 3 + k] /= 255.0 * n.max(1) as f32;
        }
    }
    sums
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: u32 = 16;
    const H: u32 = 9;

    fn frame(f: impl Fn(usize, usize) -> [u8; 3]) -> Vec<u8> {
        let mut out = Vec::with_capacity((W * H * 4) as usize);
        for y in 0..H as usize {
            for x in 0..W as usize {
                let [r, g, b] = f(x, y);
                out.extend([r, g, b, 255]);
            }
        }
        out
    }

    fn run(frames: &[Vec<u8>]) -> Vec<f64> {
        let mut m = SceneMeter::new(SceneMeter::DEFAULT_THRESHOLD).unwrap();
        for (i, f) in frames.iter().enumerate() {
            m.push(i as f64 / 10.0, PixelFormat::Rgba, W, H, f).unwrap();
        }
        m.cuts()
    }

    #[test]
    fn hard_cuts_are_found_at_the_first_frame_of_the_new_shot() {
        let shots = [[200, 30, 30], [30, 200, 30], [30, 30, 200]];
        let frames: Vec<Vec<u8>> = (0..30).map(|i| frame(|_, _| shots[i / 10])).collect();
        assert_eq!(run(&frames), vec![1.0, 2.0]);
    }

    #[test]
    fn a_fade_and_a_slow_pan_are_not_cuts_and_a_steady_shot_has_none() {
        // 30 frames of fade from red to black, then hold.
        let fade: Vec<Vec<u8>> = (0..40).map(|i| frame(|_, _| [(200 - 200 * i.min(30) / 30) as u8, 0, 0])).collect();
        assert!(run(&fade).is_empty());
        // A gradient moving one pixel a frame.
        let pan: Vec<Vec<u8>> = (0..40).map(|i| frame(|x, y| [((x + i) * 15 % 256) as u8, (y * 25) as u8, 90])).collect();
        assert!(run(&pan).is_empty());
        let steady: Vec<Vec<u8>> = (0..40).map(|i| frame(|x, _| [(x * 10 + i % 2) as u8, 50, 50])).collect();
        assert!(run(&steady).is_empty());
    }

    #[test]
    fn a_cut_after_a_pan_is_still_found_and_bad_input_is_refused() {
        let mut frames: Vec<Vec<u8>> = (0..20).map(|i| frame(|x, y| [((x + i) * 15 % 256) as u8, (y * 25) as u8, 90])).collect();
        frames.extend((0..10).map(|_| frame(|_, _| [10, 240, 10])));
        assert_eq!(run(&frames), vec![2.0]);
        let mut m = SceneMeter::new(0.1).unwrap();
        assert_eq!(m.push(0.0, PixelFormat::Rgba, W, H, &[0; 3]), Err(SceneError::Size));
        assert_eq!(m.push(f64::NAN, PixelFormat::Rgba, W, H, &frame(|_, _| [0, 0, 0])), Err(SceneError::Size));
        assert_eq!(m.push(0.0, PixelFormat::I420, 0, H, &[]), Err(SceneError::Size));
        assert_eq!(m.push(0.0, PixelFormat::I420, W, H, &[0; 16 * 9]), Err(SceneError::Size), "no chroma planes");
        assert_eq!(m.frames(), 0);
        assert_eq!(SceneMeter::new(0.0).unwrap_err(), SceneError::Threshold);
        assert_eq!(SceneMeter::new(1.5).unwrap_err(), SceneError::Threshold);
        assert_eq!(SceneMeter::new(f64::NAN).unwrap_err(), SceneError::Threshold);
    }

    /// The same pictures in each layout the decoders hand over.
    fn layouts(rgb: impl Fn(usize, usize) -> [u8; 3], w: usize, h: usize) -> [(PixelFormat, Vec<u8>); 4] {
        // BT.601 full range, near enough for a test of the layouts.
        let yuv = |x, y| {
            let [r, g, b] = rgb(x, y).map(|v| v as f32);
            [0.299 * r + 0.587 * g + 0.114 * b, 128.0 - 0.169 * r - 0.331 * g + 0.5 * b, 128.0 + 0.5 * r - 0.419 * g - 0.081 * b]
                .map(|v| v.clamp(0.0, 255.0) as u8)
        };
        let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
        let luma: Vec<u8> = (0..h).flat_map(|y| (0..w).map(move |x| (x, y))).map(|(x, y)| yuv(x, y)[0]).collect();
        let chroma = |k: usize| -> Vec<u8> { (0..ch).flat_map(|y| (0..cw).map(move |x| (x, y))).map(|(x, y)| yuv(x * 2, y * 2)[k]).collect() };
        let (u, v) = (chroma(1), chroma(2));
        let i420 = [luma.clone(), u.clone(), v.clone()].concat();
        let nv12 = [luma, u.iter().zip(&v).flat_map(|(a, b)| [*a, *b]).collect()].concat();
        let rgba: Vec<u8> = (0..h)
            .flat_map(|y| (0..w).map(move |x| (x, y)))
            .flat_map(|(x, y)| {
                let [r, g, b] = rgb(x, y);
                [r, g, b, 255]
            })
            .collect();
        let bgra = rgba.chunks(4).flat_map(|p| [p[2], p[1], p[0], p[3]]).collect();
        [(PixelFormat::I420, i420), (PixelFormat::Nv12, nv12), (PixelFormat::Rgba, rgba), (PixelFormat::Bgra, bgra)]
    }

    #[test]
    fn every_layout_finds_the_same_cuts_on_a_large_frame() {
        // 1280 × 720: read on a lattice, shrunk to 64 × 36. Grey, red, then a gradient.
        let (w, h) = (1280, 720);
        let shots: [&dyn Fn(usize, usize) -> [u8; 3]; 3] = [&|_, _| [128, 128, 128], &|_, _| [220, 20, 20], &|x, y| [(x / 5) as u8, (y / 3) as u8, 60]];
        let frames: Vec<[(PixelFormat, Vec<u8>); 4]> = shots.iter().map(|f| layouts(f, w, h)).collect();
        for layout in 0..4 {
            let mut m = SceneMeter::new(0.1).unwrap();
            for (i, shot) in (0..15).map(|i| (i, &frames[i / 5])) {
                let (format, data) = &shot[layout];
                m.push(i as f64 / 10.0, *format, w as u32, h as u32, data).unwrap();
            }
            assert_eq!(m.cuts(), vec![0.5, 1.0], "{:?}", frames[0][layout].0);
        }
        assert_eq!(PixelFormat::from_name("I420A"), Some(PixelFormat::I420));
        assert_eq!(PixelFormat::from_name("NV12"), Some(PixelFormat::Nv12));
        assert_eq!(PixelFormat::from_name("BGRX"), Some(PixelFormat::Bgra));
        assert_eq!(PixelFormat::from_name("I444"), None);
    }

    #[test]
    fn a_cut_on_the_last_frame_counts() {
        let mut frames: Vec<Vec<u8>> = (0..10).map(|_| frame(|_, _| [0, 0, 0])).collect();
        frames.push(frame(|_, _| [255, 255, 255]));
        assert_eq!(run(&frames), vec![1.0]);
    }
}
