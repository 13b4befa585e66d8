#!/usr/bin/env node
// The package's command (`npx neuralcut <command>`).
import process from "node:process";

const USAGE = `usage: neuralcut <command>

Commands:
  mcp     serve the editor's tools over MCP on stdio (neuralcut mcp --help)`;

const [command, ...rest] = process.argv.slice(2);
if (command === "mcp") {
  const { runMcp } = await import("./mcp/main.js");
  await runMcp(rest);
} else if (command === undefined || command === "help" || command === "--help" || command === "-h") {
  process.stdout.write(`${USAGE}\n`);
} else {
  process.stderr.write(`neuralcut: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
  process.exitCode = 2;
}
