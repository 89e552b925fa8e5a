//! The server: the handshake, then one loop over the client's messages on
//! the connection's thread, and the checks on a worker thread of their
//! own, debounced, so that hover and completion answer while a large
//! document is being checked.
//!
//! Documents are synchronised whole (`TextDocumentSyncKind::FULL`): each
//! change carries the text, so the server's copy is exactly the editor's.
//! Every handler runs under `catch_unwind`: a bug answers its request with
//! an internal error and the session goes on.

use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender, unbounded};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::{
    CodeActionParams, CodeActionProviderCapability, CompletionOptions, CompletionParams,
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, ExecuteCommandOptions, ExecuteCommandParams, Hover, HoverContents,
    HoverParams, HoverProviderCapability, InitializeParams, InitializeResult, MarkupContent,
    MarkupKind, PublishDiagnosticsParams, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use serde_json::Value;

use crate::document::{Document, Documents, Kind};
use crate::frontmatter::Frontmatter;
use crate::position::{Encoding, Lines};
use crate::settings::Settings;
use crate::{actions, analysis, completion, hover, preview};

/// How a session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `shutdown`, then `exit`.
    Clean,
    /// `exit` without `shutdown`, or the client went away.
    Abrupt,
}

/// Serves `connection` until the client exits or goes away.
pub fn serve(connection: &Connection, settings: Settings) -> Ended {
    let Some((settings, encoding)) = handshake(connection, settings) else {
        return Ended::Abrupt;
    };
    let (jobs, to_worker) = unbounded::<Job>();
    let sender = connection.sender.clone();
    let worker = std::thread::Builder::new()
        .name("skills-lsp-check".into())
        .spawn(move || check_loop(&to_worker, &sender, settings, encoding));
    let mut server = Server {
        documents: Documents::default(),
        settings,
        encoding,
        jobs,
        shutdown: false,
    };
    let mut ended = Ended::Abrupt;
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                let response = server.request(request);
                if connection.sender.send(Message::Response(response)).is_err() {
                    break;
                }
            }
            Message::Notification(n) if n.method == "exit" => {
                if server.shutdown {
                    ended = Ended::Clean;
                }
                break;
            }
            Message::Notification(n) => server.notification(n),
            Message::Response(_) => {}
        }
    }
    drop(server);
    if let Ok(worker) = worker {
        let _ = worker.join();
    }
    ended
}

/// Answers requests until `initialize`, and answers it: the settings with
/// the client's options, and the position encoding chosen.
fn handshake(connection: &Connection, settings: Settings) -> Option<(Settings, Encoding)> {
    for message in &connection.receiver {
        let request = match message {
            Message::Request(r) if r.method == "initialize" => r,
            Message::Request(r) => {
                let e = Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "not initialized".into(),
                );
                connection.sender.send(Message::Response(e)).ok()?;
                continue;
            }
            Message::Notification(n) if n.method == "exit" => return None,
            _ => continue,
        };
        let params = match serde_json::from_value::<InitializeParams>(request.params) {
            Ok(p) => p,
            Err(e) => {
                let e =
                    Response::new_err(request.id, ErrorCode::InvalidParams as i32, e.to_string());
                connection.sender.send(Message::Response(e)).ok()?;
                continue;
            }
        };
        let settings = match settings.with_options(params.initialization_options.as_ref()) {
            Ok(s) => s,
            Err(e) => {
                let e = Response::new_err(request.id, ErrorCode::InvalidParams as i32, e);
                connection.sender.send(Message::Response(e)).ok()?;
                continue;
            }
        };
        let offered = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref());
        let encoding = Encoding::negotiate(offered);
        let result = InitializeResult {
            capabilities: capabilities(encoding),
            server_info: Some(ServerInfo {
                name: "skb lsp".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
        };
        let response = Response::new_ok(request.id, result);
        connection.sender.send(Message::Response(response)).ok()?;
        return Some((settings, encoding));
    }
    None
}

/// What the server offers.
pub fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![":".into(), " ".into(), "-".into()]),
            ..CompletionOptions::default()
        }),
        code_action_provider: Some(CodeActionProviderCapability::Simple(true)),
        execute_command_provider: Some(ExecuteCommandOptions {
            commands: vec![preview::COMMAND.into()],
            ..ExecuteCommandOptions::default()
        }),
        ..ServerCapabilities::default()
    }
}

