// Where `neuralcut relay` and `neuralcut mcp --bridge` take the token from. Another local user can
// read any process's arguments (/proc/<pid>/cmdline, ps), so the secret comes from a file only
// its owner reads, or from the environment; `--token` still works but says it is visible.
import { NeuralCutError } from "../errors.js";
import { TOKEN_ENV } from "./protocol.js";

// Built-in modules go through a variable: the package compiles without Node's typings.
const load = (name: string): Promise<any> => import(name);

/** Printed on stderr when the token came from the command line. */
export const ARGV_TOKEN_WARNING = `warning: --token is visible to every user of this machine (ps, /proc/<pid>/cmdline); use --token-file <path> or $${TOKEN_ENV}`;

/** The token in `path`: its first line, trimmed. Refused (INVALID_OPTIONS) when the file is
 * missing, empty, or readable by group or others (as ssh refuses an open private key). */
export async function readTokenFile(path: string): Promise<string> {
  const fs = await load("node:fs/promises");
  const process = (await load("node:process")).default;
  let text: string;
  let mode: number;
  try {
    const handle = await fs.open(path, "r");
    try {
      mode = (await handle.stat()).mode;
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (e) {
    throw new NeuralCutError("INVALID_OPTIONS", `cannot read the token file ${path}: ${(e as Error).message}`);
  }
  if (process.platform !== "win32" && (mode & 0o077) !== 0) {
    throw new NeuralCutError("INVALID_OPTIONS", `the token file ${path} is readable by other users (mode ${(mode & 0o777).toString(8)}): chmod 600 ${path}`);
  }
  const token = text.split(/\r?\n/, 1)[0].trim();
  if (!token) throw new NeuralCutError("INVALID_OPTIONS", `the token file ${path} is empty`);
  return token;
}
