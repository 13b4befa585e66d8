//! The frame compositor on a real GPU (wgpu on Vulkan; Mesa's lavapipe in CI): frames from
//! `frame_at` drawn with solid-colour media, probed at known pixels. Runs with
//! `cargo test --features gpu`.

use neuralcut::effects::reference::{Effect, RgbaImage};
use neuralcut::frame::{Frame, Layer};
use neuralcut::gpu::compose::{BlendMode, Compositor, Quad};
use neuralcut::gpu::{native_renderer, Renderer};
use neuralcut::opencut;
use neuralcut::Editor;
use serde_json::{json, Value};

const S: i64 = 120_000;

fn setup() -> (Renderer, Compositor) {
    let (r, _) = native_renderer().unwrap_or_else(|e| panic!("GPU tests need a Vulkan device: {e}"));
    let c = Compositor::new(r.device());
    (r, c)
}

fn solid(w: u32, h: u32, rgba: [u8; 4]) -> RgbaImage {
    RgbaImage::new(w, h, rgba.iter().copied().cycle().take((w * h * 4) as usize).collect())
}

fn px(img: &RgbaImage, x: u32, y: u32) -> [u8; 4] {
    let at = ((y * img.width + x) * 4) as usize;
    img.pixels[at..at + 4].try_into().unwrap()
}

fn near(got: [u8; 4], want: [u8; 4], tol: u8) -> bool {
    got.iter().zip(want).all(|(a, b)| a.abs_diff(b) <= tol)
}

#[track_caller]
fn assert_px(img: &RgbaImage, x: u32, y: u32, want: [u8; 4]) {
    let got = px(img, x, y);
    assert!(near(got, want, 2), "pixel ({x}, {y}) is {got:?}, want {want:?}");
}

fn effects(list: &[(&str, Value)]) -> Vec<Effect> {
    list.iter().map(|(id, p)| Effect::new(id, p.as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_f64())).collect::<Vec<_>>()).unwrap()).collect()
}

/// Draws `frame` with each media layer a solid colour from `colour(layer id)`, at the frame's
/// own size, as `neuralcut/render` does with real media.
fn draw(fx: &mut Renderer, c: &mut Compositor, frame: &Frame, colour: &dyn Fn(&str) -> [u8; 4]) -> RgbaImage {
    c.begin(fx, frame.width, frame.height, [0.0, 0.0, 0.0, 1.0]).unwrap();
    for (slot, layer) in frame.layers.iter().enumerate() {
        match layer {
            Layer::Media(m) => {
                let (w, h) = (m.source_width.unwrap(), m.source_height.unwrap());
                c.upload(fx, slot, &solid(w, h, colour(&m.element_id)));
                let p = m.placement.unwrap();
                let quad = Quad {
                    center_x: p.center_x,
                    center_y: p.center_y,
                    width: p.width,
                    height: p.height,
                    rotation: p.rotation,
                    flip_x: p.flip_x,
                    flip_y: p.flip_y,
                };
                let fx_list: Vec<Effect> = m
                    .effects
                    .iter()
                    .map(|e| Effect::new(&e.effect_type, e.params.iter().map(|(k, v)| (k.clone(), v.as_f64())).collect::<Vec<_>>()).unwrap())
                    .collect();
                c.draw(fx, slot, &quad, m.opacity, BlendMode::parse(&m.blend_mode), &fx_list).unwrap();
            }
            Layer::Effect(e) => {
                let list = [Effect::new(&e.effect_type, e.params.iter().map(|(k, v)| (k.clone(), v.as_f64())).collect::<Vec<_>>()).unwrap()];
                c.apply(fx, &list).unwrap();
            }
            Layer::Text(_) => panic!("text is rasterised by the browser; not in these frames"),
        }
    }
    c.finish(fx).unwrap();
    fx.read_output().unwrap()
}

fn visual(changes: Value) -> Value {
    let mut p = json!({
        "transform.positionX": 0, "transform.positionY": 0, "transform.scaleX": 1, "transform.scaleY": 1,
        "transform.rotate": 0, "opacity": 1, "blendMode": "normal"
    });
    p.as_object_mut().unwrap().extend(changes.as_object().unwrap().clone());
    p
}

fn element(id: &str, kind: &str, media: &str, start: i64, duration: i64, params: Value) -> Value {
    json!({ "id": id, "type": kind, "name": id, "mediaId": media, "startTime": start, "duration": duration,
            "trimStart": 0, "trimEnd": 0, "hidden": false, "params": params })
}

