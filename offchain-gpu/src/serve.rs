//! Openings served off chain (`docs/protocol.md` §8, "Openings served off chain"): with
//! `run --serve-openings ADDR --openings-url URL` the miner names URL as its endpoint on chain,
//! and a selected GPU of a round it serves is not revealed on chain: its openings are kept here,
//! and each committee member fetches them with `GET {URL}/openings/{round}/{gpu}` (the SCALE
//! encoding of the openings and walks, as `reveal_openings` carries them; the member's account in
//! the `X-Pog-Validator` header). A plain HTTP/1.1 server on std's sockets, one thread per
//! connection, so that a slow member holds up no other.

use std::{
	collections::{BTreeMap, BTreeSet},
	io::{BufRead, BufReader, Read, Write},
	net::{SocketAddr, TcpListener, TcpStream},
	sync::{Arc, Mutex},
	time::Duration,
};

use anyhow::Context;
use tracing::{debug, info, warn};

use pog_primitives::endpoint::{parse_openings_path, VALIDATOR_HEADER};

/// Longest request head read (request line and headers).
const MAX_HEAD_BYTES: usize = 8 * 1024;
/// Connections served at once; more wait in the listener's backlog.
const MAX_CONNECTIONS: usize = 256;

/// Where and as what the miner serves its openings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
	/// The socket the server listens on.
	pub listen: SocketAddr,
	/// The URL committee members reach it at (what the chain stores).
	pub url: String,
}

/// Whom the server answers (tests only differ).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Audience {
	/// Every member that asks, as the protocol asks.
	#[default]
	Everyone,
	/// Only the first `n` distinct members that ask (a miner serving some members only).
	FirstMembers(usize),
}

/// A served GPU's answer: the SCALE encoding of its openings and walks.
pub type Body = Arc<Vec<u8>>;

/// What the server answers a request with: the body for `path` asked by committee member
/// `member` (its `X-Pog-Validator` header), or `None` (404). One miner's [`Openings`] answer it;
/// the load benchmark serves its many miners from one server.
pub trait Answers: Send + Sync + 'static {
	/// The body for `path`, or `None`.
	fn answer(&self, path: &str, member: Option<&str>) -> Option<Body>;
}

/// The openings kept for the committees, by (round, GPU).
#[derive(Default)]
pub struct Openings {
	bodies: Mutex<BTreeMap<(u32, u32), Body>>,
	audience: Audience,
	served_to: Mutex<BTreeSet<String>>,
}

impl Openings {
	/// An empty store that answers `audience`.
	pub fn new(audience: Audience) -> Self {
		Self { audience, ..Default::default() }
	}

	/// Keeps `body` (the SCALE encoding of GPU `gpu`'s openings and walks in `round`) for its
	/// committee, and drops what rounds before `round − 1` kept.
	pub fn keep(&self, round: u32, gpu: u32, body: Vec<u8>) {
		let mut bodies = self.bodies.lock().expect("openings lock");
		bodies.retain(|(r, _), _| r.saturating_add(1) >= round);
		bodies.insert((round, gpu), Arc::new(body));
	}
}

impl Answers for Openings {
	/// `GET …/openings/{round}/{gpu}`: the kept body, to the members the audience admits.
	fn answer(&self, path: &str, member: Option<&str>) -> Option<Body> {
		let (round, gpu) = parse_openings_path(path)?;
		let body = self.bodies.lock().expect("openings lock").get(&(round, gpu)).cloned()?;
		if let Audience::FirstMembers(n) = self.audience {
			let member = member?.to_string();
			let mut served = self.served_to.lock().expect("audience lock");
			if !served.contains(&member) && served.len() >= n {
				warn!(round, gpu, %member, "adversary: not serving this committee member");
				return None;
			}
			served.insert(member);
		}
		Some(body)
	}
}

