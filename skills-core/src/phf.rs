//! Perfect-hash tables: a skill by name, a file by path, in one probe.
//!
//! `skills_bundle!` builds these tables at compile time and emits them as
//! plain statics (a seed, one pilot per bucket, one index per slot); a pack
//! loaded at run time builds the same ones from its manifest. A lookup
//! hashes the key once with a seeded hash made for short strings (a few
//! 64-bit multiplies, where SipHash runs rounds over every 8 bytes), takes
//! the key's bucket, that bucket's pilot, and from the two one slot; the
//! slot holds the index of the only key that can match, and the caller
//! compares that one key. The builder is deterministic: the same keys give
//! the same tables on every machine (the hash reads bytes little-endian and
//! uses no platform-sized arithmetic), so a build is reproducible.
//!
//! Keys are not secret and need not be: the builder, not the input, picks
//! the seed, and a key that is not in the table costs one comparison like
//! any other. Keys that collide under one seed make the builder try the
//! next; keys that defeat every seed it tries make it return `None`, and the
//! caller keeps its keys sorted and binary-searches them instead.

/// Keys per bucket, on average: fewer pilots to store against longer
/// searches for the last buckets' pilots.
const KEYS_PER_BUCKET: usize = 3;

/// Seeds the builder tries before it gives up.
const SEEDS: u32 = 16;

/// The first seed; the next ones follow from it by [`next_seed`].
const FIRST_SEED: u64 = 0x5eed_5eed_5eed_5eed;

/// Slot value of an empty slot.
const EMPTY: u32 = u32::MAX;

const K0: u64 = 0xa076_1d64_78bd_642f;
const K1: u64 = 0xe703_7ed1_a0b4_28db;
const K2: u64 = 0x8ebc_6af0_9c88_c6e3;
const K3: u64 = 0x5899_65cc_7537_4cc3;

/// The full 128-bit product of `a` and `b`, its halves xored: the mixing
/// step of the hash.
fn fold(a: u64, b: u64) -> u64 {
    let product = u128::from(a) * u128::from(b);
    (product as u64) ^ ((product >> 64) as u64)
}

/// The 8 bytes of `bytes` from `at`, little-endian; 0 past the end (the
/// callers never read there).
fn word(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .and_then(<[u8]>::first_chunk::<8>)
        .map_or(0, |w| u64::from_le_bytes(*w))
}

/// The 4 bytes of `bytes` from `at`, little-endian; 0 past the end.
fn half(bytes: &[u8], at: usize) -> u64 {
    bytes
        .get(at..)
        .and_then(<[u8]>::first_chunk::<4>)
        .map_or(0, |w| u64::from(u32::from_le_bytes(*w)))
}

/// The seeded 64-bit hash of `key`: 16 bytes per multiply, the last 16
/// (overlapping) read as two words, the length mixed in last.
pub fn hash(seed: u64, key: &[u8]) -> u64 {
    let len = key.len();
    let s1 = seed ^ K1;
    let mut s = seed ^ K0;
    let (a, b) = if len <= 16 {
        if len >= 8 {
            (word(key, 0), word(key, len - 8))
        } else if len >= 4 {
            (half(key, 0), half(key, len - 4))
        } else if let (Some(&first), Some(&last)) = (key.first(), key.last()) {
            let middle = key.get(len / 2).copied().unwrap_or(0);
            (
                u64::from(first) << 16 | u64::from(middle) << 8 | u64::from(last),
                0,
            )
        } else {
            (0, 0)
        }
    } else {
        let mut at = 0;
        while len - at > 16 {
            s = fold(word(key, at) ^ s1, word(key, at + 8) ^ s);
            at += 16;
        }
        (word(key, len - 16), word(key, len - 8))
    };
    fold(fold(a ^ s1, b ^ s) ^ K2 ^ len as u64, K3)
}

/// `x` scaled from `0..2^32` onto `0..n` (no division).
fn scale32(x: u64, n: usize) -> usize {
    (((x & 0xffff_ffff) * n as u64) >> 32) as usize
}

/// `x` scaled from `0..2^64` onto `0..n` (no division).
fn scale64(x: u64, n: usize) -> usize {
    ((u128::from(x) * n as u128) >> 64) as usize
}

/// The bucket of a key's hash: from its high half.
fn bucket(h: u64, buckets: usize) -> usize {
    scale32(h >> 32, buckets)
}

