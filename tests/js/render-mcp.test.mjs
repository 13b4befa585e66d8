// render_preview over MCP: `neuralcut mcp` (the official SDK client over stdio) draws frames with
// the package's compositor in headless Chromium, from media files imported by path. The image
// block is decoded here and probed at pixels placed by hand; a missing Chromium is a clear error.
//
// Needs `npm run build` first and Chromium (CHROMIUM_PATH, else /usr/bin/chromium).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { fileURLToPath } from "node:url";
import { crc32, deflateSync, inflateSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pkgJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = process.env.NEURALCUT_DIST ?? join(root, "dist");
const CLI = join(dist, pkgJson.bin.neuralcut.replace(/^(\.\/)?dist\//, ""));

const be32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const chunk = (type, data) =>
  Buffer.concat([be32(data.length), Buffer.from(type, "ascii"), data, be32(crc32(Buffer.concat([Buffer.from(type, "ascii"), data])))]);

/** An 8-bit RGB PNG painted by `colour(x, y)`. */
function rgbPng(width, height, colour) {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) Buffer.from(colour(x, y)).copy(rows, y * (width * 3 + 1) + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", Buffer.concat([be32(width), be32(height), Buffer.from([8, 2, 0, 0, 0])])),
    chunk("IDAT", deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** Decodes an 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes): { width, height, px(x, y) }. */
function decodePng(buf) {
  assert.deepEqual([...buf.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], "PNG signature");
  let at = 8,
    width,
    height,
    channels;
  const idat = [];
  while (at < buf.length) {
    const len = buf.readUInt32BE(at);
    const type = buf.toString("ascii", at + 4, at + 8);
    const data = buf.subarray(at + 8, at + 8 + len);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      assert.equal(data[8], 8, "8-bit");
      channels = { 2: 3, 6: 4 }[data[9]];
      assert.ok(channels, `colour type ${data[9]}`);
      assert.equal(data[12], 0, "not interlaced");
    } else if (type === "IDAT") idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const f = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i];
      const a = i >= channels ? out[y * stride + i - channels] : 0;
      const b = y > 0 ? out[(y - 1) * stride + i] : 0;
      const c = i >= channels && y > 0 ? out[(y - 1) * stride + i - channels] : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      out[y * stride + i] = (x + [0, a, b, (a + b) >> 1, paeth][f]) & 255;
    }
  }
  return { width, height, px: (x, y) => [...out.subarray(y * stride + x * channels, y * stride + x * channels + 3)] };
}

let dir;
before(() => {
  dir = mkdtempSync(join(tmpdir(), "neuralcut-render-mcp-"));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function connect(args, env = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, "mcp", ...args], env: { ...process.env, ...env }, stderr: "pipe" });
  const client = new Client({ name: "neuralcut-render-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  assert.notEqual(r.isError, true, `${name}: ${JSON.stringify(r.content)}`);
  return r.structuredContent;
}

const near = (got, want, tol = 3) => got.every((c, i) => Math.abs(c - want[i]) <= tol);

test("render_preview returns an image/png of the frame and a short description", { timeout: 180_000 }, async () => {
  const bg = join(dir, "halves.png");
  writeFileSync(
    bg,
    rgbPng(160, 90, (x) => (x < 80 ? [255, 0, 0] : [0, 0, 255])),
  );
  const project = join(dir, "p.json");
  const client = await connect(["--project", project, "--save"]);
  try {
    await client.listTools(); // the SDK client checks structuredContent against each outputSchema
    const { assets } = await call(client, "media_import", { paths: [bg] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main", duration: 4 });
    await call(client, "add_text", { text: "Title", start: 0, end: 2, position: "top", style: "label" });
    await call(client, "apply_effect", { effectType: "invert", start: 2, end: 4 });
    const r = await client.callTool({ name: "render_preview", arguments: { time: 1, width: 320 } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const [image, text] = r.content;
    assert.equal(image.type, "image");
    assert.equal(image.mimeType, "image/png");
    const frame = decodePng(Buffer.from(image.data, "base64"));
    assert.deepEqual([frame.width, frame.height], [320, 180]);
    // The 160×90 picture fills the 16:9 canvas: red left half, blue right half.
    assert.ok(near(frame.px(40, 120), [255, 0, 0]), `left ${frame.px(40, 120)}`);
    assert.ok(near(frame.px(280, 120), [0, 0, 255]), `right ${frame.px(280, 120)}`);
    // The label (black text on a white box) is centred 15 % of the height below the top, (160, 27);
    // no white there in the picture itself.
    let white = 0;
    for (let y = 18; y < 36; y++) for (let x = 130; x < 190; x++) if (near(frame.px(x, y), [255, 255, 255], 8)) white++;
    assert.ok(white > 20, `label box: ${white} white pixels around (160, 27)`);
    assert.ok(!near(frame.px(160, 100), [255, 255, 255], 8), "no white below it");
    const d = JSON.parse(text.text);
    assert.deepEqual(r.structuredContent, d);
    assert.equal(d.time, 1);
    assert.deepEqual([d.width, d.height], [320, 180]);
    assert.deepEqual(
      d.layers.map((l) => l.kind),
      ["image", "text"],
    );
    assert.equal(d.notDrawn, undefined);
    // 3 s: the invert effect covers the picture; read-only: nothing changed in the project.
    const before = readFileSync(project, "utf8");
    const inv = await client.callTool({ name: "render_preview", arguments: { time: 3, width: 320 } });
    const f2 = decodePng(Buffer.from(inv.content[0].data, "base64"));
    assert.ok(near(f2.px(40, 120), [0, 255, 255]), `inverted left ${f2.px(40, 120)}`);
    assert.equal(readFileSync(project, "utf8"), before, "render_preview changes nothing");
    // Bad arguments are isError results.
    const bad = await client.callTool({ name: "render_preview", arguments: { time: -1 } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /time must be/);
  } finally {
    await client.close();
  }
  // A restarted server renders a saved project from the media paths on its assets (`path`,
  // relative to the project file, as the MCP session saves them).
  const saved = JSON.parse(readFileSync(project, "utf8"));
  saved.assets[0].path = "halves.png";
  const reopened = join(dir, "reopened.json");
  writeFileSync(reopened, JSON.stringify(saved));
  const again = await connect(["--project", reopened]);
  try {
    const r = await again.callTool({ name: "render_preview", arguments: { time: 1, width: 160 } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const f = decodePng(Buffer.from(r.content[0].data, "base64"));
    assert.ok(near(f.px(20, 60), [255, 0, 0]), `after a restart ${f.px(20, 60)}`);
  } finally {
    await again.close();
  }
});

test("render_preview with times: one labelled contact sheet, each cell its frame, over MCP and render-frame --times", { timeout: 180_000 }, async () => {
  // Four shots a second each: red, green, blue, yellow.
  const colours = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ];
  const paths = colours.map((c, i) => {
    const p = join(dir, `shot${i}.png`);
    writeFileSync(
      p,
      rgbPng(64, 36, () => c),
    );
    return p;
  });
  const project = "sheet.json";
  const client = await connect(["--project", join(dir, project), "--save"]);
  let d;
  try {
    await client.listTools();
    const { assets } = await call(client, "media_import", { paths });
    for (const [i, a] of assets.entries()) await call(client, "add_media_to_timeline", { assetId: a.id, startTime: i, trackType: "main", duration: 1 });
    const times = [3.5, 0.5, 1.5, 2.5];
    const r = await client.callTool({ name: "render_preview", arguments: { times, width: 400 } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    d = r.structuredContent;
    assert.deepEqual(JSON.parse(r.content[1].text), d);
    // Two columns of 200 px, two rows of 113 (200 × 9 / 16, rounded); the cells in the order given.
    assert.deepEqual(d.times, times);
    assert.deepEqual(d.canvas, { width: 1920, height: 1080 });
    assert.deepEqual(
      d.frames.map((f) => [f.time, f.x, f.y, f.width, f.height, f.layers.map((l) => l.kind)]),
      [
        [3.5, 0, 0, 200, 113, ["image"]],
        [0.5, 200, 0, 200, 113, ["image"]],
        [1.5, 0, 113, 200, 113, ["image"]],
        [2.5, 200, 113, 200, 113, ["image"]],
      ],
    );
    assert.deepEqual([d.width, d.height], [400, 226]);
    const sheet = decodePng(Buffer.from(r.content[0].data, "base64"));
    assert.deepEqual([sheet.width, sheet.height], [400, 226]);
    const want = [colours[3], colours[0], colours[1], colours[2]];
    for (const [i, f] of d.frames.entries()) {
      assert.ok(near(sheet.px(f.x + 100, f.y + 40), want[i]), `cell ${i} at ${f.time}: ${sheet.px(f.x + 100, f.y + 40)}`);
      // The label: a dark strip along the bottom with white text at its left.
      let white = 0;
      let dark = 0;
      for (let y = f.y + 96; y < f.y + 111; y++) {
        for (let x = f.x + 2; x < f.x + 70; x++) {
          const p = sheet.px(x, y);
          if (Math.min(...p) > 200) white++;
          if (Math.max(...p) < 110) dark++;
        }
      }
      assert.ok(white > 15 && dark > 100, `cell ${i}: label ${white} white, ${dark} dark`);
    }
    const both = await client.callTool({ name: "render_preview", arguments: { time: 1, times: [1] } });
    assert.equal(both.isError, true);
    assert.equal(both.content[0].text, "Give time or times, not both");
    const many = await client.callTool({ name: "render_preview", arguments: { times: Array.from({ length: 17 }, (_, i) => i / 10) } });
    assert.equal(many.isError, true);
    assert.equal(many.content[0].text, "times must be 1 to 16 numbers of seconds >= 0");
  } finally {
    await client.close();
  }
  const out = await cli(["--project", project, "render-frame", "--times", "3.5,0.5,1.5,2.5", "--width", "400", "-o", "sheet.png"]);
  assert.equal(out.code, 0, out.stderr);
  const printed = JSON.parse(out.stdout);
  assert.deepEqual({ ...printed, path: undefined }, { ...d, path: undefined });
  assert.deepEqual(readFileSync(join(dir, "sheet.png")).subarray(0, 8), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const usage = await cli(["--project", project, "render-frame", "1", "--times", "1,2", "-o", "x.png"]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /a time or --times, not both/);
});

test("render_preview without Chromium says how to get it", { timeout: 60_000 }, async () => {
  const client = await connect([], { NEURALCUT_CHROMIUM: join(dir, "no-such-chromium") });
  try {
    const r = await client.callTool({ name: "render_preview", arguments: { time: 0 } });
    assert.equal(r.isError, true);
    assert.match(r.content[0].text, /no Chromium at .*no-such-chromium.*NEURALCUT_CHROMIUM/);
  } finally {
    await client.close();
  }
});

/** tests/fixtures/media/bars-per-second.webm, second by second: [left, right] (demo/media/make-media.sh). */
const BARS = [
  [
    [255, 0, 0],
    [0, 0, 255],
  ],
  [
    [0, 255, 0],
    [255, 255, 255],
  ],
  [
    [255, 255, 0],
    [0, 0, 0],
  ],
  [
    [0, 255, 255],
    [255, 0, 255],
  ],
];

test("headless render_preview decodes the right second of a video", { timeout: 180_000 }, async () => {
  const client = await connect([]);
  try {
    const { assets } = await call(client, "media_import", { paths: [join(root, "tests", "fixtures", "media", "bars-per-second.mp4")] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main" });
    for (const t of [0.5, 1.5, 2.5, 3.5, 2.1]) {
      const r = await client.callTool({ name: "render_preview", arguments: { time: t, width: 160 } });
      assert.notEqual(r.isError, true, JSON.stringify(r.content));
      const f = decodePng(Buffer.from(r.content[0].data, "base64"));
      const [l, rt] = BARS[Math.floor(t)];
      // 160×90 fills the frame; at 160 wide the bars meet at x = 80.
      assert.ok(near(f.px(40, 45), l, 8), `${t} s: left ${f.px(40, 45)}, want ${l}`);
      assert.ok(near(f.px(120, 45), rt, 8), `${t} s: right ${f.px(120, 45)}, want ${rt}`);
    }
  } finally {
    await client.close();
  }
});

test("mcp --demo renders the demo project with its sample media", { timeout: 180_000 }, async () => {
  const client = await connect(["--demo"]);
  try {
    const r = await client.callTool({ name: "render_preview", arguments: { time: 2, width: 480 } });
    assert.notEqual(r.isError, true, JSON.stringify(r.content));
    const d = JSON.parse(r.content[1].text);
    assert.equal(d.notDrawn, undefined, "every layer found its media");
    assert.deepEqual(
      d.layers.map((l) => l.elementId),
      ["e23", "e22", "e20"],
      "clip, star, title",
    );
    const f = decodePng(Buffer.from(r.content[0].data, "base64"));
    // clip.webm is ffmpeg's testsrc2 at 480×270: six colour bars 80 px wide (red, green, yellow,
    // blue, ...); at y = 100 only the video can put them there.
    for (const [x, want] of [
      [40, [255, 0, 0]],
      [120, [0, 255, 0]],
      [200, [255, 255, 0]],
      [280, [0, 0, 255]],
    ]) {
      assert.ok(near(f.px(x, 100), want, 12), `bar at x ${x}: ${f.px(x, 100)}, want ${want}`);
    }
    // star.svg (#facc15), 128² × 1080/128 × 0.15 = 162 px at (1758, 162): at 1/4, (439.5, 40.5).
    assert.ok(near(f.px(439, 42), [250, 204, 21], 12), `star ${f.px(439, 42)}`);
    // 7 s: still.jpg under the vignette and a label.
    const still = await client.callTool({ name: "render_preview", arguments: { time: 7, width: 480 } });
    const s = JSON.parse(still.content[1].text);
    assert.equal(s.notDrawn, undefined);
    assert.deepEqual(
      s.layers.map((l) => l.elementId),
      ["e24", "e21", "e27"],
    );
  } finally {
    await client.close();
  }
});

/** Runs `neuralcut ...args` (the CLI) in the scratch folder. */
function cli(args, env = {}) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c) => (stdout += c));
  child.stderr.on("data", (c) => (stderr += c));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

test("render-frame writes the frame as a PNG and prints what was drawn", { timeout: 180_000 }, async () => {
  writeFileSync(
    join(dir, "split.png"),
    rgbPng(160, 90, (x) => (x < 80 ? [0, 255, 0] : [255, 255, 0])),
  );
  const project = "cli.json";
  const imported = await cli(["--project", project, "--save", "import", "split.png"]);
  assert.equal(imported.code, 0, imported.stderr);
  const asset = JSON.parse(imported.stdout).assets[0].id;
  const placed = await cli([
    "exec",
    "add_media_to_timeline",
    `assetId=${asset}`,
    "startTime=0",
    "trackType=main",
    "duration=3",
    "--project",
    project,
    "--save",
  ]);
  assert.equal(placed.code, 0, placed.stderr);
  const before = readFileSync(join(dir, project), "utf8");

  // Options anywhere; the project reopens from its file and finds the image by its saved path.
  const r = await cli(["--width", "320", "render-frame", "1.5", "--project", project, "-o", "frame.png"]);
  assert.equal(r.code, 0, r.stderr);
  const d = JSON.parse(r.stdout);
  assert.equal(d.time, 1.5);
  assert.deepEqual([d.width, d.height], [320, 180]);
  assert.deepEqual(
    d.layers.map((l) => l.kind),
    ["image"],
  );
  assert.equal(d.path, join(dir, "frame.png"));
  const f = decodePng(readFileSync(join(dir, "frame.png")));
  assert.deepEqual([f.width, f.height], [320, 180]);
  assert.ok(near(f.px(60, 90), [0, 255, 0]), `left ${f.px(60, 90)}`);
  assert.ok(near(f.px(260, 90), [255, 255, 0]), `right ${f.px(260, 90)}`);
  assert.equal(readFileSync(join(dir, project), "utf8"), before, "render-frame changes nothing");

  // The tool's own refusals are failures (1) and write nothing; no Chromium says where to get one.
  const late = await cli(["--project", project, "render-frame", "-1", "-o", "neg.png"]);
  assert.equal(late.code, 1);
  assert.match(JSON.parse(late.stdout).error, /time must be a number of seconds >= 0/);
  const wide = await cli(["--project", project, "render-frame", "1", "--width=5000", "-o", "wide.png"]);
  assert.equal(wide.code, 1);
  assert.equal(JSON.parse(wide.stdout).code, "INVALID_ARGUMENT");
  const none = await cli(["--project", project, "render-frame", "1", "-o", "none.png"], { NEURALCUT_CHROMIUM: join(dir, "no-such-chromium") });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no Chromium at .*no-such-chromium/);
  for (const name of ["neg.png", "wide.png", "none.png"]) assert.equal(existsSync(join(dir, name)), false, name);
});

test("render_preview through command_run and command_batch: the picture comes with the result", { timeout: 180_000 }, async () => {
  writeFileSync(
    join(dir, "core.png"),
    rgbPng(160, 90, () => [0, 0, 255]),
  );
  const client = await connect([]);
  try {
    await client.listTools();
    const { assets } = await call(client, "media_import", { paths: [join(dir, "core.png")] });
    await call(client, "add_media_to_timeline", { assetId: assets[0].id, startTime: 0, trackType: "main", duration: 4 });
    const listed = await call(client, "command_list", { filter: "render" });
    assert.deepEqual(
      listed.commands.map((c) => [c.id, c.enabled]),
      [["render_preview", true]],
    );

    const run = await client.callTool({ name: "command_run", arguments: { id: "render_preview", params: { time: 2, width: 64 } } });
    assert.notEqual(run.isError, true, JSON.stringify(run.content));
    assert.equal(run.content[0].type, "image");
    const f = decodePng(Buffer.from(run.content[0].data, "base64"));
    assert.deepEqual([f.width, f.height], [64, 36]);
    assert.ok(near(f.px(32, 18), [0, 0, 255]), `blue ${f.px(32, 18)}`);
    assert.equal(run.structuredContent.time, 2);

    // A batch: the split is one undo step; the frame after it comes back as an image block.
    const batch = await client.callTool({
      name: "command_batch",
      arguments: {
        steps: [
          { id: "split", params: { times: [1] } },
          { id: "render_preview", params: { time: 3, width: 32 } },
        ],
      },
    });
    assert.notEqual(batch.isError, true, JSON.stringify(batch.content));
    assert.deepEqual([batch.structuredContent.completed, batch.structuredContent.failed], [2, 0]);
    assert.equal(batch.structuredContent.results[1].result.width, 32);
    const images = batch.content.filter((c) => c.type === "image");
    assert.equal(images.length, 1);
    assert.equal(decodePng(Buffer.from(images[0].data, "base64")).width, 32);

    // Its own errors: an unknown parameter is -32602 (as for every tool, directly too); a bad
    // time is an isError result.
    for (const request of [
      { name: "command_run", arguments: { id: "render_preview", params: { time: 1, colour: "red" } } },
      { name: "render_preview", arguments: { time: 1, colour: "red" } },
    ]) {
      await assert.rejects(
        client.callTool(request),
        (e) => e.code === -32602 && /^MCP error -32602: unknown argument "colour" for render_preview; expected: time, times, width$/.test(e.message),
      );
    }
    const bad = await client.callTool({ name: "command_run", arguments: { id: "render_preview", params: { time: -2 } } });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /time must be/);
  } finally {
    await client.close();
  }
});
