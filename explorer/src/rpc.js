// Which node the page connects to when it loads. A `?rpc=` link names the node whose metadata
// decodes everything the page shows, so the page connects on its own only to the default node
// or another on this machine (loopback); for any other host it fills the node field and waits
// for the user to press connect.

/** The node the page reads when the link names none. */
export const DEFAULT_RPC = 'ws://127.0.0.1:9944';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Whether `url` is a ws:// or wss:// URL of a node on this machine. */
export function isLocal(url) {
  try {
    const u = new URL(url);
    return (u.protocol === 'ws:' || u.protocol === 'wss:') && LOOPBACK.has(u.hostname.toLowerCase());
  } catch {
    return false;
  }
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
