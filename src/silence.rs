//! Silences measured from decoded audio (detect_silences). The audio arrives in chunks as the
//! page decodes it, so the meter keeps one 10 ms window of state and the silent runs found so
//! far: an hour of 48 kHz stereo is 1.4 GB of samples, never held at once.
//!
//! A window is silent when every channel's RMS is below the threshold (dBFS: 0 dB is a full-scale
//! square wave, a full-scale sine is −3 dB). Checking each channel, not their mix, keeps a voice
//! in one channel and its inverse in the other from reading as silence. A silence is a run of
//! silent windows at least `min_duration` long; its ends are window edges, so each end is within
//! one window (10 ms) of the sample where the sound stops or starts.

/// The window length in seconds.
pub const WINDOW_SECONDS: f64 = 0.01;

/// A silent span, in seconds from the first sample pushed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Silence {
    pub start: f64,
    pub end: f64,
}

/// Finds silences in planar audio pushed chunk by chunk.
#[derive(Clone, Debug)]
pub struct SilenceMeter {
    rate: f64,
    channels: usize,
    window: usize,
    /// Mean square at and below which a channel is silent: 10^(dB / 10).
    threshold: f64,
    /// Per channel, the sum of squares of the current window so far.
    sums: Vec<f64>,
    /// Samples (per channel) in the current window so far.
    filled: usize,
    /// Samples (per channel) pushed before the current window.
    done: u64,
    /// Where the silent run in progress began (a sample index), if one is.
    run_start: Option<u64>,
    /// Finished runs, as sample indices [start, end).
    runs: Vec<(u64, u64)>,
}

/// Why a meter cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeterError {
    SampleRate,
    Channels,
    Threshold,
}

impl SilenceMeter {
    /// The most channels a meter takes (as many as Web Audio guarantees).
    pub const MAX_CHANNELS: usize = 32;

    pub fn new(sample_rate: f64, channels: usize, threshold_db: f64) -> Result<SilenceMeter, MeterError> {
        if !sample_rate.is_finite() || !(1.0..=1_000_000.0).contains(&sample_rate) {
            return Err(MeterError::SampleRate);
        }
        if channels == 0 || channels > Self::MAX_CHANNELS {
            return Err(MeterError::Channels);
        }
        if !threshold_db.is_finite() || threshold_db > 0.0 {
            return Err(MeterError::Threshold);
        }
        let window = ((sample_rate * WINDOW_SECONDS).round() as usize).max(1);
        Ok(SilenceMeter {
            rate: sample_rate,
            channels,
            window,
            threshold: 10f64.powf(threshold_db / 10.0),
            sums: vec![0.0; channels],
            filled: 0,
            done: 0,
            run_start: None,
            runs: Vec::new(),
        })
    }

    /// Adds `frames` samples per channel, channel after channel (`planar.len()` is
    /// `frames × channels`; a shorter slice counts only its whole frames).
    pub fn push(&mut self, planar: &[f32]) {
        let frames = planar.len() / self.channels;
        let mut at = 0;
        while at < frames {
            let take = (self.window - self.filled).min(frames - at);
            for (c, sum) in self.sums.iter_mut().enumerate() {
                let part = &planar[c * frames + at..c * frames + at + take];
                // f32 squares summed in f32 lanes, then once into f64: a 10 ms window is at
                // most 480 samples (at 48 kHz), well within f32's precision for a threshold.
                *sum += part.iter().map(|s| s * s).sum::<f32>() as f64;
            }
            self.filled += take;
            at += take;
            if self.filled == self.window {
                self.close_window();
            }
        }
    }

    fn close_window(&mut self) {
        let n = self.filled as f64;
        let silent = self.sums.iter().all(|s| s / n <= self.threshold);
        let start = self.done;
        match (silent, self.run_start) {
            (true, None) => self.run_start = Some(start),
            (false, Some(from)) => {
                self.runs.push((from, start));
                self.run_start = None;
            }
            _ => {}
        }
        self.done += self.filled as u64;
        self.filled = 0;
        self.sums.iter_mut().for_each(|s| *s = 0.0);
    }

    /// Seconds of audio pushed so far.
    pub fn duration(&self) -> f64 {
        (self.done + self.filled as u64) as f64 / self.rate
    }

