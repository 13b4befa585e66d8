// The headless page's file server (render_preview, render-frame, export) attacked as a local
// user or a DNS-rebinding page would: after a render and an export over `neuralcut mcp` (the
// official SDK client), their ports are found in /proc/net/tcp and asked for guessed paths with foreign and
// rebinding Hosts and Origins; a project whose asset names /etc/passwd is rendered; the server
// closes when idle. Then the gate itself, with its secret known: each check on its own.
//
// Needs `npm run build` first and Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";

import { callOk as call, connectMcp } from "./mcp-client.mjs";
import { png } from "./mcp-media.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47]);

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-headless-gate-"));
  writeFileSync(join(dir, "a.png"), png(16, 9));
  writeFileSync(join(dir, "b.png"), png(32, 18));
});
after(() => rmSync(dir, { recursive: true, force: true }));

const connect = (args, env = {}) => connectMcp(args, { env, name: "neuralcut-gate-test" });

/** The TCP ports `pid` listens on, as /proc shows them: its socket inodes and the LISTEN rows
 * of /proc/net/tcp{,6} (any local user reads those rows; the pid only picks this server's). */
function listeningPorts(pid) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const c = line.trim().split(/\s+/);
      if (c.length > 9 && c[3] === "0A" && inodes.has(c[9])) ports.add(parseInt(c[1].split(":")[1], 16));
    }
  }
  return [...ports];
}

