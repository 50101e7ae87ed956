// What the explorer reads from a PoG chain, as plain objects: the current round and its
// timeline, one row per claimed GPU, the validators' committee records, the rewards, and a
// history of settled rounds. Everything is decoded by @polkadot/api from the chain's metadata:
// storage (`api.query.pog.*`), events, and the pallet's runtime API (`api.call.pogApi.*`).
import { ApiPromise, WsProvider } from '@polkadot/api';
import { ScProvider } from '@polkadot/rpc-provider/substrate-connect';
import * as Sc from '@substrate/connect';
import { isChainSpec } from './rpc.js';
import { outcomeLabel, outcomeWords, zeroReasonWords } from './words.js';

const text = (bytes) => new TextDecoder().decode(bytes.toU8a(true));
const optional = (option, map = (v) => v) => (option.isSome ? map(option.unwrap()) : null);

/** Blocks of history read back when the page connects (a node keeps the state of its last 256). */
export const HISTORY_BLOCKS = 250;

/** How long the light client may take to find a peer, sync and read the runtime's metadata. */
export const LIGHT_CONNECT_MS = 120_000;
/** How long fetching a chain spec may take, and its largest size. */
const SPEC_FETCH_MS = 15_000;
const MAX_SPEC_BYTES = 16 << 20;

/**
 * Connects to `source`: a node's RPC (ws:// or wss://), or a chain spec (its URL) followed
 * through smoldot, which warp-syncs from the spec's bootnodes on GRANDPA's finality proofs,
 * checks the blocks after it (BABE) and reads storage and the runtime API with Merkle proofs:
 * what the page shows then rests on the spec's genesis, not on any node's word.
 */
export async function connect(source) {
  if (!isChainSpec(source)) {
    const provider = new WsProvider(source, 2_000);
    return ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true });
  }
  // no redirect (the page's start-on-its-own rule judged this URL, not another) and bounded
  const response = await fetch(source, { redirect: 'error', signal: AbortSignal.timeout(SPEC_FETCH_MS) });
  if (!response.ok) throw new Error(`the chain spec ${source} answered HTTP ${response.status}`);
  const spec = await response.text();
  if (spec.length > MAX_SPEC_BYTES) throw new Error(`the chain spec ${source} is over ${MAX_SPEC_BYTES >> 20} MiB`);
  let bootnodes = [];
  try {
    bootnodes = JSON.parse(spec).bootNodes ?? [];
  } catch {
    throw new Error(`${source} is not a chain spec (JSON)`);
  }
  const provider = new ScProvider(Sc, spec);
  // the smoldot bundled here (2.0.40), never a browser extension's own
  await provider.connect({ forceEmbeddedNode: true });
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the light client read no block of this chain in ${LIGHT_CONNECT_MS / 1000} s `
      + `(its spec's bootnodes: ${bootnodes.join(', ') || 'none'}; a node must listen on a websocket address)`)), LIGHT_CONNECT_MS);
  });
  try {
    return await Promise.race([ApiPromise.create({ provider, noInitWarn: true }), late]);
  } catch (e) {
    await provider.disconnect().catch(() => {});
    throw e;
  } finally {
    clearTimeout(timer);
  }
}

/** The chain's profile table: id → { name, perCore }. */
async function profiles(api) {
  const table = new Map();
  for (const [id, p] of await api.call.pogApi.profiles()) {
    table.set(id.toNumber(), { name: text(p.name), perCore: p.figures.perCore.isTrue });
  }
  return table;
}

