#!/usr/bin/env node
// `npm run demo`: serves the demo page (demo/) and the built package (dist/) on 127.0.0.1, with
// the Gemini proxy mounted at /api/gemini/ when GEMINI_API_KEY is set.
//
//   PORT                     port to listen on (default 5173; 0 picks a free one)
//   GEMINI_API_KEY           enables the agent sidebar; the key stays in this process
//   GEMINI_MODELS            comma-separated models the page may use (default: the proxy's
//                            DEFAULT_MODELS, flash-class only)
//   NEURALCUT_PROXY_UPSTREAM Gemini base URL (default Google's; a local fake for tests)
//   NEURALCUT_DIST           serve another build of the package instead of dist/
//
//   NEURALCUT_CONTROL_PORT   same as --control
//
// Flags: --no-build (never run the build; fail if dist/ is missing); --control <port> opens the
// control channel (docs/bridge.md): a relay on 127.0.0.1:<port> that only this server's page may
// join, with a random token printed here and handed to the page in /config.json.
//
// The proxy admits only this server's own page: serving the page sets a random per-start token as
// an HttpOnly, SameSite=Strict cookie scoped to the proxy's path, and the proxy's authorize checks
// it. The page's same-origin fetches send it; nothing in the page (or the agent) handles it.
//
// dist/ is rebuilt first (node scripts/build.mjs --skip-setup) when it is missing or older than
// any source it is built from. The page imports the package through an import map generated
// from package.json's "exports", so whatever entries dist/ holds are what the page can load.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const demoDir = join(root, "demo");
// The built package; NEURALCUT_DIST serves another build (as the other browser tests allow).
const distDir = resolve(process.env.NEURALCUT_DIST ?? join(root, "dist"));

export const DEFAULT_PORT = 5173;
export const PROXY_PATH = "/api/gemini";
/** The screenshot library neuralcut/bridge loads, served from node_modules. */
const SCREENSHOT_MODULE = join(root, "node_modules", "modern-screenshot", "dist", "index.mjs");
const VENDOR_SCREENSHOT = "/vendor/modern-screenshot.mjs";
/** The cookie carrying the per-start token that authorizes the page at the proxy. */
export const TOKEN_COOKIE = "neuralcut_demo_token";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webm": "video/webm",
  ".ogg": "audio/ogg",
  ".md": "text/markdown; charset=utf-8",
  ".map": "application/json; charset=utf-8",
};

/** Newest modification time (ms) of the files under `path`. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let max = 0;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

/** Why dist/ needs a build, or null when it is up to date. */
export function staleReason() {
  const built = join(distDir, "index.js");
  if (!existsSync(built)) return "dist/ is missing";
  const builtAt = statSync(built).mtimeMs;
  for (const source of ["src", "js", "shaders", "Cargo.toml", "Cargo.lock", "tsconfig.json"]) {
    if (newest(join(root, source)) > builtAt) return `${source} changed since the last build`;
  }
  return null;
}

/** mediabunny's browser bundle (neuralcut/export imports it). */
const MEDIABUNNY = join(root, "node_modules", "mediabunny", "dist", "bundles", "mediabunny.min.mjs");

/** soundtouchjs (one module file): the export's stretch for a clip that keeps its pitch. */
const SOUNDTOUCH = join(root, "node_modules", "soundtouchjs", "dist", "soundtouch.js");

