"""What the attacks on the verifiers (docs/protocol.md §18, "Turning the verifiers against the
honest") cost and gain under the chain's rules, at mainnet settings.

The chain's arithmetic re-implemented (each function names the Rust it follows); nothing here is
measured. Deterministic: expectations, no randomness. Run: python3 benchmarking/attacks/verifiers.py
"""
from math import comb, exp

# runtime/src/configs.rs, ProtocolConfig::mainnet, ValidatorRules::mainnet
COMMITTEE, VERDICT_WINDOW, REVEAL_WINDOW = 5, 20, 40
CONTRADICTION_SLASH, SILENCE_SLASH, MAX_STRIKES = 0.10, 0.01, 3
VALIDATOR_BOND = 100.0
DEPOSIT_PER_GPU, DEPOSIT_PER_MEGAPOINT, REGISTRATION_FEE = 1.0, 4.0, 1.0
SLASH = 0.5
POINTS = {"H100": 884_677, "T4": 31_500, "cpu-core(1)": 1}
WHOLE_SET_UP_TO, BFT_MINIMUM = 7, 4
ENTRIES = 32 * 2  # opened leaves × entries per leaf, every member the same (sampling::entries_entropy)
# pallets/pog/src/offchain.rs
RUN_TIME_MS, FETCH_TIMEOUT_MS = 4_000, 5_000
MAX_FETCHED_MINERS, BLOCK_MS = 64, 6_000
NEWCOMER_ADVANTAGE = 2  # first_draw.rs
REVERIFY_DRAWS = 2  # scoring.rs
SAMPLED_TOLERANCE, SAMPLED_FORGIVEN = 0.05, 2  # validators.rs
POT = 680.0  # the miners' 80% of 850 POG a round
EVIDENCE_AUDITS = 16  # runtime/src/configs.rs, EvidenceAudits


def gpu_deposit(points):
    return DEPOSIT_PER_GPU + DEPOSIT_PER_MEGAPOINT * points / 1e6


def committee_size(v):
    return v if v <= WHOLE_SET_UP_TO else min(COMMITTEE, v)


def quorum_of(c):
    return c * 2 // 3 + 1


