//! Requests that declare more than they send, or send nothing: each is refused or waited for
//! on its own, within bounds, and the server goes on answering (issue 40, defect 8).

use crate::common;

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::time::Duration;

use common::{get, start_server};

/// Sends `head` and `body` raw, closes the sending side, and returns the answer's status line
/// and body.
fn raw(address: SocketAddr, head: &str, body: &[u8]) -> (String, String) {
    let mut stream = TcpStream::connect(address).expect("the server answers");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    stream.write_all(head.as_bytes()).expect("sent");
    stream.write_all(body).expect("sent");
    stream.shutdown(Shutdown::Write).expect("half-closed");
    let mut answer = Vec::new();
    stream.read_to_end(&mut answer).expect("an answer");
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, body.to_string())
}

#[test]
fn a_huge_content_length_is_refused_and_the_server_goes_on() {
    let address = start_server();
    // The request that aborted the server ("memory allocation of 999999999998 bytes failed").
    let head = format!(
        "POST /api/new HTTP/1.1\r\nHost: {address}\r\nContent-Length: 1000000000000\r\n\r\n"
    );
    let (status, body) = raw(address, &head, b"{}");
    assert!(status.starts_with("HTTP/1.1 413"), "{status}");
    assert!(body.contains("1000000000000"), "{body}");
    // The same, the connection dropped without reading the answer.
    let mut stream = TcpStream::connect(address).expect("the server answers");
    stream.write_all(head.as_bytes()).expect("sent");
    stream.write_all(b"{}").expect("sent");
    drop(stream);
    // Over the limit by one byte and nothing sent: refused at once, not waited for.
    let over = format!(
        "POST /api/new HTTP/1.1\r\nHost: {address}\r\nContent-Length: {}\r\n\r\n",
        64 * 1024 + 1
    );
    let mut waiting = TcpStream::connect(address).expect("the server answers");
    waiting.write_all(over.as_bytes()).expect("sent");
    waiting
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    let mut answer = [0u8; 12];
    waiting.read_exact(&mut answer).expect("an answer");
    assert_eq!(&answer, b"HTTP/1.1 413");
    // A body in chunks is not read.
    let chunked =
        format!("POST /api/new HTTP/1.1\r\nHost: {address}\r\nTransfer-Encoding: chunked\r\n\r\n");
    let (status, _) = raw(address, &chunked, b"2\r\n{}\r\n0\r\n\r\n");
    assert!(status.starts_with("HTTP/1.1 501"), "{status}");
    assert_eq!(get(address, "/api/games").status, 200);
}

#[test]
fn an_idle_or_unfinished_request_holds_up_nobody() {
    let address = start_server();
    let idle = TcpStream::connect(address).expect("the server answers");
    let mut unfinished = TcpStream::connect(address).expect("the server answers");
    let head =
        format!("POST /api/new HTTP/1.1\r\nHost: {address}\r\nContent-Length: 40\r\n\r\n{{\"ga");
    unfinished.write_all(head.as_bytes()).expect("sent");
    // Answered while the two others wait for their requests' ends.
    let games = get(address, "/api/games");
    assert_eq!(games.status, 200, "{}", games.body);
    drop((idle, unfinished));
    assert_eq!(get(address, "/api/games").status, 200);
}
