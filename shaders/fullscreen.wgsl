// Shared vertex stage: one triangle that covers the whole target. Fragment stages read
// @builtin(position), the pixel centre (x + 0.5, y + 0.5), y down, in target pixels.
@vertex
fn vs_main(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    // index 0, 1, 2 -> (-1, -1), (3, -1), (-1, 3)
    let x = f32((index << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(index & 2u) * 2.0 - 1.0;
    return vec4<f32>(x, y, 0.0, 1.0);
}
