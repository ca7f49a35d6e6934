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
//! Requests are answered one at a time (a person plays one game; a hint takes milliseconds);
//! [`crate::http`] reads them, each connection on a thread of its own, within bounds.

use std::collections::BTreeMap;
use std::io;
use std::net::{SocketAddr, TcpListener};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::http::{self, Request, Response};
use crate::page;
use crate::session::{Session, new_session};

/// The port `marathon serve` listens on by default.
pub const DEFAULT_PORT: u16 = 8700;

/// Games kept at once; starting one more drops the oldest.
pub const MAX_SESSIONS: usize = 64;

/// The server: its socket, the page and the games in play.
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    page: String,
    sessions: BTreeMap<u64, Session>,
    next_id: u64,
}

type Answer = Response;

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
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|e| io::Error::other(format!("cannot listen on 127.0.0.1:{port}: {e}")))?;
        let address = listener.local_addr()?;
        Ok(Server {
            listener,
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

    /// Answers requests for ever (the connections are accepted and read on threads of their
    /// own; the answers are made here, one at a time).
    pub fn serve(mut self) -> io::Result<()> {
        let listener = self.listener.try_clone()?;
        let (requests, incoming) = mpsc::channel();
        thread::Builder::new()
            .name("serve-accept".into())
            .spawn(move || http::accept(&listener, &requests))?;
        for (request, reply) in incoming {
            let response = self.answer(&request);
            // The client may have gone; nothing to do then.
            let _ = reply.send(response);
        }
        Err(io::Error::other("the server stopped accepting connections"))
    }

    /// Answers one request (whatever it holds; a panic inside a game's code answers 500 and
    /// drops nothing else).
    pub fn answer(&mut self, request: &Request) -> Response {
        match catch_unwind(AssertUnwindSafe(|| self.route(request))) {
            Ok(Ok(response)) => response,
            Ok(Err(Refusal(status, message))) => Response::error(status, &message),
            Err(_) => Response::error(500, "internal error"),
        }
    }

    fn route(&mut self, request: &Request) -> Result<Answer, Refusal> {
        self.check_host(request)?;
        let url = request.target.as_str();
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let method = request.method.as_str();
        match (method, path) {
            ("GET", "/") => Ok(html_response(self.page.clone())),
            ("GET", "/api/games") => Ok(json_response(200, &games())),
            ("POST", "/api/new") => {
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
            ("POST", "/api/step") => {
                let step: Step = read_json(request)?;
                self.session(step.session)?
                    .step(&step.action)
                    .map_err(|e| Refusal(422, e))?;
                self.state(step.session)
            }
            ("POST", "/api/undo") => {
                let undo: SessionOnly = read_json(request)?;
                self.session(undo.session)?
                    .undo()
                    .map_err(|e| Refusal(409, e))?;
                self.state(undo.session)
            }
            ("GET", "/api/state") => self.state(session_param(query)?),
            ("GET", "/api/hint") => {
                let hint = self.session(session_param(query)?)?.hint();
                Ok(json_response(200, &json!({ "hint": hint })))
            }
            ("GET", "/api/replay") => {
                let session = self.session(session_param(query)?)?;
                let name = format!("{}-{}.html", session.game(), session.case()).replace(
                    |c: char| !c.is_ascii_alphanumeric() && c != '-' && c != '.',
                    "-",
                );
                Ok(html_response(session.replay_page()).with_header(
                    "Content-Disposition",
                    &format!("attachment; filename=\"{name}\""),
                ))
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
        let host = request.header("Host").map(str::to_ascii_lowercase);
        let port = self.address.port();
        let allowed = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
        match host {
            Some(host) if allowed.contains(&host) => Ok(()),
            Some(host) => Err(Refusal(403, format!("host {host:?} is not this server"))),
            None => Err(Refusal(400, "no Host header".into())),
        }
    }

    fn session(&mut self, id: u64) -> Result<&mut Session, Refusal> {
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

/// The request's body as JSON (its size is bounded where it is read: [`http::MAX_BODY`]).
fn read_json<T: for<'de> Deserialize<'de>>(request: &Request) -> Result<T, Refusal> {
    serde_json::from_slice(&request.body).map_err(|e| bad(format!("bad JSON: {e}")))
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

fn json_response(status: u16, value: &Value) -> Answer {
    Response::new(
        status,
        "application/json; charset=utf-8",
        value.to_string().into_bytes(),
    )
}

fn html_response(text: String) -> Answer {
    Response::new(200, "text/html; charset=utf-8", text.into_bytes())
}
