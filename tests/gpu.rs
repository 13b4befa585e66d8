//! GPU effects against the CPU reference (wgpu on Vulkan; lavapipe in CI).
