//! The framing of the protocol on a byte stream (stdio): `Content-Length`
//! headers and a JSON body, read with every size bounded before anything
//! is allocated, and written one message at a time.
//!
//! `lsp-server`'s own stdio transport allocates whatever `Content-Length`
//! says and stops at the first body that is not JSON; here a header line is
//! at most [`MAX_HEADER`] bytes, a body at most [`MAX_BODY`] (a larger one
//! is skipped without being held), and a body that is not a JSON-RPC
//! message is answered with a parse error (`-32700`) and the next message
//! is read: a client's mistake never ends the session, nor panics it.

use std::io::{self, BufRead, Read, Write};
use std::thread;

use crossbeam_channel::{Receiver, Sender, bounded};
use lsp_server::{Connection, Message};

/// The longest header line read.
pub const MAX_HEADER: usize = 1024;
/// The largest message body read: a document of the largest `SKILL.md` the
/// validator reads, escaped in JSON, fits.
pub const MAX_BODY: usize = 64 << 20;

/// What a read of one frame found.
#[derive(Debug)]
pub enum Frame {
    /// A message.
    Message(Message),
    /// A frame whose body is not a JSON-RPC message, or is too large:
    /// answered with this error and skipped.
    Bad(String),
}

/// Reads one frame from `input`; `Ok(None)` at the end of the stream. An
/// `Err` is a stream that cannot be framed any more (a broken header).
pub fn read_frame(input: &mut impl BufRead) -> io::Result<Option<Frame>> {
    let mut length: Option<usize> = None;
    let mut saw_header = false;
    loop {
        let mut line = Vec::new();
        let n = input
            .by_ref()
            .take(MAX_HEADER as u64 + 1)
            .read_until(b'\n', &mut line)?;
        if n == 0 {
            if saw_header {
                return Err(invalid("the stream ended inside a header"));
            }
            return Ok(None);
        }
        if line.len() > MAX_HEADER || !line.ends_with(b"\n") {
            return Err(invalid("a header line is too long"));
        }
        saw_header = true;
        let line = line.strip_suffix(b"\n").unwrap_or(&line);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            break;
        }
        let text = std::str::from_utf8(line).map_err(|_| invalid("a header is not UTF-8"))?;
        let Some((name, value)) = text.split_once(':') else {
            return Err(invalid("a header has no `:`"));
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let n = value
                .trim()
                .parse::<u64>()
                .map_err(|_| invalid("`Content-Length` is not a number"))?;
            length = Some(usize::try_from(n).unwrap_or(usize::MAX));
        }
    }
    let Some(length) = length else {
        return Err(invalid("a message has no `Content-Length`"));
    };
    if length > MAX_BODY {
        let skipped = io::copy(&mut input.by_ref().take(length as u64), &mut io::sink())?;
        if skipped < length as u64 {
            return Err(invalid("the stream ended inside a message"));
        }
        return Ok(Some(Frame::Bad(format!(
            "a message of {length} bytes is larger than the {MAX_BODY} this server reads"
        ))));
    }
    let mut body = vec![0; length];
    input.read_exact(&mut body)?;
    Ok(Some(match serde_json::from_slice::<Message>(&body) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Bad(format!("not a JSON-RPC message: {e}")),
    }))
}

/// Writes `message` as one frame.
pub fn write_message(output: &mut impl Write, message: &Message) -> io::Result<()> {
    let mut body = serde_json::to_value(message)?;
    if let Some(object) = body.as_object_mut() {
        object.insert("jsonrpc".into(), "2.0".into());
    }
    write_body(output, &serde_json::to_vec(&body)?)
}

/// The JSON-RPC parse error for a frame that held no message (its id is
/// `null`: the request's could not be read).
pub fn write_parse_error(output: &mut impl Write, why: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": -32700, "message": why},
    });
    write_body(output, &serde_json::to_vec(&body)?)
}

fn write_body(output: &mut impl Write, body: &[u8]) -> io::Result<()> {
    write!(output, "Content-Length: {}\r\n\r\n", body.len())?;
    output.write_all(body)?;
    output.flush()
}

fn invalid(why: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why)
}

/// The threads that carry a connection over stdio.
#[derive(Debug)]
pub struct Threads {
    reader: thread::JoinHandle<io::Result<()>>,
    writer: thread::JoinHandle<io::Result<()>>,
}

