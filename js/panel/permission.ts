// The permission mode of the panel's edits, remembered per project in localStorage.
import type { PermissionMode } from "../agent/types.js";

export const PERMISSION_MODES: readonly { mode: PermissionMode; label: string }[] = [
  { mode: "ask", label: "Ask before each edit" },
  { mode: "allow", label: "Allow edits" },
  { mode: "readonly", label: "Read only" },
];

/** Where the permission mode is remembered, per project. */
export const permissionKey = (projectId: string) => `neuralcut-panel:permission:${projectId}`;

function storage(): Storage | undefined {
  try {
    return typeof localStorage === "undefined" ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** The project's mode: stored, else "ask". */
export function storedPermission(projectId: string): PermissionMode {
  const stored = storage()?.getItem(permissionKey(projectId));
  return stored === "allow" || stored === "readonly" || stored === "ask" ? stored : "ask";
}

export function storePermission(projectId: string, mode: PermissionMode): void {
  storage()?.setItem(permissionKey(projectId), mode);
}
