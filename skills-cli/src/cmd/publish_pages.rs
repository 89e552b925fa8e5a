//! `skb publish`'s browsable pages: the published folder read back
//! ([`html::read_site`]), each skill's newest archive scanned as the
//! install gate scans it (so a page shows what `skb add` will see), the
//! Claude Code plugin each skill came from, then the pages rendered and
//! written ([`html::render`], [`html::write_pages`]).

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use skills_compiler::Checked;
use skills_core::zip::Limits;
use skills_scan::SkillFile;
use skills_supply::index::Index;
use skills_supply::index::html::{self, PluginSource, ScanSummary};

/// The largest marketplace manifest read for its name: 1 MiB, as
/// discovery's bound on a manifest.
const MAX_MARKETPLACE_BYTES: u64 = 1 << 20;

/// Writes the pages of `index` (the site index just published) under
/// `out`; returns the paths written and those unchanged.
pub fn write(
    out: &Path,
    index: &Index,
    base_url: Option<&str>,
    checked: &Checked,
    inputs: &[PathBuf],
    limits: &Limits,
) -> io::Result<(Vec<PathBuf>, Vec<PathBuf>)> {
    let err = |e: skills_supply::index::IndexError| {
        io::Error::new(io::ErrorKind::InvalidData, e.to_string())
    };
    let plugins = plugins(checked, inputs);
    let mut pages = Vec::new();
    for (mut page, files) in html::read_site(out, index, limits).map_err(err)? {
        if !files.is_empty() {
            page.scan = Some(scan(&files));
        }
        page.plugin = plugins.get(&page.name).cloned();
        pages.push(page);
    }
    html::write_pages(out, &html::render(&pages, base_url)).map_err(err)
}

/// The scan of one archive's files, summed up.
fn scan(files: &[(String, Vec<u8>)]) -> ScanSummary {
    let files: Vec<SkillFile<'_>> = files
        .iter()
        .map(|(path, bytes)| SkillFile { path, bytes })
        .collect();
    let report = skills_scan::scan(&files, &skills_install::gate::options());
    let mut counts = skills_core::lock::FindingCounts::default();
    let mut rules: BTreeMap<(std::cmp::Reverse<skills_scan::Severity>, &str), usize> =
        BTreeMap::new();
    for f in &report.findings {
        if let Some(n) = counts.get_mut(f.severity.as_str()) {
            *n += 1;
        }
        *rules
            .entry((std::cmp::Reverse(f.severity), f.rule.code))
            .or_default() += 1;
    }
    ScanSummary {
        engine: skills_install::gate::engine(),
        counts,
        rules: rules
            .into_iter()
            .map(|((sev, code), n)| (code.to_string(), sev.0.as_str().to_string(), n))
            .collect(),
    }
}

/// The plugin each published skill came from, by the skill's name, for
/// the skills of a path published that is a Claude Code marketplace
/// (`.claude-plugin/marketplace.json` with a `name`; discovery reads a
/// marketplace only at a path's root).
fn plugins(checked: &Checked, inputs: &[PathBuf]) -> BTreeMap<String, PluginSource> {
    let marketplaces: Vec<(&PathBuf, String)> = inputs
        .iter()
        .filter_map(|p| Some((p, marketplace_name(p)?)))
        .collect();
    let mut plugins = BTreeMap::new();
    for skill in &checked.skills {
        let (Some(plugin), Some(name)) = (&skill.plugin, skill.name()) else {
            continue;
        };
        if skill.duplicate_of.is_some() || !skill.is_valid() {
            continue;
        }
        if let Some((_, marketplace)) = marketplaces.iter().find(|(p, _)| skill.dir.starts_with(p))
        {
            plugins
                .entry(name.to_string())
                .or_insert_with(|| PluginSource {
                    plugin: plugin.clone(),
                    marketplace: marketplace.clone(),
                });
        }
    }
    plugins
}

/// The `name` of a folder's Claude Code marketplace, if it has one.
fn marketplace_name(dir: &Path) -> Option<String> {
    let file = fs::File::open(dir.join(".claude-plugin/marketplace.json")).ok()?;
    let mut text = Vec::new();
    file.take(MAX_MARKETPLACE_BYTES)
        .read_to_end(&mut text)
        .ok()?;
    let json: serde_json::Value = serde_json::from_slice(&text).ok()?;
    Some(json.get("name")?.as_str()?.to_string())
}
