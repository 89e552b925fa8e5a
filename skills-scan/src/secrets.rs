//! Credentials written into a skill: tokens in the formats their vendors
//! document (AWS, GitHub, GitLab, OpenAI, Anthropic, Slack, Discord, Stripe,
//! Google, npm, PyPI, SendGrid, Twilio, Telegram, Hugging Face), private key
//! blocks, and random-looking values assigned to variables named like
//! secrets.
//!
//! Skills are documentation, and documentation is full of `sk-...`,
//! `ghp_xxxxxxxx`, `your-api-key` and AWS's own example keys, so every match
//! must also look random: no placeholder words, no runs of one character or
//! of consecutive ones, enough entropy. Every pattern is a finite automaton
//! run once over the text; a match is checked in time linear in its length.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

/// What a secret was recognised by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SecretKind {
    /// A token in a vendor's documented format.
    Known,
    /// A PEM or OpenSSH private key block with a body.
    PrivateKey,
    /// A random-looking literal assigned to a secret-named variable.
    Assignment,
}

/// One secret found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SecretMatch {
    /// The secret's bytes in the text (the value, not the variable).
    pub(crate) range: Range<usize>,
    /// How it was recognised.
    pub(crate) kind: SecretKind,
    /// A human name for it ("AWS access key ID").
    pub(crate) what: &'static str,
}

/// What a known format's match must also satisfy.
#[derive(Clone, Copy)]
enum Check {
    /// Looks random (see [`looks_random`]).
    Random,
    /// Looks random and the word `twilio` is near.
    NearTwilio,
    /// Looks random and is not Anthropic's prefix (matched by its own pattern).
    NotAnthropic,
}

struct Known {
    re: Regex,
    what: &'static str,
    check: Check,
}

/// Vendor formats. Group 1, when present, is the token (the rest of the
/// match is context: a key name, or the character that ends the token).
const KNOWN: &[(&str, &str, Check)] = &[
    (
        r"\b((?:AKIA|ASIA)[A-Z2-7]{16})\b",
        "AWS access key ID",
        Check::Random,
    ),
    (
        r#"(?i)(?:aws[a-z_.-]{0,20}secret|secret_?access_?key)[a-z_]*["']?[ \t]*(?::=|=>|[:=])[ \t]*["']?([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)"#,
        "AWS secret access key",
        Check::Random,
    ),
    (
        r"\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,251})\b",
        "GitHub token",
        Check::Random,
    ),
    (
        r"\b(github_pat_[A-Za-z0-9_]{70,250})\b",
        "GitHub fine-grained personal access token",
        Check::Random,
    ),
    (
        r"\b(glpat-[A-Za-z0-9_-]{20,250})(?:[^A-Za-z0-9_-]|$)",
        "GitLab personal access token",
        Check::Random,
    ),
    (
        r"\b(sk-ant-[A-Za-z0-9_-]{32,250})(?:[^A-Za-z0-9_-]|$)",
        "Anthropic API key",
        Check::Random,
    ),
    (
        r"\b(sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{32,250})(?:[^A-Za-z0-9_-]|$)",
        "OpenAI API key",
        Check::NotAnthropic,
    ),
    (
        r"\b(xox[abprs]-[0-9]{6,20}-[0-9A-Za-z-]{16,250})\b",
        "Slack token",
        Check::Random,
    ),
    (
        r"(https://hooks\.slack\.com/services/T[A-Z0-9]{6,20}/B[A-Z0-9]{6,20}/[A-Za-z0-9]{20,40})\b",
        "Slack webhook URL",
        Check::Random,
    ),
    (
        r"(https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_-]{60,68})(?:[^A-Za-z0-9_-]|$)",
        "Discord webhook URL",
        Check::Random,
    ),
    (
        r"\b((?:sk|rk)_live_[A-Za-z0-9]{24,250})\b",
        "Stripe live secret key",
        Check::Random,
    ),
    (
        r"\b(AIza[0-9A-Za-z_-]{35})(?:[^0-9A-Za-z_-]|$)",
        "Google API key",
        Check::Random,
    ),
    (
        r"\b(npm_[A-Za-z0-9]{36})\b",
        "npm access token",
        Check::Random,
    ),
    (
        r"\b(pypi-AgE[A-Za-z0-9_-]{50,250})(?:[^A-Za-z0-9_-]|$)",
        "PyPI API token",
        Check::Random,
    ),
    (
        r"\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?:[^A-Za-z0-9_-]|$)",
        "SendGrid API key",
        Check::Random,
    ),
    (
        r"\b((?:SK|AC)[0-9a-f]{32})\b",
        "Twilio key",
        Check::NearTwilio,
    ),
    (
        r"\b([0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)",
        "Telegram bot token",
        Check::Random,
    ),
    (
        r"\b(hf_[A-Za-z0-9]{34,40})\b",
        "Hugging Face access token",
        Check::Random,
    ),
];

