// The explorer's pure functions, in Node (no chain, no browser): what a node sends is rendered
// as text, never as markup, and a `?rpc=` link connects on its own only to a node on this
// machine. Run: cd explorer && npm test
import assert from 'node:assert/strict';
import test from 'node:test';
import { plot, timeline } from '../src/draw.js';
import { earningRows, esc, gpuRows, roundFacts, validatorRows } from '../src/html.js';
import { DEFAULT_RPC, isChainSpec, rpcOnLoad, sourceOnLoad } from '../src/rpc.js';

// What a node whose metadata decodes a field as text could send for it.
const EVIL = '<img src=x onerror="alert(document.domain)">';
const ACCOUNT = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';

/** The tags `html` opens or closes: only those the renderer writes itself, never the node's `img`. */
function assertInert(html, allowed) {
  const tags = new Set([...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1].toLowerCase()));
  for (const tag of tags) assert.ok(allowed.includes(tag), `unexpected <${tag}> in: ${html}`);
  assert.doesNotMatch(html, /<img/i);
  assert.doesNotMatch(html, /"alert/, 'no quote of the payload is left to close an attribute');
}

test('esc escapes the five characters that matter in text and quoted attributes', () => {
  assert.equal(esc(`<a href="x" title='y'>&</a>`), '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  assert.equal(esc(42), '42');
});

test('a validator record with text in its counters is rendered as text (F14)', () => {
  const s = { validators: [{ validator: ACCOUNT, assigned: EVIL, agreed: 3, contradicted: `"${EVIL}`, silent: 0 }] };
  const past = {
    list: () => [{ round: 7 }],
    validatorRound: () => ({ assigned: EVIL, agreed: 1, contradicted: 0, silent: EVIL }),
  };
  const html = validatorRows(s, past);
  assertInert(html, ['tr', 'td', 'small']);
  assert.ok(html.includes(esc(EVIL)), 'the payload is shown, escaped');
  assert.match(html, /<small>\(\+1\)<\/small>/, 'numbers are still shown');
  // Without a settled round: the totals alone.
  assertInert(validatorRows(s, { list: () => [], validatorRound: () => null }), ['tr', 'td']);
});

test('every GPU row cell, number or text, is escaped', () => {
  const s = {
    rows: [{
      miner: ACCOUNT, gpu: EVIL, profile: EVIL, uuid: EVIL, points: EVIL, credit: EVIL, zeroReason: EVIL,
      last: { round: EVIL, label: EVIL, words: EVIL },
      duty: { memoryRoot: true, gemmRoot: false, selected: null, revealed: true, verdicts: EVIL, committee: 2, status: EVIL },
    }],
    miners: [{ miner: ACCOUNT, share: EVIL }],
  };
  assertInert(gpuRows(s), ['tr', 'td']);
});

test('rewards, round facts and drawings coerce or escape what the node sent', () => {
  const html = earningRows({
    miners: [{ miner: EVIL, deposit: EVIL, slashed: 1, earnings: { paid: EVIL, vesting: 0, released: 0, burned: EVIL } }],
  });
  assertInert(html, ['tr', 'td']);
  assert.match(html, /NaN/, 'a non-number balance is coerced to a number');
  const s = {
    block: EVIL,
    blockTimeMs: 6000,
    round: {
      index: 3, phase: 'Commit', startedAt: 10, startMs: 0, commitCloseMs: 1000, committed: EVIL, settled: EVIL,
      nextStart: [EVIL, EVIL], selection: { at: EVIL, probability: 1, revealDeadline: 20, verdictDeadline: 30 },
      deadlines: [{ profile: EVIL, memoryMs: 10, gemmMs: 20 }],
    },
  };
  assertInert(roundFacts(s), []);
  assertInert(timeline(s), ['div']);
  assertInert(plot([{ round: EVIL, points: EVIL }, { round: 2, points: 5 }], [{ key: 'points', label: EVIL, className: 'compute' }]),
    ['line', 'polyline', 'circle', 'title', 'text']);
});

test('the page connects on load to the default node or a node on this machine, else waits for the user', () => {
  assert.deepEqual(rpcOnLoad(''), { url: DEFAULT_RPC, auto: true });
  assert.deepEqual(rpcOnLoad('?rpc='), { url: DEFAULT_RPC, auto: true });
  for (const local of ['ws://127.0.0.1:40123', 'ws://localhost:9944', 'wss://[::1]:9944']) {
    assert.deepEqual(rpcOnLoad(`?rpc=${encodeURIComponent(local)}`), { url: local, auto: true }, local);
  }
  for (const other of ['wss://evil.example', 'ws://127.0.0.1@evil.example:9944', 'ws://127.0.0.1.evil.example:9944',
    'ws://localhost.evil.example', 'http://127.0.0.1:9944', 'javascript:alert(1)', 'not a url']) {
    assert.deepEqual(rpcOnLoad(`?rpc=${encodeURIComponent(other)}`), { url: other, auto: false }, other);
  }
});

test('a ?light= link follows a chain spec through the light client, at once for a spec beside the page or on this machine', () => {
  for (const page of ['http://127.0.0.1:8080/', 'https://explorer.example/pog/?light=x']) {
    for (const own of ['chainspec.json', '/chainspec.json', './specs/pog.json', 'http://127.0.0.1:8080/chainspec.json',
      'https://localhost/pog.json']) {
      assert.deepEqual(sourceOnLoad(`?light=${encodeURIComponent(own)}`, page), { url: own, auto: true }, own);
      assert.ok(isChainSpec(own), own);
    }
    // another origin, also as the browser resolves backslashes and scheme-relative links
    for (const other of ['https://evil.example/spec.json', '//evil.example/spec.json', '\\\\evil.example/spec.json',
      '/\\evil.example/spec.json', 'http://127.0.0.1@evil.example/s.json', 'javascript:alert(1)', 'data:application/json,{}']) {
      assert.deepEqual(sourceOnLoad(`?light=${encodeURIComponent(other)}`, page), { url: other, auto: false }, `${other} from ${page}`);
    }
  }
  // without ?light=, the node rules above
  assert.deepEqual(sourceOnLoad('?rpc=ws%3A%2F%2F127.0.0.1%3A9944', 'http://127.0.0.1:8080/'), { url: 'ws://127.0.0.1:9944', auto: true });
  assert.deepEqual(sourceOnLoad('', 'http://127.0.0.1:8080/'), { url: DEFAULT_RPC, auto: true });
  for (const node of ['ws://127.0.0.1:9944', 'WSS://rpc.example:443']) assert.ok(!isChainSpec(node), node);
});
