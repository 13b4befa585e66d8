// What the browser benchmarks (bench-render, bench-export, bench-effects) share: the repository
// root, their command-line options, headless Chromium and a local static server.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

import { chromium } from "playwright-core";

// Built by `npm run build`, which every benchmark needs first.
import { CHROMIUM_FLAGS } from "../dist/render-headless.js";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const argv = process.argv.slice(2);

/** The value after `name` on the command line (`--frames 5`), or undefined. */
export function option(name) {
  return argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined;
}

/** Headless Chromium ($CHROMIUM_PATH, else /usr/bin/chromium) with `flags` added, e.g. for WebGPU. */
export function launchChromium(flags = []) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: [...CHROMIUM_FLAGS, "--disable-quic", ...flags],
  });
}

const TYPES = { ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".html": "text/html" };

/**
 * Serves on 127.0.0.1: `page` (HTML) at `/`, and for any other path the file `file(path)` names
 * (404 when it cannot be read), unless `special(path, req, res)` answered the request itself and
 * returned true. Resolves to the origin and the server.
 */
export async function serve({ page, file, special }) {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url, "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    if (path === "/") return res.writeHead(200, { "content-type": "text/html" }).end(page);
    if (special && (await special(path, req, res))) return;
    try {
      const body = readFileSync(file(path));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return { origin: `http://127.0.0.1:${server.address().port}`, server };
}

/** opencut-wasm 0.2.10, the compositor the benchmarks compare with, installed once under
 * .bench/opencut; its package folder. Throws when npm cannot install it. */
export function installOpencut() {
  const prefix = join(root, ".bench", "opencut");
  const pkg = join(prefix, "node_modules", "opencut-wasm");
  if (!existsSync(join(pkg, "opencut_wasm_bg.wasm"))) {
    mkdirSync(prefix, { recursive: true });
    console.log("[bench] installing opencut-wasm@0.2.10");
    execFileSync("npm", ["install", "--no-save", "--no-package-lock", "--prefix", prefix, "opencut-wasm@0.2.10"], { stdio: "inherit" });
  }
  return pkg;
}

/** Prints `rows` ({ what, value, baseline, ratio, goal, met }) as a markdown table. */
export function printRows(rows) {
  const cols = ["what", "value", "baseline", "ratio", "goal", "met"];
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => `| ${cells.map((c, i) => String(c).padEnd(width[i])).join(" | ")} |`;
  console.log(line(cols));
  console.log(`|${width.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const r of rows) console.log(line(cols.map((c) => r[c])));
}
