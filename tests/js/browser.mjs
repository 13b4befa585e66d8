// Headless Chromium for the browser tests, driven by playwright-core (which cannot download
// browsers here: scripts/setup.sh installs Debian's chromium). Flags from shared/environment.md.
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { readFile } from "node:fs/promises";
import { after, before } from "node:test";

import { chromium } from "playwright-core";

import { CHROMIUM_FLAGS } from "../../dist/render-headless.js";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Launches headless Chromium (playwright gives it a fresh temporary profile); `extraArgs` e.g.
 * for WebGPU. Close with `browser.close()`. */
export function launchChromium(extraArgs = []) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [...CHROMIUM_FLAGS, "--disable-quic", ...extraArgs],
  });
}

/** Chromium's switches for WebGPU on SwiftShader, the software adapter every machine here has. */
export const WEBGPU_FLAGS = ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader"];

/** The renderer's three backends and the switches Chromium needs for each: the pixel tests run
 * every case on all of them. */
export const RENDER_BACKENDS = [
  ["webgpu", WEBGPU_FLAGS],
  ["webgl2", []],
  ["canvas2d", []],
];

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".css": "text/css",
};

/** Serves `dir` on 127.0.0.1 (a random port); resolves to { url, close }. */
export function serveDir(dir) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const file = join(dir, path.endsWith("/") ? `${path}index.html` : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end("not found");
    }
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

/** One server on `dir` and one Chromium for the test file that calls this: started in its
 * `before`, closed in its `after`. Read `.server` and `.browser` inside the tests. */
export function serveAndLaunch(dir) {
  const held = { server: undefined, browser: undefined };
  before(async () => {
    held.server = await serveDir(dir);
    held.browser = await launchChromium();
  });
  after(async () => {
    await held.browser?.close();
    await held.server?.close();
  });
  return held;
}

/** Opens `url` and waits for the page to set `window.result` (or to throw). */
export async function pageResult(browser, url) {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  try {
    await page.waitForFunction(() => window.result !== undefined, null, { timeout: 30_000 });
  } catch (e) {
    throw new Error(`${url}: no result (${errors.join("; ") || e.message})`);
  }
  const result = await page.evaluate(() => window.result);
  await page.close();
  return { result, errors };
}