static KNOWN_RES: LazyLock<Vec<Known>> = LazyLock::new(|| {
    KNOWN
        .iter()
        .map(|&(re, what, check)| Known {
            re: crate::text::regex(re).expect("the secret patterns are valid"),
            what,
            check,
        })
        .collect()
});

/// The opening line of a private key, then optional armour headers
/// (`Proc-Type: …`), then a line of at least 40 base64 characters. Line
/// breaks may be real or escaped (`\n` in a JSON string).
static PRIVATE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r"-----BEGIN (?:(?:RSA|EC|DSA|OPENSSH|ENCRYPTED|PGP) )?PRIVATE KEY(?: BLOCK)?-----[ \t]*(?:\r?\n|\\n)(?:[A-Za-z-]{1,40}:[^\r\n\\]{0,200}(?:\r?\n|\\n))*(?:[ \t]*(?:\r?\n|\\n))?[ \t]*([A-Za-z0-9+/=]{40,})",
    )
    .expect("the private key pattern is valid")
});

static KEY_END: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r"-----END [A-Z ]{0,30}PRIVATE KEY(?: BLOCK)?-----")
        .expect("the private key end pattern is valid")
});

/// `name = value` in the ways env files, YAML, JSON, Python, JavaScript, Go,
/// Ruby and PHP write it; group 1 the name, 2 a quoted value, 3 a bare one.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r#"([A-Za-z0-9_.-]{0,40}(?i:token|secret|passw|pwd|api_?key|apikey|access_?key|private_?key|auth|credential)[A-Za-z0-9_.-]{0,40})["']?[ \t]*(?::=|=>|[:=])[ \t]*(?:["'`]([!#-&(-_a-~]{16,512})["'`]|([!#-&*-+\--:=?-Z^-_a-z|~]{16,512}))"#,
    )
    .expect("the assignment pattern is valid")
});

static TWILIO: LazyLock<Regex> =
    LazyLock::new(|| crate::text::regex(r"(?i)twilio").expect("the twilio pattern is valid"));

static JWT: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(r"^eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}$")
        .expect("the JWT pattern is valid")
});

/// How close (in bytes) the word `twilio` must be to a Twilio key.
const TWILIO_NEAR: usize = 300;

/// The secrets in `text`, in order, not overlapping. Where a vendor format
/// and an assignment cover the same value, the vendor format wins.
/// Every known format's fixed part, in one expression: most files hold
/// none, and one pass over them then replaces a pass per format.
static ANY_KNOWN: LazyLock<Regex> = LazyLock::new(|| {
    crate::text::regex(
        r"(?:AKIA|ASIA)[A-Z2-7]|gh[pousr]_|github_pat_|glpat-|\bsk-|xox[abprs]-|hooks\.slack\.com|discord(?:app)?\.com/api/webhooks|[sr]k_live_|AIza|\bnpm_|pypi-AgE|\bSG\.|\b(?:SK|AC)[0-9a-f]{32}|[0-9]:AA|\bhf_|(?i:aws[a-z_.-]{0,20}secret|secret_?access_?key)",
    )
    .expect("the known-format prefilter is valid")
});

pub(crate) fn find(text: &str) -> Vec<SecretMatch> {
    let mut found = Vec::new();
    if !ANY_KNOWN.is_match(text) {
        private_keys(text, &mut found);
        assignments(text, &mut found);
        return settle(found);
    }
    let twilio: Vec<usize> = if text.contains("SK") || text.contains("AC") {
        TWILIO.find_iter(text).map(|m| m.start()).collect()
    } else {
        Vec::new()
    };
    for known in KNOWN_RES.iter() {
        for caps in known.re.captures_iter(text) {
            let Some(m) = caps.get(1).or_else(|| caps.get(0)) else {
                continue;
            };
            let token = m.as_str();
            let ok = looks_random(token)
                && match known.check {
                    Check::Random => true,
                    Check::NotAnthropic => !token.starts_with("sk-ant-"),
                    Check::NearTwilio => near(&twilio, m.start(), m.end()),
                };
            if ok {
                found.push(SecretMatch {
                    range: m.range(),
                    kind: SecretKind::Known,
                    what: known.what,
                });
            }
        }
    }
    private_keys(text, &mut found);
    assignments(text, &mut found);
    settle(found)
}