/// 192×108: a 4:3 image on main (pillarboxed), a square picture-in-picture overlay at
/// (+48, −24) scaled 0.25, and an invert effect from 1 s to 2 s.
fn editor() -> Editor {
    let scene = json!({
        "settings": { "canvasSize": {"width": 192, "height": 108} },
        "assets": [
            { "id": "m-bg", "name": "bg.png", "type": "image", "width": 144, "height": 108 },
            { "id": "m-logo", "name": "logo.png", "type": "image", "width": 100, "height": 100 }
        ],
        "tracks": {
            "overlay": [
                { "id": "t-fx", "name": "Effect track", "type": "effect", "hidden": false, "elements": [{
                    "id": "fx", "type": "effect", "name": "Invert", "effectType": "invert", "params": {"intensity": 100},
                    "startTime": S, "duration": S, "trimStart": 0, "trimEnd": 0 }] },
                { "id": "t-pip", "name": "Video track", "type": "video", "hidden": false, "muted": false, "elements": [
                    element("pip", "image", "m-logo", 0, 3 * S, visual(json!({
                        "transform.positionX": 48, "transform.positionY": -24, "transform.scaleX": 0.25, "transform.scaleY": 0.25 })))
                ]}
            ],
            "main": { "id": "t-main", "name": "Main Track", "type": "video", "hidden": false, "muted": false, "elements": [
                element("bg", "image", "m-bg", 0, 3 * S, visual(json!({})))
            ]},
            "audio": []
        }
    });
    let mut ed = Editor::new();
    opencut::load_scene(&mut ed, &scene).unwrap();
    ed
}

const RED: [u8; 4] = [255, 0, 0, 255];
const BLUE: [u8; 4] = [0, 0, 255, 255];

fn colours(id: &str) -> [u8; 4] {
    if id == "pip" {
        BLUE
    } else {
        RED
    }
}

#[test]
fn a_picture_in_picture_frame_lands_where_opencut_puts_it() {
    let (mut fx, mut c) = setup();
    let ed = editor();
    let img = draw(&mut fx, &mut c, &ed.frame_at(0.5).unwrap().unwrap(), &colours);
    // Main: 144×108 contain-fitted into 192×108 is 144 wide, centred: x 24..168; black bars outside.
    assert_px(&img, 10, 54, [0, 0, 0, 255]);
    assert_px(&img, 30, 54, RED);
    assert_px(&img, 180, 54, [0, 0, 0, 255]);
    // PiP: 100² fits as 108², × 0.25 = 27 px, centred at (96 + 48, 54 − 24) = (144, 30):
    // x 130.5..157.5, y 16.5..43.5.
    assert_px(&img, 144, 30, BLUE);
    assert_px(&img, 132, 18, BLUE);
    assert_px(&img, 156, 42, BLUE);
    assert_px(&img, 128, 30, RED);
    assert_px(&img, 144, 46, RED);
    // From 1 s the invert effect covers both layers below it.
    let img = draw(&mut fx, &mut c, &ed.frame_at(1.5).unwrap().unwrap(), &colours);
    assert_px(&img, 10, 54, [255, 255, 255, 255]);
    assert_px(&img, 30, 54, [0, 255, 255, 255]);
    assert_px(&img, 144, 30, [255, 255, 0, 255]);
}

#[test]
fn opacity_blend_modes_rotation_and_flips() {
    let (mut fx, mut c) = setup();
    c.begin(&fx, 40, 40, [0.5, 0.5, 0.5, 1.0]).unwrap();
    // A 20×4 bar rotated 90° clockwise stands upright around (20, 20).
    c.upload(&fx, 0, &solid(20, 4, RED));
    c.draw(
        &mut fx,
        0,
        &Quad { center_x: 20.0, center_y: 20.0, width: 20.0, height: 4.0, rotation: 90.0, flip_x: false, flip_y: false },
        1.0,
        BlendMode::NORMAL,
        &[],
    )
    .unwrap();
    c.finish(&mut fx).unwrap();
    let img = fx.read_output().unwrap();
    assert_px(&img, 20, 12, RED);
    assert_px(&img, 20, 28, RED);
    assert_px(&img, 12, 20, [128, 128, 128, 255]);

    // Half-opaque white over mid-grey, normal: (0.5 + 1) / 2 = 0.75.
    c.begin(&fx, 40, 40, [0.5, 0.5, 0.5, 1.0]).unwrap();
    c.upload(&fx, 0, &solid(4, 4, [255, 255, 255, 255]));
    c.draw(&mut fx, 0, &Quad::full(40, 40), 0.5, BlendMode::NORMAL, &[]).unwrap();
    // Multiply with red over that: (0.75, 0.75, 0.75) × (1, 0, 0).
    c.upload(&fx, 1, &solid(4, 4, RED));
    c.draw(
        &mut fx,
        1,
        &Quad { center_x: 10.0, center_y: 20.0, width: 20.0, height: 40.0, rotation: 0.0, flip_x: false, flip_y: false },
        1.0,
        BlendMode::parse("multiply"),
        &[],
    )
    .unwrap();
    // Screen with blue on the right half: 1 − (1 − 0.75)(1 − b).
    c.upload(&fx, 2, &solid(4, 4, BLUE));
    c.draw(
        &mut fx,
        2,
        &Quad { center_x: 30.0, center_y: 20.0, width: 20.0, height: 40.0, rotation: 0.0, flip_x: false, flip_y: false },
        1.0,
        BlendMode::parse("screen"),
        &[],
    )
    .unwrap();
    c.finish(&mut fx).unwrap();
    let img = fx.read_output().unwrap();
    assert_px(&img, 5, 20, [191, 0, 0, 255]);
    assert_px(&img, 35, 20, [191, 191, 255, 255]);
    // An unknown mode draws as normal.
    assert_eq!(BlendMode::parse("sparkle"), BlendMode::NORMAL);

    // A left-red, right-blue image flipped across x shows blue on the left.
    let mut two = solid(2, 1, RED);
    two.pixels[4..8].copy_from_slice(&BLUE);
    c.begin(&fx, 40, 40, [0.0, 0.0, 0.0, 1.0]).unwrap();
    c.upload(&fx, 0, &two);
    c.draw(&mut fx, 0, &Quad { flip_x: true, ..Quad::full(40, 40) }, 1.0, BlendMode::NORMAL, &[]).unwrap();
    c.finish(&mut fx).unwrap();
    let img = fx.read_output().unwrap();
    assert_px(&img, 2, 20, BLUE);
    assert_px(&img, 37, 20, RED);
}

