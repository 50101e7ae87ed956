// The runtime's metadata hash as an offline signer computes it (RFC 78, polkadot-api's
// merkleize-metadata): what `CheckMetadataHash` mode 1 signs over, and what `runtime/build.rs`
// compiles into the WASM from `runtime/metadata-hash`.
import { merkleizeMetadata } from '@polkadot-api/merkleize-metadata';
import { u8aToHex } from '@polkadot/util';

/**
 * The hash of the metadata (v15) of the runtime `api` reads, with the chain's token (decimals
 * and symbol from the node's properties); `0x` and 64 hex digits.
 */
export async function metadataHash(api) {
  const metadata = (await api.call.metadata.metadataAtVersion(15)).unwrap().toU8a(true);
  const [decimals] = api.registry.chainDecimals;
  const [tokenSymbol] = api.registry.chainTokens;
  return u8aToHex(merkleizeMetadata(metadata, { decimals, tokenSymbol }).digest());
}
