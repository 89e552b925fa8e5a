//! What one scan of a skill keeps for the next scan of the same skill: an
//! editor scans the folder again on every edit of one file (`skb lsp`), and
//! the other files have not changed.
//!
//! A reading of a file is analyzed ([`super::analyze_file`]) as a function
//! of its text, its path, the language it is read as, the options, and what
//! the scan knows of the whole skill ([`crate::ctx::Skill`]: the paths it
//! ships, what its code files export to each other, the service it declares).
//! So what the analysis found is kept under the reading's path, language and
//! the SHA-256 of its text, and used again only while all of the rest is
//! equal: a changed path list, option, export or declaration empties the
//! cache first. What reads across files (the second pass over files run as
//! another language, the data-flow join, suppression, severity) runs on
//! every scan, over what was kept.
//!
//! The code files' exports ([`crate::flow::Modules`]) are kept too, under
//! the digest of the code files they come from. Readings no scan used are
//! dropped after each scan, so the cache holds one scan's worth.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use crate::Options;
use crate::context::Declared;
use crate::ctx::{Kind, Run, Sink};
use crate::finding::Finding;
use crate::flow::Modules;

/// What a scan of a skill keeps for the next scan of it (see
/// [`crate::scan_dir_given_cached`]). Empty by default; a cache used for
/// another skill, or with other options, is emptied by the scan, never
/// trusted.
#[derive(Debug, Default)]
pub struct Cache {
    /// What the kept analyses depend on besides their own text.
    context: Option<Context>,
    /// The code files' exports, by the digest of those files.
    modules: Option<([u8; 32], Modules)>,
    views: HashMap<Key, Analyzed>,
    /// The keys this scan used: the others are dropped at its end.
    used: Vec<Key>,
}

/// What every kept analysis was made with.
#[derive(Debug, PartialEq)]
struct Context {
    options: Options,
    paths: Vec<String>,
    modules: [u8; 32],
    declared: Declared,
}

/// One reading of one file, as one language.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    path: String,
    kind: Kind,
    text: [u8; 32],
}

/// What analyzing one reading found; its runs name the reading they come
/// from, which is set again when they are used.
#[derive(Debug, Clone)]
pub(super) struct Analyzed {
    pub(super) findings: Vec<Finding>,
    pub(super) sinks: Vec<Sink>,
    pub(super) runs: Vec<Run>,
}

impl Cache {
    /// The code files' exports: the kept ones when `code` (every file the
    /// exports are read from, with its path) and the size bound are what
    /// they were read with, else `read()`.
    pub(super) fn modules<'a>(
        &mut self,
        code: impl Iterator<Item = (&'a str, &'a [u8])>,
        max_bytes: usize,
        read: impl FnOnce() -> Modules,
    ) -> ([u8; 32], Modules) {
        let mut hash = Sha256::new();
        hash.update((max_bytes as u64).to_le_bytes());
        for (path, bytes) in code {
            hash.update((path.len() as u64).to_le_bytes());
            hash.update(path.as_bytes());
            hash.update((bytes.len() as u64).to_le_bytes());
            hash.update(bytes);
        }
        let digest: [u8; 32] = hash.finalize().into();
        match self.modules.take() {
            Some((kept, modules)) if kept == digest => (digest, modules),
            _ => (digest, read()),
        }
    }

    /// Gives back the exports [`Cache::modules`] handed out, for the next scan.
    pub(super) fn keep_modules(&mut self, digest: [u8; 32], modules: Modules) {
        self.modules = Some((digest, modules));
    }

    /// Starts a scan made with `options` of a skill shipping `paths`, its
    /// exports read from code of digest `modules`, declaring `declared`:
    /// what was kept under another context is dropped.
    pub(super) fn begin(
        &mut self,
        options: &Options,
        paths: &[&str],
        modules: [u8; 32],
        declared: &Declared,
    ) {
        let same = self.context.as_ref().is_some_and(|c| {
            c.options == *options
                && c.modules == modules
                && c.paths.iter().map(String::as_str).eq(paths.iter().copied())
                && c.declared == *declared
        });
        if !same {
            self.views.clear();
            self.context = Some(Context {
                options: options.clone(),
                paths: paths.iter().map(|p| p.to_string()).collect(),
                modules,
                declared: declared.clone(),
            });
        }
        self.used.clear();
    }

    /// What analyzing the reading `text` of `path` as `kind` found, as the
    /// reading `view` of this scan: kept, or made by `analyze` and kept.
    pub(super) fn analyzed(
        &mut self,
        path: &str,
        kind: Kind,
        text: &str,
        view: usize,
        analyze: impl FnOnce() -> Analyzed,
    ) -> Analyzed {
        let key = Key {
            path: path.to_string(),
            kind,
            text: Sha256::digest(text.as_bytes()).into(),
        };
        let mut found = match self.views.get(&key) {
            Some(kept) => kept.clone(),
            None => {
                let made = analyze();
                self.views.insert(key.clone(), made.clone());
                made
            }
        };
        for run in &mut found.runs {
            run.from = view;
        }
        self.used.push(key);
        found
    }

    /// Ends a scan: only what it used is kept.
    pub(super) fn end(&mut self) {
        let used: std::collections::HashSet<&Key> = self.used.iter().collect();
        self.views.retain(|key, _| used.contains(key));
        self.used.clear();
    }
}
