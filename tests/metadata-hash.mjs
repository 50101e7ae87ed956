#!/usr/bin/env node
// Prints the metadata hash of the runtime a dev node built from this checkout serves (see
// lib/metadata.mjs): `scripts/bless-metadata-hash.sh` writes it to runtime/metadata-hash.
import { connect, startNode, waitFinalized } from './lib/node.mjs';
import { metadataHash } from './lib/metadata.mjs';

const node = await startNode(['--dev', '--tmp'], { name: 'metadata-hash' });
try {
  const api = await connect(node.url);
  await waitFinalized(api, 1, 90_000);
  console.log(await metadataHash(api));
  await api.disconnect();
} finally {
  await node.stop();
}
