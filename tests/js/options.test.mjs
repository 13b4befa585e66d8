// addAsset/addSticker on odd JS inputs: each reads, or fails with the message, exactly as it did
// when the options crossed to the engine as JS objects through serde-wasm-bindgen (the outcomes
// below were recorded from that build); js/options-json.ts now writes them as JSON text.
import assert from "node:assert/strict";
import { test } from "node:test";
import { pkg } from "./helpers.mjs";

const invalid = "addAsset options are invalid: ";
const fields = "expected one of `id`, `name`, `type`, `duration`, `width`, `height`, `fps`";
const anyValue = "expected any valid JSON value";
const lone = "a\ud800b";
const video = (more) => ({ name: "a", type: "video", ...more });

// [what, options, the asset it adds (its JSON without the id) or the message it fails with]
const assets = [
  ["undefined field", video({ duration: undefined }), { name: "a", type: "video" }],
  ["undefined name", { name: undefined, type: "video" }, `${invalid}invalid type: null, expected a string`],
  ["null id", { id: null, name: "a", type: "image" }, { name: "a", type: "image" }],
  ["NaN", video({ duration: NaN, width: NaN }), { name: "a", type: "video" }],
  ["Infinity", video({ duration: Number.POSITIVE_INFINITY }), { name: "a", type: "video" }],
  ["-0", video({ duration: -0 }), "addAsset duration must be a positive number of seconds"],
  ["a Date", video({ duration: new Date(0) }), `${invalid}invalid type: map, expected f64`],
  ["a RegExp name", { name: /x/, type: "image" }, `${invalid}invalid type: map, expected a string`],
  ["an extra key", video({ colour: "red" }), `${invalid}unknown field \`colour\`, ${fields}`],
  ["an extra undefined key", video({ colour: undefined }), `${invalid}unknown field \`colour\`, ${fields}`],
  ["a number as a string", video({ duration: "5" }), `${invalid}invalid type: string "5", expected f64`],
  ["a number for a string", { name: 5, type: "video" }, `${invalid}invalid type: integer \`5\`, expected a string`],
  ["2 ** 60 width", video({ width: 2 ** 60 }), `${invalid}invalid type: floating point \`1.152921504606847e+18\`, expected u32`],
  ["-(2 ** 60) width", video({ width: -(2 ** 60) }), `${invalid}invalid type: floating point \`-1.152921504606847e+18\`, expected u32`],
  ["2 ** 53 width", video({ width: 2 ** 53 }), `${invalid}invalid type: floating point \`9007199254740992.0\`, expected u32`],
  ["1e300 width", video({ width: 1e300 }), `${invalid}invalid type: floating point \`1e+300\`, expected u32`],
  ["2 ** 60 fps", video({ fps: 2 ** 60 }), `${invalid}data did not match any variant of untagged enum FpsOption`],
  ["fractional fps", video({ fps: 29.97 }), `${invalid}data did not match any variant of untagged enum FpsOption`],
  [
    "fps with an extra key",
    video({ fps: { numerator: 30, denominator: 1, x: [[[[1]]]] } }),
    { name: "a", type: "video", fps: { numerator: 30, denominator: 1 } },
  ],
  [
    "fps deeper than serde_json's limit",
    video({ fps: { numerator: 30, denominator: 1, x: JSON.parse(`${"[".repeat(300)}${"]".repeat(300)}`) } }),
    { name: "a", type: "video", fps: { numerator: 30, denominator: 1 } },
  ],
  ["fps with holes", video({ fps: Object.assign(new Array(2), { 1: 1 }) }), `${invalid}data did not match any variant of untagged enum FpsOption`],
  ["BigInt", video({ width: 10n, duration: 3n }), { name: "a", type: "video", duration: 3, width: 10 }],
  ["a huge BigInt", video({ width: 2n ** 70n }), `${invalid}Error: Couldn't deserialize i64 or u64 from a BigInt outside i64::MIN..u64::MAX bounds`],
  ["a function", video({ cb: () => 1 }), `${invalid}Error: invalid type: JsValue(Function(cb)), ${anyValue}`],
  ["a symbol", video({ duration: Symbol("s") }), `${invalid}Error: invalid type: JsValue(Symbol(s)), ${anyValue}`],
  ["a symbol key", video({ [Symbol("k")]: 1 }), { name: "a", type: "video" }],
  [
    "a Map",
    video({
      fps: new Map([
        ["numerator", 30],
        ["denominator", 1],
      ]),
    }),
    { name: "a", type: "video", fps: { numerator: 30, denominator: 1 } },
  ],
  ["a Map with a number key", video({ fps: new Map([[1, 30]]) }), `${invalid}Error: invalid type: floating point \`1.0\`, expected a string key`],
  ["a Set", video({ fps: new Set([1]) }), `${invalid}Error: invalid type: JsValue(Set), ${anyValue}`],
  ["bytes", video({ fps: new Uint8Array([1]) }), `${invalid}Error: invalid type: byte array, ${anyValue}`],
  ["a Float32Array", video({ fps: new Float32Array([1]) }), `${invalid}Error: invalid type: JsValue(Float32Array), ${anyValue}`],
  ["a lone surrogate", { name: lone, type: "image" }, { name: "a\ufffdb", type: "image" }],
  ["a lone surrogate key", { name: "a", type: "image", [lone]: 1 }, `${invalid}unknown field \`a\ufffdb\`, ${fields}`],
  ["toJSON is not called", video({ fps: { toJSON: () => 30 } }), `${invalid}Error: invalid type: JsValue(Function(toJSON)), ${anyValue}`],
  [
    "inherited keys are not read",
    video({ fps: Object.assign(Object.create({ numerator: 30 }), { denominator: 1 }) }),
    `${invalid}data did not match any variant of untagged enum FpsOption`,
  ],
  ["a boxed String", { name: new String("a"), type: "image" }, `${invalid}Error: invalid type: JsValue(String), ${anyValue}`],
  [
    "an iterable object",
    video({ fps: { [Symbol.iterator]: null, numerator: 30, denominator: 1 } }),
    `${invalid}Error: invalid type: JsValue(Object({"numerator":30,"denominator":1})), ${anyValue}`,
  ],
  [
    "a getter",
    {
      get name() {
        return "g";
      },
      type: "image",
    },
    { name: "g", type: "image" },
  ],
  ["an array", [1, 2], `${invalid}unknown field \`0\`, ${fields}`],
  ["a Date", new Date(0), `${invalid}missing field \`name\``],
];

