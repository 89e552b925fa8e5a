//! The pack fixtures of the `skills_bundle!(pack = ...)` UI cases
//! (`tests/ui-tests/ui/packs/`, driven by the `skills-ui-tests` crate) are what
//! `skb pack` makes of `tests/ui-tests/ui/skills/valid` today.

use skills_tests::{tempdir, workspace};

use crate::skills;

/// The pack fixtures are what `skb pack` makes of `ui/skills/valid` today,
/// signed by `test.pub`, and the tampered copy differs from it in one byte.
#[test]
fn fixtures_match_a_fresh_pack() {
    let ui = workspace().join("tests/ui-tests/ui");
    let dir = tempdir();
    let fresh = dir.path().join("fresh.skillpack");
    let out = skills()
        .arg("pack")
        .arg(ui.join("skills/valid"))
        .arg("-o")
        .arg(&fresh)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fixture = std::fs::read(ui.join("packs/greeter.skillpack")).unwrap();
    assert!(
        std::fs::read(&fresh).unwrap() == fixture,
        "tests/ui-tests/ui/packs/greeter.skillpack is stale: regenerate it (tests/ui-tests/ui/packs/README.md)"
    );
    let key = std::fs::read_to_string(ui.join("packs/test.pub")).unwrap();
    let sig = std::fs::read_to_string(ui.join("packs/greeter.skillpack.minisig")).unwrap();
    skills_bundle::pack::signature::verify(&fixture, &key, Some(&sig)).unwrap();
    let tampered = std::fs::read(ui.join("packs/tampered.skillpack")).unwrap();
    assert_eq!(tampered.len(), fixture.len());
    let differing = fixture
        .iter()
        .zip(&tampered)
        .filter(|(a, b)| a != b)
        .count();
    assert_eq!(differing, 1);
}
