//! The filter on the lines recorded from Copilot CLI 1.0.102 (two probe
//! skills, each line as Copilot sent it back).

use super::secrets;

/// `(written, as Copilot sent it)`.
const RECORDED: &[(&str, &str)] = &[
    ("Bearer token in the header", "****** in the header"),
    ("bearer token lower", "bearer token lower"),
    ("BEARER TOKEN upper", "BEARER TOKEN upper"),
    ("xBearer abc glued before", "xBearer abc glued before"),
    ("Bearer abc;def semicolon", "******;def semicolon"),
    ("Bearer abc'def quote", "******'def quote"),
    ("Bearer abc\"def dquote", "******\"def dquote"),
    ("Bearer abc,def comma", "****** comma"),
    ("Bearer abc<def angle", "****** angle"),
    ("Bearer abc\\def backslash", "****** backslash"),
    ("Bearer écrit unicode", "****** unicode"),
    ("Bearer-token hyphen", "Bearer-token hyphen"),
    ("Bearer:token colon", "Bearer:token colon"),
    ("Authorization: Bearer abc", "Authorization: ******"),
    ("Authorization:Bearer abc", "Authorization:******"),
    ("Authorization: Basic abc", "Authorization: Basic abc"),
    ("Bearer $TOKEN", "******"),
    ("Bearer <token>", "******"),
    ("éBearer abc nonascii before", "é****** nonascii before"),
    (
        "_Bearer abc underscore before",
        "_Bearer abc underscore before",
    ),
    ("1Bearer abc digit before", "1Bearer abc digit before"),
    (".Bearer abc dot before", ".****** dot before"),
    ("Bearer\u{a0}nbsp", "******"),
    ("Bearer\u{3000}ideo", "******"),
    ("Password=hunter2 rest", "****** rest"),
    ("password=\"quoted pw\" rest", "****** rest"),
    ("pwd=abc;def", "******;def"),
    ("Password = spaced", "Password = spaced"),
    ("DB_Password=abc", "DB_Password=abc"),
    ("mypassword=abc", "mypassword=abc"),
    ("Connect-X -Password secret rest", "Connect-X****** rest"),
    ("cmd  -pwd  'quoted' rest", "cmd  -pwd  'quoted' rest"),
    ("cmd -Password \"two words\" rest", "cmd****** rest"),
    ("token eyJhbGciOiJIUzI1NiJ9.abc.def end", "token ****** end"),
    ("eyJ0eXAiOi tail", "eyJ0eXAiOi tail"),
    ("xeyJhbGciOiabc glued", "xeyJhbGciOiabc glued"),
    (
        "ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA gh token",
        "****** gh token",
    ),
    (
        "ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA short gh token",
        "ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA short gh token",
    ),
    (
        "ghs_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBC more",
        "ghs_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBC more",
    ),
    (
        "token: ghp_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.",
        "token: ******.",
    ),
    (
        "github_pat_1AAAAAAAAAAAAAAAAAAAAA_BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB pat",
        "****** pat",
    ),
    ("npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa npm", "****** npm"),
    (
        "npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa long npm",
        "npm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa long npm",
    ),
    (
        "v1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa v1",
        "****** v1",
    ),
    (
        "abc7Q~aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa entra",
        "****** entra",
    ),
    (
        "abc8Q~aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa entra8",
        "****** entra8",
    ),
    ("x-ghcr-signature=abc&x=1", "******&x=1"),
    ("https://user:pass@example.com/x", "******example.com/x"),
    ("http://u:p@h", "******h"),
    ("https://user@example.com/x", "https://user@example.com/x"),
    ("ftp://user:pa ss@host", "ftp://user:pa ss@host"),
    ("see user:pass@example.com", "see user:pass@example.com"),
    ("HTTPS://USER:PASS@EX.COM", "******EX.COM"),
    (
        "https://us/er:pass@example.com",
        "https://us/er:pass@example.com",
    ),
    ("https://:pass@example.com", "https://:pass@example.com"),
    ("https://user:@example.com", "******example.com"),
    ("x https://a:b@c https://d:e@f", "x ******c ******f"),
    (
        "sk-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa openai",
        "sk-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa openai",
    ),
    ("AKIAAAAAAAAAAAAAAAAA aws", "AKIAAAAAAAAAAAAAAAAA aws"),
    ("api_key=abc123", "api_key=abc123"),
    ("token=abc123", "token=abc123"),
];

#[test]
fn each_recorded_line_is_filtered_as_copilot_filtered_it() {
    for (written, sent) in RECORDED {
        assert_eq!(secrets(written), *sent, "{written:?}");
    }
}

#[test]
fn the_space_after_bearer_may_be_a_line_break_and_a_quoted_password_spans_lines() {
    // Recorded: consecutive lines `Bearer`, `Bearer `, `Bearer  two-spaces`.
    assert_eq!(
        secrets("L04: Bearer\nL05: Bearer \nL06: Bearer  two-spaces\nL07: Bearer\ttab\n"),
        "L04: ****** ****** ******\nL07: ******\n"
    );
    // Recorded: an unclosed quote runs to the next `"`, two lines down.
    assert_eq!(
        secrets("L23: Password=\"unclosed rest\nL24: Password=\nL25: Password=\"\" empty\n"),
        "L23: ******\" empty\n"
    );
    // At the start of the text, `-Password` needs a space before it.
    assert_eq!(secrets("-Password x"), "-Password x");
    assert_eq!(
        secrets("L14: -Password value at start"),
        "L14:****** at start"
    );
}

#[test]
fn a_signature_runs_to_the_next_ampersand_or_the_end() {
    assert_eq!(secrets("a x-ghcr-signature=abc\nb"), "a ******");
    assert_eq!(secrets("x-ghcr-signature=&"), "x-ghcr-signature=&");
}

#[test]
fn text_without_credentials_is_unchanged_and_multibyte_text_survives() {
    for s in [
        "",
        "plain",
        "名前 Bearer",
        "ſ",
        "pwd",
        "Bearer ",
        "https://",
        "gh",
    ] {
        assert_eq!(secrets(s), s);
    }
    assert_eq!(secrets("paſſword=x"), "******");
}