const stickers = [
  ["undefined url", { id: "s", name: "S", url: undefined }, "s"],
  ["NaN url", { id: "s", name: "S", url: NaN }, "s"],
  [
    "an extra undefined key",
    { id: "s", name: "S", extra: undefined },
    "addSticker options are invalid: unknown field `extra`, expected one of `id`, `name`, `url`",
  ],
  ["an array", ["s", "S"], "addSticker options are invalid: expected an object"],
  [
    "a Map",
    new Map([
      ["id", "s"],
      ["name", "S"],
    ]),
    "s",
  ],
  [
    "a class instance",
    new (class {
      id = "s";
      name = "S";
    })(),
    "s",
  ],
  ["a lone surrogate", { id: "s\ud800", name: "S" }, "s\ufffd"],
  ["a BigInt name", { id: "s", name: 1n }, "addSticker options are invalid: invalid type: integer `1`, expected a string"],
  ["toJSON", { id: "s", name: "S", toJSON: () => ({}) }, `addSticker options are invalid: Error: invalid type: JsValue(Function(toJSON)), ${anyValue}`],
  ["a boxed String", new String("ab"), `addSticker options are invalid: Error: invalid type: JsValue(String), ${anyValue}`],
];

/** What the call did: the asset it added (without its id), the id, or the error's message. */
function outcome(editor, fn, code) {
  try {
    const id = fn();
    const asset = editor.project().assets?.find((a) => a.id === id);
    if (!asset) return id;
    const { id: _, ...rest } = asset;
    return rest;
  } catch (e) {
    assert.ok(e instanceof pkg.NeuralCutError, `${e}`);
    assert.equal(e.code, code);
    assert.equal(e.cause?.code, code, "the cause is the coded Error the engine throws");
    return e.message;
  }
}

test("addAsset reads odd JS values as the engine always has", async () => {
  for (const [what, options, expected] of assets) {
    const editor = await pkg.createEditor();
    assert.deepEqual(
      outcome(editor, () => editor.addAsset(options), "INVALID_ASSET"),
      expected,
      what,
    );
  }
});

test("addSticker reads odd JS values as the engine always has", async () => {
  for (const [what, options, expected] of stickers) {
    const editor = await pkg.createEditor();
    assert.deepEqual(
      outcome(editor, () => editor.addSticker(options), "INVALID_STICKER"),
      expected,
      what,
    );
  }
});
