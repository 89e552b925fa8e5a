//! The TCP connections of an HTTP server: at most `max` open, each closed
//! once it has waited too long on its client.
//!
//! hyper keeps a connection for as long as its client holds it: 300
//! connections that never finished their headers exhausted a 200-descriptor
//! limit, and every new client timed out until the attacker let go. Here
//! each connection has a watchdog ([`watch`]) that closes it
//!
//! - when its request line and headers have not all arrived `header` after
//!   the connection opened, or after the first byte of a later request;
//! - when nothing has moved on it for `idle` while the server waits on the
//!   client: no next request since the last answer, or an answer the client
//!   does not read (a write found the socket full, and nothing has been
//!   written since).
//!
//! A request body is bounded by the HTTP gate, which answers 408. A
//! connection is *serving* from the moment its request's headers are read
//! until its answer's body has ended, so a long tool call or an SSE stream
//! is never closed for lasting, only when its client stops reading.
//!
//! At most `max` connections are open. One more, or an accept the system
//! refuses for want of descriptors (`EMFILE`, `ENFILE`), closes the
//! connection that has waited longest for its client's request among those
//! not serving: a flood of unfinished connections cannot keep a new client
//! out, since each new connection pushes the oldest waiting one out. When
//! every connection is serving, a new one gets 503 and is closed, and a
//! refused accept is retried shortly after (places come back as requests
//! end, or as clients that stopped reading time out).

use std::collections::HashMap;
use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll};
use std::time::Duration;

use hyper::body::{Body, Frame, SizeHint};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

use crate::inflight::after;

/// How many connections, and how long each may wait on its client.
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    pub(super) max: usize,
    pub(super) header: Duration,
    pub(super) idle: Duration,
}

/// The open connections of one server.
#[derive(Debug)]
pub(super) struct Connections {
    limits: Limits,
    open: Mutex<Open>,
}

#[derive(Debug, Default)]
struct Open {
    next: u64,
    conns: HashMap<u64, Arc<Conn>>,
}

/// One connection's state, shared by its watchdog, its I/O and its
/// requests.
#[derive(Debug)]
pub(super) struct Conn {
    id: u64,
    state: Mutex<State>,
    /// A change that may bring the deadline forward.
    changed: Notify,
    /// Closed to make room.
    evicted: Notify,
}

#[derive(Debug)]
struct State {
    /// Requests whose answers have not ended.
    serving: usize,
    /// Since when the server has waited for the client's next request.
    waiting_since: Instant,
    /// When the request now arriving began: the connection's opening, or
    /// the first byte read after an answer.
    head_since: Option<Instant>,
    /// Since when a write has found the socket full, with nothing written
    /// since.
    stalled_since: Option<Instant>,
}

/// A connection registered with its server: unregistered when dropped.
#[derive(Debug)]
pub(super) struct Registered {
    connections: Arc<Connections>,
    conn: Arc<Conn>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.connections.lock().conns.remove(&self.conn.id);
    }
}

impl Registered {
    pub(super) fn conn(&self) -> &Arc<Conn> {
        &self.conn
    }
}

