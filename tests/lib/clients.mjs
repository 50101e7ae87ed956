// Clients nobody here wrote, run against a chain a test already started (tests/clients/README.md):
// polkadot-api with descriptors generated from the node, and async-substrate-interface (the
// Bittensor SDK's client) from a virtual environment under the project's cache.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const here = new URL('..', import.meta.url).pathname; // tests/
const requirements = join(here, 'clients', 'requirements.txt');

/** The project's cache (scripts/env.sh's POG_CACHE). */
function cacheDir() {
  return process.env.POG_CACHE || join(process.env.XDG_CACHE_HOME || join(process.env.HOME, '.cache'), 'pog-chain');
}

/**
 * A virtual environment with tests/clients/requirements.txt installed, made once for each version
 * of that file; resolves with its python. At most 5 minutes (pip from the Python package index).
 */
async function pythonClients() {
  const text = readFileSync(requirements);
  const venv = join(cacheDir(), `clients-venv-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`);
  const python = join(venv, 'bin', 'python');
  if (existsSync(join(venv, '.complete'))) return python;
  rmSync(venv, { recursive: true, force: true });
  mkdirSync(cacheDir(), { recursive: true });
  try {
    await run('python3', ['-m', 'venv', venv], { timeout: 120_000 });
  } catch (err) {
    throw new Error(`python3 -m venv failed (on Debian, scripts/setup.sh installs python3-venv): ${err.message}`);
  }
  await run(python, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--only-binary=:all:', '-r', requirements],
    { timeout: 300_000 });
  writeFileSync(join(venv, '.complete'), '');
  return python;
}

/**
 * polkadot-api's descriptors generated from the node at `url` (`papi generate`, in tests/.papi,
 * without touching package.json: `noDescriptorsPackage`); resolves with their module's path.
 */
async function papiDescriptors(url) {
  const dir = join(here, '.papi');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'polkadot-api.json');
  writeFileSync(config, JSON.stringify({
    version: 0, descriptorPath: '.papi/descriptors', entries: { pog: { wsUrl: url } },
    options: { noDescriptorsPackage: true },
  }));
  await run(join(here, 'node_modules', '.bin', 'papi'), ['generate', '--config', config], {
    cwd: here, timeout: 120_000, env: { ...process.env, NODE_OPTIONS: '--experimental-websocket' },
  });
  return join(dir, 'descriptors', 'dist', 'index.js');
}

/** Prepares both clients against the node at `url`; resolves with what `runClients` needs. */
export async function prepareClients(url) {
  const [python, descriptors] = await Promise.all([pythonClients(), papiDescriptors(url)]);
  return { url, python, descriptors };
}

/**
 * Runs both clients (niced, side by side) over blocks `from`..`to` with `miner`'s record; resolves
 * with their reports (tests/clients/README.md), each within 3 minutes.
 */
export async function runClients({ url, python, descriptors }, miner, from, to) {
  const opts = { timeout: 180_000, cwd: here, env: { ...process.env, NODE_OPTIONS: '--experimental-websocket' } };
  const parse = (name) => ({ stdout, stderr }) => {
    const line = stdout.trim().split('\n').pop();
    try {
      return JSON.parse(line);
    } catch {
      throw new Error(`${name} printed no report:\n${stdout}\n${stderr}`);
    }
  };
  const args = [String(from), String(to)];
  return Promise.all([
    run('nice', ['-n', '5', process.execPath, join(here, 'clients', 'papi.mjs'), url, descriptors, miner, ...args], opts)
      .then(parse('papi.mjs')),
    run('nice', ['-n', '5', python, join(here, 'clients', 'asi.py'), url, miner, ...args], opts).then(parse('asi.py')),
  ]);
}
