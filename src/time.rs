//! Exact time: integer ticks at 120 000 per second, and rational frame rates.
//!
//! Tools speak seconds; everything inside speaks ticks. A seconds value is converted once, here,
//! by rounding to the nearest tick.

use serde::{Deserialize, Serialize};

/// Ticks per second. OpenCut's own MediaTime unit, so its timelines convert losslessly.
pub const TICKS_PER_SECOND: i64 = 120_000;

/// The largest time a tool accepts, in seconds (about 31 years). Keeps tick arithmetic far from
/// `i64` overflow even when offsets are added together.
pub const MAX_SECONDS: f64 = 1.0e9;

/// Converts a seconds value to ticks, rounding to the nearest tick.
/// Returns `None` for NaN, ±infinity and values beyond [`MAX_SECONDS`].
pub fn seconds_to_ticks(seconds: f64) -> Option<i64> {
    if !seconds.is_finite() || seconds.abs() > MAX_SECONDS {
        return None;
    }
    Some((seconds * TICKS_PER_SECOND as f64).round() as i64)
}

/// Converts ticks to seconds for output.
pub fn ticks_to_seconds(ticks: i64) -> f64 {
    ticks as f64 / TICKS_PER_SECOND as f64
}

/// A rational frame rate such as 30/1 or 24000/1001.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct FrameRate {
    pub numerator: u32,
    pub denominator: u32,
}

impl FrameRate {
    pub const DEFAULT: FrameRate = FrameRate { numerator: 30, denominator: 1 };

    pub fn is_valid(&self) -> bool {
        self.numerator > 0 && self.denominator > 0
    }

    /// Frames per second as a float, for display only.
    pub fn as_f64(&self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }

    /// The tick at which frame `frame` starts, rounded down (frames of 24000/1001 are not a whole
    /// number of ticks).
    pub fn frame_to_ticks(&self, frame: i64) -> i64 {
        let num = frame as i128 * TICKS_PER_SECOND as i128 * self.denominator as i128;
        (num / self.numerator as i128) as i64
    }

    /// The frame showing at `ticks`.
    pub fn ticks_to_frame(&self, ticks: i64) -> i64 {
        let num = ticks as i128 * self.numerator as i128;
        num.div_euclid(TICKS_PER_SECOND as i128 * self.denominator as i128) as i64
    }
}

impl Default for FrameRate {
    fn default() -> Self {
        FrameRate::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_to_nearest_tick() {
        assert_eq!(seconds_to_ticks(1.0), Some(120_000));
        assert_eq!(seconds_to_ticks(0.1), Some(12_000));
        assert_eq!(seconds_to_ticks(1.0 / 3.0), Some(40_000));
        assert_eq!(seconds_to_ticks(0.000_004), Some(0));
        assert_eq!(seconds_to_ticks(0.000_005), Some(1));
        assert_eq!(seconds_to_ticks(-2.5), Some(-300_000));
    }

    #[test]
    fn rejects_non_finite_and_huge() {
        assert_eq!(seconds_to_ticks(f64::NAN), None);
        assert_eq!(seconds_to_ticks(f64::INFINITY), None);
        assert_eq!(seconds_to_ticks(f64::NEG_INFINITY), None);
        assert_eq!(seconds_to_ticks(1.0e300), None);
    }

    #[test]
    fn ntsc_frames_round_trip() {
        let ntsc = FrameRate { numerator: 24000, denominator: 1001 };
        for frame in [0, 1, 23, 24, 1000, 86_400] {
            assert_eq!(ntsc.ticks_to_frame(ntsc.frame_to_ticks(frame)), frame);
        }
        assert_eq!(FrameRate::DEFAULT.frame_to_ticks(30), TICKS_PER_SECOND);
    }
}
