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
/// followed by a host, then an optional port and path; printable ASCII without spaces, and
/// without a query, a fragment or user info (`?`, `#`, `@`: a member's request is
/// `{endpoint}/openings/{round}/{gpu}` and nothing else); at most [`MAX_ENDPOINT_LEN`] bytes.
pub fn valid_endpoint(url: &[u8]) -> bool {
	let rest = url.strip_prefix(b"https://").or_else(|| url.strip_prefix(b"http://"));
	url.len() <= MAX_ENDPOINT_LEN as usize
		&& rest.is_some_and(|host| !host.is_empty() && !host.starts_with(b"/"))
		&& url.iter().all(|b| (0x21..=0x7e).contains(b) && !matches!(b, b'?' | b'#' | b'@'))
}

/// The host of a [`valid_endpoint`]: what comes between the scheme and the port or path (an
/// IPv6 literal without its brackets), lowercased.
fn host_of(url: &[u8]) -> Option<String> {
	let rest = url.strip_prefix(b"https://").or_else(|| url.strip_prefix(b"http://"))?;
	let rest = core::str::from_utf8(rest).ok()?;
	let host = match rest.strip_prefix('[') {
		Some(v6) => v6.split(']').next()?,
		None => rest.split([':', '/']).next()?,
	};
	(!host.is_empty()).then(|| host.to_ascii_lowercase())
}

/// Whether `url`'s host may be public: not a name of this machine or of a private network
/// (`localhost`, `*.localhost`, `*.local`, `*.internal`, `*.home.arpa`), and not an IP literal
/// of a loopback, private, shared (carrier NAT), link-local, unspecified, multicast or reserved
/// range (an IPv6 address that carries an IPv4 one, NAT64's or 6to4's, judged by that one).
/// Every committee member's node fetches from a miner's endpoint, so on a public chain an
/// endpoint naming such a host would make every validator's node send requests into its own
/// network (the review's F12). A name that resolves to such an address is not caught here (the
/// chain cannot resolve names); members' nodes should not run beside services that trust their
/// network. Dev chains allow local endpoints (pallet-pog's `LocalEndpoints`).
pub fn is_public_endpoint(url: &[u8]) -> bool {
	let Some(host) = host_of(url) else { return false };
	let local_name = host == "localhost"
		|| [".localhost", ".local", ".internal", ".home.arpa", ".localdomain"].iter().any(|s| host.ends_with(s));
	if local_name {
		return false;
	}
	if let Ok(v4) = host.parse::<core::net::Ipv4Addr>() {
		return public_v4(v4);
	}
	if let Ok(v6) = host.parse::<core::net::Ipv6Addr>() {
		if let Some(v4) = v6.to_ipv4_mapped() {
			return public_v4(v4);
		}
		let s = v6.segments();
		let embedded = |hi: u16, lo: u16| core::net::Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
		// prefixes that carry an IPv4 address are judged by it: NAT64's well-known prefix
		// (64:ff9b::/96, RFC 6052) and 6to4 (2002::/16, RFC 3056)
		if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
			return public_v4(embedded(s[6], s[7]));
		}
		if s[0] == 0x2002 {
			return public_v4(embedded(s[1], s[2]));
		}
		let private = v6.is_loopback()
			|| v6.is_unspecified()
			|| v6.is_multicast()
			|| (s[0] & 0xfe00) == 0xfc00 // unique local
			|| (s[0] & 0xffc0) == 0xfe80 // link-local
			|| (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
			|| (s[0] == 0x2001 && s[1] == 0) // Teredo: a tunnel to an address it hides
			|| (s[0] == 0x64 && s[1] == 0xff9b && s[2] == 1) // NAT64 for local use (RFC 8215)
			|| (s[0] & 0xffc0) == 0xfec0 // site-local, deprecated
			|| s[..6] == [0, 0, 0, 0, 0, 0]; // IPv4-compatible, deprecated
		return !private;
	}
	if url.strip_prefix(b"https://").or_else(|| url.strip_prefix(b"http://")).is_some_and(|r| r.starts_with(b"[")) {
		return false; // a bracketed host that is no IPv6 address
	}
	// a name: a dotted hostname (a single label resolves through local search domains) whose
	// last label is not a number, decimal or hexadecimal (`http://2130706433`, `http://127.1` and
	// `http://127.0x1` are loopback to resolvers that read IPv4 the way `inet_aton` does: the
	// WHATWG URL standard's "ends in a number")
	let last = host.rsplit('.').next().unwrap_or_default();
	let number = |label: &str| {
		let hex = label.strip_prefix("0x");
		hex.map_or(label.bytes().all(|b| b.is_ascii_digit()), |h| h.bytes().all(|b| b.is_ascii_hexdigit()))
	};
	host.contains('.') && !last.is_empty() && !number(last) && !host.starts_with("0x")
}

fn public_v4(ip: core::net::Ipv4Addr) -> bool {
	let [a, b, ..] = ip.octets();
	!(ip.is_loopback()
		|| ip.is_private()
		|| ip.is_link_local()
		|| ip.is_unspecified()
		|| ip.is_broadcast()
		|| ip.is_multicast()
		|| ip.is_documentation()
		|| a == 0
		|| (a == 100 && (64..128).contains(&b)) // shared address space (carrier NAT)
		|| (a == 198 && (18..20).contains(&b)) // benchmarking
		|| a >= 240)
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
		for bad in [
			"ftp://miner.example",
			"http://",
			"https:///pog",
			"http://miner .example",
			"miner.example",
			&long,
			"http://10.0.0.1/?",
			"http://miner.example/pog?x=",
			"http://user@miner.example",
			"http://miner.example/#frag",
		] {
			assert!(!valid_endpoint(bad.as_bytes()), "{bad}");
		}
	}

	#[test]
	fn a_public_endpoint_names_no_local_or_private_host() {
		for public in [
			"http://203.0.114.7:9955/pog",
			"https://miner.example",
			"http://miner.example:9955",
			"http://[2a00:1450:4001:80b::200e]:9955",
			"http://8.8.8.8",
			"http://[64:ff9b::808:808]",
			"http://[2002:808:808::1]",
		] {
			assert!(is_public_endpoint(public.as_bytes()), "{public}");
		}
		for local in [
			"http://127.0.0.1:9955",
			"http://localhost:9955",
			"http://LOCALHOST",
			"http://node.localhost",
			"http://printer.local",
			"http://10.0.0.1/pog",
			"http://172.16.5.4",
			"http://192.168.1.1",
			"http://169.254.169.254/latest",
			"http://100.64.0.1",
			"http://0.0.0.0",
			"http://255.255.255.255",
			"http://224.0.0.1",
			"http://[::1]:9955",
			"http://[fe80::1]",
			"http://[fd00::1]",
			"http://[::ffff:127.0.0.1]",
			"http://[::]",
			"http://2130706433",
			"http://127.1",
			"http://metadata",
			"http://0x7f000001",
			"http://[64:ff9b::a00:1]",
			"http://[64:ff9b::7f00:1]:9955",
			"http://[64:ff9b:1::a00:1]",
			"http://[2002:a00:1::1]",
			"http://[2002:a9fe:a9fe::]",
			"http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]",
			"http://[fec0::1]",
			"http://127.0x1",
			"http://10.0.0.0x1",
			"http://169.254.169.0xfe",
			"http://169.254.169.0X",
			"http://[miner.example]",
		] {
			assert!(!is_public_endpoint(local.as_bytes()), "{local}");
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