/** One request to 127.0.0.1:`port`, Host and other headers as given (Host defaults to the right one). */
function ask(port, path, headers = {}, method = "GET") {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, agent: false, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer to ${path}`)));
    req.end();
  });
}

/** What came back that should not have (the user's files, the package, any success), or null. */
function leak(r) {
  if (r.body.includes("root:")) return "/etc/passwd leaked";
  if (r.body.subarray(0, 4).equals(PNG_SIGNATURE)) return "a picture leaked";
  return r.status === 403 || r.status === 404 || r.status === 405 ? null : `status ${r.status}`;
}

/** Nothing of the user's files or the package came back. */
function refused(r, what) {
  const got = leak(r);
  assert.equal(got, null, `${what}: ${got}`);
}

async function until(what, check, ms = 30_000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A saved project with a.png at 0–2 s and, at 2–4 s, an asset whose path is /etc/passwd. */
async function passwdProject() {
  const saved = join(dir, "saved.json");
  const { client } = await connect(["--project", saved, "--save"]);
  let ids;
  try {
    const { assets } = await call(client, "media_import", { paths: [join(dir, "a.png"), join(dir, "b.png")] });
    ids = assets.map((a) => a.id);
    await call(client, "add_media_to_timeline", { assetId: ids[0], startTime: 0, trackType: "main", duration: 2 });
    await call(client, "add_media_to_timeline", { assetId: ids[1], startTime: 2, trackType: "main", duration: 2 });
  } finally {
    await client.close();
  }
  const project = JSON.parse(readFileSync(saved, "utf8"));
  const crafted = project.assets.find((a) => a.id === ids[1]);
  Object.assign(crafted, { path: "/etc/passwd", name: "holiday.png", url: "file:///etc/passwd" });
  const file = join(dir, "crafted.json");
  writeFileSync(file, JSON.stringify(project));
  return { file, ids };
}

test("after render_preview and export_video over neuralcut mcp, the file servers refuse guessed paths, foreign and rebinding Hosts and Origins, and never serve /etc/passwd", {
  timeout: 240_000,
}, async () => {
  const { file, ids } = await passwdProject();
  const { client, pid } = await connect(["--project", file]);
  try {
    const ok = await call(client, "render_preview", { time: 1, width: 160 });
    assert.equal(ok.notDrawn, undefined, JSON.stringify(ok));
    const crafted = await call(client, "render_preview", { time: 3, width: 160 });
    // An export of it: a second page and server, with grants of its own.
    const exported = await call(client, "export_video", { path: join(dir, "crafted.webm"), end: 4, width: 160, wait: true });
    assert.equal(exported.state, "done", JSON.stringify(exported));

    const ports = listeningPorts(pid);
    assert.ok(ports.length >= 2, `the render's and the export's servers are up: ${ports}`);
    const leaks = []; // every answer that gave something away
    const early = []; // foreign Hosts and Origins answered other than 403, before any path is looked at
    for (const port of ports) {
      // What an outsider can guess: the old predictable media paths, the page, the package.
      const guesses = [
        `/media/${ids[1]}`,
        ...ids.flatMap((id) => [`/media/${id}`, `/media/${id}.png`]),
        "/media/a1.png",
        "/media/a2",
        "/",
        "/mediabunny.js",
        "/dist/index.js",
        "/dist/cli.js",
        "/out/x?at=0",
      ];
      for (const path of guesses) {
        for (const headers of [
          { host: `evil.example:${port}` }, // DNS rebinding: the page's own name, resolved to 127.0.0.1
          { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
          { origin: "http://evil.example" },
          { origin: "null" },
          { host: `127.0.0.1:${port + 1}` },
        ]) {
          const r = await ask(port, path, headers);
          if (leak(r)) leaks.push(`GET ${path} ${JSON.stringify(headers)}: ${leak(r)}`);
          if (r.status !== 403) early.push(`GET ${path} ${JSON.stringify(headers)}: ${r.status}`);
        }
        const plain = await ask(port, path);
        if (leak(plain)) leaks.push(`GET ${path}: ${leak(plain)}`);
      }
    }
    assert.deepEqual(leaks, [], "nothing is served to an outsider");
    assert.deepEqual(early, [], "a foreign Host or Origin is refused whatever the path");
    // The crafted asset fails media_import's own check, so the page never gets it.
    assert.equal(crafted.notDrawn?.length, 1, JSON.stringify(crafted));
    assert.match(crafted.notDrawn[0].reason, /^not served to the page: Unsupported media format: \/etc\/passwd/);
    assert.deepEqual(
      exported.result.missing.map((m) => m.elementId),
      [crafted.notDrawn[0].elementId],
    );
    assert.match(exported.result.missing[0].reason, /^not served to the page: Unsupported media format: \/etc\/passwd/);
    // The session still renders.
    const again = await call(client, "render_preview", { time: 1, width: 160 });
    assert.equal(again.notDrawn, undefined);
  } finally {
    await client.close();
  }
});

test("the file server closes when no render is in flight and opens again when asked", { timeout: 240_000 }, async () => {
  const { client, pid } = await connect([], { NEURALCUT_HEADLESS_IDLE_MS: "1500" });
  try {
    const { assets } = await call(client, "media_import", { paths: [join(dir, "a.png")] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main", duration: 2 });
    await call(client, "render_preview", { time: 1, width: 64 });
    assert.ok(listeningPorts(pid).length >= 1, "up while needed");
    await until("the idle server to close", () => listeningPorts(pid).length === 0);
    const again = await call(client, "render_preview", { time: 1, width: 64 });
    assert.equal(again.notDrawn, undefined);
    assert.ok(listeningPorts(pid).length >= 1, "opened again on demand");
  } finally {
    await client.close();
  }
});

test("the gate with its secret known: Host, Origin, Sec-Fetch-Site, grants of exact paths, the media check, a file swapped after its grant", {
  timeout: 60_000,
}, async () => {
  const { startHeadlessFileServer } = await import(join(dist, "headless-files.js"));
  const srv = await startHeadlessFileServer({ html: () => "<p>page</p>", dist: join(dist, "/"), mediabunny: join(dir, "a.png") });
  const { port, base } = srv;
  const path = (url) => new URL(url).pathname + new URL(url).search;
  try {
    assert.match(base, new RegExp(`^http://127\\.0\\.0\\.1:${port}/[A-Za-z0-9_-]{43}/$`), "a 256-bit secret in every URL");
    mkdirSync(join(dir, "folder"), { recursive: true });
    symlinkSync("/etc/passwd", join(dir, "passwd-link.png"));
    writeFileSync(join(dir, "swap.png"), png(8, 8));
    const media = new Map([
      ["a1", join(dir, "a.png")],
      ["a2", "/etc/passwd"],
      ["a3", join(dir, "passwd-link.png")],
      ["a4", join(dir, "folder")],
      ["a5", "/dev/zero"],
      ["a6", join(dir, "swap.png")],
      ["a7", "https://example.invalid/clip.mp4"],
    ]);
    const g = await srv.grant(media, false);
    assert.deepEqual(Object.keys(g.urls).sort(), ["a1", "a6"], "only files media_import would accept");
    assert.match(g.refused.get("a2"), /^Unsupported media format: \/etc\/passwd/);
    assert.match(g.refused.get("a3"), /^Unsupported media format: /);
    assert.match(g.refused.get("a4"), /^Not a file: /);
    assert.match(g.refused.get("a5"), /^Not a file: \/dev\/zero/);
    assert.ok(!g.urls.a1.includes("a1"), "a grant is not named after its asset");

    const a1 = path(g.urls.a1);
    const good = await ask(port, a1);
    assert.equal(good.status, 200);
    assert.ok(good.body.equals(readFileSync(join(dir, "a.png"))));
    for (const host of [`localhost:${port}`, `[::1]:${port}`, `LOCALHOST:${port}`]) assert.equal((await ask(port, a1, { host })).status, 200, host);
    assert.equal((await ask(port, a1, { origin: `http://127.0.0.1:${port}` })).status, 200, "its own origin");
    assert.equal((await ask(port, a1, { "sec-fetch-site": "same-origin" })).status, 200);
    assert.equal((await ask(port, path(base))).body.toString(), "<p>page</p>");

    for (const [headers, why] of [
      [{ host: `evil.example:${port}` }, "rebinding Host"],
      [{ host: `127.0.0.1:${port + 1}` }, "another port"],
      [{ host: "127.0.0.1" }, "no port"],
      [{ host: `127.0.0.2:${port}` }, "not a loopback name this server knows"],
      [{ origin: "http://evil.example" }, "foreign Origin"],
      [{ origin: `http://localhost:${port}` }, "another origin of the same port"],
      [{ origin: "null" }, "opaque Origin"],
      [{ "sec-fetch-site": "cross-site" }, "cross-site fetch"],
      [{ "sec-fetch-site": "same-site" }, "same-site fetch"],
    ]) {
      const r = await ask(port, a1, headers);
      refused(r, why);
      assert.equal(r.status, 403, why);
    }
    const secret = new URL(base).pathname.split("/")[1];
    for (const [p, why] of [
      [a1.replace(secret, secret.slice(0, -1) + (secret.endsWith("A") ? "B" : "A")), "a wrong secret"],
      [a1.replace(`/${secret}`, ""), "no secret"],
      [`/${secret}/media/a1.png`, "a guessed grant"],
      [`/${secret}/media/`, "the grant table"],
      [`/${secret}/dist/../../../../../../etc/passwd`, "a path out of dist"],
      [`/${secret}/dist/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd`, "an encoded path out of dist"],
      [`/${secret}/media/%ZZ`, "a malformed escape"],
      [`/${secret}/out/x?at=0`, "an export job that does not exist"],
    ])
      refused(await ask(port, p), why);
    refused(await ask(port, a1, {}, "PUT"), "PUT on a media file");

    // Swapped after the grant for a link to /etc/passwd: not the file that was checked.
    const a6 = path(g.urls.a6);
    assert.equal((await ask(port, a6)).status, 200);
    rmSync(join(dir, "swap.png"));
    symlinkSync("/etc/passwd", join(dir, "swap.png"));
    refused(await ask(port, a6), "a file swapped for a link");

    g.release();
    refused(await ask(port, a1), "a released grant");

    // Stable grants keep their URL while the asset is listed and end when it is not.
    const s1 = await srv.grant(new Map([["a1", join(dir, "a.png")]]), true);
    const s2 = await srv.grant(new Map([["a1", join(dir, "a.png")]]), true);
    assert.equal(s1.urls.a1, s2.urls.a1);
    assert.equal((await ask(port, path(s1.urls.a1))).status, 200);
    await srv.grant(new Map(), true);
    refused(await ask(port, path(s1.urls.a1)), "the grant of an asset no longer in the project");
  } finally {
    await srv.close();
  }
  await assert.rejects(ask(port, "/"), /ECONNREFUSED/, "closed");
});

test("the gate's dist route stays inside dist: an encoded ../ to a sibling folder that shares its name's prefix is refused", { timeout: 30_000 }, async () => {
  const { startHeadlessFileServer } = await import(join(dist, "headless-files.js"));
  mkdirSync(join(dir, "pkg"), { recursive: true });
  mkdirSync(join(dir, "pkg-private"), { recursive: true });
  writeFileSync(join(dir, "pkg", "ok.js"), "export {};\n");
  writeFileSync(join(dir, "pkg-private", "secret.txt"), "private\n");
  const srv = await startHeadlessFileServer({ html: () => "", dist: join(dir, "pkg"), mediabunny: join(dir, "a.png") });
  try {
    const secret = new URL(srv.base).pathname.split("/")[1];
    assert.equal((await ask(srv.port, `/${secret}/dist/ok.js`)).status, 200);
    // One URL segment, so the URL parser leaves it; decoded, it names dist/../pkg-private.
    const r = await ask(srv.port, `/${secret}/dist/..%2Fpkg-private%2Fsecret.txt`);
    refused(r, "a sibling of dist");
    assert.ok(!r.body.toString().includes("private"));
  } finally {
    await srv.close();
  }
});
