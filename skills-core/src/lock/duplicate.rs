//! Finding a repeated key among an object's members in `O(n log n)`
//! comparisons: a lock's `files` and `skills` hold up to hundreds of
//! thousands of members, and comparing every pair took 49 s to read a lock
//! with 100,000 files.

/// Objects this small are checked pair by pair (no allocation).
const SMALL: usize = 16;

/// The first item, in order, whose key an earlier item has.
pub(super) fn first_duplicate<T, K: Ord + ?Sized>(
    items: &[T],
    key: impl Fn(&T) -> &K,
) -> Option<&T> {
    if items.len() <= SMALL {
        return items
            .iter()
            .enumerate()
            .find(|(i, item)| items.iter().take(*i).any(|before| key(before) == key(item)))
            .map(|(_, item)| item);
    }
    // The lock is written with its keys sorted: no sort needed then.
    if items.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        return None;
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    // Stable: within a run of equal keys the indices stay in order, so the
    // second of each run is that key's first repeat.
    order.sort_by(|&a, &b| key(&items[a]).cmp(key(&items[b])));
    order
        .windows(2)
        .filter(|w| key(&items[w[0]]) == key(&items[w[1]]))
        .map(|w| w[1])
        .min()
        .map(|i| &items[i])
}

#[cfg(test)]
mod tests {
    use super::first_duplicate;
    use std::cell::Cell;
    use std::cmp::Ordering;

    #[test]
    fn the_first_repeat_in_order_is_found_small_or_large() {
        for n in [3, super::SMALL, super::SMALL + 1, 1000] {
            let mut keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            assert_eq!(first_duplicate(&keys, |k| k.as_str()), None, "{n}");
            // Two repeats: the one whose second copy comes first is named,
            // though the other key's first copy is earlier.
            keys.push("k1".into());
            keys.push("k0".into());
            let at = first_duplicate(&keys, |k| k.as_str())
                .and_then(|k| keys.iter().position(|x| std::ptr::eq(x, k)));
            assert_eq!(at, Some(n), "{n}");
        }
    }

    thread_local! {
        static COMPARISONS: Cell<u64> = const { Cell::new(0) };
    }

    /// A key that counts every comparison made of it.
    #[derive(Debug)]
    struct Counted(u32);

    impl PartialEq for Counted {
        fn eq(&self, other: &Self) -> bool {
            COMPARISONS.set(COMPARISONS.get() + 1);
            self.0 == other.0
        }
    }
    impl Eq for Counted {}
    impl PartialOrd for Counted {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Counted {
        fn cmp(&self, other: &Self) -> Ordering {
            COMPARISONS.set(COMPARISONS.get() + 1);
            self.0.cmp(&other.0)
        }
    }

    /// The property that keeps the reader linear, counted rather than
    /// timed: for `n` distinct keys (none repeated: the whole check runs)
    /// at most `n (log2 n + 3)` key comparisons, where comparing every pair
    /// makes `n (n - 1) / 2` (8,386,560 for 4,096 keys, against a bound of
    /// 61,440).
    #[test]
    fn distinct_keys_cost_n_log_n_comparisons_not_n_squared() {
        for n in [64u32, 1024, 4096, 65_536] {
            // Shuffled (times an odd number, modulo a power of two: each
            // key once), so that no sort meets its best case.
            let keys: Vec<Counted> = (0..n)
                .map(|i| Counted(i.wrapping_mul(2_654_435_761) % n))
                .collect();
            COMPARISONS.set(0);
            assert!(first_duplicate(&keys, |k| k).is_none());
            let made = COMPARISONS.get();
            let log2 = u64::from(n.ilog2());
            let bound = u64::from(n) * (log2 + 3);
            assert!(made <= bound, "{n} keys: {made} comparisons, bound {bound}");
        }
    }
}
