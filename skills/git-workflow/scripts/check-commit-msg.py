#!/usr/bin/env python3
"""Check a commit message against the Conventional Commits 1.0.0 format.

Usage:
    check-commit-msg.py [options] [FILE]

Reads the message from FILE, or from standard input when FILE is omitted or
is '-'. Lines starting with '#' are dropped and everything below a
"------------------------ >8 ------------------------" scissors line is
ignored, as git does, so the script also works as a commit-msg hook:

    ln -s ../../path/to/check-commit-msg.py .git/hooks/commit-msg

Exit codes:
    0  the message is valid (warnings may have been printed)
    1  the message is not valid (or has warnings, with --strict)
    2  usage error, or the file could not be read

Standard library only; works with Python 3.8 and later.
"""

import argparse
import re
import sys

DEFAULT_TYPES = (
    "build", "chore", "ci", "docs", "feat", "fix",
    "perf", "refactor", "revert", "style", "test",
)
SOFT_HEADER_LIMIT = 72
BODY_LINE_LIMIT = 100

HEADER_RE = re.compile(
    r"^(?P<type>[A-Za-z][A-Za-z0-9-]*)"
    r"(?:\((?P<scope>[^()]*)\))?"
    r"(?P<bang>!)?"
    r"(?P<sep>:\s*)"
    r"(?P<subject>.*)$"
)
# Messages git writes itself, and autosquash markers, are accepted as they are.
EXEMPT_RE = re.compile(r'^(Merge |Revert "|fixup! |squash! |amend! )')
SCISSORS_RE = re.compile(r"^# -+ >8 -+$")
FOOTER_RE = re.compile(r"^(?P<token>BREAKING CHANGE|BREAKING-CHANGE|[A-Za-z][A-Za-z-]*)(?::\s| #)")
BREAKING_LOOSE_RE = re.compile(r"^breaking[ -]changes?\b", re.IGNORECASE)
PAST_TENSE = {
    "added", "adds", "changed", "changes", "fixed", "fixes", "removed",
    "removes", "updated", "updates", "improved", "improves", "refactored",
    "renamed", "moved", "deleted", "created", "implemented", "bumped",
}


def clean_message(text):
    """Drop comment lines and the scissors section, as git does by default."""
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        if SCISSORS_RE.match(line):
            break
        if line.startswith("#"):
            continue
        lines.append(line.rstrip())
    while lines and not lines[0].strip():
        lines.pop(0)
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def check(lines, types, max_header):
    """Return (errors, warnings) for the cleaned message lines."""
    errors = []
    warnings = []
    if not lines:
        return ["the commit message is empty"], warnings

    header = lines[0]
    if EXEMPT_RE.match(header):
        return errors, warnings

    match = HEADER_RE.match(header)
    if not match:
        errors.append(
            "the header must look like 'type(scope): subject' or 'type: subject', "
            "for example 'fix(parser): handle empty input'"
        )
    else:
        kind = match.group("type")
        scope = match.group("scope")
        subject = match.group("subject")
        if kind.lower() not in types:
            errors.append(
                "unknown type %r; use one of: %s" % (kind, ", ".join(sorted(types)))
            )
        elif kind != kind.lower():
            errors.append("the type must be lowercase: %r, not %r" % (kind.lower(), kind))
        if scope is not None:
            if not scope.strip():
                errors.append("the scope is empty; drop the parentheses or name a scope")
            elif scope != scope.strip() or re.search(r"\s", scope):
                warnings.append("the scope %r contains spaces; prefer a single word such as 'api'" % scope)
        if match.group("sep") != ": ":
            errors.append("put exactly one space after the colon: '%s: subject'" % kind)
        if not subject.strip():
            errors.append("the subject (the text after the colon) is empty")
        else:
            if subject.endswith("."):
                warnings.append("do not end the subject with a period")
            first_word = subject.split()[0]
            if first_word.lower() in PAST_TENSE:
                warnings.append(
                    "write the subject in the imperative mood ('add', not %r)" % first_word
                )
            if first_word[:1].isupper() and not first_word.isupper():
                warnings.append("start the subject with a lowercase letter, unless it is a name")

    if len(header) > max_header:
        errors.append(
            "the header is %d characters; the limit is %d" % (len(header), max_header)
        )
    elif len(header) > SOFT_HEADER_LIMIT:
        warnings.append(
            "the header is %d characters; aim for %d or fewer"
            % (len(header), SOFT_HEADER_LIMIT)
        )

    if len(lines) > 1 and lines[1].strip():
        errors.append("leave a blank line between the header and the body")

    for number, line in enumerate(lines[1:], start=2):
        footer = FOOTER_RE.match(line)
        if footer and footer.group("token") in ("BREAKING CHANGE", "BREAKING-CHANGE"):
            if not line.split(":", 1)[1].strip():
                errors.append("line %d: describe the breaking change after 'BREAKING CHANGE: '" % number)
        elif BREAKING_LOOSE_RE.match(line):
            errors.append(
                "line %d: a breaking-change footer must be written exactly "
                "'BREAKING CHANGE: description'" % number
            )
        if len(line) > BODY_LINE_LIMIT and "://" not in line:
            warnings.append(
                "line %d is %d characters; wrap the body at about 72" % (number, len(line))
            )
    return errors, warnings


def parse_types(text):
    types = {item.strip().lower() for item in text.split(",") if item.strip()}
    if not types:
        raise argparse.ArgumentTypeError("give at least one type")
    return types


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if value < 10:
        raise argparse.ArgumentTypeError("must be at least 10")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="check-commit-msg.py",
        description="Check a commit message against Conventional Commits 1.0.0.",
        epilog="Exit codes: 0 valid, 1 invalid, 2 usage error or unreadable file.",
    )
    parser.add_argument(
        "file", nargs="?", default="-", metavar="FILE",
        help="file holding the message (default: read standard input)",
    )
    parser.add_argument(
        "--types", type=parse_types, default=set(DEFAULT_TYPES), metavar="LIST",
        help="comma-separated allowed types (default: %s)" % ",".join(DEFAULT_TYPES),
    )
    parser.add_argument(
        "--max-header", type=positive_int, default=100, metavar="N",
        help="longest header accepted (default: 100; over %d is a warning)" % SOFT_HEADER_LIMIT,
    )
    parser.add_argument(
        "--strict", action="store_true", help="treat warnings as errors",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print nothing when the message is valid",
    )
    args = parser.parse_args(argv)

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8", errors="replace") as handle:
                text = handle.read()
    except OSError as err:
        sys.stderr.write("check-commit-msg.py: error: cannot read %s: %s\n"
                         % (args.file, err.strerror or err))
        return 2

    lines = clean_message(text)
    errors, warnings = check(lines, args.types, args.max_header)
    for message in errors:
        sys.stderr.write("error: %s\n" % message)
    for message in warnings:
        sys.stderr.write("warning: %s\n" % message)

    failed = bool(errors) or (args.strict and bool(warnings))
    if failed:
        if lines:
            sys.stderr.write("in header: %s\n" % lines[0])
        sys.stderr.write("see https://www.conventionalcommits.org/en/v1.0.0/\n")
        return 1
    if not args.quiet:
        print("ok: %s" % lines[0])
    return 0


if __name__ == "__main__":
    sys.exit(main())