/// A document to check again, or to clear (closed).
struct Job {
    uri: Uri,
    document: Option<Document>,
}

/// The worker: waits for a document, lets edits settle for the debounce,
/// checks the latest text of each document changed, publishes; until the
/// server drops its end, after publishing what it had received.
fn check_loop(
    jobs: &Receiver<Job>,
    sender: &Sender<Message>,
    settings: Settings,
    encoding: Encoding,
) {
    // What the scan of each open document's folder kept, by the URI's
    // text: dropped when the document closes, or when its check panicked
    // (a cache left half-written is not used).
    let mut caches: HashMap<String, skills_scan::Cache> = HashMap::new();
    while let Ok(first) = jobs.recv() {
        // By the URI's text: the latest job of each document.
        let mut pending: HashMap<String, Job> = HashMap::new();
        pending.insert(first.uri.as_str().to_string(), first);
        let mut open = true;
        loop {
            match jobs.recv_timeout(settings.debounce) {
                Ok(job) => {
                    pending.insert(job.uri.as_str().to_string(), job);
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    open = false;
                    break;
                }
            }
        }
        // Every document received is published, the last ones too when
        // the session ends: `serve` waits for them.
        for Job { uri, document } in pending.into_values() {
            let key = uri.as_str().to_string();
            let (diagnostics, version) = match &document {
                Some(doc) => {
                    let cache = caches.entry(key.clone()).or_default();
                    let found = catch_unwind(AssertUnwindSafe(|| {
                        analysis::diagnostics(doc, &settings, encoding, cache)
                    }));
                    if found.is_err() {
                        caches.remove(&key);
                    }
                    (found.unwrap_or_default(), Some(doc.version))
                }
                None => {
                    caches.remove(&key);
                    (Vec::new(), None)
                }
            };
            let params = PublishDiagnosticsParams::new(uri, diagnostics, version);
            let n = Notification::new("textDocument/publishDiagnostics".into(), params);
            if sender.send(Message::Notification(n)).is_err() {
                return;
            }
        }
        if !open {
            return;
        }
    }
}

struct Server {
    documents: Documents,
    settings: Settings,
    encoding: Encoding,
    jobs: Sender<Job>,
    shutdown: bool,
}

/// A request's failure: the JSON-RPC error code and message.
type Failure = (ErrorCode, String);

impl Server {
    fn request(&mut self, request: Request) -> Response {
        let Request { id, method, params } = request;
        if self.shutdown {
            return Response::new_err(id, ErrorCode::InvalidRequest as i32, "shut down".into());
        }
        let answer = catch_unwind(AssertUnwindSafe(|| self.answer(&method, params)))
            .unwrap_or_else(|_| Err((ErrorCode::InternalError, format!("`{method}` failed"))));
        respond(id, answer)
    }

