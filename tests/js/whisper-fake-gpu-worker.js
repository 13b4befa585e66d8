// whisper-browser.test.mjs's worker with a WebGPU adapter that cannot run anything (static imports
// run in order: the adapter exists before the worker and transformers.js look for it).
import "./whisper-fake-gpu.js";
import "/dist/whisper/worker.js";
