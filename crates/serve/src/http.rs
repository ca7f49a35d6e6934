//! The HTTP/1.1 that `marathon serve` speaks: one request per connection (`Connection: close`),
//! bodies only with a `Content-Length` of at most [`MAX_BODY`] bytes, request heads of at most
//! [`MAX_HEAD`] bytes, and a deadline on reading each request. Nothing is allocated from a
//! number a client sends: a `Content-Length` over the limit is answered 413 before any of the
//! body is read. (tiny_http, used before, allocated the declared rest of a body when a request
//! was dropped: a `Content-Length` of 10^12 followed by a closed connection aborted the
//! server.)
//!
//! Each connection is read on a thread of its own (at most [`MAX_CONNECTIONS`] at once, more
//! are answered 503), so an idle or slow client holds up nobody; the requests read are handed
//! to one handler, which answers them one at a time.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender, SyncSender};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::json;

/// The largest request head (request line and headers).
pub const MAX_HEAD: usize = 16 * 1024;
/// The largest request body; the API's bodies are a few dozen bytes.
pub const MAX_BODY: usize = 64 * 1024;
/// Connections read at once.
pub const MAX_CONNECTIONS: usize = 64;
/// How long a client has to send a whole request, and to take the answer.
const DEADLINE: Duration = Duration::from_secs(10);
/// What is read and thrown away of a refused request's body after the answer, so that the
/// client gets to read the answer rather than a reset connection.
const DRAIN: u64 = 1 << 20;
const MAX_HEADERS: usize = 100;

/// A request as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// The request target: the path and the query (`/api/state?session=3`).
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The first header named `name` (in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(field, _)| field.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// An answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &str, body: Vec<u8>) -> Self {
        Response {
            status,
            headers: vec![
                ("Content-Type".into(), content_type.into()),
                ("Cache-Control".into(), "no-store".into()),
            ],
            body,
        }
    }

    /// `{"error": message}` with `status`.
    pub fn error(status: u16, message: &str) -> Self {
        Response::new(
            status,
            "application/json; charset=utf-8",
            json!({ "error": message }).to_string().into_bytes(),
        )
    }

    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: close\r\n\r\n",
            self.body.len()
        ));
        out.write_all(head.as_bytes())?;
        out.write_all(&self.body)?;
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "",
    }
}

/// A request that cannot be read: the status and why.
type Refused = (u16, String);

/// The "status" of a connection closed or left idle before a byte was sent: it gets no answer.
const NO_REQUEST: u16 = 0;

/// Reads one request from `stream` (which may get a `100 Continue`), within `deadline`.
pub fn read_request<S: Read + Write>(
    stream: &mut S,
    set_timeout: &mut dyn FnMut(&S, Duration) -> io::Result<()>,
    deadline: Instant,
) -> Result<Request, Refused> {
    let mut reader = BufReader::with_capacity(
        4096,
        Deadlined {
            stream,
            set_timeout,
            deadline,
        },
    );
    let mut head_left = MAX_HEAD;
    let request_line = read_head_line(&mut reader, &mut head_left).map_err(|refused| {
        // Nothing sent at all (a browser's spare connection, a port scan): nothing to answer.
        match head_left == MAX_HEAD {
            true => (NO_REQUEST, refused.1),
            false => refused,
        }
    })?;
    let mut parts = request_line.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err((400, format!("bad request line {request_line:?}")));
    };
    if !version.starts_with("HTTP/1.") {
        return Err((505, format!("{version}: only HTTP/1.x is spoken here")));
    }
    if method.is_empty() || !target.starts_with('/') {
        return Err((400, format!("bad request line {request_line:?}")));
    }
    let mut request = Request {
        method: method.to_string(),
        target: target.to_string(),
        ..Request::default()
    };
    loop {
        let line = read_head_line(&mut reader, &mut head_left)?;
        if line.is_empty() {
            break;
        }
        if request.headers.len() == MAX_HEADERS {
            return Err((431, format!("more than {MAX_HEADERS} headers")));
        }
        let Some((name, value)) = line.split_once(':') else {
            return Err((400, format!("bad header line {line:?}")));
        };
        if name.is_empty() || name.contains([' ', '\t']) {
            return Err((400, format!("bad header name {name:?}")));
        }
        request
            .headers
            .push((name.to_string(), value.trim().to_string()));
    }
    if request.header("Transfer-Encoding").is_some() {
        return Err((
            501,
            "a body in Transfer-Encoding is not read here: send its Content-Length".into(),
        ));
    }
    let length = content_length(&request)?;
    if length > 0 {
        if request
            .header("Expect")
            .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
        {
            let stream = &mut reader.get_mut().stream;
            stream
                .write_all(b"HTTP/1.1 100 Continue\r\n\r\n")
                .and_then(|()| stream.flush())
                .map_err(|e| (400, format!("cannot answer: {e}")))?;
        }
        // Within MAX_BODY: checked above, so this allocation is bounded.
        let mut body = Vec::with_capacity(length);
        let read = (&mut reader)
            .take(length as u64)
            .read_to_end(&mut body)
            .map_err(|e| refused_read(&e))?;
        if read < length {
            return Err((
                400,
                format!("the body ended after {read} of its {length} bytes"),
            ));
        }
        request.body = body;
    }
    Ok(request)
}