/// Sorted, overlaps resolved (a vendor format wins over an assignment).
fn settle(mut found: Vec<SecretMatch>) -> Vec<SecretMatch> {
    found.sort_by_key(|m| (m.range.start, rank(m.kind), usize::MAX - m.range.end));
    let mut out: Vec<SecretMatch> = Vec::with_capacity(found.len());
    for m in found {
        if out
            .last()
            .is_none_or(|last| m.range.start >= last.range.end)
        {
            out.push(m);
        } else if let Some(last) = out.last_mut()
            && last.kind == SecretKind::Assignment
            && m.kind != SecretKind::Assignment
            && m.range.start < last.range.end
        {
            // A vendor format inside an assigned value names it better.
            *last = m;
        }
    }
    out
}

fn rank(kind: SecretKind) -> u8 {
    match kind {
        SecretKind::Known => 0,
        SecretKind::PrivateKey => 1,
        SecretKind::Assignment => 2,
    }
}

/// Whether one of the sorted `positions` is within [`TWILIO_NEAR`] of `start..end`.
fn near(positions: &[usize], start: usize, end: usize) -> bool {
    let from = start.saturating_sub(TWILIO_NEAR);
    let i = positions.partition_point(|&p| p < from);
    positions
        .get(i)
        .is_some_and(|&p| p <= end.saturating_add(TWILIO_NEAR))
}

fn private_keys(text: &str, found: &mut Vec<SecretMatch>) {
    if !text.contains("PRIVATE KEY") {
        return;
    }
    let ends: Vec<usize> = KEY_END.find_iter(text).map(|m| m.end()).collect();
    let mut from = 0;
    while let Some(caps) = PRIVATE_KEY.captures_at(text, from) {
        let (Some(all), Some(body)) = (caps.get(0), caps.get(1)) else {
            break;
        };
        let i = ends.partition_point(|&e| e <= body.end());
        let end = ends.get(i).copied().unwrap_or(body.end());
        // An OpenSSH key's first line is mostly its fixed header (3.98
        // bits a character); a placeholder body is far lower.
        if entropy(body.as_str()) >= 3.5 && !placeholder(body.as_str()) {
            found.push(SecretMatch {
                range: all.start()..end,
                kind: SecretKind::PrivateKey,
                what: private_key_name(all.as_str()),
            });
        }
        from = end.max(all.end());
    }
}

fn private_key_name(header: &str) -> &'static str {
    let names = [
        ("OPENSSH", "OpenSSH private key"),
        ("RSA", "RSA private key"),
        ("EC PRIVATE", "EC private key"),
        ("DSA", "DSA private key"),
        ("ENCRYPTED", "encrypted private key"),
        ("PGP", "PGP private key block"),
    ];
    let line = header.lines().next().unwrap_or(header);
    names
        .iter()
        .find(|(word, _)| line.contains(word))
        .map_or("private key", |(_, name)| name)
}

fn assignments(text: &str, found: &mut Vec<SecretMatch>) {
    for caps in ASSIGNMENT.captures_iter(text) {
        let (Some(name), Some(value)) = (caps.get(1), caps.get(2).or_else(|| caps.get(3))) else {
            continue;
        };
        if !secret_name(name.as_str()) {
            continue;
        }
        let v = value.as_str();
        let bare = caps.get(3).is_some();
        let what = if JWT.is_match(v) {
            "JSON Web Token assigned to a secret-named variable"
        } else if random_value(v, bare, text.get(value.end()..).unwrap_or("")) {
            "high-entropy value assigned to a secret-named variable"
        } else {
            continue;
        };
        found.push(SecretMatch {
            range: value.range(),
            kind: SecretKind::Assignment,
            what,
        });
    }
}

/// Whether a variable `name` says it holds a secret.
fn secret_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    const WORDS: &[&str] = &[
        "token",
        "secret",
        "password",
        "passwd",
        "pwd",
        "api_key",
        "apikey",
        "api-key",
        "access_key",
        "accesskey",
        "private_key",
        "privatekey",
        "credential",
    ];
    // Counts and tokenizers are not secrets; `author` is not `auth`.
    if lower.contains("tokenizer") || lower.ends_with("tokens") {
        return false;
    }
    WORDS.iter().any(|w| lower.contains(w))
        || lower
            .match_indices("auth")
            .any(|(i, _)| !lower[i + 4..].starts_with("or"))
}