impl Connections {
    pub(super) fn new(limits: Limits) -> Connections {
        Connections {
            limits: Limits {
                max: limits.max.max(1),
                ..limits
            },
            open: Mutex::default(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Registers a new connection, closing the one that has waited longest
    /// when all places are taken; `None` when every connection is serving.
    pub(super) fn admit(self: &Arc<Self>) -> Option<Registered> {
        let mut open = self.lock();
        if open.conns.len() >= self.limits.max && !open.evict_oldest() {
            return None;
        }
        let id = open.next;
        open.next += 1;
        let now = Instant::now();
        let conn = Arc::new(Conn {
            id,
            state: Mutex::new(State {
                serving: 0,
                waiting_since: now,
                head_since: Some(now),
                stalled_since: None,
            }),
            changed: Notify::new(),
            evicted: Notify::new(),
        });
        open.conns.insert(id, Arc::clone(&conn));
        Some(Registered {
            connections: Arc::clone(self),
            conn,
        })
    }

    /// Closes the connection that has waited longest for its client, to
    /// free its descriptor: whether there was one.
    pub(super) fn make_room(&self) -> bool {
        self.lock().evict_oldest()
    }

    /// How many connections are open.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().conns.len()
    }

    pub(super) fn max(&self) -> usize {
        self.limits.max
    }
}

impl Open {
    fn evict_oldest(&mut self) -> bool {
        let oldest = self
            .conns
            .values()
            .filter_map(|c| c.waiting_since().map(|since| (since, c.id)))
            .min();
        let Some(conn) = oldest.and_then(|(_, id)| self.conns.remove(&id)) else {
            return false;
        };
        conn.evicted.notify_one();
        true
    }
}

impl Conn {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Since when the server has waited for this connection's next
    /// request; `None` while it is serving one.
    fn waiting_since(&self) -> Option<Instant> {
        let state = self.lock();
        (state.serving == 0).then_some(state.waiting_since)
    }

    /// A request's headers have been read: serving until the guard, held
    /// by its answer's body, is dropped.
    pub(super) fn serve(self: &Arc<Self>) -> Serving {
        {
            let mut state = self.lock();
            state.serving += 1;
            state.head_since = None;
        }
        self.changed.notify_one();
        Serving(Arc::clone(self))
    }

    fn read_some(&self) {
        let mut state = self.lock();
        if state.serving == 0 && state.head_since.is_none() {
            state.head_since = Some(Instant::now());
            drop(state);
            self.changed.notify_one();
        }
    }

    fn write_blocked(&self) {
        let mut state = self.lock();
        if state.stalled_since.is_none() {
            state.stalled_since = Some(Instant::now());
            drop(state);
            self.changed.notify_one();
        }
    }

    fn wrote_some(&self) {
        self.lock().stalled_since = None;
    }

    /// When the connection is to be closed, as things stand.
    fn deadline(&self, limits: &Limits) -> Option<Instant> {
        let state = self.lock();
        let stalled = state.stalled_since.map(|t| after(t, limits.idle));
        if state.serving > 0 {
            return stalled;
        }
        let waiting = match state.head_since {
            Some(t) => after(t, limits.header),
            None => after(state.waiting_since, limits.idle),
        };
        Some(stalled.map_or(waiting, |s| s.min(waiting)))
    }
}

/// A request being served; see [`Conn::serve`].
#[derive(Debug)]
pub(super) struct Serving(Arc<Conn>);

impl Drop for Serving {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.serving = state.serving.saturating_sub(1);
        if state.serving == 0 {
            state.waiting_since = Instant::now();
            state.head_since = None;
        }
        drop(state);
        self.0.changed.notify_one();
    }
}

/// Drives `connection` until it ends, or its connection has waited too long
/// on its client or is closed to make room; dropping it closes the socket.
pub(super) async fn watch(connections: &Connections, conn: &Conn, connection: impl Future) {
    let limits = connections.limits;
    let mut connection = std::pin::pin!(connection);
    loop {
        let deadline = conn.deadline(&limits);
        tokio::select! {
            _ = &mut connection => return,
            () = conn.evicted.notified() => return,
            () = conn.changed.notified() => {}
            () = async {
                match deadline {
                    Some(deadline) => tokio::time::sleep_until(deadline).await,
                    None => std::future::pending().await,
                }
            } => {
                // Still due once the state is read again: time is up.
                if conn.deadline(&limits).is_some_and(|d| d <= Instant::now()) {
                    return;
                }
            }
        }
    }
}

/// An answer's body, holding its request's [`Serving`] until it ends.
#[derive(Debug)]
pub(super) struct Served<B> {
    body: B,
    serving: Option<Serving>,
}

impl<B> Served<B> {
    pub(super) fn new(body: B, serving: Serving) -> Self {
        Served {
            body,
            serving: Some(serving),
        }
    }
}

impl<B: Body + Unpin> Body for Served<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let poll = Pin::new(&mut self.body).poll_frame(cx);
        if let Poll::Ready(None) = poll {
            self.serving = None;
        }
        poll
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// A connection's socket, reporting what moves on it to its [`Conn`].
#[derive(Debug)]
pub(super) struct Watched<S> {
    io: S,
    conn: Arc<Conn>,
}

impl<S> Watched<S> {
    pub(super) fn new(io: S, conn: Arc<Conn>) -> Self {
        Watched { io, conn }
    }

