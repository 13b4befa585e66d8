#![doc = include_str!("../README.md")]

// The pure core: no wasm_bindgen, js_sys or web_sys below this line (tests/layering.rs checks).
pub mod animation;
pub mod audio;
pub mod editor;
pub mod edits;
pub mod effects;
pub mod error_code;
pub mod frame;
pub mod graphics;
pub mod history;
pub mod main_start;
pub mod masks;
pub mod model;
pub mod opencut;
pub mod properties;
pub mod ranges;
pub mod scenes;
pub mod silence;
pub mod sort;
pub mod stickers;
pub mod text;
pub mod time;
pub mod tools;

pub use editor::{ApiError, AssetOptions, Document, FpsOption, NewAsset};
pub use error_code::ErrorCode;
pub use time::TICKS_PER_SECOND;
pub use tools::{Editor, ToolError};

// The boundary: the engine's wasm-bindgen API, compiled only for WebAssembly with the `engine`
// feature (the separate effects module is built with `effects` alone).
#[cfg(all(target_arch = "wasm32", feature = "engine"))]
pub mod wasm;

// The boundary: the media meters' wasm-bindgen API (`neuralcut_media`), built with `media` alone.
#[cfg(all(target_arch = "wasm32", feature = "media"))]
pub mod media_wasm;

// The boundary: the wgpu effects renderer (native for tests, and the browser effects module).
#[cfg(any(feature = "gpu", feature = "effects"))]
pub mod gpu;
