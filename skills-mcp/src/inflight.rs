//! The requests in flight on one stdio connection or one MCP session over
//! HTTP, each by its JSON-RPC id, from the moment it is admitted until its
//! answer has been handed to the transport.
//!
//! rmcp keys a session's pending requests by id alone: a second request
//! with the id of one still in flight replaced the first, and one of the
//! two answers was dropped (over HTTP its client waited forever, 35 of 50
//! in one test). So an id in flight is refused: the second request gets
//! `-32600` naming the id, and only the first reaches rmcp. Over stdio
//! [`Tracked`] admits each request as it reads it; over HTTP the session
//! layer admits it before rmcp's session worker sees it, because the worker
//! routes answers by id too ([`sessions`](crate::sessions)).
//!
//! Every admitted request is answered: by its handler, or after
//! [`InFlight`]'s timeout by `-32001` (request timed out). The handler of a
//! request that timed out, or that its client cancelled, is told to stop
//! ([`Abandon`], which `tools/call` obeys by dropping the script run, which
//! kills it), and its late answer is dropped here. Its id stays in flight
//! until that answer comes, so a new request with the same id cannot
//! receive it. A client's `notifications/cancelled` is therefore handled
//! here and not passed on: rmcp would forget the id at once, and a new
//! request reusing it would then receive the old one's answer.
//!
//! Over stdio the answers in flight are also bounded ([`Bound`]): requests
//! admitted and not yet answered plus answers not yet written, in number
//! and in bytes. At the bound the transport stops reading, so a client that
//! writes requests without reading answers is held by its own full pipe
//! instead of growing the server: 60,000 unread `read_skill_resource`
//! requests took a server to 245 MB before.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    ClientJsonRpcMessage, ClientNotification, ErrorCode, ErrorData, GetExtensions, RequestId,
    ServerJsonRpcMessage,
};
use rmcp::transport::Transport;
use tokio::sync::{Notify, watch};
use tokio::time::Instant;

/// The JSON-RPC error of a request not answered within the request
/// timeout (the code the MCP SDKs use for a request timeout).
pub const REQUEST_TIMED_OUT: ErrorCode = ErrorCode(-32001);

/// At most how many answers may be in flight on one connection, and how
/// many bytes of them may wait to be written.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bound {
    pub(crate) answers: usize,
    pub(crate) bytes: usize,
}

/// The requests in flight; see the module documentation.
#[derive(Debug)]
pub(crate) struct InFlight {
    state: Mutex<State>,
    timeout: Duration,
    bound: Option<Bound>,
    /// Woken when an answer is handed on or written: room to read again.
    room: Notify,
    /// Woken when a request is admitted: a new deadline to watch.
    admitted: Notify,
}

#[derive(Debug, Default)]
struct State {
    requests: HashMap<RequestId, Pending>,
    /// Writes begun and not finished, and their bytes.
    writes: usize,
    bytes: usize,
}

#[derive(Debug)]
struct Pending {
    deadline: Instant,
    /// Answered by us (timed out) or cancelled: the handler's answer, when
    /// it comes, is dropped.
    settled: bool,
    abandon: watch::Sender<bool>,
}

/// A request's id is in flight already.
#[derive(Debug)]
pub(crate) struct Duplicate;

/// Given to a handler (in its request's extensions): resolves when the
/// request timed out or was cancelled, and the handler should stop.
#[derive(Debug, Clone)]
pub(crate) struct Abandon(watch::Receiver<bool>);

impl Abandon {
    /// Resolves when the request is abandoned; never, if it is not.
    pub(crate) async fn wait(abandon: Option<Abandon>) {
        if let Some(Abandon(mut receiver)) = abandon
            && receiver.wait_for(|abandoned| *abandoned).await.is_ok()
        {
            return;
        }
        std::future::pending::<()>().await;
    }
}

/// One write begun: counted until dropped.
#[derive(Debug)]
pub(crate) struct Write {
    inflight: Arc<InFlight>,
    bytes: usize,
}