    fn wrote(&self, poll: &Poll<io::Result<usize>>) {
        match poll {
            Poll::Pending => self.conn.write_blocked(),
            Poll::Ready(Ok(n)) if *n > 0 => self.conn.wrote_some(),
            Poll::Ready(_) => {}
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let poll = Pin::new(&mut this.io).poll_read(cx, buf);
        if matches!(poll, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            this.conn.read_some();
        }
        poll
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.wrote(&poll);
        poll
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.wrote(&poll);
        poll
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max: usize) -> Limits {
        Limits {
            max,
            header: Duration::from_secs(10),
            idle: Duration::from_secs(60),
        }
    }

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .start_paused(true)
            .build()
            .expect("a runtime")
            .block_on(future)
    }

    #[test]
    fn a_new_connection_past_the_cap_closes_the_oldest_waiting_one() {
        block_on(async {
            let connections = Arc::new(Connections::new(limits(2)));
            let first = connections.admit().expect("room");
            tokio::time::advance(Duration::from_secs(1)).await;
            let second = connections.admit().expect("room");
            // The first is serving: the second, though newer, makes room.
            let serving = first.conn().serve();
            let third = connections.admit().expect("the second made room");
            assert_eq!(connections.len(), 2);
            let evicted = second.conn().evicted.notified();
            // Its watchdog learns it (a stored permit).
            tokio::time::timeout(Duration::from_millis(1), evicted)
                .await
                .expect("the second was told to close");
            // Both serving: no room, a 503.
            let _serving_third = third.conn().serve();
            assert!(connections.admit().is_none());
            assert!(!connections.make_room());
            // The first's answer ends: it waits again, and is the oldest.
            drop(serving);
            assert!(connections.make_room());
            assert_eq!(connections.len(), 1);
            drop((first, second));
            assert_eq!(connections.len(), 1);
        });
    }

    /// Serves one connection over a pipe of 4 KiB: a `GET` answered with
    /// `size` bytes after `delay`, watched; the client's end, and the
    /// server's task, which ends when the connection is closed.
    fn serve_pipe(
        limits: Limits,
        size: usize,
        delay: Duration,
    ) -> (tokio::io::DuplexStream, tokio::task::JoinHandle<()>) {
        use bytes::Bytes;
        use http_body_util::Full;
        let (client, server) = tokio::io::duplex(4096);
        let connections = Arc::new(Connections::new(limits));
        let registered = connections.admit().expect("room");
        let task = tokio::spawn(async move {
            let conn = Arc::clone(registered.conn());
            let service = hyper::service::service_fn(move |_request| {
                let serving = conn.serve();
                async move {
                    tokio::time::sleep(delay).await;
                    let body = Full::new(Bytes::from(vec![b'x'; size]));
                    Ok::<_, std::convert::Infallible>(hyper::Response::new(Served::new(
                        body, serving,
                    )))
                }
            });
            let io =
                hyper_util::rt::TokioIo::new(Watched::new(server, Arc::clone(registered.conn())));
            let connection =
                hyper::server::conn::http1::Builder::new().serve_connection(io, service);
            watch(&connections, registered.conn(), connection).await;
        });
        (client, task)
    }

