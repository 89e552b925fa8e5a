//! `OpenAiChat` (feature `openai`) against a mock OpenAI server on loopback:
//! the seeds' calculator end to end in both styles, blocking and on tokio,
//! with every request checked; each error said plainly; and no panic on
//! any answer, however broken.
//!
//! The mock is std only: one thread, one connection per request
//! (`Connection: close`), the HTTP/1.1 request line, headers and a
//! `Content-Length` body read and recorded, and a scripted answer written.

#![allow(clippy::unwrap_used)] // tests fail loudly on setup errors

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};
use skills_bundle::agent::{self, ChatModel, LoopError, Message, Protocol, Role};
use skills_bundle::exec::LocalExecutor;
use skills_bundle::openai::{self, OpenAiChat, OpenAiError};
use skills_bundle::session::Session;
use skills_bundle::{Bundle, Mode, skills_bundle};

static SKILLS: Bundle = skills_bundle!("../skills");

const KEY: &str = "test-key";

/// One request as the mock read it.
#[derive(Debug, Clone)]
struct Request {
    method: String,
    path: String,
    /// Names lower-cased.
    headers: Vec<(String, String)>,
    body: String,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("{e}: {}", self.body))
    }
}

/// What the mock does with one request.
enum Answer {
    /// A status and a body.
    Status(u16, Vec<u8>),
    /// Reads the request, then says nothing until the client hangs up.
    Silent,
}

fn ok(body: impl Into<Vec<u8>>) -> Answer {
    Answer::Status(200, body.into())
}

/// A mock server answering requests in order, one connection each.
struct Mock {
    base: String,
    requests: Arc<Mutex<Vec<Request>>>,
}

impl Mock {
    fn start(answers: Vec<Answer>) -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}/v1", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(Vec::new()));
        let recorded = Arc::clone(&requests);
        std::thread::spawn(move || {
            for answer in answers {
                let (stream, _) = listener.accept().unwrap();
                serve(stream, answer, &recorded);
            }
        });
        Mock { base, requests }
    }

    fn requests(&self) -> Vec<Request> {
        self.requests.lock().unwrap().clone()
    }

    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base)
    }

    fn chat(&self) -> OpenAiChat {
        OpenAiChat::new(&self.base, "mock-model").api_key(KEY)
    }
}

fn serve(stream: TcpStream, answer: Answer, recorded: &Mutex<Vec<Request>>) {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let Some(request) = read_request(&mut reader) else {
        return;
    };
    recorded.lock().unwrap().push(request);
    let mut stream = reader.into_inner();
    match answer {
        Answer::Status(status, body) => {
            let head = format!(
                "HTTP/1.1 {status} Mock\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            // The client may hang up early (a body over its limit).
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            let _ = stream.flush();
        }
        Answer::Silent => {
            // Until the client gives up and closes.
            let _ = stream.read_to_end(&mut Vec::new());
        }
    }
}

fn read_request(reader: &mut impl BufRead) -> Option<Request> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let path = parts.next()?.to_owned();
    assert_eq!(parts.next(), Some("HTTP/1.1"), "{line}");
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let (name, value) = line.split_once(':')?;
        headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
    }
    let length: usize = headers
        .iter()
        .find(|(n, _)| n == "content-length")
        .map(|(_, v)| v.parse().unwrap())
        .expect("a Content-Length body");
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    Some(Request {
        method,
        path,
        headers,
        body: String::from_utf8(body).unwrap(),
    })
}

/// A chat-completions answer.
fn completion(message: Value) -> String {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "mock-model",
        "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
    })
    .to_string()
}

fn text(content: &str) -> Answer {
    ok(completion(json!({"role": "assistant", "content": content})))
}

fn tool_call(id: &str, name: &str, arguments: &str) -> Answer {
    ok(completion(json!({
        "role": "assistant",
        "content": null,
        "tool_calls": [{
            "id": id,
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }],
    })))
}

fn session() -> (tempfile::TempDir, Session<LocalExecutor>) {
    let cache = tempfile::tempdir().unwrap();
    let executor = LocalExecutor::new(cache.path().join("cache"));
    (cache, Session::new(&SKILLS, executor, Mode::Restrict))
}

const RUN_ARGS: &str = r#"{"skill": "calculator", "command": "python3 scripts/calc.py '15 * 23'"}"#;

