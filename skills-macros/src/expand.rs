//! From arguments to tokens: run the compiler, put each diagnostic on the
//! literal it came from, and let `skills_compiler::codegen` print the plan.

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::quote;

use skills_compiler::embed::{self, from_pack};
use skills_compiler::{self as compiler, Options, Severity, codegen, locked};

use crate::fallback;
use crate::input::{self, Args, Warnings};

/// Expands one `skills_bundle!` call.
pub(crate) fn expand(input: TokenStream) -> TokenStream {
    let args = match input::parse(input) {
        Ok(a) => a,
        Err(e) => return fallback::error(e.span, &e.message),
    };
    let manifest = match std::env::var_os("CARGO_MANIFEST_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            return fallback::error(
                Span::call_site(),
                "`CARGO_MANIFEST_DIR` is not set; build with Cargo",
            );
        }
    };
    if let Some((lock, span)) = &args.lock {
        return expand_lock(&manifest, &args, lock, *span);
    }
    match &args.pack {
        Some((pack, span)) => expand_pack(&manifest, &args, pack, *span),
        None => {
            let roots = args
                .paths
                .iter()
                .map(|(p, s)| (manifest.join(p), *s))
                .collect();
            expand_dirs(&manifest, &args, roots, &[], Vec::new())
        }
    }
}

/// `lock = "..."`: the folders the lock names, checked file by file against
/// it, then compiled as directories; each skill's digest must be the
/// lock's.
fn expand_lock(manifest: &Path, args: &Args, lock: &str, span: Span) -> TokenStream {
    let path = manifest.join(lock);
    match locked::roots(&path, lock) {
        Ok(l) => {
            let roots = l.roots.iter().map(|r| (r.clone(), span)).collect();
            expand_dirs(manifest, args, roots, &l.digests, l.read)
        }
        Err(message) => {
            let read: Vec<PathBuf> = [path].into_iter().filter(|p| p.is_file()).collect();
            fallback::empty(
                &args.krate,
                fallback::error(span, &message),
                codegen::track(&read),
            )
        }
    }
}

/// `pack = "..."`: the pack, checked and planned by the compiler.
fn expand_pack(manifest: &Path, args: &Args, pack: &str, span: Span) -> TokenStream {
    let pubkey = args.pubkey.as_ref().map(|(key, _)| key.as_str());
    let mut embedded = from_pack::embed_pack(manifest, pack, pubkey);
    match embedded.plan {
        Ok(plan) => {
            let tracking = codegen::track(&embedded.read);
            let data = codegen::bundle(&args.krate, &plan);
            quote! {
                {
                    #tracking
                    #data
                }
            }
        }
        Err(message) => {
            // A missing file cannot be tracked (`include_bytes!` would add
            // a second error); the message already names it.
            embedded.read.retain(|p| p.is_file());
            let tracking = codegen::track(&embedded.read);
            fallback::empty(&args.krate, fallback::error(span, &message), tracking)
        }
    }
}

/// Skill directories (each with the span its diagnostics go to): checked,
/// reported, planned; with `digests` (a lock's), each named skill's digest
/// must be the one given; `extra` files are tracked for rebuilds too.
fn expand_dirs(
    manifest: &Path,
    args: &Args,
    roots: Vec<(PathBuf, Span)>,
    digests: &[(String, String)],
    extra: Vec<PathBuf>,
) -> TokenStream {
    let krate = &args.krate;
    let (roots, spans): (Vec<PathBuf>, Vec<Span>) = roots.into_iter().unzip();
    let options = Options {
        profile: args.profile,
        lints: args.lints,
        discovery: args.discovery.clone(),
        files: args.files,
        ..Options::default()
    };
    let checked = compiler::check(&roots, &options);
    // Each diagnostic is reported at the path literal its root came from.
    let span_of = |path: &Path| {
        roots
            .iter()
            .zip(&spans)
            .find(|(root, _)| path.starts_with(root))
            .map_or(Span::call_site(), |(_, span)| *span)
    };
    let mut errors = TokenStream::new();
    let mut warnings = TokenStream::new();
    for (i, d) in checked.diagnostics().enumerate() {
        let text = codegen::error_text(&codegen::relative(d, manifest));
        let is_error = d.severity == Severity::Error || args.warnings == Warnings::Deny;
        if is_error {
            errors.extend(fallback::error(span_of(&d.path), &text));
        } else if args.warnings == Warnings::Warn {
            warnings.extend(fallback::warning(span_of(&d.path), i, &text));
        }
    }
    let mut tracked: Vec<PathBuf> = checked
        .skills
        .iter()
        .flat_map(|s| s.files.iter().map(|f| f.path.clone()))
        .collect();
    tracked.extend(extra);
    tracked.sort();
    tracked.dedup();
    let tracking = codegen::track(&tracked);
    if !errors.is_empty() {
        return fallback::empty(krate, errors, tracking);
    }
    let plan = match embed::plan(&checked, &roots, &args.exclude) {
        Ok(plan) => plan,
        Err(e) => {
            let span = spans.first().copied().unwrap_or_else(Span::call_site);
            return fallback::empty(krate, fallback::error(span, &e.message), tracking);
        }
    };
    if let Err(message) = locked::check_digests(&plan, digests) {
        let span = spans.first().copied().unwrap_or_else(Span::call_site);
        return fallback::empty(krate, fallback::error(span, &message), tracking);
    }
    let data = codegen::bundle(krate, &plan);
    quote! {
        {
            #warnings
            #tracking
            #data
        }
    }
}
