//! Four `f32` lanes: `v128` with wasm SIMD, an array elsewhere (the native tests run that one).
//! Every operation is the IEEE per-lane operation the scalar code does (no fused multiply-add,
//! the same clamp, truncation and square root), so both give the same bits. Written by hand
//! because the effects module is built size-optimised, where LLVM vectorised none of these loops
//! (no `f32x4` instruction in the module before this type existed; docs/effects.md).

use std::ops::{Add, Div, Mul, Sub};

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use std::arch::wasm32::*;

    #[derive(Clone, Copy)]
    pub struct F4(pub v128);

    /// Lanes holding whole numbers in `[0, 2^23)` as `i32` lanes. Adding 2^23 puts the number
    /// in the mantissa's low bits and the exponent above them, which the xor clears: two
    /// instructions, where `i32x4_trunc_sat_f32x4` is about eight on x86 (its NaN and
    /// saturation handling).
    #[inline(always)]
    fn whole_to_i32(v: F4) -> v128 {
        const TWO_23: f32 = 8_388_608.0;
        v128_xor(f32x4_add(v.0, f32x4_splat(TWO_23)), u32x4_splat(TWO_23.to_bits()))
    }

    impl F4 {
        #[inline(always)]
        pub fn splat(v: f32) -> F4 {
            F4(f32x4_splat(v))
        }
        #[inline(always)]
        pub fn new(v: [f32; 4]) -> F4 {
            F4(f32x4(v[0], v[1], v[2], v[3]))
        }
        #[inline(always)]
        pub fn load(s: &[f32]) -> F4 {
            let s: &[f32; 4] = s[..4].try_into().unwrap();
            // SAFETY: 16 readable bytes; v128_load takes any alignment.
            F4(unsafe { v128_load(s.as_ptr() as *const v128) })
        }
        #[inline(always)]
        pub fn store(self, s: &mut [f32]) {
            let s: &mut [f32; 4] = (&mut s[..4]).try_into().unwrap();
            // SAFETY: 16 writable bytes.
            unsafe { v128_store(s.as_mut_ptr() as *mut v128, self.0) }
        }
        #[inline(always)]
        pub fn from_u8(p: [u8; 4]) -> F4 {
            let v = u32x4_splat(u32::from_le_bytes(p));
            let wide = u16x8_extend_low_u8x16(v);
            // The signed conversion is one instruction on x86 (the unsigned one is several),
            // and exact for 0–255.
            F4(f32x4_convert_i32x4(u32x4_extend_low_u16x8(wide)))
        }
        /// Lanes clamped to `[lo, hi]` as `f32::clamp` does (NaN stays NaN).
        #[inline(always)]
        pub fn clamp(self, lo: f32, hi: f32) -> F4 {
            F4(f32x4_pmin(f32x4_pmax(self.0, f32x4_splat(lo)), f32x4_splat(hi)))
        }
        /// Each lane rounded towards zero, for lanes in `[0, 2^23)` (every caller's range).
        /// One `roundps` on x86, where the round trip through `i32` took about nine
        /// instructions.
        #[inline(always)]
        pub fn trunc(self) -> F4 {
            F4(f32x4_trunc(self.0))
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            F4(f32x4_sqrt(self.0))
        }
        /// `v as u8` per lane for values already in `[0, 256)`.
        #[inline(always)]
        pub fn to_u8(self) -> [u8; 4] {
            let i = whole_to_i32(self.trunc());
            u32x4_extract_lane::<0>(i8x16_shuffle::<0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0>(i, i)).to_le_bytes()
        }
        /// Four RGBA8 pixels → their R, G and B values (0–255) as lanes.
        #[inline(always)]
        pub fn rgb(px: &[u8; 16]) -> (F4, F4, F4) {
            // SAFETY: 16 readable bytes; v128_load takes any alignment.
            let v = unsafe { v128_load(px.as_ptr() as *const v128) };
            let m = u32x4_splat(0xff);
            let c = |v: v128| F4(f32x4_convert_i32x4(v128_and(v, m)));
            (c(v), c(u32x4_shr(v, 8)), c(u32x4_shr(v, 16)))
        }
        /// Writes lanes of whole numbers 0–255 as the R, G and B bytes of four pixels, keeping
        /// their alpha.
        #[inline(always)]
        pub fn store_rgb(r: F4, g: F4, b: F4, px: &mut [u8; 16]) {
            // SAFETY: 16 readable and writable bytes.
            unsafe {
                let old = v128_load(px.as_ptr() as *const v128);
                let i = |v: F4| whole_to_i32(v);
                let rgb = v128_or(i(r), v128_or(i32x4_shl(i(g), 8), i32x4_shl(i(b), 16)));
                let out = v128_or(rgb, v128_and(old, u32x4_splat(0xff00_0000)));
                v128_store(px.as_mut_ptr() as *mut v128, out);
            }
        }
        #[inline(always)]
        pub fn add(self, o: F4) -> F4 {
            F4(f32x4_add(self.0, o.0))
        }
        #[inline(always)]
        pub fn sub(self, o: F4) -> F4 {
            F4(f32x4_sub(self.0, o.0))
        }
        #[inline(always)]
        pub fn mul(self, o: F4) -> F4 {
            F4(f32x4_mul(self.0, o.0))
        }
        #[inline(always)]
        pub fn div(self, o: F4) -> F4 {
            F4(f32x4_div(self.0, o.0))
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    #[derive(Clone, Copy)]
    pub struct F4(pub [f32; 4]);

    impl F4 {
        #[inline(always)]
        pub fn splat(v: f32) -> F4 {
            F4([v; 4])
        }
        #[inline(always)]
        pub fn new(v: [f32; 4]) -> F4 {
            F4(v)
        }
        #[inline(always)]
        pub fn load(s: &[f32]) -> F4 {
            F4(s[..4].try_into().unwrap())
        }
        #[inline(always)]
        pub fn store(self, s: &mut [f32]) {
            s[..4].copy_from_slice(&self.0);
        }
        #[inline(always)]
        pub fn from_u8(p: [u8; 4]) -> F4 {
            F4(p.map(|v| v as f32))
        }
        #[inline(always)]
        pub fn clamp(self, lo: f32, hi: f32) -> F4 {
            F4(self.0.map(|v| v.clamp(lo, hi)))
        }
        #[inline(always)]
        pub fn trunc(self) -> F4 {
            F4(self.0.map(f32::trunc))
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            F4(self.0.map(f32::sqrt))
        }
        #[inline(always)]
        pub fn to_u8(self) -> [u8; 4] {
            self.0.map(|v| v as u8)
        }
        #[inline(always)]
        pub fn rgb(px: &[u8; 16]) -> (F4, F4, F4) {
            let c = |k: usize| F4([px[k] as f32, px[4 + k] as f32, px[8 + k] as f32, px[12 + k] as f32]);
            (c(0), c(1), c(2))
        }
        #[inline(always)]
        pub fn store_rgb(r: F4, g: F4, b: F4, px: &mut [u8; 16]) {
            for i in 0..4 {
                px[i * 4] = r.0[i] as u8;
                px[i * 4 + 1] = g.0[i] as u8;
                px[i * 4 + 2] = b.0[i] as u8;
            }
        }
        #[inline(always)]
        pub fn add(self, o: F4) -> F4 {
            F4([self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2], self.0[3] + o.0[3]])
        }
        #[inline(always)]
        pub fn sub(self, o: F4) -> F4 {
            F4([self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2], self.0[3] - o.0[3]])
        }
        #[inline(always)]
        pub fn mul(self, o: F4) -> F4 {
            F4([self.0[0] * o.0[0], self.0[1] * o.0[1], self.0[2] * o.0[2], self.0[3] * o.0[3]])
        }
        #[inline(always)]
        pub fn div(self, o: F4) -> F4 {
            F4([self.0[0] / o.0[0], self.0[1] / o.0[1], self.0[2] / o.0[2], self.0[3] / o.0[3]])
        }
    }
}

pub use imp::F4;

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, o: F4) -> F4 {
        F4::add(self, o)
    }
}

impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, o: F4) -> F4 {
        F4::sub(self, o)
    }
}

impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, o: F4) -> F4 {
        F4::mul(self, o)
    }
}

impl Div for F4 {
    type Output = F4;
    #[inline(always)]
    fn div(self, o: F4) -> F4 {
        F4::div(self, o)
    }
}

impl Add<f32> for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, o: f32) -> F4 {
        F4::add(self, F4::splat(o))
    }
}

impl Sub<f32> for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, o: f32) -> F4 {
        F4::sub(self, F4::splat(o))
    }
}

impl Mul<f32> for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, o: f32) -> F4 {
        F4::mul(self, F4::splat(o))
    }
}

impl Div<f32> for F4 {
    type Output = F4;
    #[inline(always)]
    fn div(self, o: f32) -> F4 {
        F4::div(self, F4::splat(o))
    }
}

impl Sub<F4> for f32 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, o: F4) -> F4 {
        F4::sub(F4::splat(self), o)
    }
}

impl Mul<F4> for f32 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, o: F4) -> F4 {
        F4::mul(F4::splat(self), o)
    }
}
