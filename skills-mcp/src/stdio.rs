//! The stdio transport: newline-delimited JSON-RPC, one message a line,
//! where a line that is no message gets its error response ([`message`])
//! instead of silence.
//!
//! rmcp's own transport skips such a line; this one is rmcp's, but for that
//! answer: a line is read into a buffer bounded by [`MAX_MESSAGE`] (a longer
//! one is answered and skipped to its end, never held), a UTF-8 byte order
//! mark and a `\r` before the newline are dropped, blank lines ignored.
//! Reading is cancel-safe (rmcp polls `receive` in a `select!`): the
//! partial line stays in the buffer for the next call, and an error
//! response is written by a task of its own, so it is neither lost nor cut
//! when the read is dropped. Writes go through one lock, a whole line at a
//! time.
//!
//! Every write, rmcp's answers and ours, is serialised when it is handed
//! over and counted by the connection's [`InFlight`] until written; no line
//! is read while the answers in flight are at their bound, so a client that
//! does not read its answers stops being read ([`inflight`](crate::inflight)).

use std::io;
use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

use crate::inflight::InFlight;
use crate::message::{self, Incoming, MAX_MESSAGE};

/// A server's end of a line-delimited JSON-RPC stream.
pub(super) struct Stdio<R, W> {
    read: BufReader<R>,
    /// The line being read, kept across cancelled reads.
    line: Vec<u8>,
    /// Skipping the rest of a line longer than [`MAX_MESSAGE`].
    discarding: bool,
    /// `None` once closed.
    write: Arc<Mutex<Option<W>>>,
    /// Counts the writes; reading waits for room.
    inflight: Arc<InFlight>,
}

/// What reading gave.
enum Read {
    /// A whole line is in the buffer (without its newline).
    Line,
    /// A line over the bound ended (or began to be skipped).
    TooLong,
    /// The end of the stream, or an error reading it.
    End,
}

impl<R, W> Stdio<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    pub(super) fn new(read: R, write: W, inflight: Arc<InFlight>) -> Self {
        Stdio {
            read: BufReader::new(read),
            line: Vec::new(),
            discarding: false,
            write: Arc::new(Mutex::new(Some(write))),
            inflight,
        }
    }

    /// Reads up to the next newline into `self.line`, bounded.
    async fn read_line(&mut self) -> Read {
        loop {
            let Ok(available) = self.read.fill_buf().await else {
                return Read::End;
            };
            if available.is_empty() {
                return Read::End;
            }
            let newline = available.iter().position(|&b| b == b'\n');
            let take = newline.map_or(available.len(), |at| at + 1);
            let chunk = available.get(..take).unwrap_or_default();
            let step = if self.discarding {
                self.discarding = newline.is_none();
                None
            } else if self.line.len() + take > MAX_MESSAGE + 1 {
                self.line.clear();
                self.discarding = newline.is_none();
                Some(Read::TooLong)
            } else {
                self.line.extend_from_slice(chunk);
                newline.map(|_| Read::Line)
            };
            self.read.consume(take);
            if let Some(step) = step {
                return step;
            }
        }
    }

    /// Writes `bytes` and a newline on a task of its own.
    fn answer(&self, mut bytes: Vec<u8>) {
        bytes.push(b'\n');
        let counted = self.inflight.write(bytes.len());
        let write = Arc::clone(&self.write);
        tokio::spawn(async move {
            let _ = write_line(write, bytes).await;
            drop(counted);
        });
    }
}

async fn write_line<W: AsyncWrite + Unpin>(
    write: Arc<Mutex<Option<W>>>,
    bytes: Vec<u8>,
) -> io::Result<()> {
    let mut write = write.lock().await;
    let Some(out) = write.as_mut() else {
        return Err(io::Error::new(
            io::ErrorKind::NotConnected,
            "the transport is closed",
        ));
    };
    out.write_all(&bytes).await?;
    out.flush().await
}

impl<R, W> Transport<RoleServer> for Stdio<R, W>
where
    R: AsyncRead + Unpin + Send,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let write = Arc::clone(&self.write);
        let bytes = serde_json::to_vec(&item).map(|mut bytes| {
            bytes.push(b'\n');
            bytes
        });
        let counted = match &bytes {
            Ok(bytes) => Some(self.inflight.write(bytes.len())),
            Err(_) => None,
        };
        async move {
            let result = write_line(write, bytes?).await;
            drop(counted);
            result
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            self.inflight.room().await;
            match self.read_line().await {
                Read::End => return None,
                Read::TooLong => {
                    self.answer(message::too_long());
                    continue;
                }
                Read::Line => {}
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match message::parse(text) {
                Incoming::Message(message) => return Some(*message),
                Incoming::Ignored => {}
                Incoming::Malformed(reply) => self.answer(reply),
            }
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.write.lock().await.take();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    use super::*;

    fn block_on<F: Future>(future: F) -> F::Output {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime")
            .block_on(future)
    }

    #[test]
    fn bad_lines_are_answered_and_the_next_message_still_read() {
        block_on(async {
            let (client, server) = tokio::io::duplex(1 << 16);
            let (server_read, server_write) = tokio::io::split(server);
            let inflight = Arc::new(InFlight::new(std::time::Duration::from_secs(60), None));
            let mut transport = Stdio::new(server_read, server_write, inflight);
            let (client_read, mut client_write) = tokio::io::split(client);
            let mut replies = BufReader::new(client_read).lines();
            let mut input = b"not json\n\r\n{\"id\": 3, \"jsonrpc\": \"2.0\"}\n".to_vec();
            input.extend_from_slice(
                b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":7}\n",
            );
            input.extend(std::iter::repeat_n(b'x', MAX_MESSAGE + 10));
            input.extend_from_slice(
                b"\n\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\"}\r\n",
            );
            let writer = tokio::spawn(async move {
                client_write.write_all(&input).await.expect("write");
                client_write
            });
            let message = transport.receive().await.expect("the ping");
            let value = serde_json::to_value(&message).expect("JSON");
            assert_eq!(
                (&value["method"], &value["id"]),
                (&"ping".into(), &9.into())
            );
            let mut codes = Vec::new();
            for _ in 0..3 {
                let line = replies.next_line().await.expect("read").expect("a reply");
                let reply: Value = serde_json::from_str(&line).expect("JSON");
                codes.push((reply["error"]["code"].clone(), reply["id"].clone()));
            }
            codes.sort_by_key(|(code, id)| (code.to_string(), id.to_string()));
            assert_eq!(
                codes,
                [
                    (Value::from(-32600), Value::from(3)),
                    (Value::from(-32600), Value::Null),
                    (Value::from(-32700), Value::Null),
                ]
            );
            // The end of the stream ends the transport.
            drop(writer.await.expect("writer"));
            drop(replies);
            assert!(transport.receive().await.is_none());
        });
    }
}
