//! The uniform blocks of `shaders/`: one `#[repr(C)]` struct per WGSL struct, field for field,
//! written to the GPU with `bytemuck`. The unit test below holds each one against naga's layout
//! of the WGSL, so a field added on one side only fails `cargo test --features gpu`.

use bytemuck::{Pod, Zeroable};

/// Merged blur taps a side the blur's uniform holds: kernel radius up to 512.
pub const MAX_PAIRS: usize = 256;

/// blur.wgsl `Params`: one pass of the separable Gaussian.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Blur {
    /// One texel along the pass direction, in texture coordinates: (1/w, 0) or (0, 1/h).
    pub step: [f32; 2],
    /// Merged taps used on each side.
    pub pairs: u32,
    /// Weight of the centre texel.
    pub centre: f32,
    pub taps: [Tap; MAX_PAIRS],
}

/// blur.wgsl `Tap`: two neighbouring kernel taps merged into one bilinear read. Padded to 16
/// bytes, the stride WGSL gives any array in a uniform block.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Tap {
    /// Distance from the centre, in texels.
    pub offset: f32,
    pub weight: f32,
    pub _pad: [f32; 2],
}

/// pixel.wgsl `Read`: where a fused pass's sampling read looks, `uv = pos · scale + offset`, in
/// texture coordinates of its input (`pos` in target pixels).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Read {
    pub scale: [f32; 2],
    pub offset: [f32; 2],
}

/// pixel.wgsl `BrightnessContrast`: the parameters as the effect takes them.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct BrightnessContrast {
    pub brightness: f32,
    pub contrast: f32,
}

/// pixel.wgsl `Grayscale`: `amount` is intensity / 100.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Grayscale {
    pub amount: f32,
}

/// pixel.wgsl `Saturation`: `factor` is saturation / 100.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Saturation {
    pub factor: f32,
}

/// pixel.wgsl `Sepia`: `amount` is intensity / 100.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Sepia {
    pub amount: f32,
}

/// pixel.wgsl `Invert`: `amount` is intensity / 100.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Invert {
    pub amount: f32,
}

/// pixel.wgsl `Vignette`: radius and softness / 100 (fractions of the centre-to-corner
/// distance) and the frame size in pixels.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Vignette {
    pub radius: f32,
    pub softness: f32,
    pub frame_size: [f32; 2],
}

/// composite.wgsl `Layer`: one layer of the compositor. A target pixel `p = (x, y, 1)` reads the
/// layer at `uv = (dot(to_u, p), dot(to_v, p))`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct Layer {
    pub to_u: [f32; 3],
    pub opacity: f32,
    pub to_v: [f32; 3],
    pub _pad: f32,
    /// The picture's size in pixels.
    pub target_size: [f32; 2],
    /// WGSL rounds the struct's size up to its 16-byte alignment.
    pub _end: [f32; 2],
}

/// WGSL places a struct that is a member of a uniform block at a multiple of 16 bytes.
pub const MEMBER_ALIGN: usize = 16;

/// Appends `member` to a uniform block being built, at the next multiple of [`MEMBER_ALIGN`].
pub fn push_member(block: &mut Vec<u8>, member: &[u8]) {
    block.resize(block.len().next_multiple_of(MEMBER_ALIGN), 0);
    block.extend_from_slice(member);
}

#[cfg(test)]
mod tests {
    use std::mem::{offset_of, size_of};

    use naga::proc::Layouter;

    use super::*;

    fn module(file: &str, source: &str) -> (naga::Module, Layouter) {
        let module = naga::front::wgsl::parse_str(source).unwrap_or_else(|e| panic!("{file}: {}", e.emit_to_string(source)));
        let mut layouter = Layouter::default();
        layouter.update(module.to_ctx()).expect("layout");
        (module, layouter)
    }