/// The body's length the request declares: 0 without one; refused when it is not a number,
/// when two headers disagree, and (413) when it is over [`MAX_BODY`].
fn content_length(request: &Request) -> Result<usize, Refused> {
    let mut length = None;
    for (name, value) in &request.headers {
        if !name.eq_ignore_ascii_case("Content-Length") {
            continue;
        }
        if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err((400, format!("Content-Length {value:?} is not a length")));
        }
        // Too many digits for a u64 is over the limit too.
        let declared = value.parse::<u64>().unwrap_or(u64::MAX);
        if length.is_some_and(|known| known != declared) {
            return Err((400, "two different Content-Length headers".into()));
        }
        length = Some(declared);
    }
    match length {
        Some(declared) if declared > MAX_BODY as u64 => Err((
            413,
            format!("a body of {declared} bytes: the most read is {MAX_BODY}"),
        )),
        Some(declared) => Ok(declared as usize),
        None => Ok(0),
    }
}

/// One line of the head, without its `\r\n` (or `\n`), out of what is left of [`MAX_HEAD`].
/// What was read counts against `left` even when the line is refused, so that the caller can
/// tell a request that never began.
fn read_head_line(reader: &mut impl BufRead, left: &mut usize) -> Result<String, Refused> {
    let mut line = Vec::new();
    let read = reader.take(*left as u64 + 1).read_until(b'\n', &mut line);
    let over = line.len() > *left;
    *left = left.saturating_sub(line.len());
    read.map_err(|e| refused_read(&e))?;
    if over {
        return Err((431, format!("a request head over {MAX_HEAD} bytes")));
    }
    if !line.ends_with(b"\n") {
        return Err((400, "the request ended in its head".into()));
    }
    line.pop();
    if line.ends_with(b"\r") {
        line.pop();
    }
    String::from_utf8(line).map_err(|_| (400, "a request head that is not UTF-8".into()))
}

fn refused_read(error: &io::Error) -> Refused {
    match error.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => (
            408,
            format!("the request took over {} s", DEADLINE.as_secs()),
        ),
        _ => (400, format!("cannot read the request: {error}")),
    }
}

/// A stream whose every read waits at most until `deadline`.
struct Deadlined<'a, S> {
    stream: &'a mut S,
    set_timeout: &'a mut dyn FnMut(&S, Duration) -> io::Result<()>,
    deadline: Instant,
}

impl<S: Read> Read for Deadlined<'_, S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::ErrorKind::TimedOut.into());
        }
        (self.set_timeout)(self.stream, left)?;
        self.stream.read(buf)
    }
}

/// Accepts connections on `listener` for ever, reads each on a thread of its own, and hands
/// each request read to `requests` with where to send its answer.
pub fn accept(listener: &TcpListener, requests: &Sender<(Request, SyncSender<Response>)>) {
    let open = Arc::new(AtomicUsize::new(0));
    loop {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            // Out of descriptors, a connection reset before it was taken: nothing to stop for.
            Err(_) => {
                thread::sleep(Duration::from_millis(10));
                continue;
            }
        };
        if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            open.fetch_sub(1, Ordering::SeqCst);
            let busy = Response::error(503, "too many connections at once; try again");
            answer(stream, &busy);
            continue;
        }
        let requests = requests.clone();
        let open = Arc::clone(&open);
        let spawned = thread::Builder::new()
            .name("serve-connection".into())
            .spawn(move || {
                serve_connection(stream, &requests);
                open.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            // The thread's closure (and the stream) is dropped: the connection closes.
            thread::sleep(Duration::from_millis(10));
        }
    }
}

fn serve_connection(mut stream: TcpStream, requests: &Sender<(Request, SyncSender<Response>)>) {
    let deadline = Instant::now() + DEADLINE;
    let mut set_timeout =
        |stream: &TcpStream, timeout: Duration| stream.set_read_timeout(Some(timeout));
    let response = match read_request(&mut stream, &mut set_timeout, deadline) {
        Ok(request) => {
            let (reply, answered) = mpsc::sync_channel(1);
            if requests.send((request, reply)).is_err() {
                return;
            }
            match answered.recv() {
                Ok(response) => response,
                Err(_) => return,
            }
        }
        Err((NO_REQUEST, _)) => return,
        Err((status, message)) => Response::error(status, &message),
    };
    answer(stream, &response);
}

