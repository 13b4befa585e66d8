//! One stable sort for the engine. Each `sort_by_key` on a new element type monomorphises the
//! standard library's driftsort (several KB of wasm each; six of them were 16 KB raw of the
//! engine, docs/package.md). Sorting `(key, index)` pairs instead shares one instantiation: the
//! index makes every pair distinct, so an unstable sort of the pairs is exactly the stable order.

/// Sorts `v` by `key`, keeping equal keys in their order (as `slice::sort_by_key`). Only the
/// key extraction and the swaps below are generic; the sort itself is `positions`.
pub fn stable_sort_by_key<T>(v: &mut [T], key: impl Fn(&T) -> i64) {
    let mut pos = positions(v.iter().map(key).collect());
    // Each swap puts one element at its final place: O(n) swaps.
    for i in 0..v.len() {
        while pos[i] != i {
            let to = pos[i];
            v.swap(i, to);
            pos.swap(i, to);
        }
    }
}

/// Where each element goes in the stably sorted order.
#[inline(never)]
fn positions(keys: Vec<i64>) -> Vec<usize> {
    let mut order: Vec<(i64, usize)> = keys.into_iter().zip(0..).collect();
    order.sort_unstable();
    let mut pos = vec![0; order.len()];
    for (to, &(_, from)) in order.iter().enumerate() {
        pos[from] = to;
    }
    pos
}

/// A key that orders floats as `f64::total_cmp` does.
pub fn total_order_key(x: f64) -> i64 {
    let bits = x.to_bits() as i64;
    bits ^ ((((bits >> 63) as u64) >> 1) as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_standard_stable_sort() {
        let items: Vec<(i64, u32)> = (0..200u32).map(|i| (((i * 7919) % 13) as i64 - 6, i)).collect();
        let (mut ours, mut std) = (items.clone(), items);
        stable_sort_by_key(&mut ours, |p| p.0);
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std);
    }

    #[test]
    fn float_key_orders_as_total_cmp() {
        let mut xs = vec![3.5, -0.0, 0.0, -2.0, f64::INFINITY, -f64::INFINITY, 1e-300, -1e-300, 2.0];
        let mut ys = xs.clone();
        stable_sort_by_key(&mut xs, |x| total_order_key(*x));
        ys.sort_by(|a, b| a.total_cmp(b));
        assert_eq!(xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>(), ys.iter().map(|x| x.to_bits()).collect::<Vec<_>>());
    }
}
