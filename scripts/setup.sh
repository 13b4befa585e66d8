#!/usr/bin/env bash
# Installs what building and testing NeuralCut needs, skipping whatever is already there, so it
# is safe to run again and again, and quick when everything is there. `npm test` and `npm run demo`
# run it first; scripts/build.mjs runs its build part.
#
#   bash scripts/setup.sh          everything: system packages, Rust target, wasm-bindgen CLI, npm ci
#   bash scripts/setup.sh build    only what `npm run build` needs (no system packages)
#
# Other parts of the project add their system packages to APT_PACKAGES below.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# Debian packages the tests need: chromium for the browser tests, chromium-driver for the
# wasm-bindgen-test run of src/wasm's tests in it (scripts/test-wasm.sh).
APT_PACKAGES=(chromium chromium-driver)
# Mesa's lavapipe (Vulkan on the CPU) for the native GPU effect tests (cargo test --features gpu).
APT_PACKAGES+=(mesa-vulkan-drivers libvulkan1)
# redis-server for the proxy's shared-budget tests (tests/js/proxy-redis.test.mjs starts its own).
APT_PACKAGES+=(redis-server)
# ffmpeg (ffprobe too) for the export tests, which decode what they wrote, and for test media.
APT_PACKAGES+=(ffmpeg)

say() { printf '[setup] %s\n' "$*"; }

mode="${1:-all}"

install_apt() {
  local missing=()
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    say "system packages present: ${APT_PACKAGES[*]}"
  elif [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    say "installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    say "WARNING: missing system packages (${missing[*]}); install them as root with apt-get"
  fi
}

install_rust_target() {
  if ! command -v cargo >/dev/null; then
    say "ERROR: cargo not found; install Rust from https://rustup.rs" >&2
    exit 1
  fi
  if rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    say "Rust target wasm32-unknown-unknown present"
  else
    say "adding Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
}

install_rust_components() {
  # rustfmt and clippy for scripts/lint.sh (rustup's default profile has both).
  local c
  for c in rustfmt clippy; do
    if rustup component list --installed 2>/dev/null | grep -q "^$c"; then
      say "Rust component $c present"
    else
      say "adding Rust component $c"
      rustup component add "$c"
    fi
  done
}

install_wasm_bindgen() {
  # The CLI must be exactly the version of the wasm-bindgen crate in Cargo.lock.
  local want have
  want="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
  have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
  if [ "$have" = "$want" ]; then
    say "wasm-bindgen CLI $want present"
  else
    say "installing wasm-bindgen CLI $want (found: ${have:-none}); this takes a few minutes"
    # No --locked: the CLI's own lockfile may pin versions the registry no longer serves.
    cargo install wasm-bindgen-cli --version "$want"
  fi
}

install_npm() {
  if [ -x node_modules/.bin/tsc ] && [ -x node_modules/.bin/wasm-opt ] && [ node_modules/.package-lock.json -nt package-lock.json ]; then
    say "npm packages present"
  else
    say "installing npm packages (npm ci)"
    # onnxruntime-node (under the dev dependency @huggingface/transformers, for the local Whisper
    # tests) bundles its CPU binaries; its install script would fetch CUDA ones from NuGet.
    ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
  fi
}

case "$mode" in
  all)
    install_apt
    install_rust_target
    install_rust_components
    install_wasm_bindgen
    install_npm
    ;;
  build)
    install_rust_target
    install_wasm_bindgen
    install_npm
    ;;
  *)
    echo "usage: bash scripts/setup.sh [all|build]" >&2
    exit 2
    ;;
esac
