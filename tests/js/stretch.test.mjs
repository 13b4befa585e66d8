// js/media/stretch.ts, the export's pitch-keeping time stretch (soundtouchjs's WSOLA), on tones
// made here: the pitch stays, the length and where a louder stretch lands follow the tempo.
import assert from "node:assert/strict";
import { test } from "node:test";

import { stretchKeepingPitch } from "../../dist/media/stretch.js";

const RATE = 48000;

/** 4 s of 440 Hz, at 0.5 from 1 s to 2 s and 0.1 elsewhere. */
function tone() {
  const out = new Float32Array(4 * RATE);
  for (let i = 0; i < out.length; i++) out[i] = Math.sin((2 * Math.PI * 440 * i) / RATE) * (i >= RATE && i < 2 * RATE ? 0.5 : 0.1);
  return out;
}

/** Frequency from zero crossings between two times (seconds). */
function hz(x, from, to) {
  let crossings = 0;
  for (let i = Math.floor(from * RATE) + 1; i < to * RATE; i++) if (x[i - 1] < 0 !== x[i] < 0) crossings++;
  return crossings / 2 / (to - from);
}

/** The first and last time the signal passes 0.3 (the loud second). */
function loudSpan(x) {
  let first = -1;
  let last = -1;
  for (let i = 0; i < x.length; i++) {
    if (Math.abs(x[i]) > 0.3) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return [first / RATE, last / RATE];
}

for (const tempo of [2, 0.5, 1.37]) {
  test(`tempo ${tempo}: 440 Hz stays 440 Hz; the loud second moves to 1/${tempo} s and lasts 1/${tempo} s`, () => {
    const input = tone();
    const length = Math.round(input.length / tempo);
    const [out, right] = stretchKeepingPitch([input, input], 0, tempo, length);
    assert.equal(out.length, length);
    assert.deepEqual(right, out, "a copied channel stays a copy");
    const pitch = hz(out, 0.1 * (4 / tempo), 0.9 * (4 / tempo));
    assert.ok(Math.abs(pitch - 440) < 2, `pitch ${pitch}`);
    const [a, b] = loudSpan(out);
    // SoundTouch's sequences are up to 125 ms long: the edges land within 160 ms.
    assert.ok(Math.abs(a - 1 / tempo) < 0.16 && Math.abs(b - 2 / tempo) < 0.16, `loud ${a}–${b} s, want ${1 / tempo}–${2 / tempo}`);
    assert.ok(out.every(Number.isFinite), "no NaN past the input's end");
  });
}

test("from a frame inside the input, mono", () => {
  const input = tone();
  const [out] = stretchKeepingPitch([input], RATE, 2, RATE);
  // From 1 s at tempo 2, 1 s of output covers source 1–3 s: loud for its first half.
  const [a, b] = loudSpan(out);
  assert.ok(a < 0.05 && Math.abs(b - 0.5) < 0.16, `loud ${a}–${b} s`);
});
