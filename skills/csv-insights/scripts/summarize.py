#!/usr/bin/env python3
"""Summarise a CSV file: rows, columns, type guesses, nulls and statistics.

Reads the file in one streaming pass and prints a report as plain text,
Markdown or JSON. Standard library only; works with Python 3.8 and later.
Run with --help for options; references/REFERENCE.md documents the output.

Exit codes:
    0  success
    1  the input could not be read or parsed (missing file, bad encoding,
       malformed CSV, empty file)
    2  usage error (bad command-line options)
"""

import argparse
import csv
import datetime
import io
import json
import math
import re
import sys
from collections import Counter

DEFAULT_NULLS = ("", "na", "n/a", "null", "none", "nan", "nil")
BOOLEAN_TRUE = {"true", "yes", "y", "t"}
BOOLEAN_FALSE = {"false", "no", "n", "f"}
SNIFF_BYTES = 65536
SNIFF_DELIMITERS = ",;\t|"
DISTINCT_CAP = 10000
MAX_DISPLAY_VALUE = 40

INT_RE = re.compile(r"^[+-]?\d+$")
FLOAT_RE = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
DATETIME_RE = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")

# Narrowest first: the first candidate left standing is the guessed type.
TYPE_ORDER = ("boolean", "integer", "float", "date", "datetime")


class InputError(Exception):
    """The input cannot be summarised (exit code 1)."""


def parse_datetime(text):
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    return datetime.datetime.fromisoformat(text)


class ColumnStats:
    """Everything collected about one column in a single pass."""

    def __init__(self, index, name):
        self.index = index
        self.name = name
        self.count = 0
        self.nulls = 0
        self.candidates = set(TYPE_ORDER)
        self.values = Counter()
        self.distinct_capped = False
        # numeric (Welford's running mean and variance)
        self.num_n = 0
        self.num_mean = 0.0
        self.num_m2 = 0.0
        self.num_sum = 0
        self.num_min = None
        self.num_max = None
        self.all_int = True
        # boolean
        self.true_count = 0
        self.false_count = 0
        # dates and datetimes
        self.date_min = None
        self.date_max = None
        self.dt_min = None
        self.dt_max = None
        self.dt_aware = None
        # text
        self.len_min = None
        self.len_max = None

    def add(self, raw, null_tokens):
        self.count += 1
        value = raw.strip()
        if value.lower() in null_tokens:
            self.nulls += 1
            return
        if value in self.values or len(self.values) < DISTINCT_CAP:
            self.values[value] += 1
        else:
            self.distinct_capped = True
        length = len(value)
        self.len_min = length if self.len_min is None else min(self.len_min, length)
        self.len_max = length if self.len_max is None else max(self.len_max, length)
        if self.candidates:
            self._refine(value)

    def _refine(self, value):
        cands = self.candidates
        if "boolean" in cands:
            lowered = value.lower()
            if lowered in BOOLEAN_TRUE:
                self.true_count += 1
            elif lowered in BOOLEAN_FALSE:
                self.false_count += 1
            else:
                cands.discard("boolean")
        if "float" in cands:
            number = None
            if INT_RE.match(value):
                number = int(value)
            elif FLOAT_RE.match(value):
                number = float(value)
                self.all_int = False
                cands.discard("integer")
                if not math.isfinite(number):
                    number = None
            if number is None:
                cands.discard("integer")
                cands.discard("float")
            else:
                self._add_number(number)
        if "date" in cands:
            try:
                if not DATE_RE.match(value):
                    raise ValueError
                day = datetime.date.fromisoformat(value)
            except ValueError:
                cands.discard("date")
            else:
                if self.date_min is None or day < self.date_min:
                    self.date_min = day
                if self.date_max is None or day > self.date_max:
                    self.date_max = day
        if "datetime" in cands:
            try:
                if not DATETIME_RE.match(value):
                    raise ValueError
                moment = parse_datetime(value)
            except ValueError:
                cands.discard("datetime")
            else:
                aware = moment.tzinfo is not None
                if self.dt_aware is None:
                    self.dt_aware = aware
                if aware != self.dt_aware:
                    # Naive and aware values cannot be compared; call it text.
                    cands.discard("datetime")
                else:
                    if self.dt_min is None or moment < self.dt_min:
                        self.dt_min = moment
                    if self.dt_max is None or moment > self.dt_max:
                        self.dt_max = moment

    def _add_number(self, number):
        self.num_n += 1
        self.num_sum += number
        delta = number - self.num_mean
        self.num_mean += delta / self.num_n
        self.num_m2 += delta * (number - self.num_mean)
        if self.num_min is None or number < self.num_min:
            self.num_min = number
        if self.num_max is None or number > self.num_max:
            self.num_max = number

    @property
    def non_null(self):
        return self.count - self.nulls

    def guessed_type(self):
        if self.non_null == 0:
            return "empty"
        for name in TYPE_ORDER:
            if name in self.candidates:
                return name
        return "text"

    def to_dict(self, top):
        kind = self.guessed_type()
        result = {
            "index": self.index,
            "name": self.name,
            "type": kind,
            "count": self.count,
            "non_null": self.non_null,
            "nulls": self.nulls,
            "null_pct": round(100.0 * self.nulls / self.count, 1) if self.count else 0.0,
            "distinct": len(self.values),
            "distinct_capped": self.distinct_capped,
        }
        if kind in ("integer", "float"):
            as_float = kind == "float"
            result["min"] = float(self.num_min) if as_float else self.num_min
            result["max"] = float(self.num_max) if as_float else self.num_max
            result["sum"] = round(float(self.num_sum), 10) if as_float else self.num_sum
            result["mean"] = round(self.num_mean, 6)
            result["stdev"] = (
                round(math.sqrt(self.num_m2 / (self.num_n - 1)), 6) if self.num_n > 1 else None
            )
        elif kind == "boolean":
            result["true"] = self.true_count
            result["false"] = self.false_count
        elif kind == "date":
            result["min"] = self.date_min.isoformat()
            result["max"] = self.date_max.isoformat()
        elif kind == "datetime":
            result["min"] = self.dt_min.isoformat()
            result["max"] = self.dt_max.isoformat()
        elif kind == "text":
            result["min_length"] = self.len_min
            result["max_length"] = self.len_max
            result["top"] = [
                {"value": value, "count": count}
                for value, count in self.values.most_common(top)
            ]
        return result


