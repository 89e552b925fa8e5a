//! A product's name and the name its vendor registered: `acmectl` is the
//! command line of `acme`, `d2lang.com` the site of `d2`. Vendors name
//! their tools and domains after the product with a few standard endings;
//! a name and a domain label that differ by one of them are the same
//! vendor's.

/// Endings vendors add to a product's name for its tool or its domain.
const ENDINGS: [&str; 12] = [
    "ctl", "cli", "sdk", "lang", "hq", "app", "api", "cloud", "labs", "js", "py", "io",
];

/// Whether `label` (a domain's registered label) and `name` (a product
/// name the skill declares) are one vendor's: equal, or one is the other
/// with one of [`ENDINGS`], the shorter at least three letters.
pub(crate) fn same_vendor(label: &str, name: &str) -> bool {
    let (short, long) = if label.len() <= name.len() {
        (label, name)
    } else {
        (name, label)
    };
    short.len() >= 3
        && long
            .strip_prefix(short)
            .is_some_and(|ending| ending.is_empty() || ENDINGS.contains(&ending))
}

#[cfg(test)]
mod tests {
    use super::same_vendor;

    #[test]
    fn a_product_and_its_vendors_domain() {
        assert!(same_vendor("acme", "acmectl"));
        assert!(same_vendor("terraformcloud", "terraform"));
        assert!(same_vendor("acme", "acme"));
        assert!(!same_vendor("acme", "acmecorp2"));
        assert!(!same_vendor("evil", "evilhost"));
        assert!(!same_vendor("io", "ioctl"));
        assert!(!same_vendor("setup", "scripts"));
    }
}
