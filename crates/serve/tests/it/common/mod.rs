//! What the server's tests share: a server on a free loopback port, on a thread of its own,
//! and a small HTTP client.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::thread;
use std::time::Duration;

use marathon_core::{CaseId, Game};
use marathon_serve::Server;
use serde_json::Value;

/// Starts a server on a free port; it serves until the test process ends.
pub fn start_server() -> SocketAddr {
    let server = Server::bind(0).expect("a free port");
    let address = server.address();
    thread::spawn(move || server.serve());
    address
}

/// An answer: its status and body.
pub struct Answer {
    pub status: u16,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
}

/// Sends one request (`Host` set to `host`, or the server's address) and reads the answer.
pub fn request_to(
    address: SocketAddr,
    host: Option<&str>,
    method: &str,
    path: &str,
    body: &str,
) -> Answer {
    let mut stream = TcpStream::connect(address).expect("the server answers");
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .expect("a timeout");
    let host = host.map_or_else(|| address.to_string(), str::to_string);
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("sent");
    stream.write_all(body.as_bytes()).expect("sent");
    let mut text = Vec::new();
    stream.read_to_end(&mut text).expect("an answer");
    let text = String::from_utf8_lossy(&text).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").expect("a head and a body");
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("a status");
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        unchunk(body)
    } else {
        body.to_string()
    };
    Answer { status, body }
}

fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

pub fn get(address: SocketAddr, path: &str) -> Answer {
    request_to(address, None, "GET", path, "")
}

pub fn post(address: SocketAddr, path: &str, body: &Value) -> Answer {
    request_to(address, None, "POST", path, &body.to_string())
}

/// The case a state is of.
pub fn case_of(state: &Value) -> CaseId {
    let seed = state["seed"].as_u64().expect("a seed");
    match state["group"].as_u64() {
        Some(group) => CaseId::in_group(group as u32, seed),
        None => CaseId::seed(seed),
    }
}

/// The replies of a state.
pub fn replies_of(state: &Value) -> Vec<String> {
    state["replies"]
        .as_array()
        .expect("replies")
        .iter()
        .map(|r| r.as_str().expect("a reply").to_string())
        .collect()
}

/// The replies the state lists as legal (none where it lists none, as for Polyomino's many
/// placements).
pub fn legal_of(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .map(|legal| {
            legal
                .iter()
                .filter_map(|r| r.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// The judge's score for `replies` of the case of `state` (the rules' score, through the
/// environment apart from the server).
pub fn judged(game: &dyn Game, state: &Value, replies: &[String]) -> f64 {
    game.replay(&case_of(state), replies)
        .unwrap_or_else(|e| panic!("{}: {e}", game.name()))
        .score
}
