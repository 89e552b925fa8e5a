//! Fuzzes the `skb.lock` reader, `skills_core::lock::Lock::parse`: any input
//! must be refused or give a lock that the writer writes back in its one
//! layout, which parses to the same lock (skills sorted and unique, files
//! sorted, every path a normal relative one).

#![no_main]

use libfuzzer_sys::fuzz_target;
use skills_core::lock::Lock;

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    let Ok(lock) = Lock::parse(text) else {
        return;
    };
    let written = lock.to_json();
    assert_eq!(Lock::parse(&written).as_ref(), Ok(&lock), "{written}");
    assert!(lock.skills.windows(2).all(|w| w[0].name < w[1].name));
    for s in &lock.skills {
        assert!(s.files.windows(2).all(|w| w[0].path <= w[1].path));
        assert!(s.files.iter().all(|f| skills_core::path::is_normal(&f.path)));
    }
});