/// The slot of a key's hash under a pilot: the whole hash, moved by the
/// pilot and mixed again, so keys of one bucket land independently.
fn slot(h: u64, pilot: u16, slots: usize) -> usize {
    let moved = h ^ u64::from(pilot).wrapping_mul(K0);
    scale64(fold(moved, K1), slots)
}

fn next_seed(seed: u64) -> u64 {
    fold(seed ^ K2, K0)
}

/// A table to look keys up in: borrowed from statics or from a loaded
/// pack's tables.
#[derive(Debug, Clone, Copy)]
pub struct Map<'a> {
    /// The seed of [`hash`].
    pub seed: u64,
    /// One pilot per bucket.
    pub pilots: &'a [u16],
    /// One key index per slot, `u32::MAX` when empty.
    pub slots: &'a [u32],
}

impl Map<'_> {
    /// The index of `key`, given `key_at(i)`, the key at index `i`: one hash,
    /// one probe, one comparison.
    pub fn get<'k>(&self, key: &str, key_at: impl Fn(u32) -> Option<&'k str>) -> Option<u32> {
        if self.pilots.is_empty() {
            return None;
        }
        let h = hash(self.seed, key.as_bytes());
        let pilot = *self.pilots.get(bucket(h, self.pilots.len()))?;
        let index = *self.slots.get(slot(h, pilot, self.slots.len()))?;
        (index != EMPTY && key_at(index)? == key).then_some(index)
    }
}

/// Tables built for a list of keys; the index of a key is its position in
/// the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    /// The seed of [`hash`].
    pub seed: u64,
    /// One pilot per bucket.
    pub pilots: Vec<u16>,
    /// One key index per slot, `u32::MAX` when empty.
    pub slots: Vec<u32>,
}

impl Tables {
    /// The tables as a [`Map`].
    pub fn map(&self) -> Map<'_> {
        Map {
            seed: self.seed,
            pilots: &self.pilots,
            slots: &self.slots,
        }
    }
}

/// Builds the tables of `keys`, or `None` when two keys are equal, there are
/// `u32::MAX` keys or more, or no seed tried separates them. Deterministic.
pub fn build(keys: &[&str]) -> Option<Tables> {
    if u32::try_from(keys.len()).ok()? == EMPTY {
        return None;
    }
    let mut sorted = keys.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    if keys.is_empty() {
        return Some(Tables {
            seed: FIRST_SEED,
            pilots: Vec::new(),
            slots: Vec::new(),
        });
    }
    let mut seed = FIRST_SEED;
    for _ in 0..SEEDS {
        if let Some(tables) = build_with(keys, seed) {
            return Some(tables);
        }
        seed = next_seed(seed);
    }
    None
}

