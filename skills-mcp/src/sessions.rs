//! The live MCP sessions of an HTTP server: at most `max` at once, each
//! closed once idle for `idle`.
//!
//! rmcp's `LocalSessionManager` keeps a session until the client sends
//! `DELETE`, which many clients never do: 3,000 `initialize` requests grew a
//! server from 7.6 MB to 182 MB for good. [`Sessions`] wraps it. It counts
//! a session's open streams (the response to each request, a `GET`
//! stream), so a session is idle only while none is open and none has
//! closed for `idle`; [`Sessions::reap`] closes such sessions (rmcp's own
//! keep-alive, which would end a session in the middle of a long tool call,
//! is off). [`Sessions::admit`] lets one `initialize` through at a time and
//! only while fewer than `max` sessions are open (idle ones are reaped
//! first), so the cap holds exactly; past it the HTTP layer answers 503.
//! Whatever a closed session held (its worker task, its [`Session`] and
//! the skills it activated) is freed with it.
//!
//! Each session's requests are admitted here, in [`Sessions::create_stream`],
//! before rmcp's session worker sees them: the worker routes an answer to
//! the HTTP request that registered its JSON-RPC id last, so two requests
//! in flight with one id left one of them waiting forever. A request whose
//! id is in flight gets `-32600` on its own stream instead, and rmcp never
//! sees it; the session's transport ([`Tracked`]) frees the id when the
//! answer leaves, and answers a request not answered in time
//! ([`inflight`](crate::inflight)).
//!
//! [`Session`]: skills_bundle::session::Session

use std::collections::HashMap;
use std::fmt;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use futures_core::Stream;
use rmcp::model::{ClientJsonRpcMessage, RequestId, ServerJsonRpcMessage};
use rmcp::transport::WorkerTransport;
use rmcp::transport::streamable_http_server::session::local::{
    LocalSessionManager, LocalSessionManagerError, LocalSessionWorker,
};
use rmcp::transport::streamable_http_server::session::{
    ServerSseMessage, SessionId, SessionManager,
};

use crate::inflight::{self, InFlight, Tracked};

/// The sessions of one server; see the module documentation.
#[derive(Debug)]
pub(super) struct Sessions {
    inner: LocalSessionManager,
    activity: Arc<Mutex<HashMap<SessionId, Activity>>>,
    /// Held while one `initialize` is admitted and handled.
    admission: tokio::sync::Mutex<()>,
    max: usize,
    idle: Duration,
    request_timeout: Duration,
}

/// When a session was last used, how many of its streams are open, and its
/// requests in flight.
#[derive(Debug)]
struct Activity {
    last: Instant,
    open: usize,
    inflight: Arc<InFlight>,
}

/// An `initialize` refused: the server holds `max` sessions.
#[derive(Debug)]
pub(super) struct Full {
    max: usize,
    idle: Duration,
}

impl fmt::Display for Full {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Service Unavailable: the server holds its maximum of {} MCP sessions; end one (DELETE), wait until one has been idle {} s, or restart the server with a larger `--max-sessions`",
            self.max,
            self.idle.as_secs()
        )
    }
}

impl Sessions {
    pub(super) fn new(max: usize, idle: Duration, request_timeout: Duration) -> Sessions {
        let mut inner = LocalSessionManager::default();
        inner.session_config.keep_alive = None;
        Sessions {
            inner,
            activity: Arc::default(),
            admission: tokio::sync::Mutex::new(()),
            max,
            idle,
            request_timeout,
        }
    }

    /// How often [`Sessions::reap`] should run: a quarter of the idle time,
    /// between 1 s and 60 s, so a session is closed at most a quarter late.
    pub(super) fn reap_every(&self) -> Duration {
        (self.idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(60))
    }

