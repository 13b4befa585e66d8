// The Node built-ins js/export-headless.ts and js/export-cli.ts use beyond js/mcp/node.d.ts and
// js/render-node.d.ts, declared structurally for the same reason (no @types/node); none appears
// in an exported signature.

declare module "node:fs/promises" {
  interface FileHandle {
    write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>;
  }
  export function rename(from: string, to: string): Promise<void>;
  export function rm(path: string, options?: { force?: boolean }): Promise<void>;
}