def unique_names(header):
    """Fill in blank header cells and make duplicate names unique."""
    names = []
    seen = Counter()
    for position, cell in enumerate(header, start=1):
        base = cell.strip() or "column_%d" % position
        seen[base] += 1
        name = base if seen[base] == 1 else "%s_%d" % (base, seen[base])
        while name in names:
            seen[base] += 1
            name = "%s_%d" % (base, seen[base])
        names.append(name)
    return names


DELIMITER_ALIASES = {"tab": "\t", "\\t": "\t", "comma": ",", "semicolon": ";", "pipe": "|"}


def delimiter_option(text):
    """argparse type for --delimiter: one character or a named alias."""
    delimiter = DELIMITER_ALIASES.get(text.lower(), text)
    if len(delimiter) != 1 or delimiter in "\r\n\"":
        raise argparse.ArgumentTypeError(
            "expected one character other than a quote or newline, "
            "or one of: tab, comma, semicolon, pipe"
        )
    return delimiter


def resolve_delimiter(option, sample):
    """The delimiter to use: the --delimiter option, or a guess from the sample."""
    if option is not None:
        return option
    try:
        return csv.Sniffer().sniff(sample, delimiters=SNIFF_DELIMITERS).delimiter
    except csv.Error:
        return ","


def open_text(path, encoding):
    """Return (text stream, sample) for a path or '-' (stdin)."""
    try:
        if path == "-":
            data = sys.stdin.buffer.read()
            stream = io.TextIOWrapper(io.BytesIO(data), encoding=encoding, newline="")
        else:
            stream = open(path, "r", encoding=encoding, newline="")
        sample = stream.read(SNIFF_BYTES)
        stream.seek(0)
    except FileNotFoundError:
        raise InputError("no such file: %s" % path)
    except IsADirectoryError:
        raise InputError("is a directory, not a CSV file: %s" % path)
    except PermissionError:
        raise InputError("permission denied: %s" % path)
    except LookupError:
        raise InputError("unknown encoding: %s" % encoding)
    except UnicodeDecodeError as err:
        raise InputError(
            "cannot decode %s as %s (%s); try --encoding latin-1 or cp1252"
            % (path, encoding, err.reason)
        )
    except OSError as err:
        raise InputError("cannot read %s: %s" % (path, err.strerror or err))
    return stream, sample


