//! What a client sent, read the same way on stdio and over HTTP: one
//! JSON-RPC message, or the error response JSON-RPC 2.0 prescribes for
//! bytes that are not one.
//!
//! rmcp drops a line that is not JSON without a word (and answers HTTP 415
//! to such a body), so a client waits for an answer that never comes. Here
//! text that is not JSON gets `-32700` (parse error) and JSON that is not a
//! message `-32600` (invalid request), each with `id: null` unless the
//! request's `id` could be read, and the server keeps serving. An invalid
//! notification (a `method` and no `id`) gets no answer, as JSON-RPC wants
//! for notifications and as rmcp does, so that a client's own extensions do
//! not draw errors.

use rmcp::model::ClientJsonRpcMessage;
use serde_json::{Value, json};

/// The largest message a client may send: one line on stdio, one request
/// body over HTTP. 4 MiB, rmcp's own bound for HTTP bodies.
pub const MAX_MESSAGE: usize = 4 << 20;

/// One message from a client, or what it gets instead.
#[derive(Debug)]
pub(super) enum Incoming {
    /// A message for the server.
    Message(Box<ClientJsonRpcMessage>),
    /// An invalid notification: dropped, unanswered.
    Ignored,
    /// Not a message: the error response to send (JSON, no newline).
    Malformed(Vec<u8>),
}

/// Reads one message from `bytes`.
pub(super) fn parse(bytes: &[u8]) -> Incoming {
    let error = match serde_json::from_slice::<ClientJsonRpcMessage>(bytes) {
        Ok(message) => return Incoming::Message(Box::new(message)),
        Err(e) => e,
    };
    if error.is_syntax() || error.is_eof() {
        return Incoming::Malformed(response(
            -32700,
            &format!("parse error: {error}"),
            Value::Null,
        ));
    }
    let value = serde_json::from_slice::<Value>(bytes).unwrap_or_default();
    let id = value.get("id");
    if id.is_none() && value.get("method").is_some_and(Value::is_string) {
        return Incoming::Ignored;
    }
    let id = match id {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    Incoming::Malformed(response(-32600, &format!("invalid request: {error}"), id))
}

/// The answer to a message longer than [`MAX_MESSAGE`].
pub(super) fn too_long() -> Vec<u8> {
    response(
        -32600,
        &format!("invalid request: the message is over {MAX_MESSAGE} bytes"),
        Value::Null,
    )
}

/// A JSON-RPC error response, as JSON text.
fn response(code: i64, message: &str, id: Value) -> Vec<u8> {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
        .to_string()
        .into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn malformed(bytes: &[u8]) -> Value {
        match parse(bytes) {
            Incoming::Malformed(reply) => serde_json::from_slice(&reply).expect("JSON"),
            other => panic!("{}: {other:?}", String::from_utf8_lossy(bytes)),
        }
    }

    #[test]
    fn text_that_is_not_json_is_a_parse_error_with_a_null_id() {
        for bytes in [
            &b"{"[..],
            b"not json",
            b"{\"jsonrpc\": \"2.0\", \"id\": 1,",
            b"\xff\xfe",
            b"",
        ] {
            let reply = malformed(bytes);
            assert_eq!(reply["jsonrpc"], "2.0");
            assert_eq!(reply["id"], Value::Null);
            assert_eq!(reply["error"]["code"], -32700);
            let text = reply["error"]["message"].as_str().expect("a message");
            assert!(text.starts_with("parse error: "), "{text}");
        }
    }

    #[test]
    fn json_that_is_not_a_message_is_an_invalid_request() {
        for (bytes, id) in [
            (
                &br#"{"jsonrpc": "2.0", "id": 7, "method": 3}"#[..],
                json!(7),
            ),
            (
                br#"{"jsonrpc": "2.0", "id": "a", "params": {}}"#,
                json!("a"),
            ),
            (br#"{"id": {"x": 1}, "method": "ping"}"#, Value::Null),
            (b"[1, 2]", Value::Null),
            (b"42", Value::Null),
        ] {
            let reply = malformed(bytes);
            assert_eq!(reply["id"], id, "{}", String::from_utf8_lossy(bytes));
            assert_eq!(reply["error"]["code"], -32600);
        }
    }

    #[test]
    fn messages_pass_and_invalid_notifications_are_dropped() {
        let init = br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
        assert!(matches!(parse(init), Incoming::Message(_)));
        let ping = br#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#;
        assert!(matches!(parse(ping), Incoming::Message(_)));
        // A method rmcp does not know is a custom notification, passed on;
        // one whose params cannot be read is dropped.
        let custom = br#"{"jsonrpc":"2.0","method":"$/progress","params":{}}"#;
        assert!(matches!(parse(custom), Incoming::Message(_)));
        let bad = br#"{"jsonrpc":"2.0","method":"notifications/progress","params":7}"#;
        assert!(matches!(parse(bad), Incoming::Ignored));
        let reply: Value = serde_json::from_slice(&too_long()).expect("JSON");
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], Value::Null);
    }
}
