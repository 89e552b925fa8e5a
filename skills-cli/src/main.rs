//! `skills`: validate, inspect and package Agent Skills.
//!
//! `main` parses arguments, runs one subcommand and maps its outcome to an
//! exit status: 0 success, 1 the input has errors (invalid skills; a pack or
//! archive that is damaged, unsafe or not signed as required: errors of kind
//! `InvalidData`), 2 usage or I/O failure. Errors are printed once, prefixed
//! `skills:`; a closed pipe exits quietly.

mod args;
mod bundle;
mod cmd;
mod installing;
mod listing;
mod outcome;
mod output;
mod progress;
mod report;
mod scan;
mod sign;
mod trust;
mod warnings;

use std::io;
use std::process::ExitCode;

use clap::Parser;

pub(crate) use outcome::Outcome;

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    warnings::install();
    let result = match cli.command {
        args::Command::Validate(a) => cmd::validate::run(&a),
        args::Command::Fix(a) => cmd::fix::run(&a),
        args::Command::Scan(a) => cmd::scan::run(&a),
        args::Command::Pack(a) => cmd::pack::run(&a),
        args::Command::Verify(a) => cmd::verify::run(&a),
        args::Command::Inspect(a) => cmd::inspect::run(&a),
        args::Command::Unpack(a) => cmd::unpack::run(&a),
        args::Command::Init(a) => cmd::init::run(&a),
        args::Command::Keygen(a) => cmd::keygen::run(&a),
        args::Command::Diff(a) => cmd::diff::run(&a),
        args::Command::Catalog(a) => cmd::catalog::run(&a),
        args::Command::Show(a) => cmd::show::run(a),
        args::Command::Read(a) => cmd::read::run(&a),
        args::Command::Run(a) => cmd::run::run(&a),
        args::Command::Serve(a) => cmd::serve::run(&a),
        args::Command::Lsp(a) => cmd::lsp::run(&a),
        args::Command::ReadProperties(a) => cmd::read_properties::run(&a),
        args::Command::ToPrompt(a) => cmd::to_prompt::run(&a),
        args::Command::Add(a) => cmd::add::run(&a),
        args::Command::Install(a) => cmd::install::run(&a),
        args::Command::Update(a) => cmd::update::run(&a),
        args::Command::Outdated(a) => cmd::outdated::run(&a),
        args::Command::Remove(a) => cmd::remove::run(&a),
        args::Command::List(a) => cmd::list::run(&a),
        args::Command::Import(a) => cmd::import::run(&a),
        args::Command::Publish(a) => cmd::publish::run(&a),
        args::Command::Push(a) => cmd::push::run(&a),
        args::Command::Pull(a) => cmd::pull::run(&a),
        args::Command::Trust(a) => cmd::trust::run(&a),
        args::Command::Completions(a) => cmd::completions::run(&a),
        args::Command::Man(a) => cmd::man::run(&a),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::Invalid) => ExitCode::from(1),
        Ok(Outcome::Usage) => ExitCode::from(2),
        Ok(Outcome::Code(code)) => ExitCode::from(code),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("skb: {}", skills_compiler::render::shown(&e.to_string()));
            ExitCode::from(if e.kind() == io::ErrorKind::InvalidData {
                1
            } else {
                2
            })
        }
    }
}