def summarise(args):
    null_tokens = {token.strip().lower() for token in DEFAULT_NULLS}
    null_tokens.update(token.strip().lower() for token in args.null)
    stream, sample = open_text(args.file, args.encoding)
    if not sample.strip():
        stream.close()
        raise InputError("the file is empty: %s" % args.file)
    if "\x00" in sample:
        stream.close()
        raise InputError("%s contains NUL bytes; it looks like a binary file, not CSV" % args.file)
    delimiter = resolve_delimiter(args.delimiter, sample)

    warnings = []
    columns = []
    rows = 0
    short_rows = 0
    long_rows = 0
    blank_lines = 0
    truncated = False
    reader = csv.reader(stream, delimiter=delimiter)
    try:
        with stream:
            header = None
            for record in reader:
                if not record or all(not cell.strip() for cell in record) and len(record) <= 1:
                    blank_lines += 1
                    continue
                if header is None:
                    if args.no_header:
                        header = ["column_%d" % n for n in range(1, len(record) + 1)]
                    else:
                        header = unique_names(record)
                    columns = [ColumnStats(n, name) for n, name in enumerate(header, start=1)]
                    if not args.no_header:
                        continue
                if args.max_rows is not None and rows >= args.max_rows:
                    truncated = True
                    break
                rows += 1
                if len(record) < len(columns):
                    short_rows += 1
                elif len(record) > len(columns):
                    long_rows += 1
                for position, column in enumerate(columns):
                    column.add(record[position] if position < len(record) else "", null_tokens)
    except UnicodeDecodeError as err:
        raise InputError(
            "cannot decode %s as %s (%s); try --encoding latin-1 or cp1252"
            % (args.file, args.encoding, err.reason)
        )
    except csv.Error as err:
        raise InputError("malformed CSV near line %d: %s" % (reader.line_num, err))

    if not columns:
        raise InputError("the file has no rows: %s" % args.file)
    if rows == 0:
        warnings.append("the file has a header row but no data rows")
    if len(columns) == 1:
        others = [d for d in SNIFF_DELIMITERS if d != delimiter and d in columns[0].name]
        if others:
            warnings.append(
                "only one column was found but the header contains %s; "
                "pass --delimiter if the file uses another separator"
                % " or ".join(repr(d) for d in others)
            )
    if short_rows:
        warnings.append(
            "%d row(s) had fewer fields than the header; missing fields were counted as nulls"
            % short_rows
        )
    if long_rows:
        warnings.append(
            "%d row(s) had more fields than the header; the extra fields were ignored" % long_rows
        )
    if blank_lines:
        warnings.append("%d blank line(s) were skipped" % blank_lines)
    if truncated:
        warnings.append("stopped after --max-rows %d rows; statistics cover those rows only" % args.max_rows)
    for column in columns:
        if column.distinct_capped:
            warnings.append(
                "column %r has more than %d distinct values; distinct and top values are approximate"
                % (column.name, DISTINCT_CAP)
            )

    return {
        "file": args.file,
        "encoding": args.encoding,
        "delimiter": delimiter,
        "header": not args.no_header,
        "rows": rows,
        "columns_count": len(columns),
        "truncated": truncated,
        "columns": [column.to_dict(args.top) for column in columns],
        "warnings": warnings,
    }


def fmt_number(value):
    if value is None:
        return "n/a"
    if isinstance(value, int):
        return str(value)
    if value == 0:
        return "0"
    if abs(value) >= 1e15 or abs(value) < 1e-4:
        return "%.6g" % value
    text = "%.4f" % value
    return text.rstrip("0").rstrip(".")


def fmt_value(value):
    text = value if len(value) <= MAX_DISPLAY_VALUE else value[: MAX_DISPLAY_VALUE - 3] + "..."
    return json.dumps(text, ensure_ascii=False)


def describe(column):
    """One-line summary of the type-specific statistics."""
    kind = column["type"]
    if kind in ("integer", "float"):
        return "min %s, max %s, mean %s, stdev %s, sum %s" % (
            fmt_number(column["min"]),
            fmt_number(column["max"]),
            fmt_number(column["mean"]),
            fmt_number(column["stdev"]),
            fmt_number(column["sum"]),
        )
    if kind == "boolean":
        return "true %d, false %d" % (column["true"], column["false"])
    if kind in ("date", "datetime"):
        return "earliest %s, latest %s" % (column["min"], column["max"])
    if kind == "text":
        top = ", ".join("%s (%d)" % (fmt_value(t["value"]), t["count"]) for t in column["top"])
        text = "length %d-%d" % (column["min_length"], column["max_length"])
        return text + ("; top: " + top if top else "")
    return "all values are null"