impl Drop for Write {
    fn drop(&mut self) {
        {
            let mut state = self.inflight.lock();
            state.writes = state.writes.saturating_sub(1);
            state.bytes = state.bytes.saturating_sub(self.bytes);
        }
        self.inflight.room.notify_waiters();
    }
}

impl InFlight {
    /// Requests answered within `timeout`; with `bound`, reading waits for
    /// room ([`InFlight::room`]).
    pub(crate) fn new(timeout: Duration, bound: Option<Bound>) -> InFlight {
        InFlight {
            state: Mutex::default(),
            timeout,
            bound,
            room: Notify::new(),
            admitted: Notify::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Admits the request `id`, unless that id is in flight.
    pub(crate) fn admit(&self, id: &RequestId) -> Result<(), Duplicate> {
        {
            let mut state = self.lock();
            if state.requests.contains_key(id) {
                return Err(Duplicate);
            }
            let pending = Pending {
                deadline: after(Instant::now(), self.timeout),
                settled: false,
                abandon: watch::Sender::new(false),
            };
            state.requests.insert(id.clone(), pending);
        }
        self.admitted.notify_one();
        Ok(())
    }

    /// Forgets the request `id`, which never reached rmcp.
    #[cfg(feature = "http")]
    pub(crate) fn forget(&self, id: &RequestId) {
        self.lock().requests.remove(id);
        self.room.notify_waiters();
    }

    /// Whether `id` is settled: its handler's answer is to be dropped (the
    /// client has had its answer, or cancelled the request).
    fn settled(&self, id: &RequestId) -> bool {
        self.lock().requests.get(id).is_some_and(|p| p.settled)
    }

    /// The handler of `id` has answered: the id is free again.
    fn answered(&self, id: &RequestId) {
        self.lock().requests.remove(id);
        self.room.notify_waiters();
    }

    /// The client cancelled `id`: whether the request is ours to settle
    /// (its answer will be dropped and its handler abandoned).
    fn cancel(&self, id: &RequestId) -> bool {
        let mut state = self.lock();
        let Some(pending) = state.requests.get_mut(id) else {
            return false;
        };
        pending.settled = true;
        pending.abandon.send_replace(true);
        true
    }

    /// The signal that `id` is abandoned, for its handler.
    fn abandon(&self, id: &RequestId) -> Option<Abandon> {
        let state = self.lock();
        let pending = state.requests.get(id)?;
        Some(Abandon(pending.abandon.subscribe()))
    }

    /// The first deadline not yet met.
    fn next_deadline(&self) -> Option<Instant> {
        let state = self.lock();
        let pending = state.requests.values().filter(|p| !p.settled);
        pending.map(|p| p.deadline).min()
    }

    /// Settles and abandons every request past its deadline: their ids.
    fn expire(&self, now: Instant) -> Vec<RequestId> {
        let mut state = self.lock();
        let mut expired = Vec::new();
        for (id, pending) in &mut state.requests {
            if !pending.settled && pending.deadline <= now {
                pending.settled = true;
                pending.abandon.send_replace(true);
                expired.push(id.clone());
            }
        }
        expired
    }

    /// Counts a write of `bytes` until the guard is dropped.
    pub(crate) fn write(self: &Arc<Self>, bytes: usize) -> Write {
        let mut state = self.lock();
        state.writes += 1;
        state.bytes += bytes;
        Write {
            inflight: Arc::clone(self),
            bytes,
        }
    }

    fn has_room(&self) -> bool {
        let Some(bound) = self.bound else {
            return true;
        };
        let state = self.lock();
        state.requests.len() + state.writes < bound.answers && state.bytes < bound.bytes
    }

    /// Waits until the answers in flight are below the bound.
    pub(crate) async fn room(&self) {
        loop {
            let notified = self.room.notified();
            let mut notified = std::pin::pin!(notified);
            notified.as_mut().enable();
            if self.has_room() {
                return;
            }
            notified.await;
        }
    }
}

/// `now + by`, or a time too far to matter when that overflows (a timeout
/// of `Duration::MAX`).
pub(crate) fn after(now: Instant, by: Duration) -> Instant {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    now.checked_add(by).unwrap_or_else(|| now + CENTURY)
}

/// The answer to a request whose id is in flight.
pub(crate) fn duplicate(id: &RequestId) -> ErrorData {
    let id = serde_json::to_string(id).unwrap_or_default();
    ErrorData::invalid_request(
        format!(
            "invalid request: the id `{id}` is in use by a request of this session that has not been answered; give each request its own id"
        ),
        None,
    )
}

/// The answer to a request not answered in time.
fn timed_out(timeout: Duration) -> ErrorData {
    ErrorData::new(
        REQUEST_TIMED_OUT,
        format!(
            "request timed out: no answer within {} s, the server's request timeout",
            timeout.as_secs_f64()
        ),
        None,
    )
}

/// The id an answer answers.
fn answer_id(message: &ServerJsonRpcMessage) -> Option<&RequestId> {
    match message {
        ServerJsonRpcMessage::Response(response) => Some(&response.id),
        ServerJsonRpcMessage::Error(error) => error.id.as_ref(),
        _ => None,
    }
}

/// A transport whose requests are tracked by an [`InFlight`]; see the
/// module documentation.
#[derive(Debug)]
pub(crate) struct Tracked<T> {
    inner: T,
    inflight: Arc<InFlight>,
    /// Admit requests as they are read (stdio); over HTTP the session
    /// layer has admitted them.
    admits: bool,
}

/// What ended one wait of [`Tracked::receive`].
enum Event {
    Message(Option<Box<ClientJsonRpcMessage>>),
    Deadline,
    Admitted,
}

impl<T: Transport<RoleServer>> Tracked<T> {
    pub(crate) fn new(inner: T, inflight: Arc<InFlight>, admits: bool) -> Self {
        Tracked {
            inner,
            inflight,
            admits,
        }
    }

    /// Sends `message` on a task of its own: an answer of ours, which no
    /// receive may wait for.
    fn answer(&mut self, message: ServerJsonRpcMessage) {
        let send = self.inner.send(message);
        tokio::spawn(async move {
            // A client that has gone cannot be answered.
            let _ = send.await;
        });
    }

    /// What to pass on of `message`, if anything.
    fn inspect(&mut self, mut message: ClientJsonRpcMessage) -> Option<ClientJsonRpcMessage> {
        match &mut message {
            ClientJsonRpcMessage::Request(request) => {
                if self.admits && self.inflight.admit(&request.id).is_err() {
                    let error = ServerJsonRpcMessage::error(
                        duplicate(&request.id),
                        Some(request.id.clone()),
                    );
                    self.answer(error);
                    return None;
                }
                if let Some(abandon) = self.inflight.abandon(&request.id) {
                    request.request.extensions_mut().insert(abandon);
                }
            }
            ClientJsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                    && self.inflight.cancel(id)
                {
                    return None;
                }
            }
            _ => {}
        }
        Some(message)
    }

    /// Answers every request past its deadline with the timeout error.
    fn expire(&mut self) {
        for id in self.inflight.expire(Instant::now()) {
            let error = timed_out(self.inflight.timeout);
            self.answer(ServerJsonRpcMessage::error(error, Some(id)));
        }
    }
}

impl<T: Transport<RoleServer>> Transport<RoleServer> for Tracked<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), T::Error>> + Send + 'static {
        // The answer's write is counted before its request stops being, so
        // the answers in flight never seem fewer than they are.
        let id = answer_id(&item).cloned();
        let settled = id.as_ref().is_some_and(|id| self.inflight.settled(id));
        let send = (!settled).then(|| self.inner.send(item));
        if let Some(id) = id {
            self.inflight.answered(&id);
        }
        async move {
            match send {
                Some(send) => send.await,
                None => Ok(()),
            }
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            let next = self.inflight.next_deadline();
            let inflight = Arc::clone(&self.inflight);
            let event = tokio::select! {
                message = self.inner.receive() => Event::Message(message.map(Box::new)),
                () = async {
                    match next {
                        Some(deadline) => tokio::time::sleep_until(deadline).await,
                        None => std::future::pending().await,
                    }
                } => Event::Deadline,
                () = inflight.admitted.notified() => Event::Admitted,
            };
            match event {
                Event::Message(None) => return None,
                Event::Message(Some(message)) => {
                    if let Some(message) = self.inspect(*message) {
                        return Some(message);
                    }
                }
                Event::Deadline => self.expire(),
                Event::Admitted => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), T::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};
    use tokio::sync::mpsc;

    use super::*;

    /// A transport over two channels: what the client sent, and what the
    /// server answered.
    struct Pipe {
        from_client: mpsc::UnboundedReceiver<ClientJsonRpcMessage>,
        to_client: mpsc::UnboundedSender<ServerJsonRpcMessage>,
    }

    impl Transport<RoleServer> for Pipe {
        type Error = std::io::Error;

        fn send(
            &mut self,
            item: ServerJsonRpcMessage,
        ) -> impl Future<Output = Result<(), std::io::Error>> + Send + 'static {
            let sent = self.to_client.send(item);
            async move { sent.map_err(|_| std::io::Error::other("closed")) }
        }

        async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
            self.from_client.recv().await
        }

        async fn close(&mut self) -> Result<(), std::io::Error> {
            Ok(())
        }
    }

    const TIMEOUT: Duration = Duration::from_secs(10);

    /// A tracked pipe that admits requests, the client's sender and the
    /// answers.
    fn pipe() -> (
        Tracked<Pipe>,
        mpsc::UnboundedSender<ClientJsonRpcMessage>,
        mpsc::UnboundedReceiver<ServerJsonRpcMessage>,
    ) {
        let (client, from_client) = mpsc::unbounded_channel();
        let (to_client, answers) = mpsc::unbounded_channel();
        let inflight = Arc::new(InFlight::new(TIMEOUT, None));
        let pipe = Pipe {
            from_client,
            to_client,
        };
        (Tracked::new(pipe, inflight, true), client, answers)
    }

    fn message(value: Value) -> ClientJsonRpcMessage {
        serde_json::from_value(value).expect("a message")
    }

    fn ping(id: i64) -> ClientJsonRpcMessage {
        message(json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
    }

    fn result(id: i64) -> ServerJsonRpcMessage {
        serde_json::from_value(json!({"jsonrpc": "2.0", "id": id, "result": {}})).expect("JSON")
    }

    fn id_of(message: &ClientJsonRpcMessage) -> Value {
        serde_json::to_value(message).expect("JSON")["id"].clone()
    }

    /// The answers sent so far, as JSON.
    async fn sent(answers: &mut mpsc::UnboundedReceiver<ServerJsonRpcMessage>) -> Vec<Value> {
        // Our own answers are written by tasks of their own.
        tokio::task::yield_now().await;
        let mut out = Vec::new();
        while let Ok(answer) = answers.try_recv() {
            out.push(serde_json::to_value(answer).expect("JSON"));
        }
        out
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
    fn a_request_past_its_deadline_is_answered_and_its_late_answer_dropped() {
        block_on(async {
            let (mut tracked, client, mut answers) = pipe();
            client.send(ping(1)).expect("send");
            let request = tracked.receive().await.expect("the ping");
            let ClientJsonRpcMessage::Request(request) = &request else {
                panic!("{request:?}")
            };
            let abandon = request.request.extensions().get::<Abandon>().cloned();
            assert!(abandon.is_some(), "the handler can learn it is abandoned");
            // Nothing else comes; the deadline passes while receiving.
            let waited = tokio::time::timeout(TIMEOUT * 2, tracked.receive()).await;
            assert!(waited.is_err(), "{waited:?}");
            assert_eq!(
                sent(&mut answers).await,
                [json!({"jsonrpc": "2.0", "id": 1, "error": {
                    "code": -32001,
                    "message": "request timed out: no answer within 10 s, the server's request timeout",
                }})]
            );
            tokio::time::timeout(Duration::from_millis(1), Abandon::wait(abandon))
                .await
                .expect("the handler was told to stop");
            // Its late answer is dropped, and then the id is free again.
            tracked.send(result(1)).await.expect("send");
            assert_eq!(sent(&mut answers).await, Vec::<Value>::new());
            client.send(ping(1)).expect("send");
            let again = tracked.receive().await.expect("the ping");
            assert_eq!(id_of(&again), json!(1));
            tracked.send(result(1)).await.expect("send");
            assert_eq!(
                sent(&mut answers).await,
                [json!({"jsonrpc": "2.0", "id": 1, "result": {}})]
            );
        });
    }

    #[test]
    fn an_id_in_flight_is_refused_and_a_cancelled_request_keeps_it_until_answered() {
        block_on(async {
            let (mut tracked, client, mut answers) = pipe();
            for message in [ping(5), ping(5), ping(6)] {
                client.send(message).expect("send");
            }
            assert_eq!(id_of(&tracked.receive().await.expect("5")), json!(5));
            // The second 5 is answered here and never passed on.
            assert_eq!(id_of(&tracked.receive().await.expect("6")), json!(6));
            assert_eq!(
                sent(&mut answers).await,
                [json!({"jsonrpc": "2.0", "id": 5, "error": {
                    "code": -32600,
                    "message": "invalid request: the id `5` is in use by a request of this session that has not been answered; give each request its own id",
                }})]
            );
            // The client cancels 5: not passed on (rmcp would forget the
            // id), and 5 stays in flight until its handler answers.
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 5, "reason": "no longer needed"}});
            client.send(message(cancel)).expect("send");
            client.send(ping(5)).expect("send");
            client.send(ping(7)).expect("send");
            assert_eq!(id_of(&tracked.receive().await.expect("7")), json!(7));
            assert_eq!(sent(&mut answers).await.len(), 1, "5 refused again");
            tracked.send(result(5)).await.expect("send");
            tracked.send(result(6)).await.expect("send");
            assert_eq!(
                sent(&mut answers).await,
                [json!({"jsonrpc": "2.0", "id": 6, "result": {}})],
                "the cancelled request's answer is dropped"
            );
            // A cancellation of a request not in flight is passed on.
            let cancel = json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                "params": {"requestId": 99}});
            client.send(message(cancel)).expect("send");
            let passed = tracked.receive().await.expect("the cancellation");
            assert!(matches!(passed, ClientJsonRpcMessage::Notification(_)));
        });
    }

    #[test]
    fn a_timeout_of_duration_max_is_far_off_not_an_overflow() {
        block_on(async {
            let inflight = InFlight::new(Duration::MAX, None);
            inflight.admit(&RequestId::Number(1)).expect("admitted");
            let deadline = inflight.next_deadline().expect("a deadline");
            assert!(deadline > Instant::now() + Duration::from_secs(50 * 365 * 24 * 3600));
        });
    }

    #[test]
    fn reading_waits_while_the_answers_in_flight_are_at_the_bound() {
        block_on(async {
            let bound = Bound {
                answers: 2,
                bytes: 100,
            };
            let inflight = Arc::new(InFlight::new(TIMEOUT, Some(bound)));
            let blocked = |inflight: Arc<InFlight>| async move {
                tokio::time::timeout(Duration::from_secs(1), inflight.room())
                    .await
                    .is_err()
            };
            let (a, b) = (RequestId::Number(1), RequestId::Number(2));
            inflight.admit(&a).expect("a");
            assert!(!blocked(Arc::clone(&inflight)).await);
            inflight.admit(&b).expect("b");
            assert!(blocked(Arc::clone(&inflight)).await, "two in flight");
            // An answer handed on is counted until written.
            let write = inflight.write(10);
            inflight.answered(&a);
            assert!(
                blocked(Arc::clone(&inflight)).await,
                "one request, one write"
            );
            drop(write);
            assert!(!blocked(Arc::clone(&inflight)).await);
            let big = inflight.write(100);
            assert!(blocked(Arc::clone(&inflight)).await, "100 bytes unwritten");
            drop(big);
            assert!(!blocked(inflight).await);
        });
    }
}
