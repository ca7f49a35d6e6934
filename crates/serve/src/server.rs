//! The HTTP side of `marathon serve`: the page and its JSON API on 127.0.0.1 only.
//!
//! | request | body or query | answer |
//! | --- | --- | --- |
//! | `GET /` | | the page |
//! | `GET /api/games` | | `[{name, groups: [first, last, default] or null}]` |
//! | `POST /api/new` | `{game, seed, group?}` | the new game's state, with its `session` id |
//! | `POST /api/step` | `{session, action}` (a reply line) | the state after it |
//! | `POST /api/undo` | `{session}` | the state after taking back the last reply |
//! | `GET /api/state` | `?session=ID` | the state |
//! | `GET /api/hint` | `?session=ID` | `{hint}`: the AI's reply for the position, or null |
//! | `GET /api/replay` | `?session=ID` | the replay page of the game so far (HTML) |
//!
//! A state is [`crate::Session::state`] with `session` added. A bad request (unreadable JSON, an
//! unknown session or game, a reply the rules refuse) answers 4xx with `{error}` and changes
//! nothing; no request may stop the server. Requests whose `Host` is not this server's loopback
//! address are refused, so that a web page elsewhere cannot reach the API through a name that
//! resolves to 127.0.0.1.
//!
//! Requests are answered one at a time (a person plays one game; a hint takes milliseconds).

use std::collections::BTreeMap;
use std::io::{self, Read};
use std::net::SocketAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Deserialize;
use serde_json::{Value, json};
use tiny_http::{Header, Method, Request, Response};

use crate::page;
use crate::session::{Session, new_session};

/// The port `marathon serve` listens on by default.
pub const DEFAULT_PORT: u16 = 8700;

/// Games kept at once; starting one more drops the oldest.
pub const MAX_SESSIONS: usize = 64;

/// The largest request body read.
const MAX_BODY: u64 = 64 * 1024;

/// The server: its socket, the page and the games in play.
pub struct Server {
    http: tiny_http::Server,
    address: SocketAddr,
    page: String,
    sessions: BTreeMap<u64, Box<dyn Session>>,
    next_id: u64,
}

type Answer = Response<io::Cursor<Vec<u8>>>;

#[derive(Deserialize)]
struct NewGame {
    game: String,
    seed: u64,
    #[serde(default)]
    group: Option<u32>,
}

#[derive(Deserialize)]
struct Step {
    session: u64,
    action: String,
}

#[derive(Deserialize)]
struct SessionOnly {
    session: u64,
}

/// A request that cannot be answered as asked: its status and why.
struct Refusal(u16, String);

fn bad(message: impl Into<String>) -> Refusal {
    Refusal(400, message.into())
}