/// Writes `response` and closes the connection, reading a little of what the client still
/// sends so that it sees the answer.
fn answer(mut stream: TcpStream, response: &Response) {
    let _ = stream.set_write_timeout(Some(DEADLINE));
    if response.write_to(&mut stream).is_err() {
        return;
    }
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let _ = io::copy(&mut (&mut stream).take(DRAIN), &mut io::sink());
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A client's bytes in, the server's out.
    struct Scripted {
        input: io::Cursor<Vec<u8>>,
        output: Vec<u8>,
    }

    impl Read for Scripted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.input.read(buf)
        }
    }

    impl Write for Scripted {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.output.write(buf)
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn read(text: &[u8]) -> (Result<Request, Refused>, String) {
        let mut stream = Scripted {
            input: io::Cursor::new(text.to_vec()),
            output: Vec::new(),
        };
        let result = read_request(
            &mut stream,
            &mut |_, _| Ok(()),
            Instant::now() + Duration::from_secs(60),
        );
        (result, String::from_utf8_lossy(&stream.output).into_owned())
    }

    fn status(text: &[u8]) -> u16 {
        match read(text).0 {
            Ok(_) => 200,
            Err((status, _)) => status,
        }
    }

    #[test]
    fn a_request_with_its_headers_and_body() {
        let (request, sent) =
            read(b"POST /api/new?x=1 HTTP/1.1\r\nHost: a:1\r\ncontent-length: 4\r\n\r\nbodyMORE");
        let request = request.unwrap();
        assert_eq!(request.method, "POST");
        assert_eq!(request.target, "/api/new?x=1");
        assert_eq!(request.header("HOST"), Some("a:1"));
        assert_eq!(request.body, b"body");
        assert_eq!(sent, "");
        let (request, sent) =
            read(b"POST / HTTP/1.1\nExpect: 100-continue\nContent-Length: 2\n\nok");
        assert_eq!(request.unwrap().body, b"ok");
        assert_eq!(sent, "HTTP/1.1 100 Continue\r\n\r\n");
        assert_eq!(status(b"GET / HTTP/1.0\r\n\r\n"), 200);
    }

    #[test]
    fn what_the_client_declares_is_bounded_before_it_is_read() {
        // The request that aborted the server under tiny_http: refused without reading.
        let huge = b"POST /api/new HTTP/1.1\r\nContent-Length: 1000000000000\r\n\r\nab";
        let (refused, _) = read(huge);
        let (code, message) = refused.unwrap_err();
        assert_eq!(code, 413);
        assert!(message.contains("1000000000000"), "{message}");
        let too_long = format!(
            "POST / HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            MAX_BODY + 1
        );
        assert_eq!(status(too_long.as_bytes()), 413);
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n"),
            413
        );
        for bad in [
            &b"POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"[..],
            b"POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n",
            b"POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc",
            b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab",
            b"GET / HTTP/1.1\r\nHost",
            b"GET / HTTP/1.1",
            b"GET /\r\n\r\n",
            b"GET / HTTP/1.1 x\r\n\r\n",
            b"GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
            b"GET / HTTP/1.1\r\n no-colon\r\n\r\n",
        ] {
            assert_eq!(status(bad), 400, "{}", String::from_utf8_lossy(bad));
        }
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            501
        );
        assert_eq!(status(b"GET / HTTP/2\r\n\r\n"), 505);
        // Nothing sent: no answer at all; something sent and cut: an answer.
        assert_eq!(status(b""), NO_REQUEST);
        assert_eq!(status(b"G"), 400);
        let long_head = format!("GET / HTTP/1.1\r\nX: {}\r\n\r\n", "y".repeat(MAX_HEAD));
        assert_eq!(status(long_head.as_bytes()), 431);
        let many = format!(
            "GET / HTTP/1.1\r\n{}\r\n",
            "A: b\r\n".repeat(MAX_HEADERS + 1)
        );
        assert_eq!(status(many.as_bytes()), 431);
    }

    #[test]
    fn the_answer_closes_the_connection() {
        let mut out = Vec::new();
        Response::error(413, "too big").write_to(&mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("HTTP/1.1 413 Content Too Large\r\n"),
            "{text}"
        );
        assert!(text.contains("Connection: close\r\n"), "{text}");
        assert!(text.ends_with("\r\n\r\n{\"error\":\"too big\"}"), "{text}");
    }
}