#[test]
fn clip_effects_touch_only_their_layer_and_transparent_pixels_show_the_backdrop() {
    let (mut fx, mut c) = setup();
    c.begin(&fx, 40, 20, [1.0, 0.0, 0.0, 1.0]).unwrap();
    // Left half: blue with a clip invert (→ yellow); right stays the red background.
    c.upload(&fx, 0, &solid(8, 8, BLUE));
    let half = Quad { center_x: 10.0, center_y: 10.0, width: 20.0, height: 20.0, rotation: 0.0, flip_x: false, flip_y: false };
    c.draw(&mut fx, 0, &half, 1.0, BlendMode::NORMAL, &effects(&[("invert", json!({"intensity": 100}))])).unwrap();
    // A fully transparent layer over everything changes nothing.
    c.upload(&fx, 1, &solid(8, 8, [0, 255, 0, 0]));
    c.draw(&mut fx, 1, &Quad::full(40, 20), 1.0, BlendMode::NORMAL, &[]).unwrap();
    c.finish(&mut fx).unwrap();
    let img = fx.read_output().unwrap();
    assert_px(&img, 5, 10, [255, 255, 0, 255]);
    assert_px(&img, 35, 10, RED);
    // Sizes the device refuses are errors.
    assert!(c.begin(&fx, 0, 10, [0.0; 4]).is_err());
}

#[test]
fn normal_layers_over_a_transparent_background_keep_straight_alpha() {
    // A transparent background takes the full-screen path (the fixed-function "over" is exact
    // only over opaque pixels): straight-alpha results, as Canvas2D gives them.
    let (mut fx, mut c) = setup();
    c.begin(&fx, 20, 20, [0.0, 0.0, 0.0, 0.0]).unwrap();
    c.upload(&fx, 0, &solid(4, 4, RED));
    c.draw(&mut fx, 0, &Quad::full(20, 20), 0.5, BlendMode::NORMAL, &[]).unwrap();
    // Half-opaque blue over the left half: ao = 0.5 + 0.5·0.5 = 0.75,
    // co = (0.5·blue + 0.5·0.5·red) / 0.75 = (1/3, 0, 2/3).
    c.upload(&fx, 1, &solid(4, 4, BLUE));
    c.draw(
        &mut fx,
        1,
        &Quad { center_x: 5.0, center_y: 10.0, width: 10.0, height: 20.0, rotation: 0.0, flip_x: false, flip_y: false },
        0.5,
        BlendMode::NORMAL,
        &[],
    )
    .unwrap();
    c.finish(&mut fx).unwrap();
    let img = fx.read_output().unwrap();
    assert_px(&img, 15, 10, [255, 0, 0, 128]);
    assert_px(&img, 3, 10, [85, 0, 170, 191]);
}

#[test]
fn a_quad_covers_exactly_the_pixels_whose_centres_it_holds() {
    // The "over" quad and the full-screen pass must agree on which pixels a layer covers: a
    // 10.6 × 6-pixel layer at (10.25, 10) spans x 4.95..15.55 and y 7..13: columns 5..=15 and rows
    // 7..=12 (no pixel centre on an edge, where the two could break the tie differently).
    let (mut fx, mut c) = setup();
    for background in [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 0.999]] {
        c.begin(&fx, 24, 20, background).unwrap();
        c.upload(&fx, 0, &solid(2, 2, [255, 255, 255, 255]));
        c.draw(
            &mut fx,
            0,
            &Quad { center_x: 10.25, center_y: 10.0, width: 10.6, height: 6.0, rotation: 0.0, flip_x: false, flip_y: false },
            1.0,
            BlendMode::NORMAL,
            &[],
        )
        .unwrap();
        c.finish(&mut fx).unwrap();
        let img = fx.read_output().unwrap();
        let covered: Vec<(u32, u32)> = (0..20).flat_map(|y| (0..24).map(move |x| (x, y))).filter(|&(x, y)| px(&img, x, y)[0] > 128).collect();
        let want: Vec<(u32, u32)> = (7..13).flat_map(|y| (5..16).map(move |x| (x, y))).collect();
        assert_eq!(covered, want, "background alpha {}", background[3]);
    }
}
