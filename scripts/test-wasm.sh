#!/usr/bin/env bash
# The boundary's own tests (src/wasm/tests.rs) on wasm32 with wasm-bindgen-test: once in Node,
# once in headless Chromium through chromedriver (tests/webdriver.json holds the launch flags).
# `npm run test:wasm`, part of `npm test`; scripts/setup.sh installs what it needs (the wasm32
# target, the wasm-bindgen CLI that ships wasm-bindgen-test-runner, chromium-driver).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner
# Writable runtime dir for Chromium when the session has none.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
test_args=(test --target wasm32-unknown-unknown --features engine --lib)

echo "[test-wasm] src/wasm tests in Node"
cargo "${test_args[@]}"

chromedriver="${CHROMEDRIVER:-$(command -v chromedriver || true)}"
if [ -z "$chromedriver" ]; then
  echo "[test-wasm] chromedriver not found: install chromium-driver (bash scripts/setup.sh, as root)" >&2
  exit 1
fi
echo "[test-wasm] src/wasm tests in headless Chromium"
WASM_BINDGEN_USE_BROWSER=1 CHROMEDRIVER="$chromedriver" WASM_BINDGEN_TEST_WEBDRIVER_JSON="$PWD/tests/webdriver.json" \
  cargo "${test_args[@]}"
