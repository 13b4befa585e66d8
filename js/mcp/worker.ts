// The worker thread of `neuralcut mcp` (js/mcp/relay.ts): the whole server, as on the main thread.
import { workerData } from "node:worker_threads";

import { runMcp } from "./main.js";

await runMcp((workerData as { argv: string[] }).argv);