/// Listens on `config.listen` and serves `openings` until the process exits; returns the address
/// listened on (the port the system chose, where `config.listen`'s is 0).
pub fn spawn(config: &ServeConfig, openings: Arc<dyn Answers>) -> anyhow::Result<SocketAddr> {
	let listener = TcpListener::bind(config.listen)
		.with_context(|| format!("cannot listen on {} (--serve-openings)", config.listen))?;
	let listening = listener.local_addr()?;
	info!(listen = %listening, url = %config.url, "serving openings to the committees");
	let active = Arc::new(Mutex::new(0usize));
	std::thread::Builder::new().name("openings-server".into()).spawn(move || {
		for stream in listener.incoming() {
			let Ok(stream) = stream else { continue };
			if *active.lock().expect("connections lock") >= MAX_CONNECTIONS {
				continue;
			}
			*active.lock().expect("connections lock") += 1;
			let (openings, active) = (openings.clone(), active.clone());
			let _ = std::thread::Builder::new().name("openings-conn".into()).spawn(move || {
				if let Err(e) = handle(stream, openings.as_ref()) {
					debug!("openings request: {e:#}");
				}
				*active.lock().expect("connections lock") -= 1;
			});
		}
	})?;
	Ok(listening)
}

/// Reads one request from `stream` and answers it.
fn handle(stream: TcpStream, openings: &dyn Answers) -> anyhow::Result<()> {
	stream.set_read_timeout(Some(Duration::from_secs(5)))?;
	stream.set_write_timeout(Some(Duration::from_secs(30)))?;
	let mut reader = BufReader::new(stream.try_clone()?).take(MAX_HEAD_BYTES as u64);
	let mut line = String::new();
	reader.read_line(&mut line)?;
	let mut parts = line.split_whitespace();
	let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
	let mut member = None;
	loop {
		let mut header = String::new();
		if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
			break;
		}
		if let Some((name, value)) = header.split_once(':') {
			if name.trim().eq_ignore_ascii_case(VALIDATOR_HEADER) {
				member = Some(value.trim().to_string());
			}
		}
	}
	let mut out = stream;
	let body = if method == "GET" { openings.answer(path, member.as_deref()) } else { None };
	match body {
		Some(body) => {
			debug!(path, member = member.as_deref().unwrap_or("?"), bytes = body.len(), "openings served");
			write!(
				out,
				"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
				body.len()
			)?;
			out.write_all(&body)?;
		},
		None => write!(out, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")?,
	}
	out.flush()?;
	Ok(())
}

#[cfg(test)]
mod tests {
	use super::*;

	fn get(addr: SocketAddr, path: &str, member: &str) -> (u16, Vec<u8>) {
		let mut s = TcpStream::connect(addr).unwrap();
		write!(s, "GET {path} HTTP/1.1\r\nHost: x\r\nX-Pog-Validator: {member}\r\n\r\n").unwrap();
		let mut raw = Vec::new();
		s.read_to_end(&mut raw).unwrap();
		let split = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
		let head = String::from_utf8_lossy(&raw[..split]).to_string();
		let code = head.split_whitespace().nth(1).unwrap().parse().unwrap();
		(code, raw[split + 4..].to_vec())
	}

	fn server(audience: Audience) -> (SocketAddr, Arc<Openings>) {
		let openings = Arc::new(Openings::new(audience));
		let config = ServeConfig { listen: "127.0.0.1:0".parse().unwrap(), url: "http://127.0.0.1/pog".into() };
		(spawn(&config, openings.clone()).unwrap(), openings)
	}

	#[test]
	fn a_kept_gpu_is_served_to_every_member_and_nothing_else_is() {
		let (addr, openings) = server(Audience::Everyone);
		openings.keep(7, 2, vec![1, 2, 3]);
		for member in ["aa", "bb", "cc"] {
			assert_eq!(get(addr, "/pog/openings/7/2", member), (200, vec![1, 2, 3]));
		}
		assert_eq!(get(addr, "/pog/openings/7/3", "aa").0, 404, "another GPU");
		assert_eq!(get(addr, "/pog/openings/6/2", "aa").0, 404, "another round");
		assert_eq!(get(addr, "/pog/status", "aa").0, 404);
		openings.keep(9, 0, vec![4]);
		assert_eq!(get(addr, "/pog/openings/7/2", "aa").0, 404, "rounds two back are dropped");
	}

	#[test]
	fn a_miner_serving_some_members_answers_only_the_first_ones() {
		let (addr, openings) = server(Audience::FirstMembers(2));
		openings.keep(1, 0, vec![5]);
		assert_eq!(get(addr, "/openings/1/0", "aa").0, 200);
		assert_eq!(get(addr, "/openings/1/0", "bb").0, 200);
		assert_eq!(get(addr, "/openings/1/0", "cc").0, 404);
		assert_eq!(get(addr, "/openings/1/0", "aa").0, 200, "a member served before is served again");
	}
}
