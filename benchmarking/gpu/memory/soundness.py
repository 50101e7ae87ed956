#!/usr/bin/env python3
"""The memory proof's soundness in numbers (docs/protocol.md, "Memory"), from the figures beside
this script. Python 3, standard library only: `python3 soundness.py [--json]`.

For each card and each parameter choice (parents P, walk time W), with the protocol's deadline
D = (expected fill + expected walks) / (1 - tolerance) + slack, it prints
- the honest card's time at its slowest measured run against D (its margin); E and D come from
  the profile's figures, as the chain computes them;
- the best cheater's time: a card that keeps a fraction q of the dataset and makes every other
  item again from the cache when a walk reads it, each at the *attacker's* best measured rates
  (the Triton kernels of explore.py: reads faster than the agent's, regeneration without the
  two Keccaks an item needs, so faster than possible), with no cost for the commitment;
- the fraction f of walks such a card finishes by D (it must make up the rest, and a made-up
  result is caught whenever its walk is opened), and f^openings, its chance to pass a round; the
  cheater is given the seed one slot (6 s) early, as a friendly author of the start block could.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GIB = 1 << 30
ITEM = 64
READS = 64
SLACK_S = 30.0  # mainnet slack_ms
EARLY_S = 6.0  # a friendly author of the round's start block can pass the seed on a slot early
TOLERANCE = 0.10  # MemoryRules::mainnet().tolerance_percent
OPENINGS = 64  # MemoryRules::mainnet().openings
GOAL = 1e-6
# the profiles' figures (pog_primitives::profiles): million reads and parent reads a second
PROFILE = {"h100": (19_600, 88_400, 81_559), "h200": (5_700, 89_100, 143_771)}


def load(name):
    path = os.path.join(HERE, name)
    return json.load(open(path)) if os.path.exists(path) else None


def honest_rates(card, parents):
    """(slowest walk rate in reads/s, slowest fill rate in items/s, dataset GiB) of the agent's
    honest runs at `parents`, from <card>-honest-p1024.json or <card>-honest.json."""
    for name in (f"{card}-honest-p{parents}.json", f"{card}-honest.json"):
        d = load(name)
        runs = [m for m in (d or {}).get("memory", []) if m["parents"] == parents and m["resident"] == 1.0]
        if runs:
            return (min(m["walk_g_reads_per_s"] for m in runs) * 1e9,
                    min(m["fill_g_items_per_s"] for m in runs) * 1e9,
                    runs[0]["dataset_gib"], name)
    # not measured at this P: the fill scales as 1/P from the largest measured P
    d = load(f"{card}-honest.json")
    runs = [m for m in d["memory"] if m["resident"] == 1.0]
    top = max(m["parents"] for m in runs)
    at = [m for m in runs if m["parents"] == top]
    return (min(m["walk_g_reads_per_s"] for m in at) * 1e9,
            min(m["fill_g_items_per_s"] for m in at) * 1e9 * top / parents,
            at[0]["dataset_gib"], f"{card}-honest.json, fill scaled from P = {top}")


def attacker_rates(card, parents, gib):
    """The attacker's reads/s at this footprint and items/s of regeneration at `parents`: the
    Triton figures, the fastest of the runs near this footprint (regeneration at P = 256 without
    Keccak, scaled as 1/P and then 5% faster)."""
    names = {"h100": ["h100-60gib.json", "h100-71gib.json"],
             "h200": ["h200-120gib.json", "h200-126gib.json"] if gib > 64 else ["h200-60gib.json"]}[card]
    files = [load(n) for n in names]
    regen = max(t["regen_P256_B64_G_items_per_s"] for t in files) * 1e9 * 256 / parents * 1.05
    return max(t["walk_R64_reads_G_per_s"] for t in files) * 1e9, regen


def scenario(name, claimed_card, prover_card, q, parents, walk_s, faster=1.0):
    # the chain sizes and times the phase from the claimed profile's figures ...
    read_p, parent_p, vram_mib = PROFILE[claimed_card]
    items = vram_mib * (1 << 20) // 100 * 90 // ITEM
    reads = read_p * 1e6 * walk_s
    expected = items * parents / (parent_p * 1e6) + reads / (read_p * 1e6)
    deadline = expected / (1 - TOLERANCE) + SLACK_S
    # ... the honest card takes what its slowest measured run says
    read_h, fill_h, gib, source = honest_rates(claimed_card, parents)
    honest = items / fill_h + reads / read_h
    read_a, regen_a = (x * faster for x in attacker_rates(prover_card, parents, items * ITEM / GIB * q))
    fill_c = q * items / regen_a
    walks_c = reads * (q / read_a + (1 - q) / regen_a)
    f = 1.0 if q == 1 else min(1.0, max(0.0, (deadline + EARLY_S - fill_c) / walks_c))
    p_pass = f ** OPENINGS
    need = math.inf if f >= 1 else (0 if f == 0 else math.ceil(math.log(GOAL) / math.log(f)))
    return {
        "scenario": name, "parents": parents, "walk_s": walk_s, "dataset_gib": round(items * ITEM / GIB, 1), "q": q,
        "expected_s": round(expected, 1), "deadline_s": round(deadline, 1),
        "honest_s": round(honest, 1) if q == 1 else None,
        "margin": round(deadline / honest - 1, 3) if q == 1 else None,
        "cheater_s": None if q == 1 else round(fill_c + walks_c, 1),
        "f": None if q == 1 else round(f, 3),
        "pass_probability": None if q == 1 else p_pass,
        "openings_for_1e-6": None if q == 1 else need,
        "source": source,
    }


def main():
    rows = []
    for parents in (256, 512, 1024):
        for walk_s in (30, 40, 45, 50, 60, 75, 90):
            rows.append(scenario("H200 honest", "h200", "h200", 1.0, parents, walk_s))
            rows.append(scenario("H200 keeping 95%", "h200", "h200", 0.95, parents, walk_s))
            rows.append(scenario("H100 honest", "h100", "h100", 1.0, parents, walk_s))
            rows.append(scenario("H100 keeping 95%", "h100", "h100", 0.95, parents, walk_s))
            # an H100 holds 70.8 of the H200's 126.4 GiB dataset
            rows.append(scenario("H100 claiming H200", "h200", "h100", 0.56, parents, walk_s))
    # how much the walk time leaves for an attacker faster than the fastest kernel measured
    margin = [scenario(name, claimed, prover, q, 1024, walk_s, faster)
              for faster in (1.0, 1.1, 1.2) for walk_s in (40, 45, 50)
              for name, claimed, prover, q in (("H200 keeping 95%", "h200", "h200", 0.95),
                                               ("H100 claiming H200", "h200", "h100", 0.56))]
    for row, faster in zip(margin, [f for f in (1.0, 1.1, 1.2) for _ in range(6)]):
        row["attacker_faster"] = faster
    if "--json" in sys.argv:
        print(json.dumps({"scenarios": rows, "attacker_faster": margin}, indent=1))
        return
    print(f"tolerance {TOLERANCE:.0%}, slack {SLACK_S:.0f} s, {OPENINGS} opened walks, cheater {EARLY_S:.0f} s early, goal {GOAL:g}")
    print(f"{'scenario':<20} {'P':>5} {'W s':>4} {'E s':>6} {'D s':>6} {'margin':>7} {'cheat s':>8} {'f':>6} {'pass':>9} {'need':>5}")
    for r in rows:
        m = "" if r["margin"] is None else f"{r['margin']:.0%}"
        c = "" if r["cheater_s"] is None else f"{r['cheater_s']:.0f}"
        f = "" if r["f"] is None else f"{r['f']:.3f}"
        p = "" if r["pass_probability"] is None else f"{r['pass_probability']:.1e}"
        n = "" if r["openings_for_1e-6"] is None else str(r["openings_for_1e-6"])
        print(f"{r['scenario']:<20} {r['parents']:>5} {r['walk_s']:>4} {r['expected_s']:>6.1f} {r['deadline_s']:>6.1f} {m:>7} {c:>8} {f:>6} {p:>9} {n:>5}")
    print("\nan attacker faster than the fastest measured kernels (reads and regeneration), P = 1024:")
    print(f"{'scenario':<20} {'faster':>6} {'W s':>4} {'f':>6} {'pass':>9}")
    for r in margin:
        print(f"{r['scenario']:<20} {r['attacker_faster']:>6.1f} {r['walk_s']:>4} {r['f']:>6.3f} {r['pass_probability']:>9.1e}")


if __name__ == "__main__":
    main()