impl Threads {
    /// Waits for both threads: the reader ends at `exit` or at the end of
    /// the input, the writer when the connection's sender is dropped.
    pub fn join(self) -> io::Result<()> {
        let reader = self
            .reader
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("reader panicked")));
        let writer = self
            .writer
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("writer panicked")));
        reader.and(writer)
    }
}

/// A connection over `input` and `output` (stdin and stdout for `skb
/// lsp`), each carried by a thread of its own.
pub fn connection<R, W>(input: R, output: W) -> io::Result<(Connection, Threads)>
where
    R: BufRead + Send + 'static,
    W: Write + Send + 'static,
{
    let (to_writer, from_server): (Sender<Outgoing>, Receiver<Outgoing>) = bounded(16);
    let (to_server, from_reader) = bounded::<Message>(16);
    let (server_sender, server_outgoing) = bounded::<Message>(16);
    // The server's messages and the reader's parse errors share the writer.
    let forward = to_writer.clone();
    thread::Builder::new()
        .name("skills-lsp-forward".into())
        .spawn(move || {
            for message in server_outgoing {
                if forward.send(Outgoing::Message(message)).is_err() {
                    break;
                }
            }
        })?;
    let writer = thread::Builder::new()
        .name("skills-lsp-writer".into())
        .spawn(move || {
            let mut output = output;
            for outgoing in from_server {
                match outgoing {
                    Outgoing::Message(m) => write_message(&mut output, &m)?,
                    Outgoing::ParseError(why) => write_parse_error(&mut output, &why)?,
                }
            }
            Ok(())
        })?;
    let reader = thread::Builder::new()
        .name("skills-lsp-reader".into())
        .spawn(move || {
            let mut input = input;
            let errors = to_writer;
            while let Some(frame) = read_frame(&mut input)? {
                match frame {
                    Frame::Message(message) => {
                        let exit =
                            matches!(&message, Message::Notification(n) if n.method == "exit");
                        if to_server.send(message).is_err() || exit {
                            break;
                        }
                    }
                    Frame::Bad(why) => {
                        if errors.send(Outgoing::ParseError(why)).is_err() {
                            break;
                        }
                    }
                }
            }
            Ok(())
        })?;
    Ok((
        Connection {
            sender: server_sender,
            receiver: from_reader,
        },
        Threads { reader, writer },
    ))
}

/// What the writer writes.
enum Outgoing {
    Message(Message),
    ParseError(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8]) -> Vec<String> {
        let mut input = input;
        let mut out = Vec::new();
        loop {
            match read_frame(&mut input) {
                Ok(Some(Frame::Message(m))) => out.push(format!(
                    "message {}",
                    serde_json::to_string(&m).unwrap_or_default()
                )),
                Ok(Some(Frame::Bad(why))) => out.push(format!("bad {why}")),
                Ok(None) => break,
                Err(e) => {
                    out.push(format!("error {e}"));
                    break;
                }
            }
        }
        out
    }

    #[test]
    fn a_bad_body_is_skipped_and_the_next_message_read() {
        let good = br#"{"jsonrpc":"2.0","method":"exit"}"#;
        let mut input = b"Content-Length: 5\r\n\r\n{nope".to_vec();
        input.extend_from_slice(format!("Content-Length: {}\r\n\r\n", good.len()).as_bytes());
        input.extend_from_slice(good);
        let got = frames(&input);
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(got[0].starts_with("bad not a JSON-RPC message"), "{got:?}");
        assert!(got[1].contains("\"exit\""), "{got:?}");
    }

    #[test]
    fn a_huge_length_is_never_allocated() {
        // 2^63 bytes announced, none sent: the read stops at the end of
        // the stream instead of allocating.
        let got = frames(b"Content-Length: 9223372036854775807\r\n\r\n{}");
        assert_eq!(got, ["error the stream ended inside a message"]);
        let got = frames(b"Content-Length: 18446744073709551616\r\n\r\n");
        assert_eq!(got, ["error `Content-Length` is not a number"]);
    }

    #[test]
    fn broken_headers_are_errors_not_panics() {
        for input in [
            &b"Content-Length 3\r\n\r\n{}"[..],
            b"\r\n",
            b"X: y\r\n",
            &[b'a'; 5000][..],
            b"Content-Length: 10\r\n\r\n{}",
        ] {
            let got = frames(input);
            assert!(
                got.last().is_some_and(|l| l.starts_with("error")),
                "{got:?}"
            );
        }
    }
}