/** Import map entries for every package export whose file exists in dist/, mediabunny and soundtouchjs. */
export function importMap() {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const imports = {};
  for (const [key, value] of Object.entries(pkg.exports ?? {})) {
    const target = typeof value === "string" ? value : (value?.browser ?? value?.import ?? value?.default);
    if (typeof target !== "string" || !target.endsWith(".js")) continue;
    const inDist = relative(join(root, "dist"), resolve(root, target));
    if (inDist.startsWith("..") || !existsSync(join(distDir, inDist))) continue;
    imports[key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`] = `/dist/${inDist.split(sep).join("/")}`;
  }
  // neuralcut/bridge draws ui.screenshot with modern-screenshot (one self-contained file).
  if (existsSync(SCREENSHOT_MODULE)) imports["modern-screenshot"] = VENDOR_SCREENSHOT;
  // neuralcut/export's muxer and neuralcut/render's video decoder, as its single-file browser bundle.
  if ((imports["neuralcut/export"] || imports["neuralcut/render"]) && existsSync(MEDIABUNNY)) imports.mediabunny = "/vendor/mediabunny.js";
  if (imports["neuralcut/export"] && existsSync(SOUNDTOUCH)) imports.soundtouchjs = "/vendor/soundtouch.js";
  return { imports };
}

/** Maps a URL path to a file under demo/ or dist/, or null (never outside them). */
function fileFor(pathname) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const [base, rest] = decoded.startsWith("/dist/") ? [distDir, decoded.slice(6)] : [demoDir, decoded.slice(1)];
  const file = resolve(base, rest.endsWith("/") || rest === "" ? `${rest}index.html` : rest);
  return file.startsWith(base + sep) ? file : null;
}

/** Serves a file, honouring a single byte Range (media elements seek with them). */
async function sendFile(req, res, file) {
  let info;
  try {
    info = await stat(file);
  } catch {
    info = null;
  }
  if (!info?.isFile()) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    return res.end("Not found");
  }
  const headers = {
    "content-type": TYPES[extname(file)] ?? "application/octet-stream",
    "cache-control": "no-cache",
    "accept-ranges": "bytes",
    "x-content-type-options": "nosniff",
  };
  const size = info.size;
  const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
  let start = 0;
  let end = size - 1;
  if (range && (range[1] || range[2])) {
    if (range[1]) {
      start = Number(range[1]);
      if (range[2]) end = Math.min(Number(range[2]), size - 1);
    } else {
      start = Math.max(0, size - Number(range[2]));
    }
    if (start > end || start >= size) {
      res.writeHead(416, { "content-range": `bytes */${size}` });
      return res.end();
    }
    res.writeHead(206, { ...headers, "content-range": `bytes ${start}-${end}/${size}`, "content-length": String(end - start + 1) });
  } else {
    res.writeHead(200, { ...headers, "content-length": String(size) });
  }
  if (req.method === "HEAD" || size === 0) return res.end();
  const handle = await open(file);
  const stream = handle.createReadStream({ start, end });
  stream.pipe(res);
  stream.on("error", () => res.destroy());
}

/**
 * Starts the demo server. Options: port (0: a free one), apiKey (mounts the proxy), models,
 * upstream (Gemini base URL), log (one line per proxy request). Resolves to { url, close }.
 */
export async function startDemoServer({ port = DEFAULT_PORT, apiKey, models, upstream, log, control } = {}) {
  if (!existsSync(join(distDir, "index.js"))) throw new Error(`${distDir} has no build: run npm run build`);
  let proxy = null;
  // New on every start: only a page this server served holds it.
  const token = randomBytes(32).toString("base64url");
  const tokenCookie = `${TOKEN_COOKIE}=${token}; Path=${PROXY_PATH}; HttpOnly; SameSite=Strict`;
  let relay = null;
  const config = () => ({
    agent: proxy ? { proxyUrl: `${PROXY_PATH}/`, models } : null,
    modules: Object.keys(importMap().imports),
    bridge: relay ? { url: relay.pageUrl, token: relay.token } : null,
  });
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (url.pathname === PROXY_PATH || url.pathname.startsWith(`${PROXY_PATH}/`)) {
        if (proxy) return proxy(req, res);
        res.writeHead(503, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: "No GEMINI_API_KEY is configured on the demo server", code: "no_key" }));
      }
      if (req.method !== "GET" && req.method !== "HEAD") {
        res.writeHead(405, { allow: "GET, HEAD" });
        return res.end();
      }
      if (url.pathname === "/config.json") {
        res.writeHead(200, { "content-type": TYPES[".json"], "cache-control": "no-store" });
        return res.end(JSON.stringify(config()));
      }
      if (url.pathname === "/" || url.pathname === "/index.html") {
        // The import map is written into the page so it always matches dist/.
        const html = (await readFile(join(demoDir, "index.html"), "utf8")).replace(
          "<!--importmap-->",
          `<script type="importmap">${JSON.stringify(importMap())}</script>`,
        );
        const headers = { "content-type": TYPES[".html"], "cache-control": "no-store" };
        if (proxy) headers["set-cookie"] = tokenCookie;
        res.writeHead(200, headers);
        return res.end(html);
      }
      if (url.pathname === VENDOR_SCREENSHOT) return sendFile(req, res, SCREENSHOT_MODULE);
      if (url.pathname === "/favicon.ico") return sendFile(req, res, join(demoDir, "media", "star.svg"));
      if (url.pathname === "/vendor/mediabunny.js") return sendFile(req, res, MEDIABUNNY);
      if (url.pathname === "/vendor/soundtouch.js") return sendFile(req, res, SOUNDTOUCH);
      const file = fileFor(url.pathname);
      if (!file) {
        res.writeHead(404);
        return res.end();
      }
      return sendFile(req, res, file);
    } catch (e) {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`Internal error: ${e instanceof Error ? e.message : String(e)}`);
    }
  });
  // Bounded as serveGeminiProxy bounds its own server (docs/proxy.md): headers in 20 s, a whole
  // request in twice the largest upload at the proxy's minimum rate plus a minute (uploads go
  // through the proxy mounted here), idle kept-alive connections closed after 5 s.
  const { DEFAULT_LIMITS } = await import(pathToFileURL(join(distDir, "proxy", "index.js")).href);
  server.headersTimeout = 20_000;
  server.requestTimeout = 2 * Math.ceil((DEFAULT_LIMITS.maxUploadBytes / DEFAULT_LIMITS.uploadMinBytesPerSecond) * 1000) + 60_000;
  server.keepAliveTimeout = 5_000;
  await new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", done);
  });
  const actualPort = server.address().port;
  const ownOrigins = [`http://127.0.0.1:${actualPort}`, `http://localhost:${actualPort}`];
  if (control !== undefined) {
    const { startRelay } = await import(pathToFileURL(join(distDir, "bridge", "relay.js")).href);
    try {
      relay = await startRelay({ port: control, origins: ownOrigins, log: log && ((line) => log(`control: ${line}`)) });
    } catch (e) {
      server.close();
      throw e?.code === "EADDRINUSE" ? new Error(`control port ${control} is in use: pick another with --control (0 picks a free one)`) : e;
    }
  }
  if (apiKey) {
    // Mounted on the same origin as the page; the page's origin is the only one allowed.
    const { createGeminiProxy, createTokenAuthorizer, DEFAULT_MODELS } = await import(pathToFileURL(join(distDir, "proxy", "index.js")).href);
    const { toNodeListener } = await import(pathToFileURL(join(distDir, "proxy", "node.js")).href);
    models ??= [...DEFAULT_MODELS];
    proxy = toNodeListener(
      createGeminiProxy({
        apiKey,
        authorize: createTokenAuthorizer(token, { cookie: TOKEN_COOKIE, user: "demo" }),
        allowedOrigins: ownOrigins,
        models,
        basePath: PROXY_PATH,
        // Handles need not outlive this process.
        handleSecret: randomBytes(32),
        upstream,
        log,
      }),
    );
  }
  return {
    url: `http://127.0.0.1:${actualPort}/`,
    agent: Boolean(proxy),
    control: relay && { host: relay.host, port: relay.port, token: relay.token },
    close: async () => {
      await relay?.close();
      await new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
    },
  };
}

function list(value, fallback) {
  const items = (value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : fallback;
}

async function main() {
  const noBuild = process.argv.includes("--no-build") || Boolean(process.env.NEURALCUT_DIST);
  const reason = staleReason();
  if (reason && !noBuild) {
    console.log(`[demo] building the package first (${reason})`);
    execFileSync(process.execPath, [join(root, "scripts", "build.mjs"), "--skip-setup"], { cwd: root, stdio: "inherit" });
  }
  const rawPort = process.env.PORT ?? String(DEFAULT_PORT);
  const port = /^\d{1,5}$/.test(rawPort) && Number(rawPort) < 65536 ? Number(rawPort) : NaN;
  if (Number.isNaN(port)) throw new Error(`PORT must be a port number, got '${rawPort}'`);
  const apiKey = (process.env.GEMINI_API_KEY ?? "").trim() || undefined;
  const at = process.argv.indexOf("--control");
  const rawControl = at !== -1 ? process.argv[at + 1] : process.env.NEURALCUT_CONTROL_PORT;
  const control =
    rawControl === undefined || rawControl === "" ? undefined : /^\d{1,5}$/.test(rawControl) && Number(rawControl) < 65536 ? Number(rawControl) : NaN;
  if (Number.isNaN(control)) throw new Error(`--control must be a port number, got '${rawControl}'`);
  const running = await startDemoServer({
    port,
    apiKey,
    models: list(process.env.GEMINI_MODELS, undefined),
    upstream: process.env.NEURALCUT_PROXY_UPSTREAM || undefined,
    log: (line) => console.log(`[proxy] ${line}`),
    control,
  });
  const missing = ["effects", "agent", "webmcp"].filter((m) => !(`neuralcut/${m}` in importMap().imports));
  console.log("");
  console.log(`  NeuralCut demo: ${running.url}`);
  console.log(`  port ${port === 0 ? "picked freely" : port}${process.env.PORT ? " (from PORT)" : ` (default; set PORT to change it)`}`);
  console.log(
    running.agent
      ? "  agent sidebar: on (Gemini proxy at /api/gemini/, key kept in this process)"
      : "  agent sidebar: off (set GEMINI_API_KEY to chat with Gemini)",
  );
  if (running.control) {
    console.log(`  control channel: 127.0.0.1:${running.control.port} (JSON lines; the page joins by WebSocket)`);
    console.log(`  token: ${running.control.token}`);
    console.log(`  MCP:   NEURALCUT_BRIDGE_TOKEN=${running.control.token} npx neuralcut mcp --bridge 127.0.0.1:${running.control.port}`);
  }
  if (missing.length) console.log(`  not built yet: ${missing.map((m) => `neuralcut/${m}`).join(", ")} (the page says what it cannot do)`);
  console.log("  Ctrl+C stops the server.\n");
  const stop = () => void running.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    if (e?.code === "EADDRINUSE") console.error(`[demo] port ${e.port} is in use: set PORT to another port (PORT=0 picks a free one)`);
    else console.error(`[demo] ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
}
