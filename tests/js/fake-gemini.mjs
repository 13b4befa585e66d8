// A fake Gemini API on 127.0.0.1 speaking the REST shapes the proxy uses:
//
//   POST /upload/v1beta/files                      resumable start (x-goog-upload-protocol: resumable,
//                                                  x-goog-upload-command: start) -> x-goog-upload-url
//   POST <x-goog-upload-url>                       x-goog-upload-command: upload | upload, finalize,
//                                                  x-goog-upload-offset -> { file } on finalize
//   GET  /v1beta/files/{id}                        PROCESSING for `processingPolls` reads, then ACTIVE
//   POST /v1beta/models/{model}:generateContent    answers from a script
//   POST /v1beta/models/{model}:streamGenerateContent?alt=sse
//                                                  the same script, as server-sent events: text
//                                                  parts cut in pieces (a thought signature on the
//                                                  last piece), other parts whole, usage and
//                                                  finishReason on the last chunk
//   DELETE /v1beta/files/{id}                      files.delete
//
// Every request must carry the key in x-goog-api-key. Everything is recorded for assertions.
import { createServer } from "node:http";
import { createHash, randomBytes } from "node:crypto";

/** A model turn as Gemini returns it. */
export function modelTurn(parts, finishReason = "STOP") {
  return {
    candidates: [{ content: { role: "model", parts }, finishReason, index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "fake",
  };
}

/** The chunks streamGenerateContent sends for a whole answer: each text part in `pieces` pieces
 * (its thought flag on each, its signature on the last), every other part in a chunk of its own,
 * usageMetadata and finishReason on the last chunk. Merged back, they are the answer. */
export function streamChunks(answer, pieces = 3) {
  const candidate = answer.candidates?.[0];
  const parts = candidate?.content?.parts ?? [];
  const chunk = (part) => ({ candidates: [{ content: { role: "model", parts: [part] }, index: 0 }], modelVersion: answer.modelVersion });
  const chunks = [];
  for (const part of parts) {
    if (typeof part.text !== "string" || part.text.length < pieces) {
      chunks.push(chunk(part));
      continue;
    }
    const { text, thoughtSignature, ...rest } = part;
    const size = Math.ceil(text.length / pieces);
    for (let i = 0; i < text.length; i += size) {
      const piece = { ...rest, text: text.slice(i, i + size) };
      if (thoughtSignature && i + size >= text.length) piece.thoughtSignature = thoughtSignature;
      chunks.push(chunk(piece));
    }
  }
  if (chunks.length === 0) chunks.push({ candidates: candidate ? [{ ...candidate, content: candidate.content }] : [], modelVersion: answer.modelVersion });
  const last = chunks.at(-1);
  if (candidate) {
    for (const k of ["finishReason", "finishMessage", "safetyRatings"])
      if (candidate[k] !== undefined && last.candidates[0]) last.candidates[0][k] = candidate[k];
  }
  if (answer.usageMetadata) last.usageMetadata = answer.usageMetadata;
  if (answer.promptFeedback) last.promptFeedback = answer.promptFeedback;
  return chunks;
}

/** A functionCall part with a thought signature, as Gemini 3 sends them. */
export function call(name, args, thoughtSignature) {
  const part = { functionCall: { name, args } };
  if (thoughtSignature) part.thoughtSignature = thoughtSignature;
  return part;
}

export async function startFakeGemini({ apiKey, granularity = 256 * 1024, processingPolls = 1 } = {}) {
  const sessions = new Map();
  const files = new Map();
  const failures = [];
  const fake = {
    url: "",
    /** Every request: { method, path, query, headers }. */
    requests: [],
    /** Finalized uploads: { name, mimeType, bytes (Buffer), commands, displayName }. */
    uploads: [],
    /** Bodies of generateContent calls, in order, with the model: { model, body }. */
    generateCalls: [],
    /** Scripted answers: each is a response object or (body, fake) => response object | { status, body }. */
    script: [],
    processingPolls,
    /** Lifetime given to new files (Gemini's is 48 hours); negative makes them born expired. */
    fileLifetimeMs: 48 * 3600 * 1000,
    /** Consulted before the script: (body) => answer, or undefined to fall through to the script. */
    intercept: null,
    /** Bodies of streamGenerateContent calls (also in generateCalls, with stream: true). */
    streamCalls: [],
    /** Pieces each streamed text part is cut into. */
    streamPieces: 3,
    /** When a number n, the next stream sends n chunks and then drops the connection. */
    breakStreamAfter: null,
    /** When a number n, the next stream sends n chunks, then an SSE error event as Gemini does. */
    errorStreamAfter: null,
    /** Milliseconds between streamed chunks. */
    streamDelayMs: 0,
    /** When set, files end FAILED instead of ACTIVE. */
    failProcessing: false,
    /** The next request of `kind` ("start", "chunk", "status", "generate") answers `status`, or never ("hang"). */
    failNext(kind, status, body) {
      failures.push({ kind, status, body });
    },
    /** Requests whose connection closed before the fake answered them: { method, path }. */
    abandoned: [],
    /** Names of files deleted through files.delete, in order. */
    deleted: [],
    /** When set, the upload session URL of a resumable start points at this base instead of the fake. */
    uploadUrlBase: null,
    /** Makes a file unknown upstream (as after its 48 hours). */
    expire(name) {
      files.delete(name);
    },
    file(name) {
      return files.get(name);
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  function send(res, status, body, headers = {}) {
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
    res.end(JSON.stringify(body));
  }

  function error(res, code, status, message) {
    send(res, code, { error: { code, message, status } });
  }

  function failure(kind, res) {
    const i = failures.findIndex((f) => f.kind === kind);
    if (i < 0) return false;
    const [f] = failures.splice(i, 1);
    // "hang": never answer (the connection is dropped when the fake closes).
    if (f.status === "hang") return true;
    // "redirect": a 307 to the URL given as the body.
    if (f.status === "redirect") {
      res.writeHead(307, { location: String(f.body) });
      res.end();
      return true;
    }
    // Real error bodies can echo request URLs; this one also echoes the key, so the proxy's
    // scrubbing is tested.
    send(
      res,
      f.status,
      f.body ?? { error: { code: f.status, message: `Internal error at ${fake.url}/v1beta/x?key=${apiKey} (${apiKey})`, status: "INTERNAL" } },
    );
    return true;
  }

  async function readBody(req) {
    const parts = [];
    for await (const p of req) parts.push(p);
    return Buffer.concat(parts);
  }

  function fileResource(f) {
    const { bytes, polls, ...rest } = f;
    return rest;
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, fake.url);
    fake.requests.push({ method: req.method, path: url.pathname, query: url.search, headers: { ...req.headers } });
    res.on("close", () => {
      if (!res.writableEnded) fake.abandoned.push({ method: req.method, path: url.pathname });
    });
    const body = await readBody(req);
    if (req.headers["x-goog-api-key"] !== apiKey) return error(res, 403, "PERMISSION_DENIED", "API key missing or wrong");

    // Resumable upload: start.
    if (req.method === "POST" && url.pathname === "/upload/v1beta/files" && !url.searchParams.has("upload_id")) {
      if (failure("start", res)) return;
      if (req.headers["x-goog-upload-protocol"] !== "resumable" || req.headers["x-goog-upload-command"] !== "start") {
        return error(res, 400, "INVALID_ARGUMENT", "expected a resumable start");
      }
      const size = Number(req.headers["x-goog-upload-header-content-length"]);
      const mimeType = req.headers["x-goog-upload-header-content-type"];
      if (!Number.isInteger(size) || size <= 0 || !mimeType) return error(res, 400, "INVALID_ARGUMENT", "missing upload headers");
      let meta;
      try {
        meta = JSON.parse(body.toString("utf8"));
      } catch {
        return error(res, 400, "INVALID_ARGUMENT", "bad metadata");
      }
      const id = randomBytes(12).toString("hex");
      sessions.set(id, { size, mimeType, displayName: meta?.file?.display_name ?? meta?.file?.displayName, received: [], offset: 0, commands: [] });
      res.writeHead(200, {
        "x-goog-upload-url": `${fake.uploadUrlBase ?? fake.url}/upload/v1beta/files?upload_id=${id}&upload_protocol=resumable`,
        "x-goog-upload-status": "active",
        "x-goog-upload-chunk-granularity": String(granularity),
        "x-guploader-uploadid": id,
        "content-length": "0",
      });
      return res.end();
    }

    // Resumable upload: chunks.
    if (req.method === "POST" && url.pathname === "/upload/v1beta/files") {
      const s = sessions.get(url.searchParams.get("upload_id"));
      if (!s) return error(res, 404, "NOT_FOUND", "no such upload session");
      if (failure("chunk", res)) return;
      const command = req.headers["x-goog-upload-command"];
      const offset = Number(req.headers["x-goog-upload-offset"]);
      if (offset !== s.offset) return error(res, 400, "INVALID_ARGUMENT", `offset ${offset}, expected ${s.offset}`);
      const finalize = command === "upload, finalize";
      if (!finalize && command !== "upload") return error(res, 400, "INVALID_ARGUMENT", "unknown upload command");
      if (!finalize && body.length % granularity !== 0) return error(res, 400, "INVALID_ARGUMENT", "chunk not a multiple of the granularity");
      s.received.push(body);
      s.offset += body.length;
      s.commands.push(`${command}@${offset}+${body.length}`);
      if (!finalize) {
        res.writeHead(200, { "x-goog-upload-status": "active", "content-length": "0" });
        return res.end();
      }
      sessions.delete(url.searchParams.get("upload_id"));
      if (s.offset !== s.size) return error(res, 400, "INVALID_ARGUMENT", "size mismatch");
      const bytes = Buffer.concat(s.received);
      const id = randomBytes(6).toString("hex");
      const now = new Date();
      const f = {
        name: `files/${id}`,
        displayName: s.displayName,
        mimeType: s.mimeType,
        sizeBytes: String(bytes.length),
        createTime: now.toISOString(),
        updateTime: now.toISOString(),
        expirationTime: new Date(now.getTime() + fake.fileLifetimeMs).toISOString(),
        sha256Hash: createHash("sha256").update(bytes).digest("base64"),
        uri: `${fake.url}/v1beta/files/${id}`,
        state: "PROCESSING",
        source: "UPLOADED",
        bytes,
        polls: 0,
      };
      files.set(f.name, f);
      fake.uploads.push({ name: f.name, mimeType: f.mimeType, bytes, commands: s.commands, displayName: s.displayName });
      res.writeHead(200, { "content-type": "application/json; charset=UTF-8", "x-goog-upload-status": "final" });
      return res.end(JSON.stringify({ file: fileResource(f) }));
    }

    // files.get
    let m = /^\/v1beta\/(files\/[a-z0-9-]+)$/.exec(url.pathname);
    if (req.method === "GET" && m) {
      if (failure("status", res)) return;
      const f = files.get(m[1]);
      if (!f) return error(res, 404, "NOT_FOUND", `File ${m[1]} not found`);
      f.polls++;
      if (f.state === "PROCESSING" && f.polls >= fake.processingPolls) {
        f.state = fake.failProcessing ? "FAILED" : "ACTIVE";
        if (fake.failProcessing) f.error = { code: 400, message: "The video could not be decoded" };
      }
      return send(res, 200, fileResource(f));
    }

    // files.delete
    if (req.method === "DELETE" && m) {
      if (failure("delete", res)) return;
      if (!files.has(m[1])) return error(res, 404, "NOT_FOUND", `File ${m[1]} not found`);
      files.delete(m[1]);
      fake.deleted.push(m[1]);
      return send(res, 200, {});
    }

    // models.generateContent
    m = /^\/v1beta\/models\/([a-z0-9.-]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    if (req.method === "POST" && m) {
      const streaming = m[2] === "streamGenerateContent";
      if (streaming && url.searchParams.get("alt") !== "sse") return error(res, 400, "INVALID_ARGUMENT", "this fake streams only with alt=sse");
      let parsed;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        return error(res, 400, "INVALID_ARGUMENT", "bad JSON");
      }
      fake.generateCalls.push(streaming ? { model: m[1], body: parsed, stream: true } : { model: m[1], body: parsed });
      if (streaming) fake.streamCalls.push({ model: m[1], body: parsed });
      if (failure("generate", res)) return;
      for (const c of parsed.contents ?? []) {
        for (const p of c.parts ?? []) {
          if (!p.fileData) continue;
          const f = [...files.values()].find((x) => x.uri === p.fileData.fileUri);
          if (!f) return error(res, 400, "INVALID_ARGUMENT", `unknown file ${p.fileData.fileUri}`);
          if (f.state !== "ACTIVE") return error(res, 400, "FAILED_PRECONDITION", "The file is not in an ACTIVE state");
        }
      }
      const intercepted = fake.intercept ? await fake.intercept(parsed, fake) : undefined;
      const next = intercepted ?? fake.script.shift();
      if (next === undefined) return send(res, 200, modelTurn([{ text: "(the fake model has nothing scripted)" }]));
      const answer = typeof next === "function" ? await next(parsed, fake) : next;
      if (answer && typeof answer.status === "number") return send(res, answer.status, answer.body);
      if (!streaming) return send(res, 200, answer);
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      const chunks = streamChunks(answer, fake.streamPieces);
      const [breakAfter, errorAfter] = [fake.breakStreamAfter, fake.errorStreamAfter];
      fake.breakStreamAfter = fake.errorStreamAfter = null;
      for (let i = 0; i < chunks.length; i++) {
        if (breakAfter === i) return res.destroy();
        if (errorAfter === i) {
          res.write(`data: ${JSON.stringify({ error: { code: 500, message: `Internal error (${apiKey})`, status: "INTERNAL" } })}\r\n\r\n`);
          return res.end();
        }
        // Gemini ends its events with CRLF pairs.
        res.write(`data: ${JSON.stringify(chunks[i])}\r\n\r\n`);
        if (fake.streamDelayMs) await new Promise((r) => setTimeout(r, fake.streamDelayMs));
        if (res.destroyed) return;
      }
      return res.end();
    }

    return error(res, 404, "NOT_FOUND", "unknown path");
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  fake.url = `http://127.0.0.1:${server.address().port}`;
  return fake;
}