/// One attempt with one seed.
fn build_with(keys: &[&str], seed: u64) -> Option<Tables> {
    let n = keys.len();
    let buckets = n.div_ceil(KEYS_PER_BUCKET);
    let slots = n + n / 32 + 1;
    let hashes: Vec<u64> = keys.iter().map(|k| hash(seed, k.as_bytes())).collect();
    // Two keys with one hash land together under every pilot.
    let mut sorted = hashes.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    // Keys grouped by bucket (a counting sort): bucket b's keys are
    // members[start[b]..start[b + 1]].
    let mut start = vec![0usize; buckets + 1];
    for &h in &hashes {
        start[bucket(h, buckets) + 1] += 1;
    }
    for b in 0..buckets {
        start[b + 1] += start[b];
    }
    let mut fill = start.clone();
    let mut members = vec![0u32; n];
    for (i, &h) in hashes.iter().enumerate() {
        let b = bucket(h, buckets);
        members[fill[b]] = i as u32;
        fill[b] += 1;
    }
    // Largest buckets first, while most slots are free.
    let mut order: Vec<usize> = (0..buckets).collect();
    order.sort_by_key(|&b| (std::cmp::Reverse(start[b + 1] - start[b]), b));
    let mut table = vec![EMPTY; slots];
    let mut pilots = vec![0u16; buckets];
    let mut taken = Vec::new();
    for b in order {
        let keys_of = &members[start[b]..start[b + 1]];
        if keys_of.is_empty() {
            break;
        }
        let placed = (0..=u16::MAX).find(|&pilot| {
            taken.clear();
            keys_of.iter().all(|&i| {
                let s = slot(hashes[i as usize], pilot, slots);
                let free = table[s] == EMPTY && !taken.contains(&s);
                taken.push(s);
                free
            })
        })?;
        pilots[b] = placed;
        for &i in keys_of {
            table[slot(hashes[i as usize], placed, slots)] = i;
        }
    }
    Some(Tables {
        seed,
        pilots,
        slots: table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lookup(tables: &Tables, keys: &[&str], key: &str) -> Option<u32> {
        tables.map().get(key, |i| keys.get(i as usize).copied())
    }

    #[test]
    fn every_key_is_found_at_its_index_and_others_are_not() {
        let keys: Vec<String> = (0..2000).map(|i| format!("skill-{i}/SKILL.md")).collect();
        let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
        let tables = build(&keys).expect("builds");
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(lookup(&tables, &keys, key), Some(i as u32), "{key}");
        }
        for missing in ["", "skill-2000/SKILL.md", "skill-1/skill.md", "x"] {
            assert_eq!(lookup(&tables, &keys, missing), None, "{missing}");
        }
        assert_eq!(tables.pilots.len(), 667);
        assert_eq!(tables.slots.len(), 2063);
    }

    #[test]
    fn building_twice_gives_the_same_tables() {
        let keys = [
            "calculator",
            "csv-insights",
            "git-workflow",
            "review:lint",
            "a",
        ];
        let first = build(&keys).expect("builds");
        let second = build(&keys).expect("builds");
        assert_eq!(first, second);
    }

    /// Pinned values: a change here changes every generated table, and a
    /// machine that computed otherwise would build different binaries.
    #[test]
    fn the_hash_is_the_same_on_every_machine() {
        let cases: [(&[u8], u64); 6] = [
            (b"", 0xb068_635a_9323_0a49),
            (b"a", 0x30bc_90d0_86a0_675d),
            (b"calc", 0x28e9_7aac_5e68_1869),
            (b"SKILL.md", 0x3c01_0463_1ad7_a0c5),
            (b"scripts/check-commit-msg.py", 0x1948_b6dd_69ab_6777),
            (
                b"javascript-typescript:typescript-advanced-types",
                0x60e5_e2d1_29af_e0cf,
            ),
        ];
        let got: Vec<(String, String)> = cases
            .iter()
            .map(|(key, _)| {
                (
                    String::from_utf8_lossy(key).into_owned(),
                    format!("{:#018x}", hash(FIRST_SEED, key)),
                )
            })
            .collect();
        let want: Vec<(String, String)> = cases
            .iter()
            .map(|(key, h)| {
                (
                    String::from_utf8_lossy(key).into_owned(),
                    format!("{h:#018x}"),
                )
            })
            .collect();
        assert_eq!(got, want);
        let keys = ["calculator", "csv-insights", "git-workflow"];
        let tables = build(&keys).expect("builds");
        assert_eq!(tables.seed, FIRST_SEED);
        assert_eq!(tables.pilots.len(), 1);
        assert_eq!(tables.slots.len(), 4);
    }

    #[test]
    fn equal_keys_and_empty_lists() {
        assert_eq!(build(&["a", "b", "a"]), None);
        let empty = build(&[]).expect("builds");
        assert_eq!(lookup(&empty, &[], "a"), None);
        assert_eq!(lookup(&empty, &[], ""), None);
        let one = build(&[""]).expect("builds");
        assert_eq!(lookup(&one, &[""], ""), Some(0));
        assert_eq!(lookup(&one, &[""], "a"), None);
    }

    /// A map whose `key_at` knows fewer keys than the slots name, or whose
    /// slots point past them, answers `None`, never panics.
    #[test]
    fn inconsistent_tables_answer_none() {
        let tables = build(&["a", "b", "c", "d"]).expect("builds");
        assert_eq!(tables.map().get("a", |_| None), None);
        let broken = Map {
            seed: 1,
            pilots: &[0, 7],
            slots: &[],
        };
        assert_eq!(broken.get("a", |_| Some("a")), None);
    }

    proptest! {
        #[test]
        fn any_distinct_keys_are_each_found(keys in proptest::collection::btree_set(".{0,40}", 0..300)) {
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let tables = build(&keys).expect("distinct keys build");
            prop_assert_eq!(&build(&keys).expect("builds"), &tables);
            for (i, key) in keys.iter().enumerate() {
                prop_assert_eq!(lookup(&tables, &keys, key), Some(i as u32));
            }
            prop_assert_eq!(lookup(&tables, &keys, "\u{0}not a key"), None);
        }
    }
}
