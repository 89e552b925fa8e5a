//! Unified diffs (`diff -u`, three lines of context), for `skb fix
//! --dry-run`: `patch -p1` and `git apply` take them.
//!
//! The lines both texts start and end with are matched first; what is left
//! between (a few lines for every change `skb fix` makes) is matched by a
//! longest-common-subsequence table when it is at most `MAX_CELLS` cells,
//! else shown as removed and added whole: still a correct diff, only a
//! longer one, and never quadratic work on a large file.

use std::fmt::Write;

/// Context lines around each change.
const CONTEXT: usize = 3;
/// The largest table the middle of two texts is matched with.
const MAX_CELLS: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// The diff of `old` (`None`: the file is new) and `new`, with `path` in
/// the `---`/`+++` lines; empty when they are equal.
pub fn unified(path: &str, old: Option<&str>, new: &str) -> String {
    let a: Vec<&str> = old.map_or_else(Vec::new, |t| t.split_inclusive('\n').collect());
    let b: Vec<&str> = new.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    if ops.iter().all(|(op, _)| *op == Op::Same) {
        return String::new();
    }
    let mut out = String::new();
    let from = if old.is_some() {
        format!("a/{path}")
    } else {
        "/dev/null".into()
    };
    let _ = writeln!(out, "--- {from}\n+++ b/{path}");
    // Each op with its line numbers in `a` and `b` before it.
    let mut at = Vec::with_capacity(ops.len());
    let (mut i, mut j) = (0, 0);
    for (op, line) in &ops {
        at.push((*op, *line, i, j));
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Removed => i += 1,
            Op::Added => j += 1,
        }
    }
    let changed: Vec<usize> = (0..at.len()).filter(|&k| at[k].0 != Op::Same).collect();
    let mut k = 0;
    while k < changed.len() {
        let start = changed[k].saturating_sub(CONTEXT);
        let mut end = changed[k];
        while k + 1 < changed.len() && changed[k + 1] <= end + 2 * CONTEXT + 1 {
            k += 1;
            end = changed[k];
        }
        let end = (end + CONTEXT + 1).min(at.len());
        let hunk = &at[start..end];
        let count = |keep: Op| {
            hunk.iter()
                .filter(|h| h.0 == Op::Same || h.0 == keep)
                .count()
        };
        let (olds, news) = (count(Op::Removed), count(Op::Added));
        let first = |n: usize, count: usize| if count == 0 { n } else { n + 1 };
        let _ = writeln!(
            out,
            "@@ -{} +{} @@",
            range(first(hunk[0].2, olds), olds),
            range(first(hunk[0].3, news), news)
        );
        for (op, line, _, _) in hunk {
            let mark = match op {
                Op::Same => ' ',
                Op::Removed => '-',
                Op::Added => '+',
            };
            out.push(mark);
            out.push_str(line);
            if !line.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
        k += 1;
    }
    out
}

fn range(start: usize, count: usize) -> String {
    if count == 1 {
        start.to_string()
    } else {
        format!("{start},{count}")
    }
}

/// The edit script from `a` to `b`, each line with its op.
fn script<'t>(a: &[&'t str], b: &[&'t str]) -> Vec<(Op, &'t str)> {
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<(Op, &str)> = a[..prefix].iter().map(|l| (Op::Same, *l)).collect();
    if ma.len().saturating_mul(mb.len()) <= MAX_CELLS {
        ops.extend(lcs(ma, mb));
    } else {
        ops.extend(ma.iter().map(|l| (Op::Removed, *l)));
        ops.extend(mb.iter().map(|l| (Op::Added, *l)));
    }
    ops.extend(a[a.len() - suffix..].iter().map(|l| (Op::Same, *l)));
    ops
}

/// A shortest edit script by a longest-common-subsequence table (removals
/// before additions at each place).
fn lcs<'t>(a: &[&'t str], b: &[&'t str]) -> Vec<(Op, &'t str)> {
    let w = b.len() + 1;
    // `len[i * w + j]`: the LCS length of `a[i..]` and `b[j..]`.
    let mut len = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            len[i * w + j] = if a[i] == b[j] {
                len[(i + 1) * w + j + 1] + 1
            } else {
                len[(i + 1) * w + j].max(len[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut ops = Vec::with_capacity(a.len() + b.len());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((Op::Same, a[i]));
            (i, j) = (i + 1, j + 1);
        } else if i < a.len() && (j == b.len() || len[(i + 1) * w + j] >= len[i * w + j + 1]) {
            ops.push((Op::Removed, a[i]));
            i += 1;
        } else {
            ops.push((Op::Added, b[j]));
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_texts_have_no_diff() {
        assert_eq!(unified("f", Some("a\nb\n"), "a\nb\n"), "");
    }

    #[test]
    fn an_added_line_with_context() {
        assert_eq!(
            unified(
                "s/SKILL.md",
                Some("---\ndescription: d\n---\nBody.\n"),
                "---\nname: s\ndescription: d\n---\nBody.\n"
            ),
            "--- a/s/SKILL.md\n+++ b/s/SKILL.md\n@@ -1,4 +1,5 @@\n ---\n+name: s\n description: d\n ---\n Body.\n"
        );
    }

    #[test]
    fn a_new_file() {
        assert_eq!(
            unified("s/agents/openai.yaml", None, "policy:\n  x: 1\n"),
            "--- /dev/null\n+++ b/s/agents/openai.yaml\n@@ -0,0 +1,2 @@\n+policy:\n+  x: 1\n"
        );
    }

    #[test]
    fn far_apart_changes_make_two_hunks_and_a_missing_newline_is_marked() {
        let old: String = (1..=20).map(|n| format!("{n}\n")).collect();
        let new = old
            .replacen("2\n", "two\n", 1)
            .replace("19\n20\n", "19\n20");
        assert_eq!(
            unified("f", Some(&old), &new),
            "--- a/f\n+++ b/f\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -17,4 +17,4 @@\n 17\n 18\n 19\n-20\n+20\n\\ No newline at end of file\n"
        );
    }

    #[test]
    fn a_removed_first_line() {
        assert_eq!(
            unified("f", Some("\n---\na\n"), "---\na\n"),
            "--- a/f\n+++ b/f\n@@ -1,3 +1,2 @@\n-\n ---\n a\n"
        );
    }

    /// Applying the script gives the new text back, whatever the middle.
    #[test]
    fn the_script_rebuilds_both_sides() {
        let a: Vec<&str> = "a\nb\nc\nd\ne\nf\n".split_inclusive('\n').collect();
        let b: Vec<&str> = "a\nx\nc\ny\ne\nf\nz\n".split_inclusive('\n').collect();
        let ops = script(&a, &b);
        let old: Vec<&str> = ops
            .iter()
            .filter(|o| o.0 != Op::Added)
            .map(|o| o.1)
            .collect();
        let new: Vec<&str> = ops
            .iter()
            .filter(|o| o.0 != Op::Removed)
            .map(|o| o.1)
            .collect();
        assert_eq!((old, new), (a, b));
    }
}
