// Loaded first by whisper-fake-gpu-worker.js: a WebGPU adapter that cannot make a device, so the
// worker's `device: "auto"` finds an adapter, must time WebGPU against wasm, and WebGPU fails.
Object.defineProperty(navigator, "gpu", {
  value: {
    requestAdapter: async () => ({
      features: new Set(),
      limits: {},
      info: {},
      requestDevice: async () => {
        throw new Error("this adapter makes no device");
      },
    }),
  },
});
