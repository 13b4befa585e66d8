#!/usr/bin/env bash
# `npm run lint`, and the first check of `npm test`: the code keeps one shape and clippy's and
# biome's rules, warnings as errors. `cargo fmt` and `npx biome format --write .` fix the shape.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

echo "[lint] cargo fmt --check"
cargo fmt --check
echo "[lint] cargo clippy (native, every target, the gpu feature)"
cargo clippy --quiet --all-targets --features gpu -- -D warnings
echo "[lint] cargo clippy (wasm32: the engine, effects and media modules)"
cargo clippy --quiet --target wasm32-unknown-unknown --lib --features engine,effects-webgl,media -- -D warnings
echo "[lint] biome ci (TypeScript, tests, scripts, demo)"
node_modules/.bin/biome ci --colors=off .