    const GET: &[u8] = b"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    /// Reads one answer of `size` bytes of body.
    async fn read_answer(client: &mut tokio::io::DuplexStream, size: usize) {
        use tokio::io::AsyncReadExt;
        let mut got = Vec::new();
        let mut chunk = [0u8; 4096];
        while !got.ends_with(&vec![b'x'; size.min(64)]) || got.len() < size {
            let n = client.read(&mut chunk).await.expect("read");
            assert!(
                n > 0,
                "closed mid-answer: {}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&chunk[..n]);
        }
    }

    /// How long the server's task ran, on the paused clock.
    async fn closed_after(task: tokio::task::JoinHandle<()>) -> Duration {
        let start = Instant::now();
        task.await.expect("the server's task");
        start.elapsed()
    }

    #[test]
    fn unfinished_headers_are_closed_after_the_header_timeout() {
        block_on(async {
            use tokio::io::AsyncWriteExt;
            let limits = limits(4);
            let (mut client, task) = serve_pipe(limits, 10, Duration::ZERO);
            client.write_all(&GET[..20]).await.expect("write");
            let took = closed_after(task).await;
            assert!(took >= limits.header && took < limits.idle, "{took:?}");
            drop(client);
        });
    }

    #[test]
    fn a_kept_alive_connection_is_closed_once_idle() {
        block_on(async {
            use tokio::io::AsyncWriteExt;
            let limits = limits(4);
            let (mut client, task) = serve_pipe(limits, 10, Duration::ZERO);
            client.write_all(GET).await.expect("write");
            read_answer(&mut client, 10).await;
            let took = closed_after(task).await;
            assert!(took >= limits.idle && took < limits.idle * 2, "{took:?}");
        });
    }

    #[test]
    fn an_answer_the_client_does_not_read_is_closed_once_idle() {
        block_on(async {
            use tokio::io::AsyncWriteExt;
            let limits = limits(4);
            let (mut client, task) = serve_pipe(limits, 1 << 20, Duration::ZERO);
            client.write_all(GET).await.expect("write");
            let took = closed_after(task).await;
            assert!(took >= limits.idle && took < limits.idle * 2, "{took:?}");
        });
    }

    #[test]
    fn a_slow_answer_is_not_closed() {
        block_on(async {
            use tokio::io::AsyncWriteExt;
            let limits = limits(4);
            let slow = limits.idle * 10;
            let (mut client, task) = serve_pipe(limits, 1 << 20, slow);
            client.write_all(GET).await.expect("write");
            let start = Instant::now();
            read_answer(&mut client, 1 << 20).await;
            assert!(start.elapsed() >= slow);
            // Then it waits for the next request, as long as `idle`.
            let took = closed_after(task).await;
            assert!(took >= limits.idle && took < limits.idle * 2, "{took:?}");
        });
    }

    #[test]
    fn deadlines_follow_what_the_connection_waits_for() {
        block_on(async {
            let limits = limits(4);
            let connections = Arc::new(Connections::new(limits));
            let registered = connections.admit().expect("room");
            let conn = registered.conn();
            let opened = Instant::now();
            // Opened: its headers within `header`.
            assert_eq!(conn.deadline(&limits), Some(opened + limits.header));
            let serving = conn.serve();
            assert_eq!(conn.deadline(&limits), None, "serving takes its time");
            tokio::time::advance(Duration::from_secs(5)).await;
            conn.write_blocked();
            let stalled = Instant::now();
            assert_eq!(conn.deadline(&limits), Some(stalled + limits.idle));
            conn.wrote_some();
            assert_eq!(conn.deadline(&limits), None);
            drop(serving);
            let answered = Instant::now();
            // Kept alive: the next request within `idle`, then its
            // headers within `header` of its first byte.
            assert_eq!(conn.deadline(&limits), Some(answered + limits.idle));
            tokio::time::advance(Duration::from_secs(30)).await;
            conn.read_some();
            let first_byte = Instant::now();
            assert_eq!(conn.deadline(&limits), Some(first_byte + limits.header));
        });
    }
}