/** One claimed GPU's row: its standing and this round's duty. */
function gpuRow(miner, index, standing, challenge, table) {
  const last = optional(standing.last, ([round, outcome]) => ({
    round: round.toNumber(), label: outcomeLabel(outcome), words: outcomeWords(outcome),
  }));
  const row = {
    miner,
    gpu: index,
    profile: table.get(standing.profile.toNumber())?.name ?? `#${standing.profile}`,
    uuid: standing.uuid.toHex(),
    points: standing.points.toNumber(),
    credit: optional(standing.verifiedRound, (r) => r.toNumber()),
    zeroReason: optional(standing.zeroReason, zeroReasonWords),
    last,
    duty: null,
  };
  if (challenge) {
    const memory = challenge.params.memory;
    row.duty = {
      memoryRoot: memory.isSome ? challenge.memoryCommitment.isSome : null,
      gemmRoot: challenge.commitment.isSome,
      selected: optional(challenge.selected, (s) => s.isTrue),
      revealed: challenge.sampleSeed.isSome,
      verdicts: challenge.votes.length,
      committee: challenge.committee.length,
      status: optional(challenge.verification, (s) => s.type),
    };
  }
  return row;
}

/** Deadlines of the round's challenges, by profile: { profile, memoryMs, gemmMs } (latest of each). */
function deadlines(challenges, table) {
  const byProfile = new Map();
  for (const c of challenges) {
    const profile = table.get(c.params.profile.toNumber())?.name ?? `#${c.params.profile}`;
    const d = byProfile.get(profile) ?? { profile, memoryMs: null, gemmMs: 0 };
    if (c.params.memory.isSome) {
      d.memoryMs = Math.max(d.memoryMs ?? 0, c.params.memory.unwrap().deadlineMs.toNumber());
    }
    d.gemmMs = Math.max(d.gemmMs, c.params.deadlineMs.toNumber());
    byProfile.set(profile, d);
  }
  return [...byProfile.values()];
}

/** The validator set's storage at `at`: its own pallet's from spec 132 on, pallet-pog's before. */
function validatorSet(at) {
  return at.query.pogValidators ?? at.query.pog;
}

/** The balance `value` (planck) in POG, as a number for display. */
function pog(api, value) {
  const decimals = api.registry.chainDecimals[0] ?? 12;
  return Number(value.toBigInt()) / 10 ** decimals;
}

/** Everything the page shows at the best block. */
export async function snapshot(api) {
  const header = await api.rpc.chain.getHeader();
  const at = await api.at(header.hash);
  const table = await profiles(api);
  const round = await api.call.pogApi.round();
  const keys = await at.query.pog.miners.keys();
  const miners = [];
  const rows = [];
  const challenges = [];
  for (const key of keys) {
    const who = key.args[0].toString();
    const [view, mine] = await Promise.all([api.call.pogApi.miner(who), api.call.pogApi.challengesOf(who)]);
    if (view.isNone) continue;
    const v = view.unwrap();
    challenges.push(...mine);
    const byGpu = new Map(mine.map((c) => [c.params.gpu.toNumber(), c]));
    v.standing.forEach((s, i) => rows.push(gpuRow(who, i, s, byGpu.get(i), table)));
    miners.push({
      miner: who,
      gpus: v.standing.length,
      deposit: pog(api, v.deposit),
      slashed: pog(api, v.slashed),
      share: v.share.toNumber() / 1e7,
      score: v.score.total.toNumber() / 1e7,
      // Earnings, on chains that pay (older runtimes' views have no such fields).
      earnings: v.paid === undefined ? null : {
        paid: pog(api, v.paid), vesting: pog(api, v.vesting), released: pog(api, v.released),
        burned: pog(api, v.unvestedBurned),
      },
    });
  }
  const validators = [];
  for (const [key, record] of await validatorSet(at).validatorStats.entries()) {
    validators.push({ validator: key.args[0].toString(), ...record.toJSON() });
  }
  let rewards = null;
  if (api.call.pogApi.rewards) {
    const r = await api.call.pogApi.rewards();
    rewards = {
      emitted: pog(api, r.emitted),
      nextEmission: pog(api, r.nextEmission),
      last: optional(r.last, (e) => ({
        round: e.round.toNumber(), emission: pog(api, e.emission), miners: pog(api, e.miners),
        validators: pog(api, e.validators), treasury: pog(api, e.treasury),
      })),
    };
  }
  const selection = optional(round.selection, (s) => ({
    at: s.at.toNumber(),
    probability: s.probability.toNumber() / 1e7,
    revealDeadline: s.revealDeadline.toNumber(),
    verdictDeadline: s.verdictDeadline.toNumber(),
  }));
  return {
    block: header.number.toNumber(),
    blockTimeMs: api.consts.pog.blockTimeMs.toNumber(),
    round: {
      index: round.index.toNumber(),
      phase: round.phase.type,
      startedAt: round.startedAt.toNumber(),
      startMs: round.startMs.toNumber(),
      commitCloseMs: round.commitCloseMs.toNumber(),
      committed: round.committed.toNumber(),
      settled: round.settled.toNumber(),
      nextStart: round.nextStart.map((b) => b.toNumber()),
      selection,
      deadlines: deadlines(challenges, table),
    },
    miners,
    rows,
    validators,
    rewards,
  };
}