def unserved_to_fail(c):
    return max(1, -(-c // 3))


def third(window):
    return min(max(window // 3, 1), window)


def max_expulsions(planned):
    """validators.rs max_expulsions"""
    return max(1, planned // 10)


def retry_after(reveal_window):
    """offchain.rs retry_after"""
    return min(max(reveal_window // 4, 1), 10)


def draw_probabilities(capacity, committed, undecided, newcomers):
    """first_draw.rs DrawProbabilities::new -> (first, others)"""
    if committed <= capacity:
        return 1.0, 1.0
    room = max(0, capacity - undecided)
    others = max(0, committed - undecided - newcomers)
    n, k = newcomers, NEWCOMER_ADVANTAGE
    if n <= room and others <= (room - n) * k:
        return 1.0, min(room - n, others) / max(1, others)
    p = room / max(1, n * k + others)
    return min(1.0, k * p), min(1.0, p)


def f1():
    print("F1  selective serving (a miner serves s < q members, never rebuts)")
    print("    V   committee  served  strikes on served members  attacker's slash per GPU-round")
    for v in (4, 7, 16, 64):
        c = committee_size(v)
        s = quorum_of(c) - 1
        # verification.rs judge_vote: a pass on a GPU failed for non-delivery is neither
        print(f"    {v:<4}{c:<11}{s:<8}{0:<27}{SLASH * gpu_deposit(POINTS['cpu-core(1)']):.2f} POG (its own GPU fails MissedReveal)")
    print("    gain: none; cost: the slash, every round.\n")


def f2(v=64):
    print(f"F2  endpoints that send headers and then nothing, or never answer (V = {v}, committees of {committee_size(v)})")
    retry = retry_after(REVEAL_WINDOW)
    unserved_window_s = max(1, VERDICT_WINDOW // 2) * BLOCK_MS / 1000
    for hangers in (1, 64, 1_024, 4_096):
        seen = max(1, round(hangers * committee_size(v) / v))  # hanging miners on one member's committees
        batches = -(-seen // MAX_FETCHED_MINERS)
        # each batch takes at most its deadline (bodies past it are read from the node's buffer);
        # the marks keep a miner out of the member's batches for `retry` blocks
        per_batch_s = FETCH_TIMEOUT_MS / 1000
        busy = batches * per_batch_s / (retry * BLOCK_MS / 1000)
        after = batches * per_batch_s
        print(f"    {hangers:>5} hanging miners ({seen:>4} on a member's committees): {batches:>2} batch(es) of <= {per_batch_s:.0f} s "
              f"every {retry} blocks = {min(busy, 1):.0%} of its worker time before the reveal deadline; "
              f"the last fetch after it {after:.0f} s of the {unserved_window_s:.0f} s for unserved votes")
    print("    the hanging GPUs fail MissedReveal (voted unserved by their members); the others are fetched in the")
    print("    same batches; each hanging miner costs >= 1 POG of fee once and its GPUs' slash (>= 0.5 POG) every round\n")


def f3():
    print("F3  unserved votes after the rebuttal deadline")
    t, half = third(VERDICT_WINDOW), max(1, VERDICT_WINDOW // 2)
    print(f"    unserved votes until R+{half}, rebuttals until R+{VERDICT_WINDOW - t}, members verify until R+{VERDICT_WINDOW}:")
    print("    every unserved vote can be rebutted; a late one is refused (UnservedTooLate). Failable served GPUs: 0.")
    print(f"    What is left to colluders: votes in R+1..R+{half} force a rebuttal (bytes, below) and are voided by it.\n")


def f4(rounds=100):
    print("F4  fresh claims every round (a card answers one never-verified claim a round; credited")
    print("    claims commit made-up roots and fail when drawn or due: 2.27 POG each)")
    s_h100 = SLASH * gpu_deposit(POINTS["H100"])
    # scoring.rs: a credit is due (selected whatever the draw) at REVERIFY_DRAWS expected draws;
    # honest credits fall due at about e^-2 / (1 - e^-2) of the rate they are drawn
    honest_due = exp(-REVERIFY_DRAWS) / (1 - exp(-REVERIFY_DRAWS))
    print("    C      H        h    G     credits/card  attacker pot share  POG paid  slash cost")
    for C, H, h in ((36, 2_000, 5), (460, 10_000, 20), (2_000, 30_000, 50)):
        for G in (max(1, C - h), max(1, C // 10)):
            cohorts = []  # [credits, expected draws since the pass]
            paid = cost = 0.0
            p_prev = 0.0
            for _ in range(rounds):
                N = G + h
                K = sum(c for c, _ in cohorts)
                due = sum(c for c, d in cohorts if d >= REVERIFY_DRAWS)
                forced = due + honest_due * H * p_prev
                p_first, p_others = draw_probabilities(C, H + K + N, forced, N)
                lost = due + sum(c * p_others for c, d in cohorts if d < REVERIFY_DRAWS)
                cohorts = [[c * (1 - p_others), d + p_others] for c, d in cohorts if d < REVERIFY_DRAWS]
                cohorts.append([G * p_first, 0.0])
                cost += lost * s_h100
                K = sum(c for c, _ in cohorts)
                paid += POT * K / (H + K)
                p_prev = p_others
            print(f"    {C:<7}{H:<9,}{h:<5}{G:<6}{K / G:12.1f}  {K / (H + K):17.1%}  {paid:9.0f}  {cost:9.0f}")
    print()


CAPACITY_PER_VALIDATOR = 36  # verifications a validator checks a round (docs/protocol.md §8, At scale)


def coalition():
    """A coalition of m of V validators on committees of 5 drawn from the set (verification.rs
    committee_for, hash ranking: a uniform draw of c of V − 1 for a validator's GPU, of V otherwise; V here)."""
    print("Coalitions on sampled committees (c = 5, quorum 4): per verification, the chance that the")
    print("coalition holds a quorum (decides: fails an honest GPU or passes its own cheat, and the honest")
    print("member outvoted is within the tolerance) or two or three seats (freezes: Inconclusive, no strike)")
    c, q = COMMITTEE, quorum_of(COMMITTEE)
    slash = SLASH * gpu_deposit(POINTS["H100"])
    print("    GPUs     V    sample  coalition   P(decides)  P(freezes)  decided/round  frozen/round  H100 slash/round")
    for gpus, v in ((10_000, 64), (100_000, 64), (100_000, 100)):
        sample = min(gpus, v * CAPACITY_PER_VALIDATOR // c)
        total = comb(v, c)
        for m in (v // 10, v // 5, v // 3):
            at = [comb(m, j) * comb(v - m, c - j) / total for j in range(c + 1)]
            decides = sum(at[q:])
            freezes = sum(at[unserved_to_fail(c):q])
            print(f"    {gpus:<8,} {v:<4} {sample:<7} {m:>3} of {v:<4}  {decides:10.4%}  {freezes:10.2%}  "
                  f"{sample * decides:13.2f}  {sample * freezes:12.1f}  {sample * decides * slash:10.2f} POG")
    print("    what it costs the coalition: nothing the chain can attribute (votes with the decided outcome are")
    print("    agreements); what it gains: honest competitors slashed, or its own cheat passed in P(decides) of its")
    print("    draws (failed, slashed, in the rest). Whole-set committees (V <= 7): a third cannot reach 2V/3 + 1.\n")


REBUTTALS_CARRIED = 35  # K: Pallet::rebuttal_capacity at mainnet (runtime test at_mainnet_verdicts_...)


def pool_quota(v):
    """served::pool_quota: Q = K * ceil(c/3) / V, c the smallest committee a GPU can get."""
    c = min(committee_size(v), committee_size(v - 1)) if v > 1 else committee_size(v)
    return REBUTTALS_CARRIED * unserved_to_fail(c) // v


def f5(served=10_000, alpha=0.10):
    print("F5  rebuttal bytes: colluders vote unserved on GPUs served to everyone, forcing rebuttals")
    c, t = COMMITTEE, unserved_to_fail(COMMITTEE)
    share = sum(comb(c, j) * alpha**j * (1 - alpha) ** (c - j) for j in range(t, c + 1))
    forced = served * share
    print(f"    blocks after the last unserved vote carry K = {REBUTTALS_CARRIED} H100 rebuttals; at alpha = {alpha:.0%}, "
          f"{share:.1%} of committees of {c} hold >= {t} colluders:")
    print(f"    without a quota {forced:,.0f} rebuttals forced at {served:,} served GPUs, "
          f"{max(0, forced - REBUTTALS_CARRIED):,.0f} honest GPUs failing for want of room")
    print("    with each member's first Q unserved votes counting (UnservedQuota):")
    print("    V    Q   GPUs all members' quotas can contest (<= K)")
    for v in (4, 8, 16, 64):
        q = pool_quota(v)
        c_min = min(committee_size(v), committee_size(v - 1))
        print(f"    {v:<4} {q:<3} {v * q // unserved_to_fail(c_min)}")
    q = pool_quota(64)
    for colluders in (2, 7, 21):
        print(f"    {colluders:>2} colluders at V = 64 contest <= {colluders * q // t} GPUs a round: failed honest GPUs 0, "
              f"or <= {colluders * q // t} if a miner fills the rebuttal blocks with its own dark GPUs' rebuttals")
    print(f"    beyond their quotas, colluders leave shared GPUs Inconclusive: ~{forced:,.0f} a round unpaid, none failed\n")


def f6():
    print("F6  a partial cheat (a share f of C's values wrong): every member checks the same 64 entries")
    print("    f        P(GPU fails)  P(an honest member struck)")
    for f in (0.001, 0.0035, 0.01):
        caught = 1 - (1 - f) ** ENTRIES
        print(f"    {f:<9.2%}{caught:12.1%}  {0:>10}")
    print("    (before: each member its own 64 entries; one catching in 41% of rounds at 0.35% was struck)\n")


def f7():
    print("F7  a lazy member that passes everything without fetching")
    print("    whole-set committees (V <= 7): struck in any round in which a cheater it passed fails by a quorum")
    print("    cheaters among its GPUs   P(struck in a round) at 100 / 1,000 assignments")
    for share in (1e-4, 1e-3, 1e-2):
        p = [1 - (1 - share) ** a for a in (100, 1_000)]
        print(f"    {share:<25.2%} {p[0]:8.1%} / {p[1]:.1%}")
    print(f"    sampled committees (V >= 8): struck only where such cheaters exceed {SAMPLED_TOLERANCE:.0%} of its")
    print("    assignments (and two).")
    print("    Evidence of a fetch (audits, pallets/pog/src/evidence.rs): a member that votes without fetching a")
    print("    share f of its served GPUs (copying the failing votes on chain) is caught at each audit of one of them;")
    print(f"    {EVIDENCE_AUDITS} audits a round among the decided served GPUs, each owed by its committee:")
    print("    V    audits a member   P(caught in a round) at f = 100% / 10%   strikes a round at f = 100%")
    for v in (4, 16, 64):
        c = committee_size(v)
        per_member = EVIDENCE_AUDITS * c / v
        caught = [1 - exp(-per_member * f) for f in (1.0, 0.1)]
        print(f"    {v:<5}{per_member:<18.2f}{caught[0]:>8.1%} / {caught[1]:<28.1%}{caught[0]:.2f} ({CONTRADICTION_SLASH:.0%} of the bond each)")
    print()


def poisson_tail(lam, k):
    """P(X >= k), X ~ Poisson(lam)"""
    term, cdf = exp(-lam), 0.0
    for i in range(k):
        cdf += term
        term *= lam / (i + 1)
    return max(0.0, 1 - cdf)


def r2(v=64):
    print(f"R2  a colluding quorum on a sampled committee outvotes an honest member (V = {v}, committees of 5)")
    print("    colluders  per assignment  assignments  P(honest member struck in a round)")
    for m in (12, 21):
        q = comb(m, 4) / comb(v - 1, 4)
        for a in (36, 780):
            threshold = max(SAMPLED_FORGIVEN, int(SAMPLED_TOLERANCE * a)) + 1
            print(f"    {m:<11}{q:<16.3%}{a:<13}{poisson_tail(a * q, threshold):.1e}  (without the tolerance {poisson_tail(a * q, 1):.2f})")
    print()


def expulsions():
    print("Expulsions: at most a tenth of the planned set a round (at least one), never below four")
    for v in (4, 5, 16, 64):
        left, rounds = v, 0
        while left > BFT_MINIMUM and rounds < 1000:
            left -= min(max_expulsions(left), left - BFT_MINIMUM)
            rounds += 1
        print(f"    V = {v:<3}: whatever strikes, {v - BFT_MINIMUM:>2} seats can go, at most {max_expulsions(v)} in a round "
              f"({rounds} rounds at the least, root re-adds validators meanwhile)")
    print()


if __name__ == "__main__":
    f1()
    f2()
    f3()
    f4()
    f5()
    f6()
    f7()
    r2()
    coalition()
    expulsions()
