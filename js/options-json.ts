// `addAsset`/`addSticker` options as JSON text for the engine. They crossed as JS objects read by
// serde-wasm-bindgen (4 KB gzipped of the engine wasm); this writes the JSON value that reader
// made of any input, and throws its message where it refused one, so every option reads and
// fails as before (tests/js/options.test.mjs holds the odd inputs and their outcomes).

/** A value serde-wasm-bindgen would not read; `message` is its wording. */
export class OptionsRefusal {
  constructor(readonly message: string) {}
}

const anyValue = "expected any valid JSON value";
const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const I64_MIN = -(2n ** 63n);
const U64_MAX = 2n ** 64n - 1n;

/** Strings reach Rust through UTF-8: a lone surrogate becomes U+FFFD. */
const text = (s: string) => JSON.stringify(s.replace(lone, "\ufffd"));

/** `options` as JSON text; below the second level containers are written empty, since no
 * option reads that deep (serde_json's 128-level limit would otherwise refuse deep ones). */
export function optionsJson(options: object): string {
  return write(options, 0);
}

function write(v: unknown, depth: number): string {
  if (v === null || v === undefined) return "null";
  switch (typeof v) {
    case "boolean":
      return String(v);
    case "number":
      if (!Number.isFinite(v)) return "null";
      // Safe integers were read as integers, anything else as a float (`2 ** 60` too).
      if (Number.isSafeInteger(v)) return String(v);
      return /[.e]/.test(String(v)) ? String(v) : `${v}.0`;
    case "bigint":
      if (v < I64_MIN || v > U64_MAX) throw new OptionsRefusal("Error: Couldn't deserialize i64 or u64 from a BigInt outside i64::MIN..u64::MAX bounds");
      return String(v);
    case "string":
      return text(v);
    case "object":
      break;
    default:
      throw new OptionsRefusal(`Error: invalid type: JsValue(${debugString(v)}), ${anyValue}`);
  }
  if (Array.isArray(v)) {
    const items = Array.from(v, (item) => write(item, depth + 1));
    return depth >= 2 ? "[]" : `[${items.join(",")}]`;
  }
  if (v instanceof Uint8Array || v instanceof ArrayBuffer) throw new OptionsRefusal(`Error: invalid type: byte array, ${anyValue}`);
  if (Symbol.iterator in v && !(v instanceof Map)) throw new OptionsRefusal(`Error: invalid type: JsValue(${debugString(v)}), ${anyValue}`);
  const iterate = (v as { [Symbol.iterator]?: unknown })[Symbol.iterator];
  const entries: [unknown, unknown][] =
    typeof iterate === "function" ? Array.from(v as Iterable<[unknown, unknown]>, (pair) => [pair[0], pair[1]]) : Object.entries(v);
  const fields = entries.map(([key, value]) => {
    if (typeof key !== "string") throw new OptionsRefusal(`Error: invalid type: ${unexpected(key)}, expected a string key`);
    return `${text(key)}:${write(value, depth + 1)}`;
  });
  return depth >= 2 ? "{}" : `{${fields.join(",")}}`;
}

/** serde's `Unexpected` for a value that is not a string, as serde-wasm-bindgen names it. */
function unexpected(v: unknown): string {
  if (v === null || v === undefined) return "unit value";
  if (typeof v === "boolean") return `boolean \`${v}\``;
  if (typeof v === "number") return `floating point \`${rustFloat(v)}\``;
  if (v instanceof Uint8Array || v instanceof ArrayBuffer) return "byte array";
  return `JsValue(${debugString(v)})`;
}

/** Rust's `{}` of an f64 with serde's `.0` for whole numbers: shortest digits, never an exponent. */
function rustFloat(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (!Number.isFinite(v)) return v > 0 ? "inf" : "-inf";
  const [digits, exp] = Math.abs(v).toExponential().split("e");
  const ds = digits.replace(".", "");
  const point = Number(exp) + 1;
  let s: string;
  if (point <= 0) s = `0.${"0".repeat(-point)}${ds}`;
  else if (point >= ds.length) s = `${ds}${"0".repeat(point - ds.length)}.0`;
  else s = `${ds.slice(0, point)}.${ds.slice(point)}`;
  return (v < 0 || Object.is(v, -0) ? "-" : "") + s;
}

/** wasm-bindgen's `Debug` text of a JS value (its glue's `debugString`). */
function debugString(val: unknown): string {
  switch (typeof val) {
    case "number":
    case "boolean":
    case "undefined":
      return `${val}`;
    case "string":
      return JSON.stringify(val);
    case "bigint":
      return `${val}n`;
    case "symbol":
      return val.description !== undefined ? `Symbol(${val.description})` : "Symbol";
    case "function":
      return typeof val.name === "string" && val.name !== "" ? `Function(${val.name})` : "Function";
  }
  if (val === null) return "null";
  if (Array.isArray(val)) return `[${Array.from(val, debugString).join(", ")}]`;
  if (val instanceof Error) return `${val.name}: ${val.message}\n${val.stack}`;
  const toStringOutput = Object.prototype.toString.call(val);
  const className = /\[object ([^\]]+)\]/.exec(toStringOutput)?.[1];
  if (className === undefined) return toStringOutput;
  if (className === "Object") {
    try {
      return `Object(${JSON.stringify(val)})`;
    } catch {
      return "Object";
    }
  }
  return className;
}