impl Server {
    /// Listens on 127.0.0.1:`port` (0: a free port).
    pub fn bind(port: u16) -> io::Result<Server> {
        let http = tiny_http::Server::http(("127.0.0.1", port))
            .map_err(|e| io::Error::other(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let address = http
            .server_addr()
            .to_ip()
            .ok_or_else(|| io::Error::other("not an IP socket"))?;
        Ok(Server {
            http,
            address,
            page: page::html(),
            sessions: BTreeMap::new(),
            next_id: 1,
        })
    }

    /// The page's address.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// The socket's address.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// Answers requests until the listening socket fails.
    pub fn serve(mut self) -> io::Result<()> {
        loop {
            let request = self.http.recv()?;
            self.answer(request);
        }
    }

    /// Answers one request (whatever it holds; a panic inside a game's code answers 500 and
    /// drops nothing else).
    pub fn answer(&mut self, mut request: Request) {
        let response = match catch_unwind(AssertUnwindSafe(|| self.route(&mut request))) {
            Ok(Ok(response)) => response,
            Ok(Err(Refusal(status, message))) => json_response(status, &json!({"error": message})),
            Err(_) => json_response(500, &json!({"error": "internal error"})),
        };
        // The client may have gone; nothing to do then.
        let _ = request.respond(response);
    }

    fn route(&mut self, request: &mut Request) -> Result<Answer, Refusal> {
        self.check_host(request)?;
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let method = request.method().clone();
        match (&method, path) {
            (Method::Get, "/") => Ok(html_response(self.page.clone())),
            (Method::Get, "/api/games") => Ok(json_response(200, &games())),
            (Method::Post, "/api/new") => {
                let new: NewGame = read_json(request)?;
                let session = new_session(&new.game, new.seed, new.group).map_err(bad)?;
                let id = self.next_id;
                self.next_id += 1;
                while self.sessions.len() >= MAX_SESSIONS {
                    self.sessions.pop_first();
                }
                self.sessions.insert(id, session);
                self.state(id)
            }
            (Method::Post, "/api/step") => {
                let step: Step = read_json(request)?;
                self.session(step.session)?
                    .step(&step.action)
                    .map_err(|e| Refusal(422, e))?;
                self.state(step.session)
            }
            (Method::Post, "/api/undo") => {
                let undo: SessionOnly = read_json(request)?;
                self.session(undo.session)?
                    .undo()
                    .map_err(|e| Refusal(409, e))?;
                self.state(undo.session)
            }
            (Method::Get, "/api/state") => self.state(session_param(query)?),
            (Method::Get, "/api/hint") => {
                let hint = self.session(session_param(query)?)?.hint();
                Ok(json_response(200, &json!({ "hint": hint })))
            }
            (Method::Get, "/api/replay") => {
                let session = self.session(session_param(query)?)?;
                let name = format!("{}-{}.html", session.game(), session.case()).replace(
                    |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '.',
                    "-",
                );
                Ok(html_response(session.replay_page()).with_header(header(
                    "Content-Disposition",
                    &format!("attachment; filename=\"{name}\""),
                )))
            }
            (_, "/" | "/api/games" | "/api/new" | "/api/step" | "/api/undo")
            | (_, "/api/state" | "/api/hint" | "/api/replay") => {
                Err(Refusal(405, format!("{method} {path}: method not allowed")))
            }
            _ => Err(Refusal(404, format!("no such page: {path}"))),
        }
    }

    /// Refuses a request addressed to another host than this server's loopback address.
    fn check_host(&self, request: &Request) -> Result<(), Refusal> {
        let host = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.as_str().to_ascii_lowercase());
        let port = self.address.port();
        let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
        match host {
            Some(host) if allowed.contains(&host) => Ok(()),
            Some(host) => Err(Refusal(403, format!("host {host:?} is not this server"))),
            None => Err(Refusal(400, "no Host header".into())),
        }
    }

    fn session(&mut self, id: u64) -> Result<&mut Box<dyn Session>, Refusal> {
        self.sessions
            .get_mut(&id)
            .ok_or_else(|| Refusal(404, format!("no game {id} (start a new one)")))
    }

    fn state(&mut self, id: u64) -> Result<Answer, Refusal> {
        let mut state = self.session(id)?.state();
        state["session"] = json!(id);
        Ok(json_response(200, &state))
    }
}

/// The games and their case groups.
fn games() -> Value {
    let games: Vec<Value> = marathon_games::games()
        .iter()
        .map(|game| {
            let groups = game
                .groups()
                .map(|(range, default)| json!([range.start(), range.end(), default]));
            json!({ "name": game.name(), "groups": groups })
        })
        .collect();
    Value::Array(games)
}

fn read_json<T: for<'de> Deserialize<'de>>(request: &mut Request) -> Result<T, Refusal> {
    let mut body = String::new();
    request
        .as_reader()
        .take(MAX_BODY + 1)
        .read_to_string(&mut body)
        .map_err(|e| bad(format!("cannot read the request: {e}")))?;
    if body.len() as u64 > MAX_BODY {
        return Err(Refusal(413, format!("a request of over {MAX_BODY} bytes")));
    }
    serde_json::from_str(&body).map_err(|e| bad(format!("bad JSON: {e}")))
}

/// The `session` parameter of a query string.
fn session_param(query: &str) -> Result<u64, Refusal> {
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("session="))
        .ok_or_else(|| bad("no session= in the query"))?
        .parse()
        .map_err(|e| bad(format!("session: {e}")))
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn json_response(status: u16, value: &Value) -> Answer {
    Response::from_data(value.to_string().into_bytes())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}

fn html_response(text: String) -> Answer {
    Response::from_data(text.into_bytes())
        .with_header(header("Content-Type", "text/html; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}
