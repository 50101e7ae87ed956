//! Where a miner serves its openings off chain (pallet-pog's `served`, `docs/protocol.md` §8,
//! "Openings served off chain"): what an endpoint is, and how a committee member asks it. The
//! chain checks an endpoint by [`valid_endpoint`], the agent checks its `--openings-url` by it, and
//! both build and read the request by [`openings_path`].

use alloc::{format, string::String};

/// Longest endpoint URL, in bytes.
pub const MAX_ENDPOINT_LEN: u32 = 256;

/// The HTTP header naming the committee member that fetches: the hex of its SCALE-encoded
/// account.
pub const VALIDATOR_HEADER: &str = "X-Pog-Validator";

/// Whether `url` is an endpoint committee members can fetch from: `http://` or `https://`
/// followed by a host, printable ASCII without spaces, at most [`MAX_ENDPOINT_LEN`] bytes.
pub fn valid_endpoint(url: &[u8]) -> bool {
	let rest = url.strip_prefix(b"https://").or_else(|| url.strip_prefix(b"http://"));
	url.len() <= MAX_ENDPOINT_LEN as usize
		&& rest.is_some_and(|host| !host.is_empty() && !host.starts_with(b"/"))
		&& url.iter().all(|b| (0x21..=0x7e).contains(b))
}

/// The URL of `gpu`'s openings of `round` under `endpoint`: `{endpoint}/openings/{round}/{gpu}`.
/// The answer is the SCALE encoding of the openings and walks, as `reveal_openings` carries them.
pub fn openings_url(endpoint: &str, round: u32, gpu: u32) -> String {
	format!("{}/openings/{round}/{gpu}", endpoint.trim_end_matches('/'))
}

/// (round, GPU) of a request path that ends as [`openings_url`] builds it.
pub fn parse_openings_path(path: &str) -> Option<(u32, u32)> {
	let path = path.split('?').next()?;
	let rest = &path[path.rfind("/openings/")? + "/openings/".len()..];
	let (round, gpu) = rest.split_once('/')?;
	Some((round.parse().ok()?, gpu.parse().ok()?))
}

#[cfg(test)]
mod tests {
	use super::*;

	#[test]
	fn an_endpoint_is_an_http_url_with_a_host() {
		for good in ["http://203.0.113.7:9955/pog", "https://miner.example", "http://[::1]:9955"] {
			assert!(valid_endpoint(good.as_bytes()), "{good}");
		}
		let long = format!("http://{}", "a".repeat(250));
		for bad in ["ftp://miner.example", "http://", "https:///pog", "http://miner .example", "miner.example", &long] {
			assert!(!valid_endpoint(bad.as_bytes()), "{bad}");
		}
	}

	#[test]
	fn a_request_path_reads_back_as_its_round_and_gpu() {
		let url = openings_url("http://miner.example:9955/pog/", 12, 3);
		assert_eq!(url, "http://miner.example:9955/pog/openings/12/3");
		assert_eq!(parse_openings_path("/pog/openings/12/3"), Some((12, 3)));
		assert_eq!(parse_openings_path("/openings/12/3?x=1"), Some((12, 3)));
		assert_eq!(parse_openings_path("/pog/openings/12"), None);
		assert_eq!(parse_openings_path("/pog/status"), None);
	}
}