    /// The silences at least `min_duration` seconds long, in order; the last window counts even
    /// when the audio ended inside it. The meter can take more audio afterwards.
    pub fn silences(&self, min_duration: f64) -> Vec<Silence> {
        let mut tail = self.clone();
        if tail.filled > 0 {
            tail.close_window();
        }
        if let Some(from) = tail.run_start {
            tail.runs.push((from, tail.done));
        }
        // A run of whole windows is compared in samples, so 0.5 s is not missed by a rounding.
        let min = (min_duration * self.rate).round().max(1.0) as u64;
        tail.runs.iter().filter(|(a, b)| b - a >= min).map(|&(a, b)| Silence { start: a as f64 / self.rate, end: b as f64 / self.rate }).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RATE: f64 = 48_000.0;

    /// `spans` of (seconds, amplitude of a 440 Hz sine), one channel.
    fn signal(spans: &[(f64, f32)]) -> Vec<f32> {
        let mut out = Vec::new();
        for &(secs, amp) in spans {
            let n = (secs * RATE).round() as usize;
            let base = out.len();
            out.extend((0..n).map(|i| amp * (2.0 * std::f32::consts::PI * 440.0 * (base + i) as f32 / RATE as f32).sin()));
        }
        out
    }

    fn found(samples: &[f32], chunk: usize, min: f64) -> Vec<(f64, f64)> {
        let mut m = SilenceMeter::new(RATE, 1, -40.0).unwrap();
        for part in samples.chunks(chunk) {
            m.push(part);
        }
        m.silences(min).iter().map(|s| (s.start, s.end)).collect()
    }

    #[test]
    fn silences_are_found_within_a_window_of_where_they_are() {
        // tone 1 s, silence 0.8 s, tone 0.3 s, silence 0.2 s (too short), tone 1 s, silence 1.2 s
        let s = signal(&[(1.0, 0.5), (0.8, 0.0), (0.3, 0.5), (0.2, 0.0), (1.0, 0.5), (1.2, 0.0)]);
        for chunk in [1, 333, 480, 4096, s.len()] {
            let got = found(&s, chunk, 0.5);
            assert_eq!(got.len(), 2, "chunk {chunk}: {got:?}");
            let want = [(1.0, 1.8), (3.3, 4.5)];
            for ((a, b), (wa, wb)) in got.iter().zip(want) {
                assert!((a - wa).abs() <= WINDOW_SECONDS + 1e-9 && (b - wb).abs() <= WINDOW_SECONDS + 1e-9, "chunk {chunk}: {got:?}");
            }
        }
    }

    #[test]
    fn quiet_sound_above_the_threshold_is_not_silence() {
        // -34 dB RMS (amplitude 0.028 sine) stays sound at -40; -46 dB (0.007) is silence.
        assert!(found(&signal(&[(2.0, 0.028)]), 1024, 0.5).is_empty());
        assert_eq!(found(&signal(&[(2.0, 0.007)]), 1024, 0.5), vec![(0.0, 2.0)]);
    }

    #[test]
    fn every_channel_must_be_silent() {
        let tone = signal(&[(1.0, 0.5)]);
        let mut planar = vec![0.0; tone.len()];
        planar.extend(&tone);
        let mut m = SilenceMeter::new(RATE, 2, -40.0).unwrap();
        m.push(&planar);
        assert!(m.silences(0.1).is_empty());
    }

    #[test]
    fn a_run_of_exactly_min_duration_counts_and_bad_settings_are_refused() {
        assert_eq!(found(&signal(&[(0.5, 0.0), (0.5, 0.5)]), 100, 0.5), vec![(0.0, 0.5)]);
        assert!(found(&signal(&[(0.49, 0.0), (0.5, 0.5)]), 100, 0.5).is_empty());
        assert_eq!(SilenceMeter::new(0.0, 1, -40.0).unwrap_err(), MeterError::SampleRate);
        assert_eq!(SilenceMeter::new(f64::NAN, 1, -40.0).unwrap_err(), MeterError::SampleRate);
        assert_eq!(SilenceMeter::new(RATE, 0, -40.0).unwrap_err(), MeterError::Channels);
        assert_eq!(SilenceMeter::new(RATE, 33, -40.0).unwrap_err(), MeterError::Channels);
        assert_eq!(SilenceMeter::new(RATE, 1, 1.0).unwrap_err(), MeterError::Threshold);
        assert_eq!(SilenceMeter::new(RATE, 1, f64::NEG_INFINITY).unwrap_err(), MeterError::Threshold);
    }

    #[test]
    fn reading_the_silences_leaves_the_meter_going() {
        let mut m = SilenceMeter::new(RATE, 1, -40.0).unwrap();
        m.push(&signal(&[(0.7, 0.0)]));
        assert_eq!(m.silences(0.5).len(), 1);
        m.push(&signal(&[(0.5, 0.5), (0.6, 0.0)]));
        let got: Vec<_> = m.silences(0.5).iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(got, vec![(0.0, 0.7), (1.2, 1.8)]);
        assert!((m.duration() - 1.8).abs() < 1e-9);
    }
}