fn tools_calculator() -> Mock {
    Mock::start(vec![
        tool_call("call_1", "activate_skill", r#"{"name": "calculator"}"#),
        tool_call("call_2", "run_skill_script", RUN_ARGS),
        text("15 * 23 = 345"),
    ])
}

/// Everything the three requests of the function-calling calculator must
/// hold.
fn check_tools_requests(requests: &[Request]) {
    assert_eq!(requests.len(), 3);
    for r in requests {
        assert_eq!(r.method, "POST");
        assert_eq!(r.path, "/v1/chat/completions");
        assert_eq!(r.header("authorization"), Some("Bearer test-key"));
        assert_eq!(r.header("content-type"), Some("application/json"));
        let body = r.json();
        assert_eq!(body["model"], "mock-model");
        assert!(body.get("temperature").is_none(), "{body}");
        let tools = body["tools"].as_array().unwrap();
        let names: Vec<&str> = tools
            .iter()
            .map(|t| {
                assert_eq!(t["type"], "function");
                t["function"]["name"].as_str().unwrap()
            })
            .collect();
        assert_eq!(
            names,
            ["activate_skill", "read_skill_resource", "run_skill_script"]
        );
        assert!(tools[0]["function"]["description"].is_string());
        let skills = &tools[0]["function"]["parameters"]["properties"]["name"]["enum"];
        assert!(
            skills.as_array().unwrap().contains(&"calculator".into()),
            "{skills}"
        );
    }
    // Turn 1: the catalog and the question.
    let first = requests[0].json();
    let messages = first["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0]["role"], "system");
    assert!(
        messages[0]["content"]
            .as_str()
            .unwrap()
            .starts_with("<available_skills>")
    );
    assert_eq!(
        messages[1],
        json!({"role": "user", "content": "What is 15 * 23?"})
    );
    // Turn 2: the call echoed back, and its result.
    let second = requests[1].json();
    let messages = second["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    assert_eq!(
        messages[2],
        json!({
            "role": "assistant",
            "content": null,
            "tool_calls": [{
                "id": "call_1",
                "type": "function",
                "function": {"name": "activate_skill", "arguments": "{\"name\": \"calculator\"}"},
            }],
        })
    );
    assert_eq!(messages[3]["role"], "tool");
    assert_eq!(messages[3]["tool_call_id"], "call_1");
    assert!(
        messages[3]["content"]
            .as_str()
            .unwrap()
            .starts_with("Base directory for this skill: skill://calculator")
    );
    // Turn 3: the script's call and its output.
    let third = requests[2].json();
    let messages = third["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 6);
    assert_eq!(messages[..4], second["messages"].as_array().unwrap()[..]);
    assert_eq!(
        messages[4]["tool_calls"][0],
        json!({
            "id": "call_2",
            "type": "function",
            "function": {"name": "run_skill_script", "arguments": RUN_ARGS},
        })
    );
    assert_eq!(
        messages[5],
        json!({"role": "tool", "tool_call_id": "call_2", "content": "exit code: 0\n345\n"})
    );
}

#[test]
fn the_calculator_with_function_calling_over_http() {
    let mock = tools_calculator();
    let (_cache, session) = session();
    let mut model = mock.chat();
    let (answer, transcript) = agent::run(
        &mut model,
        &session,
        Protocol::FunctionCalling,
        "What is 15 * 23?",
        10,
    )
    .unwrap();
    assert_eq!(answer, "15 * 23 = 345");
    assert_eq!(transcript.len(), 7);
    assert_eq!(transcript[2].tool_calls[0].id, "call_1");
    assert_eq!(session.active(), ["calculator"]);
    check_tools_requests(&mock.requests());
}

#[test]
fn the_calculator_in_the_xml_protocol_over_http() {
    let mock = Mock::start(vec![
        text("I will use the calculator.\n<use_skill>calculator</use_skill>"),
        text(
            "<execute_script skill=\"calculator\">python3 scripts/calc.py '15 * 23'</execute_script>",
        ),
        text("15 × 23 = 345"),
    ]);
    let (_cache, session) = session();
    let mut model = mock.chat().temperature(0.0);
    let (answer, _) =
        agent::run(&mut model, &session, Protocol::Xml, "What is 15 * 23?", 10).unwrap();
    assert_eq!(answer, "15 × 23 = 345");
    let requests = mock.requests();
    assert_eq!(requests.len(), 3);
    for r in &requests {
        let body = r.json();
        assert!(body.get("tools").is_none(), "{body}");
        assert_eq!(body["temperature"], 0.0);
    }
    let first = requests[0].json();
    assert!(
        first["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("<use_skill>skill-name</use_skill>")
    );
    let last = requests[2].json();
    let messages = last["messages"].as_array().unwrap();
    assert_eq!(
        messages[4]["content"],
        "<execute_script skill=\"calculator\">python3 scripts/calc.py '15 * 23'</execute_script>"
    );
    assert_eq!(messages.len(), 6);
    assert_eq!(
        messages[5],
        json!({"role": "user", "content": "<script_result exit_code=\"0\">\n345\n</script_result>"})
    );
}

#[test]
fn the_calculator_on_tokio_over_http() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mock = tools_calculator();
    let mut model = mock.chat();
    // Spawned, so the loop's future (and the model's) must be `Send`.
    let answer = runtime
        .block_on(runtime.spawn(async move {
            let (_cache, session) = session();
            agent::run_async(
                &mut model,
                &session,
                Protocol::FunctionCalling,
                "What is 15 * 23?",
                10,
            )
            .await
            .map(|(answer, _)| answer)
        }))
        .unwrap()
        .unwrap();
    assert_eq!(answer, "15 * 23 = 345");
    check_tools_requests(&mock.requests());
}

/// One completion's error, checked to hold no secret.
fn error_of(model: &mut OpenAiChat) -> Box<OpenAiError> {
    let (_cache, session) = session();
    let e = agent::run(model, &session, Protocol::FunctionCalling, "hi", 10).unwrap_err();
    let LoopError::Model(e) = e else {
        panic!("{e:?}")
    };
    assert!(!e.to_string().contains(KEY), "{e}");
    assert!(!format!("{e:?}").contains(KEY), "{e:?}");
    assert!(!format!("{model:?}").contains(KEY));
    e.downcast::<OpenAiError>()
        .unwrap_or_else(|e| panic!("not an OpenAiError: {e:?}"))
}

/// The error expected, given the endpoint.
type Expected = fn(&str) -> String;

#[test]
fn errors_are_said_plainly() {
    let cases: Vec<(Answer, Expected)> = vec![
        (
            Answer::Status(
                401,
                br#"{"error":{"message":"bad key","type":"auth"}}"#.to_vec(),
            ),
            |url| format!("HTTP 401 from {url}: bad key"),
        ),
        (
            Answer::Status(404, br#"{"error":"model 'x' not found"}"#.to_vec()),
            |url| format!("HTTP 404 from {url}: model 'x' not found"),
        ),
        (
            Answer::Status(500, b"<html>Internal Server Error</html>".to_vec()),
            |url| format!("HTTP 500 from {url}: <html>Internal Server Error</html>"),
        ),
        (Answer::Status(502, "x".repeat(300).into_bytes()), |url| {
            format!("HTTP 502 from {url}: {}…", "x".repeat(200))
        }),
        (Answer::Status(503, Vec::new()), |url| {
            format!("HTTP 503 from {url}: (empty body)")
        }),
        (ok("<html>hello</html>"), |url| {
            format!(
                "the answer is not JSON (expected a value, found `<` at byte 0): \
                 \"<html>hello</html>\" (from {url})"
            )
        }),
        (ok(r#"{"choices":[]}"#), |url| {
            format!("the answer has no choices (`choices` is empty) (from {url})")
        }),
        (ok(r#"{"error":{"message":"overloaded"}}"#), |url| {
            format!("the answer has no `choices` array: error: overloaded (from {url})")
        }),
        (ok("[1]"), |url| {
            format!("the answer is an array, not a JSON object (from {url})")
        }),
        (ok(r#"{"choices":[{"message":{"content":1}}]}"#), |url| {
            format!("`choices[0].message.content` is a number, not a string (from {url})")
        }),
        (
            ok(completion(
                json!({"content": null, "tool_calls": [{"id": "a", "function": {"arguments": "{}"}}]}),
            )),
            |url| {
                format!(
                    "`choices[0].message.tool_calls[0]` has no `function.name` string (from {url})"
                )
            },
        ),
        (
            ok(completion(
                json!({"tool_calls": [{"function": {"name": "n", "arguments": "{}"}}]}),
            )),
            |url| format!("`choices[0].message.tool_calls[0]` has no `id` string (from {url})"),
        ),
        (
            ok(completion(
                json!({"tool_calls": [{"id": "a", "function": {"name": "n", "arguments": 3}}]}),
            )),
            |url| {
                format!(
                    "`choices[0].message.tool_calls[0]` has no `function.arguments` string (from {url})"
                )
            },
        ),
    ];
    for (answer, expected) in cases {
        let Answer::Status(code, _) = answer else {
            unreachable!("every row answers")
        };
        let mock = Mock::start(vec![answer]);
        let e = error_of(&mut mock.chat());
        let endpoint = mock.endpoint();
        match &*e {
            OpenAiError::Answer { url, .. } if code == 200 => assert_eq!(*url, endpoint),
            OpenAiError::Status { url, status, .. } if code != 200 => {
                assert_eq!((url, *status), (&endpoint, code));
            }
            other => panic!("HTTP {code}: {other:?}"),
        }
        assert_eq!(e.to_string(), expected(&endpoint));
    }
}

#[test]
fn an_answer_over_the_limit_is_refused() {
    let body = completion(json!({"content": "y".repeat(5000)}));
    let mock = Mock::start(vec![ok(body.clone()), ok(body.clone())]);
    let e = error_of(&mut mock.chat().max_response_bytes(1000));
    assert!(
        matches!(*e, OpenAiError::TooLarge { limit: 1000, .. }),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "the answer from {} is larger than max_response_bytes (1000 bytes)",
            mock.endpoint()
        )
    );
    // Exactly at the limit is fine.
    let reply = mock
        .chat()
        .max_response_bytes(body.len())
        .complete(&[Message::new(Role::User, "hi")], &[])
        .unwrap();
    assert_eq!(reply.content.len(), 5000);
}

#[test]
fn a_refused_connection_is_said_plainly() {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut model = OpenAiChat::new(format!("http://127.0.0.1:{port}/v1/"), "m").api_key(KEY);
    let e = error_of(&mut model);
    assert!(matches!(*e, OpenAiError::ConnectionRefused { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "could not connect to http://127.0.0.1:{port}/v1/chat/completions: \
             connection refused (is the server running?)"
        )
    );
}

#[test]
fn https_needs_the_tls_feature() {
    if openai::TLS {
        return; // this build has TLS; nothing here to reach over the network
    }
    let mut model = OpenAiChat::new("https://api.example.com/v1", "m").api_key(KEY);
    let e = error_of(&mut model);
    assert!(matches!(*e, OpenAiError::NoTls { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "https://api.example.com/v1/chat/completions is https, and this build has no TLS: \
         enable skills-bundle's `openai-tls` feature (without it only http:// endpoints \
         work, such as a local Ollama, vLLM, llama.cpp or LM Studio server)"
    );
    let e = error_of(&mut OpenAiChat::new("ftp://h/v1", "m"));
    assert!(matches!(*e, OpenAiError::NotHttp { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "ftp://h/v1/chat/completions is not an http:// or https:// URL \
         (expected a base such as http://127.0.0.1:11434/v1)"
    );
}

#[test]
fn a_silent_server_times_out() {
    let mock = Mock::start(vec![Answer::Silent]);
    let started = std::time::Instant::now();
    let e = error_of(&mut mock.chat().timeout(Duration::from_millis(200)));
    assert!(
        matches!(*e, OpenAiError::Timeout { timeout, .. } if timeout == Duration::from_millis(200)),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        format!("no answer from {} within 200ms (timeout)", mock.endpoint())
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn debug_never_shows_the_key() {
    let model = OpenAiChat::new("http://127.0.0.1:1/v1", "m")
        .api_key("sk-very-secret")
        .temperature(0.2);
    let debug = format!("{model:?}");
    assert!(!debug.contains("sk-very-secret"), "{debug}");
    assert!(debug.contains("<redacted>"), "{debug}");
    assert!(
        debug.contains("http://127.0.0.1:1/v1/chat/completions"),
        "{debug}"
    );
}

/// Deterministic mutations of a valid answer: truncations, byte flips,
/// insertions and fields of the wrong type.
fn mutations() -> Vec<Vec<u8>> {
    let valid = completion(json!({
        "role": "assistant",
        "content": "hello",
        "tool_calls": [{
            "id": "call_1",
            "type": "function",
            "function": {"name": "activate_skill", "arguments": "{\"name\": \"calculator\"}"},
        }],
    }))
    .into_bytes();
    let mut out = Vec::new();
    let n = valid.len();
    // Truncations.
    for i in 0..40 {
        out.push(valid[..i * n / 40].to_vec());
    }
    // Byte flips and replacements, spread over the body (a small LCG).
    let mut seed: u64 = 0x5eed;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for _ in 0..80 {
        let mut m = valid.clone();
        let at = next() % n;
        m[at] = match next() % 4 {
            0 => m[at] ^ 0xff,
            1 => b"{}[]\":,\\"[next() % 8],
            2 => 0,
            _ => m[at].wrapping_add(1),
        };
        out.push(m);
    }
    // Insertions.
    for _ in 0..30 {
        let mut m = valid.clone();
        let at = next() % n;
        let insert: &[u8] =
            [&b"["[..], b"{", b"\"", b"null", b",", b"\xf0\x9f", b"1e999"][next() % 7];
        m.splice(at..at, insert.iter().copied());
        out.push(m);
    }
    // Fields of the wrong type.
    let wrong = [
        json!(null),
        json!(1),
        json!("s"),
        json!([]),
        json!({}),
        json!(true),
    ];
    for w in &wrong {
        out.push(json!({"choices": w}).to_string().into_bytes());
        out.push(json!({"choices": [w]}).to_string().into_bytes());
        out.push(
            json!({"choices": [{"message": w}]})
                .to_string()
                .into_bytes(),
        );
        out.push(completion(json!({"content": w})).into_bytes());
        out.push(completion(json!({"tool_calls": w})).into_bytes());
        out.push(completion(json!({"tool_calls": [w]})).into_bytes());
        out.push(
            completion(
                json!({"tool_calls": [{"id": w, "function": {"name": "n", "arguments": "{}"}}]}),
            )
            .into_bytes(),
        );
        out.push(completion(json!({"tool_calls": [{"id": "a", "function": w}]})).into_bytes());
        out.push(
            completion(
                json!({"tool_calls": [{"id": "a", "function": {"name": w, "arguments": w}}]}),
            )
            .into_bytes(),
        );
    }
    // Deep nesting.
    out.push(
        format!(
            "{{\"choices\":{}{}}}",
            "[".repeat(10_000),
            "]".repeat(10_000)
        )
        .into_bytes(),
    );
    out
}

#[test]
fn no_answer_makes_it_panic() {
    let bodies = mutations();
    assert!(bodies.len() >= 200, "{}", bodies.len());
    let count = bodies.len();
    let mock = Mock::start(bodies.into_iter().map(ok).collect());
    let mut model = mock.chat();
    let messages = [Message::new(Role::User, "hi")];
    let (mut oks, mut errors) = (0, 0);
    for _ in 0..count {
        match model.complete(&messages, &[]) {
            Ok(_) => oks += 1,
            Err(e) => {
                match e.downcast_ref::<OpenAiError>() {
                    Some(OpenAiError::Answer { url, .. }) => assert_eq!(*url, mock.endpoint()),
                    _ => panic!("{e:?}"),
                }
                assert!(
                    e.to_string()
                        .ends_with(&format!("(from {})", mock.endpoint())),
                    "{e}"
                );
                errors += 1;
            }
        }
    }
    assert_eq!(mock.requests().len(), count);
    assert!(oks > 0 && errors > 0, "{oks} ok, {errors} errors");
}

#[test]
fn from_env_without_a_model_says_which_variable() {
    if std::env::var_os("OPENAI_MODEL").is_some() {
        println!("note: skipped: OPENAI_MODEL is set in this environment");
        return;
    }
    let e = OpenAiChat::from_env().unwrap_err();
    assert!(matches!(e, OpenAiError::NoModel), "{e:?}");
    assert_eq!(
        e.to_string(),
        "OPENAI_MODEL is not set: name the model to use, such as `gpt-4o-mini` \
         or a local server's `llama3.1`"
    );
}