/// Whether an assigned literal looks like a random secret: long, mixed,
/// high entropy, one long random run, and not code (a call, a member
/// access) when it stands without quotes.
fn random_value(v: &str, bare: bool, after: &str) -> bool {
    if v.len() < 16 || !looks_random(v) || entropy(v) < 3.5 {
        return false;
    }
    let letters = v.bytes().any(|b| b.is_ascii_alphabetic());
    let digits = v.bytes().any(|b| b.is_ascii_digit());
    if !letters || !digits || v.contains("://") || v.starts_with(['/', '~', '.', '#']) {
        return false;
    }
    let longest = v
        .split(['-', '_', '.', ':', '/', '@'])
        .map(str::len)
        .max()
        .unwrap_or(0);
    if longest < 10 {
        return false;
    }
    if bare {
        if after.starts_with(['(', '[']) {
            return false;
        }
        let dotted = v.contains('.')
            && v.split('.').all(|part| {
                part.chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                    && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        if dotted {
            return false;
        }
    }
    true
}

/// Whether a token looks random rather than written for a reader: no
/// placeholder words, no runs of a repeated or consecutive characters, and
/// an entropy of at least 3 bits a character.
pub(crate) fn looks_random(token: &str) -> bool {
    !placeholder(token) && !runs(token) && entropy(token) >= 3.0
}

/// Whether `value` is a placeholder, a documented example or a reference to
/// a value kept elsewhere.
fn placeholder(value: &str) -> bool {
    const WORDS: &[&str] = &[
        "example",
        // AWS's documented example keys, often quoted cut short.
        "wjalrxutnfemi",
        "iosfodnn7",
        "sample",
        "dummy",
        "test",
        "placeholder",
        "your",
        "changeme",
        "change_me",
        "replace",
        "xxx",
        "...",
        "***",
        "redacted",
        "fake",
        "mock",
        "demo",
        "secret",
        "password",
        "os.environ",
        "process.env",
        "getenv",
        "environ",
    ];
    let lower = value.to_ascii_lowercase();
    WORDS.iter().any(|w| lower.contains(w))
        || ["abc123", "123abc", "123456", "abcdef"]
            .iter()
            .any(|w| lower.contains(w))
        || value.contains(['<', '>', '$'])
        || value.contains("{{")
        || slug(value)
        || readable_base64(value)
}

/// Whether `value` is words joined by `-` or `_` (`oauth2-advertiser-get`,
/// `prod_db_primary`): a name, not a random secret.
fn slug(value: &str) -> bool {
    let parts: Vec<&str> = value.split(['-', '_']).collect();
    parts.len() >= 2
        && parts.iter().all(|p| {
            let letters = p.trim_end_matches(|c: char| c.is_ascii_digit());
            !letters.is_empty()
                && letters.len() * 2 >= p.len()
                && letters.bytes().all(|b| b.is_ascii_lowercase())
        })
}

/// Whether `value` is base64 of text written for a reader (`c3VwZXItc2Vj…`
/// is `super-secret-key-…`): a placeholder in the shape a manifest wants.
fn readable_base64(value: &str) -> bool {
    use base64::Engine;
    if value.len() < 12 || value.len() > 4096 {
        return false;
    }
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(value) else {
        return false;
    };
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return false;
    };
    text.bytes().all(|b| b.is_ascii_graphic() || b == b' ')
        && (placeholder(text) || slug(text) || text.contains(' '))
}

/// Whether `value` has four equal characters in a row, or five consecutive
/// ones (`abcde`, `54321`), letters compared without case, also every other
/// character (`A1B2C3D4E5`).
fn runs(value: &str) -> bool {
    let bytes: Vec<u8> = value.bytes().map(|b| b.to_ascii_lowercase()).collect();
    longest_run(&bytes, 1, 0) >= 4
        || longest_run(&bytes, 1, 1) >= 5
        || longest_run(&bytes, 1, -1) >= 5
        || longest_run(&bytes, 2, 1) >= 5
}

/// The longest run of alphanumeric characters `stride` apart, each `step`
/// more than the one before.
fn longest_run(bytes: &[u8], stride: usize, step: i16) -> usize {
    let mut runs = [1usize; 2];
    let mut longest = 1;
    for (i, pair) in bytes.windows(stride + 1).enumerate() {
        let (a, b) = (pair[0], pair[stride]);
        let lane = &mut runs[i % stride];
        let follows = a.is_ascii_alphanumeric()
            && b.is_ascii_alphanumeric()
            && i16::from(b) - i16::from(a) == step;
        *lane = if follows { *lane + 1 } else { 1 };
        longest = longest.max(*lane);
    }
    longest
}

/// Shannon entropy of `value`'s bytes, in bits a byte.
pub(crate) fn entropy(value: &str) -> f64 {
    let mut counts = [0usize; 256];
    for b in value.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = value.len() as f64;
    if value.is_empty() {
        return 0.0;
    }
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whats(text: &str) -> Vec<(&str, &'static str)> {
        find(text)
            .into_iter()
            .map(|m| (&text[m.range], m.what))
            .collect()
    }

    #[test]
    fn vendor_tokens_are_found() {
        let cases = [
            ("key = AKIA4QZ7XJ2MNB5KW3PD", "AWS access key ID"),
            (
                "aws_secret_access_key = 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",
                "AWS secret access key",
            ),
            ("t ghp_R7kq2Vx9Lm4Pz8Wn3Bc6Hd1Jf5Gs0Ty2Ua4E", "GitHub token"),
            ("glpat-Xq7vK2mZ9pL4wR8nB3cJ", "GitLab personal access token"),
            (
                "sk-proj-Vf3kQ9zL2mR8xT1wN5bH7cJ4dG6pS0aY2uE8iO3qK9vB1nM5",
                "OpenAI API key",
            ),
            (
                "sk-ant-api03-Q8wZ2kV7mN4pR9xL3cB6hJ1dF5gT0yU2aE8iO3sK9vB1nM5",
                "Anthropic API key",
            ),
            (
                "xoxb-2048561937-5830172946-Zx9Kq2Lm8Vn4Rt6Yp1Ws3Hd7",
                "Slack token",
            ),
            (
                "https://hooks.slack.com/services/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",
                "Slack webhook URL",
            ),
            ("sk_live_51Hq8ZkL2mV9xR4pN7wB3cJ6", "Stripe live secret key"),
            ("AIzaSyD8fK2mQ9vL4xR7pN1wB6cJ3hT5gZ0yU2a", "Google API key"),
            (
                "npm_Q8wZ2kV7mN4pR9xL3cB6hJ1dF5gT0yU2aE8i",
                "npm access token",
            ),
            (
                "twilio sid SK3f9a2c7e1b8d4f6a0c5e9b2d7f1a3c8e",
                "Twilio key",
            ),
            (
                "7493028165:AAH9kQ2zLm4Vx8Rp3Wn7Bc1Jd6Gf0Ts5YuE",
                "Telegram bot token",
            ),
            (
                "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",
                "Hugging Face access token",
            ),
        ];
        for (text, what) in cases {
            let found = whats(text);
            assert_eq!(found.len(), 1, "{text}: {found:?}");
            assert_eq!(found[0].1, what, "{text}");
        }
    }

    #[test]
    fn placeholders_and_examples_are_not() {
        for text in [
            "AKIAIOSFODNN7EXAMPLE",
            "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG",
            "export OPENAI_API_KEY=sk-...",
            "OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "token: ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
            "STRIPE_SECRET_KEY=sk_test_51Hq8ZkL2mV9xR4pN7wB3cJ6",
            "STRIPE_SECRET_KEY=sk_test_replace_me",
            "OPENAI_API_KEY=your-key-here",
            "API_KEY=${OPENAI_API_KEY}",
            "password = os.environ['DB_PASSWORD_VALUE']",
            "token = os.environ.get('GITHUB_TOKEN')",
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
            "SK3f9a2c7e1b8d4f6a0c5e9b2d7f1a3c8e with no vendor named",
            "tokenizer = 'meta-llama/Llama-2-7b-chat-hf'",
            "max_tokens: 4096",
            "author: Jane Q. Developer 2024",
            "api_key = get_api_key_from_vault2(name)",
            "secret = config.load_secret_v2",
            "AIzaSyA1B2C3D4E5F6G7H8I9J0K1L2M3N4O5P6Q",
            "The key starts with -----BEGIN RSA PRIVATE KEY----- and ends with END.",
            "  JWT_SECRET: c3VwZXItc2VjcmV0LWtleS10aGF0LWlzLWF0LWxlYXN0LTMyLWNoYXJz",
            "  REDIS_PASSWORD: cmVkaXMtcGFzc3dvcmQ=",
            "  \"auth_endpoint\": \"oauth2-advertiser-get\",",
            "      authToken: \"sk-live-abc123def456ghi789\",",
        ] {
            assert!(find(text).is_empty(), "{text}: {:?}", whats(text));
        }
    }

    #[test]
    fn assignments_in_each_syntax() {
        let value = "zd_4f7a1c9e2b8d6f3a0c5e7b9d1f2a4c6e";
        for text in [
            format!("ZENDESK_TOKEN={value}"),
            format!("zendesk_token: {value}"),
            format!("{{\"zendeskToken\": \"{value}\"}}"),
            format!("zendesk_token = '{value}'"),
            format!("const authHeader = `{value}`;"),
            format!("DB_PASSWORD := \"{value}\""),
        ] {
            let found = whats(&text);
            assert_eq!(
                found,
                vec![(
                    value,
                    "high-entropy value assigned to a secret-named variable"
                )],
                "{text}"
            );
        }
    }

    #[test]
    fn a_jwt_only_when_assigned_to_a_secret_name() {
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI0MjEiLCJuYW1lIjoiQm9iIn0.Xq7vK2mZ9pL4wR8nB3cJ5hT1gY6dF0sA";
        assert_eq!(
            whats(&format!("ACCESS_TOKEN={jwt}")),
            vec![(jwt, "JSON Web Token assigned to a secret-named variable")]
        );
        assert!(find(&format!("decode {jwt} at jwt.io")).is_empty());
    }

    #[test]
    fn a_vendor_format_names_an_assigned_value() {
        let text = "OPENAI_API_KEY=sk-proj-Vf3kQ9zL2mR8xT1wN5bH7cJ4dG6pS0aY2uE8iO3qK9vB1nM5\n";
        assert_eq!(find(text).len(), 1);
        assert_eq!(find(text)[0].kind, SecretKind::Known);
    }

    #[test]
    fn private_keys_need_a_body() {
        let body = "CzBVep/E6Q4zWH2ix+wRNluApcrvFDleg6jN8hc8YYar0PUaP2SJrtP4HUJnjLHW+yBFao";
        let key = format!(
            "x\n-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\nY7YI==\n-----END OPENSSH PRIVATE KEY-----\ny"
        );
        let found = find(&key);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].what, "OpenSSH private key");
        assert!(key[found[0].range.clone()].starts_with("-----BEGIN"));
        assert!(key[found[0].range.clone()].ends_with("KEY-----"));
        let escaped = format!(
            "{{\"private_key\": \"-----BEGIN PRIVATE KEY-----\\n{body}\\n-----END PRIVATE KEY-----\\n\"}}"
        );
        assert_eq!(whats(&escaped).len(), 1, "{escaped}");
        assert!(find("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA...\n").is_empty());
        // The fixed opening of every unencrypted OpenSSH key.
        let openssh = "-----BEGIN OPENSSH PRIVATE KEY-----\n\
            b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n";
        assert_eq!(whats(openssh).len(), 1);
        let filler =
            "-----BEGIN PRIVATE KEY-----\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n";
        assert!(find(filler).is_empty());
    }

    #[test]
    fn runs_and_entropy() {
        assert!(runs("ab1111cd"));
        assert!(runs("xABCDEx"));
        assert!(runs("98765"));
        assert!(!runs("q8Rz1fVb2T"));
        assert!(runs("SyA1B2C3D4E5F6"));
        assert!(!runs("A1B2C9D4"));
        assert!(entropy("aaaa") < 0.01);
        assert!(entropy("0123456789abcdef") > 3.99);
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            #[test]
            fn ranges_are_ordered_char_boundaries(text in "(?s).{0,400}") {
                let found = find(&text);
                let mut end = 0;
                for m in &found {
                    prop_assert!(m.range.start >= end && m.range.start < m.range.end);
                    prop_assert!(text.get(m.range.clone()).is_some());
                    end = m.range.end;
                }
            }

            #[test]
            fn secret_like_text_never_panics(
                text in "[A-Za-z0-9_=:'\" \n./+-]{0,300}",
                prefix in prop::sample::select(vec!["AKIA", "ghp_", "sk-", "xoxb-", "TOKEN=", "-----BEGIN PRIVATE KEY-----\n"]),
            ) {
                let text = format!("{prefix}{text}");
                for m in find(&text) {
                    prop_assert!(text.get(m.range).is_some());
                }
            }
        }
    }
}
