// The Node built-ins js/render-headless.ts uses beyond js/mcp/node.d.ts, declared structurally
// for the same reason (no @types/node); none appears in an exported signature.

declare module "node:http" {
  interface IncomingMessage {
    url?: string;
    method?: string;
    headers: Record<string, string | undefined>;
  }
  interface ServerResponse {
    writeHead(status: number, headers?: Record<string, string | number>): ServerResponse;
    write(chunk: Uint8Array): boolean;
    once(event: string, listener: () => void): unknown;
    end(body?: string | Uint8Array): void;
    readonly destroyed: boolean;
  }
  interface Server {
    listen(port: number, host: string, done: () => void): void;
    address(): unknown;
    close(done?: () => void): void;
    closeAllConnections?(): void;
  }
  export function createServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server;
  export type { Server };
}

declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array>;
  export function stat(path: string): Promise<{ size: number; dev: number; ino: number; mtimeMs: number; isFile(): boolean }>;
}

declare module "node:path" {
  export function extname(path: string): string;
  export function join(...paths: string[]): string;
  export function normalize(path: string): string;
  export const sep: string;
}

declare module "node:url" {
  export function fileURLToPath(url: string | URL): string;
}

// The gate's (js/headless-files.ts) and the exclusive writer's (js/safe-write.ts).
declare module "node:crypto" {
  export function randomBytes(size: number): Uint8Array & { toString(encoding: "hex" | "base64url"): string };
  export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}

declare module "node:fs/promises" {
  export function open(path: string, flags: number, mode: number): Promise<FileHandle>;
}

declare module "node:fs" {
  export const constants: { O_WRONLY: number; O_CREAT: number; O_EXCL: number; O_NOFOLLOW?: number };
  export function openSync(path: string, flags: number, mode: number): number;
  export function writeSync(fd: number, data: Uint8Array, offset: number, length: number): number;
  export function fsyncSync(fd: number): void;
  export function closeSync(fd: number): void;
}