    /// `name`'s members in `source`, as (name, offset), and its size.
    fn wgsl_struct(module: &(naga::Module, Layouter), name: &str) -> (Vec<(String, u32)>, u32) {
        let (module, layouter) = module;
        let (handle, ty) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some(name)).unwrap_or_else(|| panic!("no struct {name}"));
        let naga::TypeInner::Struct { members, span } = &ty.inner else { panic!("{name} is not a struct") };
        assert_eq!(layouter[handle].size, *span);
        (members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect(), *span)
    }

    /// The Rust struct has the WGSL struct's fields, in order, at the same offsets, and the same
    /// size (Rust's padding fields start with `_` and are not in the WGSL unless padding is).
    fn same(module: &(naga::Module, Layouter), name: &str, rust: &[(&str, usize)], rust_size: usize) {
        let (members, size) = wgsl_struct(module, name);
        let wgsl: Vec<(&str, usize)> = members.iter().map(|(n, o)| (n.as_str(), *o as usize)).filter(|(n, _)| !n.starts_with('_')).collect();
        let rust: Vec<(&str, usize)> = rust.iter().copied().filter(|(n, _)| !n.starts_with('_')).collect();
        assert_eq!(wgsl, rust, "{name}: WGSL fields and offsets against the Rust struct's");
        assert_eq!(size as usize, rust_size, "{name}: WGSL size against size_of");
    }

    const PIXEL: &str = include_str!("../../shaders/pixel.wgsl");

    #[test]
    fn rust_uniforms_match_the_wgsl_structs() {
        let blur = module("blur.wgsl", include_str!("../../shaders/blur.wgsl"));
        same(&blur, "Tap", &[("offset", offset_of!(Tap, offset)), ("weight", offset_of!(Tap, weight)), ("_pad", offset_of!(Tap, _pad))], size_of::<Tap>());
        same(
            &blur,
            "Params",
            &[("step", offset_of!(Blur, step)), ("pairs", offset_of!(Blur, pairs)), ("centre", offset_of!(Blur, centre)), ("taps", offset_of!(Blur, taps))],
            size_of::<Blur>(),
        );
        let pixel = module("pixel.wgsl", PIXEL);
        same(&pixel, "Read", &[("scale", offset_of!(Read, scale)), ("offset", offset_of!(Read, offset))], size_of::<Read>());
        same(
            &pixel,
            "BrightnessContrast",
            &[("brightness", offset_of!(BrightnessContrast, brightness)), ("contrast", offset_of!(BrightnessContrast, contrast))],
            size_of::<BrightnessContrast>(),
        );
        same(&pixel, "Grayscale", &[("amount", offset_of!(Grayscale, amount))], size_of::<Grayscale>());
        same(&pixel, "Saturation", &[("factor", offset_of!(Saturation, factor))], size_of::<Saturation>());
        same(&pixel, "Sepia", &[("amount", offset_of!(Sepia, amount))], size_of::<Sepia>());
        same(&pixel, "Invert", &[("amount", offset_of!(Invert, amount))], size_of::<Invert>());
        same(
            &pixel,
            "Vignette",
            &[("radius", offset_of!(Vignette, radius)), ("softness", offset_of!(Vignette, softness)), ("frame_size", offset_of!(Vignette, frame_size))],
            size_of::<Vignette>(),
        );
        let composite = module("composite.wgsl", include_str!("../../shaders/composite.wgsl"));
        same(
            &composite,
            "Layer",
            &[
                ("to_u", offset_of!(Layer, to_u)),
                ("opacity", offset_of!(Layer, opacity)),
                ("to_v", offset_of!(Layer, to_v)),
                ("_pad", offset_of!(Layer, _pad)),
                ("target_size", offset_of!(Layer, target_size)),
                ("_end", offset_of!(Layer, _end)),
            ],
            size_of::<Layer>(),
        );
    }

    #[test]
    fn a_fused_pass_finds_each_effect_where_the_renderer_writes_it() {
        use super::super::plan::{pixel_shader, pixel_uniform, PixelKey, PixelParams};
        use crate::effects::reference::Effect;
        // Every per-pixel effect at its defaults, then again in reverse: each kind at two places.
        let once: Vec<PixelParams> = crate::effects::EFFECTS.iter().filter_map(|e| PixelParams::of(&Effect::default_of(e.id).unwrap(), 64, 48)).collect();
        assert_eq!(once.len(), 6, "every effect but the blur is per-pixel");
        let ops: Vec<PixelParams> = once.iter().chain(once.iter().rev()).copied().collect();
        let shader = pixel_shader(&PixelKey { sample: true, ops: ops.iter().map(|p| p.effect()).collect() });
        let (module, layouter) = module("fused pass", &shader);
        naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::empty())
            .validate(&module)
            .unwrap_or_else(|e| panic!("the fused pass does not validate: {}", e.emit_to_string(&shader)));
        let (_, params) = module.types.iter().find(|(_, t)| t.name.as_deref() == Some("Params")).expect("Params");
        let naga::TypeInner::Struct { members, .. } = &params.inner else { panic!("Params is not a struct") };
        let read = Read { scale: [0.5, 0.25], offset: [0.125, 0.0625] };
        let block = pixel_uniform(read, &ops);
        let ty_name = |m: &naga::StructMember| module.types[m.ty].name.clone().unwrap_or_default();
        assert_eq!((members[0].name.as_deref(), members[0].offset, ty_name(&members[0]).as_str()), (Some("read"), 0, "Read"));
        assert_eq!(&block[..16], bytemuck::bytes_of(&read));
        assert_eq!(members.len(), ops.len() + 1);
        for (i, (m, op)) in members[1..].iter().zip(&ops).enumerate() {
            assert_eq!(m.name.as_deref(), Some(format!("effect_{}", i + 1).as_str()));
            assert_eq!(ty_name(m), op.effect().params_struct());
            let at = m.offset as usize;
            assert_eq!(&block[at..at + op.bytes().len()], op.bytes(), "effect_{} is written where the shader reads it", i + 1);
            assert_eq!(layouter[m.ty].size as usize, op.bytes().len());
        }
    }
}
