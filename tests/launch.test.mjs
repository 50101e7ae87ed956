// Integration test: launching a network as docs/chain-runner.md's "Launching a network" says. The
// `production` preset's placeholder keys are refused for a live chain; scripts/production-spec.sh
// writes a spec with fresh keys, and a validator started from it with its keys inserted authors
// and finalises blocks, sits in the session and on PoG's committees, bonded.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, freePort, nodeBinary, startNode, stopAll, waitFinalized } from './lib/node.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
let node;
let api;

after(() => stopAll({ api, node }));

test("a live chain naming the production preset's placeholder keys is refused", { timeout: 120_000 }, async () => {
  const res = spawnSync(nodeBinary(), ['--chain', 'production', '--tmp', '--rpc-port', String(await freePort())], {
    encoding: 'utf8',
    timeout: 100_000,
  });
  assert.notEqual(res.status, 0, 'the node refuses to start');
  assert.match(res.stderr, /public dev key of Alice/);
  assert.match(res.stderr, /scripts\/production-spec\.sh/);
  assert.match(res.stderr, /--allow-dev-keys/);
});

test('a validator launched from scripts/production-spec.sh authors, finalises and sits, bonded', { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pog-launch-'));
  const keys = join(dir, 'keys');
  execFileSync(join(repo, 'scripts/production-spec.sh'), ['1', keys], { env: { ...process.env, POG_NODE: nodeBinary() } });
  const spec = join(keys, 'spec.json');
  const validator = JSON.parse(readFileSync(join(keys, 'validator-1.json'), 'utf8'));
  assert.ok(!readFileSync(spec, 'utf8').includes('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'), 'no Alice');
  const base = join(dir, 'validator');
  // the printed commands: the pog! key is the phrase's //pog derivation
  for (const [type, scheme, suri] of [['babe', 'sr25519', ''], ['pog!', 'sr25519', '//pog'], ['gran', 'ed25519', '']]) {
    execFileSync(nodeBinary(), ['key', 'insert', '--base-path', base, '--chain', spec, '--key-type', type, '--scheme', scheme,
      '--suri', validator.secretPhrase + suri]);
  }
  node = await startNode(['--chain', spec, '--base-path', base, '--validator', '--node-key', '1'.padStart(64, '0')],
    { name: 'launched' });
  api = await connect(node.url);
  assert.ok(await waitFinalized(api, 2, 120_000) >= 2, 'it authors and GRANDPA finalises');
  const account = validator.ss58Address;
  assert.deepEqual((await api.query.session.validators()).map((v) => v.toString()), [account]);
  const pog = JSON.parse(readFileSync(join(keys, 'validator-1.pog.json'), 'utf8')).ss58Address;
  assert.notEqual(pog, account, "the pog! account is not the validator's");
  assert.deepEqual((await api.query.pogValidators.validators()).map((v) => v.toString()), [pog], 'on PoG committees');
  assert.deepEqual((await api.query.pogValidators.seated()).map((s) => s.map((a) => a.toString())), [[account, pog]]);
  assert.equal((await api.query.system.account(pog)).data.free.toBigInt(), 10n * 10n ** 12n, 'its pog! account pays duties');
  const bond = (await api.query.pogValidators.validatorBonds(account)).unwrap();
  assert.equal(bond.held.toBigInt(), 100n * 10n ** 12n, 'its 100 POG bond is held');
});