    /// Admits one `initialize`: the guard, to be held until it has been
    /// handled, or [`Full`].
    pub(super) async fn admit(&self) -> Result<tokio::sync::MutexGuard<'_, ()>, Full> {
        let guard = self.admission.lock().await;
        self.reap().await;
        if self.live() < self.max {
            Ok(guard)
        } else {
            Err(Full {
                max: self.max,
                idle: self.idle,
            })
        }
    }

    /// Closes every session idle for `idle` or longer.
    pub(super) async fn reap(&self) {
        let idle: Vec<SessionId> = self
            .lock()
            .iter()
            .filter(|(_, a)| a.open == 0 && a.last.elapsed() >= self.idle)
            .map(|(id, _)| id.clone())
            .collect();
        for id in idle {
            // A session whose worker already ended is removed all the same.
            let _ = self.close_session(&id).await;
        }
    }

    fn live(&self) -> usize {
        self.lock().len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Activity>> {
        self.activity.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session's requests in flight.
    fn inflight(&self, id: &SessionId) -> Option<Arc<InFlight>> {
        self.lock().get(id).map(|a| Arc::clone(&a.inflight))
    }

    /// Marks the session used now.
    fn touch(&self, id: &SessionId) {
        if let Some(activity) = self.lock().get_mut(id) {
            activity.last = Instant::now();
        }
    }

    /// A stream of the session opening: counted until dropped.
    fn open(&self, id: &SessionId) -> Open {
        if let Some(activity) = self.lock().get_mut(id) {
            activity.last = Instant::now();
            activity.open += 1;
        }
        Open {
            activity: Arc::clone(&self.activity),
            id: id.clone(),
        }
    }
}

/// The one message of a request refused for its id: the duplicate's error.
fn refuse(id: &RequestId) -> ServerSseMessage {
    let error = ServerJsonRpcMessage::error(inflight::duplicate(id), Some(id.clone()));
    ServerSseMessage::from_message(error)
}

/// One open stream of a session; closing it (dropping) marks the session
/// used.
struct Open {
    activity: Arc<Mutex<HashMap<SessionId, Activity>>>,
    id: SessionId,
}

impl Drop for Open {
    fn drop(&mut self) {
        let mut activity = self.activity.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(activity) = activity.get_mut(&self.id) {
            activity.last = Instant::now();
            activity.open = activity.open.saturating_sub(1);
        }
    }
}

/// A session's stream, counted as open while it lives: rmcp's, or the
/// one message that refuses a request.
struct Counted<S> {
    refusal: Option<ServerSseMessage>,
    stream: Option<Pin<Box<S>>>,
    _open: Open,
}

impl<S> Counted<S> {
    fn new(stream: S, open: Open) -> Self {
        Counted {
            refusal: None,
            stream: Some(Box::pin(stream)),
            _open: open,
        }
    }
}

impl<S: Stream<Item = ServerSseMessage>> Stream for Counted<S> {
    type Item = ServerSseMessage;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<S::Item>> {
        if let Some(refusal) = self.refusal.take() {
            return Poll::Ready(Some(refusal));
        }
        match self.stream.as_mut() {
            Some(stream) => stream.as_mut().poll_next(cx),
            None => Poll::Ready(None),
        }
    }
}

impl SessionManager for Sessions {
    type Error = LocalSessionManagerError;
    type Transport = Tracked<WorkerTransport<LocalSessionWorker>>;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let (id, transport) = self.inner.create_session().await?;
        let inflight = Arc::new(InFlight::new(self.request_timeout, None));
        let activity = Activity {
            last: Instant::now(),
            open: 0,
            inflight: Arc::clone(&inflight),
        };
        self.lock().insert(id.clone(), activity);
        Ok((id, Tracked::new(transport, inflight, false)))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        self.inner.has_session(id).await
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.lock().remove(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let open = self.open(id);
        let mut admitted = None;
        let mut refusal = None;
        if let ClientJsonRpcMessage::Request(request) = &message
            && let Some(inflight) = self.inflight(id)
        {
            match inflight.admit(&request.id) {
                Ok(()) => admitted = Some((inflight, request.id.clone())),
                Err(inflight::Duplicate) => refusal = Some(refuse(&request.id)),
            }
        }
        if refusal.is_some() {
            return Ok(Counted {
                refusal,
                stream: None,
                _open: open,
            });
        }
        match self.inner.create_stream(id, message).await {
            Ok(stream) => Ok(Counted::new(stream, open)),
            Err(e) => {
                // The request never reached the session: its id is free.
                if let Some((inflight, request)) = admitted {
                    inflight.forget(&request);
                }
                Err(e)
            }
        }
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let open = self.open(id);
        let stream = self.inner.create_standalone_stream(id).await?;
        Ok(Counted::new(stream, open))
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        let open = self.open(id);
        let stream = self.inner.resume(id, last_event_id).await?;
        Ok(Counted::new(stream, open))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(future)
    }

    #[test]
    fn the_cap_holds_and_idle_sessions_are_closed_but_busy_ones_kept() {
        block_on(async {
            let idle = Duration::from_millis(100);
            let sessions = Sessions::new(2, idle, Duration::from_secs(60));
            let (a, _ta) = sessions.create_session().await.expect("a");
            let (b, _tb) = sessions.create_session().await.expect("b");
            let full = sessions.admit().await.expect_err("full");
            assert_eq!(
                full.to_string(),
                "Service Unavailable: the server holds its maximum of 2 MCP sessions; end one (DELETE), wait until one has been idle 0 s, or restart the server with a larger `--max-sessions`"
            );
            // `a` has a stream open (a long tool call): idle is `b` only.
            let open = sessions.open(&a);
            tokio::time::sleep(idle * 2).await;
            sessions.reap().await;
            assert_eq!(sessions.live(), 1);
            assert!(sessions.inner.has_session(&a).await.expect("has"));
            assert!(!sessions.inner.has_session(&b).await.expect("has"));
            drop(sessions.admit().await.expect("room for one"));
            // Closing the stream counts as use; idle again after `idle`.
            drop(open);
            sessions.reap().await;
            assert_eq!(sessions.live(), 1);
            tokio::time::sleep(idle * 2).await;
            sessions.reap().await;
            assert_eq!(sessions.live(), 0);
            assert!(!sessions.inner.has_session(&a).await.expect("has"));
            // `close_session` (DELETE) frees the place at once.
            let (c, _tc) = sessions.create_session().await.expect("c");
            sessions.close_session(&c).await.expect("closed");
            assert_eq!(sessions.live(), 0);
        });
    }
}
