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
  }
  export function createServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Server;
  export type { Server };
}

declare module "node:fs/promises" {
  export function readFile(path: string): Promise<Uint8Array>;
  export function stat(path: string): Promise<{ size: number }>;
}

declare module "node:path" {
  export function extname(path: string): string;
  export function join(...paths: string[]): string;
  export function normalize(path: string): string;
}

declare module "node:url" {
  export function fileURLToPath(url: string | URL): string;
}
