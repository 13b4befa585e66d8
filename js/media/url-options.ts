// How the package reads media from URLs with mediabunny: the one policy of the renderer's video
// decoding and the export's audio.
import type { UrlSourceOptions } from "mediabunny";

/**
 * How long to wait before another try at a URL whose fetch failed (no answer, not an HTTP
 * error): 0.5, 1 and 2 s, then give up, so the caller reports the file missing. mediabunny's
 * default retries a URL of the page's own origin forever, which held a frame, or an export,
 * back forever when the server went away.
 */
const retryDelay = (attempts: number): number | null => (attempts <= 3 ? 0.25 * 2 ** attempts : null);

/** Options for every `UrlSource`: the retries above, and 16 MiB of a file kept in memory (mediabunny's default: 64 MiB per file). */
export const URL_SOURCE_OPTIONS: UrlSourceOptions = { getRetryDelay: retryDelay, maxCacheSize: 16 * 1024 * 1024 };
