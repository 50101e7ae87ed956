// polkadot-api (PAPI) as a user runs it against PoG chain, with descriptors generated from the
// node (`papi generate`, tests/clients/run.mjs): reads the round and a miner's record, calls the
// PogApi runtime API, decodes every event of blocks FROM..TO with the typed codecs, and lands a
// signed transfer from //Charlie. Prints one JSON line (tests/clients/README.md says its shape).
//   node tests/clients/papi.mjs <ws url> <descriptors index.js> <miner> <from> <to>
// Node 20 needs --experimental-websocket (PAPI's provider uses the global WebSocket).
import { createClient, getTypedCodecs } from 'polkadot-api';
import { getWsProvider } from 'polkadot-api/ws';
import { getPolkadotSigner } from 'polkadot-api/signer';
import { sr25519CreateDerive } from '@polkadot-labs/hdkd';
import { DEV_PHRASE, entropyToMiniSecret, mnemonicToEntropy } from '@polkadot-labs/hdkd-helpers';

const [url, descriptorsPath, miner, from, to] = process.argv.slice(2);
if (!to) {
  console.error('usage: papi.mjs <ws url> <descriptors index.js> <miner> <from block> <to block>');
  process.exit(2);
}
const { pog, MultiAddress } = await import(descriptorsPath);
const client = createClient(getWsProvider(url));
const bounded = (promise, ms, what) => Promise.race([promise, new Promise((_, reject) => {
  setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms).unref();
})]);
try {
  const api = client.getTypedApi(pog);
  const codecs = await getTypedCodecs(pog);
  // storage and the runtime API at one block, so that they agree
  const { hash: at } = await client.getFinalizedBlock();
  const round = await api.query.Pog.Round.getValue({ at });
  const record = await api.query.Pog.Miners.getValue(miner, { at });
  const apiRound = await api.apis.PogApi.round({ at });
  const apiMiner = await api.apis.PogApi.miner(miner, { at });
  // Events of past blocks: the storage item's key and value through JSON-RPC, decoded with the
  // descriptors' codec (PAPI's typed queries reach only the blocks its chainHead follows).
  const eventsKey = await api.query.System.Events.getKey();
  const events = {};
  for (let n = Number(from); n <= Number(to); n++) {
    const hash = await client._request('chain_getBlockHash', [n]);
    const raw = await client._request('state_getStorage', [eventsKey, hash]);
    for (const { event } of codecs.query.System.Events.value.dec(raw)) {
      const name = `${event.type}.${event.value.type}`;
      events[name] = (events[name] ?? 0) + 1;
    }
  }
  const derive = sr25519CreateDerive(entropyToMiniSecret(mnemonicToEntropy(DEV_PHRASE)));
  const charlie = derive('//Charlie');
  const signer = getPolkadotSigner(charlie.publicKey, 'Sr25519', charlie.sign);
  const tx = api.tx.Balances.transfer_keep_alive({ dest: MultiAddress.Id(miner), value: 1_000_000n });
  const result = await bounded(tx.signAndSubmit(signer), 60_000, 'the transfer');
  console.log(JSON.stringify({
    client: 'polkadot-api',
    round: round?.index,
    minerFirstRound: record?.first_round,
    apiRound: apiRound.index,
    apiMinerFirstRound: apiMiner?.first_round,
    events,
    transfer: { ok: result.ok, block: result.block.number,
      transferred: result.events.some((e) => e.type === 'Balances' && e.value.type === 'Transfer') },
  }, (_, v) => (typeof v === 'bigint' ? v.toString() : typeof v?.asHex === 'function' ? v.asHex() : v)));
} finally {
  client.destroy();
}
