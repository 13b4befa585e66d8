// The few Node built-ins the MCP server uses, declared structurally: the package has no
// @types/node (see js/proxy/node.ts for the same choice). Only what js/mcp/ calls is here; none
// of it appears in an exported signature, so the published typings never need Node's.

declare module "node:process" {
  interface Stream {
    on(event: string, listener: (...args: any[]) => void): unknown;
    off(event: string, listener: (...args: any[]) => void): unknown;
    once(event: string, listener: (...args: any[]) => void): unknown;
  }
  interface Readable extends Stream {
    pause(): unknown;
    resume(): unknown;
  }
  interface Writable extends Stream {
    write(chunk: string): boolean;
    writableLength?: number;
  }
  const process: {
    argv: string[];
    env: Record<string, string | undefined>;
    pid: number;
    stdin: Readable;
    stdout: Writable;
    stderr: Writable;
    exitCode: number | undefined;
    exit(code?: number): never;
    on(event: string, listener: (...args: any[]) => void): unknown;
  };
  export default process;
}

declare module "node:fs/promises" {
  interface FileHandle {
    read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
    stat(): Promise<{ size: number; isFile(): boolean }>;
    close(): Promise<void>;
  }
  export function open(path: string, flags?: string): Promise<FileHandle>;
  export function readFile(path: string, encoding: "utf8"): Promise<string>;
  export function readFile(path: string): Promise<Uint8Array>;
  export function mkdtemp(prefix: string): Promise<string>;
}

declare module "node:fs" {
  export function readFileSync(path: string | URL, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string | Uint8Array): void;
  export function renameSync(from: string, to: string): void;
  export function rmSync(path: string, options?: { force?: boolean }): void;
  export function existsSync(path: string): boolean;
}

declare module "node:path" {
  export function basename(path: string): string;
  export function dirname(path: string): string;
  export function isAbsolute(path: string): boolean;
  export function resolve(...paths: string[]): string;
  export function relative(from: string, to: string): string;
  export function extname(path: string): string;
  export const sep: string;
}

declare module "node:url" {
  export function pathToFileURL(path: string): URL;
}

declare module "node:timers/promises" {
  export function setImmediate(): Promise<void>;
}

declare module "node:worker_threads" {
  export const isMainThread: boolean;
  export const workerData: unknown;
  export class Worker {
    constructor(url: URL, options?: { workerData?: unknown; stdin?: boolean });
    readonly stdin: { write(chunk: string): boolean; end(): void; readonly writableLength: number; once(event: "drain", listener: () => void): unknown } | null;
    on(event: "exit", listener: (code: number) => void): this;
    on(event: "error", listener: (error: Error) => void): this;
  }
}
