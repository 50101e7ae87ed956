#!/usr/bin/env node
// Serves the built explorer (dist/) on 127.0.0.1, and with --chain-spec a chain spec at
// /chainspec.json for the page's light client (`?light=chainspec.json`).
// Usage: node serve.mjs [--port 8080] [--chain-spec FILE]
// Exported as `serve(port, host, { chainSpec })` (resolves with the server and its address) for the tests.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), 'dist');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.json': 'application/json' };

export function serve(port = 8080, host = '127.0.0.1', { chainSpec } = {}) {
  const server = createServer(async (req, res) => {
    const path = normalize(new URL(req.url, 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    const file = chainSpec && path === '/chainspec.json' ? chainSpec : join(dist, path === '/' ? 'index.html' : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[file.slice(file.lastIndexOf('.'))] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`not found: ${path} (build the explorer first: npm run build)\n`);
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve({ server, url: `http://${host}:${server.address().port}/` }));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const arg = (flag) => {
    const i = process.argv.indexOf(flag);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const port = Number(arg('--port') ?? 8080);
  const chainSpec = arg('--chain-spec');
  const { url } = await serve(port, '127.0.0.1', { chainSpec });
  console.log(`PoG explorer: ${url} (add ?rpc=ws://HOST:PORT for another node${
    chainSpec ? `, or ${url}?light=chainspec.json to follow ${chainSpec} through a light client` : ''})`);
}
