//! One stable sort for the engine. Each `sort_by_key` on a new element type monomorphises the
//! standard library's driftsort (several KB of wasm each; six of them were 16 KB raw of the
//! engine, docs/package.md). Sorting `(key, index)` pairs instead shares one instantiation: the
//! index makes every pair distinct, so an unstable sort of the pairs is exactly the stable order.
//! The engine's other sorts go through the same instantiation (`sort_keys`, `sort_pairs`), or
//! through `small_sort` when they only order a short list on an error path.

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
fn positions(keys: Vec<i64>) -> Vec<usize> {
    let mut order: Vec<(i64, usize)> = keys.into_iter().zip(0..).collect();
    sort_pairs(&mut order);
    let mut pos = vec![0; order.len()];
    for (to, &(_, from)) in order.iter().enumerate() {
        pos[from] = to;
    }
    pos
}

/// `v.sort_unstable()`: the engine's only instantiation of the standard library's unstable sort.
#[inline(never)]
pub fn sort_pairs(v: &mut [(i64, usize)]) {
    v.sort_unstable();
}

/// `v.sort_unstable()` for plain keys, through `sort_pairs` (equal keys are indistinguishable,
/// so the order is the same).
pub fn sort_keys(v: &mut [i64]) {
    let mut pairs: Vec<(i64, usize)> = v.iter().map(|&k| (k, 0)).collect();
    sort_pairs(&mut pairs);
    for (slot, (k, _)) in v.iter_mut().zip(pairs) {
        *slot = k;
    }
}

/// `v.sort_unstable()` by insertion, for the short lists of error messages: a few bytes of code
/// where the standard sort would add kilobytes for each element type.
pub fn small_sort<T: Ord>(v: &mut [T]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
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
    fn key_pair_and_small_sorts_match_sort_unstable() {
        let keys: Vec<i64> = (0..300i64).map(|i| (i * 7919) % 97 - 40).collect();
        let (mut ours, mut std) = (keys.clone(), keys.clone());
        sort_keys(&mut ours);
        std.sort_unstable();
        assert_eq!(ours, std);
        let mut pairs: Vec<(i64, usize)> = keys.iter().map(|&k| (k % 7, (k.unsigned_abs() % 5) as usize)).collect();
        let mut std = pairs.clone();
        sort_pairs(&mut pairs);
        std.sort();
        assert_eq!(pairs, std);
        let mut words = vec!["volume", "elementId", "time", "muted", "b", "a", "elementId", "Z", ""];
        let mut std = words.clone();
        small_sort(&mut words);
        std.sort_unstable();
        assert_eq!(words, std);
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
