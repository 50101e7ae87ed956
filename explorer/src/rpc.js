// Which node the page connects to when it loads. A `?rpc=` link names the node whose metadata
// decodes everything the page shows, so the page connects on its own only to the default node
// or another on this machine (loopback); for any other host it fills the node field and waits
// for the user to press connect. A `?light=` link names a chain spec instead: the page follows
// that chain through a light client (smoldot), trusting no node, and starts on its own for a
// spec served beside the page or from this machine.

/** The node the page reads when the link names none. */
export const DEFAULT_RPC = 'ws://127.0.0.1:9944';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `url` is a URL of one of `protocols` (`'ws:'`…) on this machine (loopback). */
function onThisMachine(url, protocols) {
  try {
    const u = new URL(url);
    return protocols.includes(u.protocol) && LOOPBACK.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** Whether `url` is a ws:// or wss:// URL of a node on this machine. */
export function isLocal(url) {
  return onThisMachine(url, ['ws:', 'wss:']);
}

/**
 * The node named by the page's query string `search` (`location.search`), else the default:
 * `{ url, auto }`, `auto` when the page may connect to it without asking.
 */
export function rpcOnLoad(search) {
  const asked = new URLSearchParams(search).get('rpc')?.trim();
  const url = asked || DEFAULT_RPC;
  return { url, auto: url === DEFAULT_RPC || isLocal(url) };
}

/**
 * Whether `source` names a chain spec to follow through the light client (a path or an http(s)
 * URL of the spec's JSON) rather than a node's RPC (ws:// or wss://).
 */
export function isChainSpec(source) {
  return !/^wss?:\/\//i.test(source.trim());
}

/**
 * Whether the chain spec at `spec`, resolved against the page's address `page` as the browser
 * resolves it, is served from the page's own origin or from this machine.
 */
function isOwnSpec(spec, page) {
  try {
    const u = new URL(spec, page);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
    return (u.origin !== 'null' && u.origin === new URL(page).origin) || onThisMachine(u.href, ['http:', 'https:']);
  } catch {
    return false;
  }
}

/**
 * What the page at `page` (`location.href`) reads when it loads, from its query string `search`:
 * a `?light=` chain spec, else `rpcOnLoad`'s node. `{ url, auto }`: `url` the node or the spec,
 * `auto` when the page may start without asking.
 */
export function sourceOnLoad(search, page) {
  const spec = new URLSearchParams(search).get('light')?.trim();
  if (spec) return { url: spec, auto: isOwnSpec(spec, page) };
  return rpcOnLoad(search);
}
