//! detect_silences' meter (crate::silence) for the page: the host tool pushes each decoded chunk
//! of an asset's audio and reads the silences at the end.

use wasm_bindgen::prelude::*;

use super::invalid;
use crate::silence::{MeterError, SilenceMeter as Meter};

#[wasm_bindgen]
pub struct SilenceMeter {
    inner: Meter,
}

#[wasm_bindgen]
impl SilenceMeter {
    /// Throws INVALID_ARGUMENT for a sample rate outside 1 Hz–1 MHz, 0 or more than 32
    /// channels, or a threshold that is not a number of dB at or below 0.
    #[wasm_bindgen(constructor)]
    pub fn new(sample_rate: f64, channels: u32, threshold_db: f64) -> Result<SilenceMeter, JsValue> {
        Meter::new(sample_rate, channels as usize, threshold_db).map(|inner| SilenceMeter { inner }).map_err(|e| {
            invalid(match e {
                MeterError::SampleRate => "sampleRate must be from 1 to 1000000",
                MeterError::Channels => "channels must be from 1 to 32",
                MeterError::Threshold => "thresholdDb must be a number of dB at or below 0",
            })
        })
    }

    /// One chunk: each channel's samples in turn (`planar.length` = frames × channels).
    pub fn push(&mut self, planar: &[f32]) {
        self.inner.push(planar);
    }

    /// Seconds pushed so far.
    pub fn duration(&self) -> f64 {
        self.inner.duration()
    }

    /// The silences at least `minDuration` seconds long, as `[start, end, start, end, …]` in
    /// seconds from the first sample pushed.
    pub fn silences(&self, min_duration: f64) -> Vec<f64> {
        self.inner.silences(min_duration).iter().flat_map(|s| [s.start, s.end]).collect()
    }
}