def distinct_text(column):
    return ("%d+" if column["distinct_capped"] else "%d") % column["distinct"]


def render_text(report):
    delimiter = "tab" if report["delimiter"] == "\t" else report["delimiter"]
    lines = [
        "File:      %s" % report["file"],
        "Rows:      %d%s" % (report["rows"], " (truncated)" if report["truncated"] else ""),
        "Columns:   %d" % report["columns_count"],
        "Delimiter: %s" % delimiter,
        "",
    ]
    for column in report["columns"]:
        lines.append("[%d] %s" % (column["index"], column["name"]))
        lines.append("    type:     %s" % column["type"])
        lines.append(
            "    non-null: %d   nulls: %d (%s%%)   distinct: %s"
            % (column["non_null"], column["nulls"], column["null_pct"], distinct_text(column))
        )
        lines.append("    summary:  %s" % describe(column))
    if report["warnings"]:
        lines.append("")
        lines.append("Warnings:")
        lines.extend("  - %s" % warning for warning in report["warnings"])
    return "\n".join(lines) + "\n"


def md_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def render_markdown(report):
    delimiter = "tab" if report["delimiter"] == "\t" else report["delimiter"]
    lines = [
        "## CSV summary: `%s`" % report["file"],
        "",
        "- Rows: %d%s" % (report["rows"], " (truncated)" if report["truncated"] else ""),
        "- Columns: %d" % report["columns_count"],
        "- Delimiter: `%s`" % delimiter,
        "",
        "| # | Column | Type | Non-null | Nulls | Distinct | Summary |",
        "|---|--------|------|----------|-------|----------|---------|",
    ]
    for column in report["columns"]:
        lines.append(
            "| %d | %s | %s | %d | %d (%s%%) | %s | %s |"
            % (
                column["index"],
                md_cell(column["name"]),
                column["type"],
                column["non_null"],
                column["nulls"],
                column["null_pct"],
                distinct_text(column),
                md_cell(describe(column)),
            )
        )
    if report["warnings"]:
        lines.append("")
        lines.append("**Warnings**")
        lines.append("")
        lines.extend("- %s" % md_cell(warning) for warning in report["warnings"])
    return "\n".join(lines) + "\n"


def positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a whole number, got %r" % text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def build_parser():
    parser = argparse.ArgumentParser(
        prog="summarize.py",
        description="Summarise a CSV file: row count, columns, type guesses, nulls, "
        "and min/max/mean for numeric columns.",
        epilog="Exit codes: 0 success, 1 unreadable or malformed input, 2 usage error.",
    )
    parser.add_argument("file", metavar="FILE", help="CSV file to summarise, or - for stdin")
    parser.add_argument(
        "-f", "--format", choices=("text", "markdown", "json"), default="text",
        help="output format (default: text)",
    )
    parser.add_argument(
        "-d", "--delimiter", type=delimiter_option,
        help="field delimiter: one character, or tab, comma, semicolon, pipe "
        "(default: detected from the first 64 KiB, else comma)",
    )
    parser.add_argument(
        "--no-header", action="store_true",
        help="the first row is data; columns are named column_1, column_2, ...",
    )
    parser.add_argument(
        "-e", "--encoding", default="utf-8-sig",
        help="text encoding (default: utf-8-sig, which is UTF-8 with or without a BOM)",
    )
    parser.add_argument(
        "-n", "--max-rows", type=positive_int, metavar="N",
        help="read at most N data rows (default: all)",
    )
    parser.add_argument(
        "--top", type=positive_int, default=3, metavar="N",
        help="most frequent values to list for text columns (default: 3)",
    )
    parser.add_argument(
        "--null", action="append", default=[], metavar="TOKEN",
        help="extra value to treat as null (repeatable); empty, NA, N/A, null, "
        "none, nan and nil are always null, case-insensitively",
    )
    return parser


def main(argv=None):
    args = build_parser().parse_args(argv)
    try:
        report = summarise(args)
    except InputError as err:
        sys.stderr.write("summarize.py: error: %s\n" % err)
        return 1
    if args.format == "json":
        output = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    elif args.format == "markdown":
        output = render_markdown(report)
    else:
        output = render_text(report)
    try:
        sys.stdout.write(output)
        sys.stdout.flush()
    except BrokenPipeError:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
