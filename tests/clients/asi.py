"""async-substrate-interface (the Bittensor SDK's client) as a user runs it against PoG chain:
reads the round and a miner's record, calls the PogApi runtime API, decodes every event of blocks
FROM..TO, and lands a signed transfer from //Eve (bittensor-wallet's Keypair). Prints one JSON
line of the shape tests/clients/README.md gives.

    python tests/clients/asi.py <ws url> <miner> <from> <to>
"""

import asyncio
import json
import sys

from async_substrate_interface import AsyncSubstrateInterface
from bittensor_wallet import Keypair


def value(obj):
    """A query's or a runtime call's decoded value as plain data."""
    return getattr(obj, "value", obj)


def name_of(event):
    """`Pallet.Event` of a decoded event record."""
    inner = event.get("event", event)
    return f"{inner['module_id']}.{inner['event_id']}"


async def main(url, miner, first, last):
    async with AsyncSubstrateInterface(url, ss58_format=42) as chain:
        # storage and the runtime API at one block, so that they agree
        at = await chain.get_chain_finalised_head()
        round_ = value(await chain.query("Pog", "Round", block_hash=at))
        record = value(await chain.query("Pog", "Miners", [miner], block_hash=at))
        api_round = value(await chain.runtime_call("PogApi", "round", [], block_hash=at))
        api_miner = value(await chain.runtime_call("PogApi", "miner", [miner], block_hash=at))
        events = {}
        for number in range(first, last + 1):
            block_hash = await chain.get_block_hash(number)
            for event in await chain.get_events(block_hash):
                name = name_of(event)
                events[name] = events.get(name, 0) + 1
        eve = Keypair.create_from_uri("//Eve")
        call = await chain.compose_call("Balances", "transfer_keep_alive", {"dest": miner, "value": 1_000_000})
        extrinsic = await chain.create_signed_extrinsic(call=call, keypair=eve)
        receipt = await asyncio.wait_for(chain.submit_extrinsic(extrinsic, wait_for_inclusion=True), 60)
        transferred = any(name_of(e) == "Balances.Transfer" for e in await receipt.triggered_events)
        block = await chain.get_block_number(receipt.block_hash)
        print(json.dumps({
            "client": "async-substrate-interface",
            "round": round_["index"] if round_ else None,
            "minerFirstRound": record["first_round"] if record else None,
            "apiRound": api_round["index"],
            "apiMinerFirstRound": api_miner["first_round"] if api_miner else None,
            "events": events,
            "transfer": {"ok": await receipt.is_success, "block": block, "transferred": transferred},
        }))


if __name__ == "__main__":
    if len(sys.argv) != 5:
        sys.exit("usage: asi.py <ws url> <miner> <from block> <to block>")
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