    fn answer(&mut self, method: &str, params: Value) -> Result<Value, Failure> {
        match method {
            "shutdown" => {
                self.shutdown = true;
                Ok(Value::Null)
            }
            "textDocument/hover" => {
                let p: HoverParams = parse(params)?;
                let position = p.text_document_position_params;
                Ok(json(
                    self.hover(&position.text_document.uri, position.position),
                ))
            }
            "textDocument/completion" => {
                let p: CompletionParams = parse(params)?;
                let position = p.text_document_position;
                let Some(doc) = self.skill_md(&position.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let lines = Lines::new(&doc.text, self.encoding);
                let offset = lines.offset(&doc.text, position.position);
                Ok(json(completion::complete(
                    &doc.dir, &doc.path, &doc.text, offset,
                )))
            }
            "textDocument/codeAction" => {
                let p: CodeActionParams = parse(params)?;
                let Some(doc) = self.skill_md(&p.text_document.uri) else {
                    return Ok(Value::Null);
                };
                let lines = Lines::new(&doc.text, self.encoding);
                let range =
                    lines.offset(&doc.text, p.range.start)..lines.offset(&doc.text, p.range.end);
                Ok(json(actions::actions(doc, range, &self.settings, &lines)))
            }
            "workspace/executeCommand" => {
                let p: ExecuteCommandParams = parse(params)?;
                if p.command != preview::COMMAND {
                    return Err((
                        ErrorCode::InvalidParams,
                        format!("unknown command `{}`", p.command),
                    ));
                }
                let uri = p
                    .arguments
                    .first()
                    .and_then(|a| serde_json::from_value::<Uri>(a.clone()).ok())
                    .ok_or((
                        ErrorCode::InvalidParams,
                        "give the `SKILL.md`'s URI".to_string(),
                    ))?;
                let doc = self.skill_md(&uri).ok_or((
                    ErrorCode::InvalidParams,
                    "not an open `SKILL.md`".to_string(),
                ))?;
                Ok(preview::preview(doc, &self.settings))
            }
            _ => Err((
                ErrorCode::MethodNotFound,
                format!("`{method}` is not served"),
            )),
        }
    }

    fn hover(&self, uri: &Uri, position: lsp_types::Position) -> Option<Hover> {
        let doc = self.skill_md(uri)?;
        let lines = Lines::new(&doc.text, self.encoding);
        let offset = lines.offset(&doc.text, position);
        let fm = Frontmatter::parse(&doc.dir, &doc.path, &doc.text);
        let profile = self.settings.profile;
        let (text, span) = if let Some(entry) = fm.key_at(offset) {
            let text = hover::key(&doc.dir, &doc.path, &doc.text, entry, profile);
            (text, entry.key_span.clone())
        } else {
            let entry = fm.value_at(offset).filter(|e| e.key == "name")?;
            let text = hover::name(&doc.dir, &doc.path, &doc.text, profile);
            (text, entry.value_span.clone())
        };
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: text,
            }),
            range: Some(lines.range(&doc.text, span)),
        })
    }

    fn skill_md(&self, uri: &Uri) -> Option<&Document> {
        self.documents.get(uri).filter(|d| d.kind == Kind::SkillMd)
    }

    fn notification(&mut self, n: Notification) {
        let _ = catch_unwind(AssertUnwindSafe(|| self.notified(n)));
    }

    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                if let Ok(p) = parse::<DidOpenTextDocumentParams>(n.params) {
                    let d = p.text_document;
                    self.changed(&d.uri, d.text, d.version);
                }
            }
            "textDocument/didChange" => {
                if let Ok(p) = parse::<DidChangeTextDocumentParams>(n.params)
                    // Full synchronisation: the last change is the text.
                    && let Some(change) = p.content_changes.into_iter().last()
                {
                    let d = p.text_document;
                    self.changed(&d.uri, change.text, d.version);
                }
            }
            "textDocument/didSave" => {
                if let Ok(p) = parse::<DidSaveTextDocumentParams>(n.params)
                    && let Some(doc) = self.documents.get(&p.text_document.uri)
                {
                    let job = Job {
                        uri: p.text_document.uri,
                        document: Some(doc.clone()),
                    };
                    let _ = self.jobs.send(job);
                }
            }
            "textDocument/didClose" => {
                if let Ok(p) = parse::<DidCloseTextDocumentParams>(n.params) {
                    self.documents.close(&p.text_document.uri);
                    let job = Job {
                        uri: p.text_document.uri,
                        document: None,
                    };
                    let _ = self.jobs.send(job);
                }
            }
            _ => {}
        }
    }

    fn changed(&mut self, uri: &Uri, text: String, version: i32) {
        if let Some(doc) = self.documents.set(uri, text, version) {
            let job = Job {
                uri: uri.clone(),
                document: Some(doc.clone()),
            };
            let _ = self.jobs.send(job);
        }
    }
}

fn parse<T: serde::de::DeserializeOwned>(params: Value) -> Result<T, Failure> {
    serde_json::from_value(params).map_err(|e| (ErrorCode::InvalidParams, e.to_string()))
}

fn json(value: impl serde::Serialize) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

fn respond(id: RequestId, answer: Result<Value, Failure>) -> Response {
    match answer {
        Ok(v) => Response::new_ok(id, v),
        Err((code, message)) => Response::new_err(id, code as i32, message),
    }
}