/**
 * Settled rounds, read from the events of the blocks it is given: for each `pog.RoundSettled`,
 * the state at that block — the verified GPUs of the round (standing verified in it), the
 * network's proven compute (the sum of credited points), every miner's score and the validators'
 * records (this round's part is the difference from the round before).
 */
export class History {
  constructor() {
    /** round index → { round, block, verified, points, scores: {miner: %}, validators: {v: record} } */
    this.rounds = new Map();
    this.seen = new Set();
  }

  /** Reads block `hash`'s events (once per block). */
  async ingest(api, hash) {
    const key = hash.toHex();
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const at = await api.at(hash);
    const events = await at.query.system.events();
    for (const { event } of events) {
      if (!api.events.pog.RoundSettled.is(event)) continue;
      const round = event.data.round.toNumber();
      const [standing, scores, stats, header] = await Promise.all([
        at.query.pog.standing.entries(), at.query.pog.scores.entries(), validatorSet(at).validatorStats.entries(),
        api.rpc.chain.getHeader(hash),
      ]);
      let verified = 0;
      let points = 0;
      for (const [, gpus] of standing) {
        for (const s of gpus) {
          points += s.points.toNumber();
          if (s.verifiedRound.isSome && s.verifiedRound.unwrap().toNumber() === round) verified += 1;
        }
      }
      this.rounds.set(round, {
        round,
        block: header.number.toNumber(),
        verified,
        points,
        scores: Object.fromEntries(scores.map(([k, s]) => [k.args[0].toString(), s.unwrap().total.toNumber() / 1e7])),
        validators: Object.fromEntries(stats.map(([k, r]) => [k.args[0].toString(), r.toJSON()])),
      });
    }
  }

  /** Reads the last `HISTORY_BLOCKS` blocks up to `head` (the state a node keeps). */
  async backfill(api, head) {
    const from = Math.max(0, head - HISTORY_BLOCKS + 1);
    const hashes = await Promise.allSettled(
      Array.from({ length: head - from + 1 }, (_, i) => api.rpc.chain.getBlockHash(from + i)));
    for (const hash of hashes) {
      try {
        if (hash.status === 'fulfilled') await this.ingest(api, hash.value);
      } catch {
        // State already pruned at that block, or a block a light client cannot reach back to:
        // history starts later.
      }
    }
  }

  /** Settled rounds, oldest first. */
  list() {
    return [...this.rounds.values()].sort((a, b) => a.round - b.round);
  }

  /** What `validator` did in `round` alone: its record then less its record the round before. */
  validatorRound(validator, round) {
    const now = this.rounds.get(round)?.validators[validator];
    if (!now) return null;
    const before = this.list().filter((r) => r.round < round).pop()?.validators[validator];
    if (!before) return null;
    return Object.fromEntries(Object.entries(now).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  }
}
