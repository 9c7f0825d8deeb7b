"""Monte Carlo meld odds: deal, score and tally inside one numba kernel per chunk.

For each deal the kernel deals exactly what :func:`binokel_sim.dealing.dealer.deal_one` deals
(same counter-based stream and draws, computed faster), scores every seat's hand, seat
0's hand + Tapp and, optionally, the best hand kept from it, and adds integer tallies.

Speed comes from scoring by *suit pattern* (:mod:`binokel_sim.melds.patterns`): the
dealer sums each hand's four base-3 suit patterns in one register, table lookups score
them, and packed level words of a deal's hands add up to per-level member counts.

Tallies per scope (``hand``: all seats, ``hand+tapp`` and ``kept``: one hand per deal):

* ``evt[scope, level, a, b]``: deals where ``a`` members reach level >= 1 and ``b`` reach 2;
* ``hist[scope, q, v]``: members with total ``v`` (meld units) for each quantity (trump
  E, G, H, S, best); ``same[scope, q, v]``: pairs of members of one deal sharing total
  ``v``; ``pmin[scope, v]``: pairs whose smaller best total is ``v``;
* ``sums`` / ``sqs[scope, q]``: sums over deals of the deal's summed total and its square.

So every row's cluster-robust variance follows from sums of c and c**2 per deal. Tallies
are integers: chunk tallies add up to the same numbers for any chunking or worker count.

>>> from binokel_sim.rules import load_rules
>>> t = run_meld_tally(load_rules("standard"), deals=1000, seed=1, scale=Scale(workers=1))
>>> int(t.hist[HAND, BEST].sum()), int(t.hist[HAND_TAPP, BEST].sum())
(3000, 1000)
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

import numpy as np

from binokel_sim.dealing.dealer import make_spec
from binokel_sim.errors import InputError
from binokel_sim.exchange.calling import call_limits
from binokel_sim import streams
from binokel_sim.jit import kernel
from binokel_sim.melds.events import BEST, LEVELS, QUANTITIES  # noqa: F401  (BEST: doctest)
from binokel_sim.melds.patterns import CARD_PACKED, counts_of_patterns, score_patterns, score_tables
from binokel_sim.melds.scorer import DISSLE, best_kept_at, needed_counts, totals_by_trump
from binokel_sim.rng import derive_key, mix64, stream_start
from binokel_sim.rules import Rules
from binokel_sim.runner import Job, Scale

#: Largest meld-total histogram (in meld units) a run accepts.
MAX_BINS = 1 << 20
SCOPES = ("hand", "hand+tapp", "kept")
HAND, HAND_TAPP, KEPT = range(3)
N_LEVELS = len(LEVELS)
N_QUANT = len(QUANTITIES)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_LOW32 = np.uint64(0xFFFFFFFF)
_FIELD = np.int64(0xFFFF)


# ----------------------------------------------------------------------------- dealing


@kernel(noalloc=True)
def deal_patterns(key0, key1, index, free, ends, limits, magic, buf, pat):
    """Deal ``index`` as ``dealing.deal_one`` does (nothing predealt) into suit patterns ``pat[owner, 4]``.

    ``ends[o]``: end slot of owner ``o`` (seats, then the Tapp). ``limits[b]`` and
    ``magic[b]``: ``rng.next_below``'s rejection limit and a fast-modulo multiplier for
    bound ``b`` -- the same draws as ``next_below`` without its two divisions.
    """
    m = free.shape[0]
    for j in range(m):
        buf[j] = free[j]
    state = stream_start(key0, key1, np.uint64(index))
    for j in range(m - 1, 0, -1):
        limit = limits[j + 1]
        while True:
            state = state + _GOLDEN
            u = mix64(state) >> np.uint64(32)
            if u < limit:
                break
        # Lemire's fastmod: u % d as the high word of (magic * u mod 2**64) * d, exact for u, d < 2**32.
        d = np.uint64(j + 1)
        low = magic[j + 1] * u
        k = np.int64((((low >> np.uint64(32)) * d) + (((low & _LOW32) * d) >> np.uint64(32))) >> np.uint64(32))
        t = buf[j]
        buf[j] = buf[k]
        buf[k] = t
    s = 0
    for o in range(ends.shape[0]):
        # One register sum per owner, split into the four 16-bit suit fields at the end.
        acc = np.int64(0)
        while s < ends[o]:
            acc += CARD_PACKED[buf[s]]
            s += 1
        pat[o, 0] = acc & _FIELD
        pat[o, 1] = (acc >> 16) & _FIELD
        pat[o, 2] = (acc >> 32) & _FIELD
        pat[o, 3] = acc >> 48


# ----------------------------------------------------------------------------- tallies


@kernel(noalloc=True)
def tally_deal(members, ge1, eq2, tot, evt, hist, same, pmin, sums, sqs):
    """Add one deal to one scope: ``ge1``/``eq2`` packed level counts summed over its members, ``tot[members, 5]``."""
    for q in range(evt.shape[0]):
        sh = np.int64(4 * q)
        evt[q, (ge1 >> sh) & 15, (eq2 >> sh) & 15] += 1
    for j in range(tot.shape[1]):
        s = np.int64(0)
        for i in range(members):
            v = tot[i, j]
            hist[j, v] += 1
            s += v
            for i2 in range(i):
                if tot[i2, j] == v:
                    same[j, v] += 1
        sums[j] += s
        sqs[j] += s * s
    for i in range(members):
        for i2 in range(i):
            pmin[min(tot[i, 4], tot[i2, 4])] += 1


@kernel
def kept_totals(counts, keep, table, need, tot):
    """Best meld total keeping ``keep`` cards of ``counts`` at each trump (``tot[0:4]``) and overall (``tot[4]``).

    ``table`` in units. A hand whose meld cards fit in ``keep`` keeps its full totals
    (already in ``tot``); the others run the exact search of ``melds.best_kept_at``.
    """
    needed_counts(counts, -1, table, need)
    size = np.int64(0)
    for c in range(24):
        size += need[c]
    best = np.int64(-1)
    for t in range(4):
        # Trump sevens score as Dissle only once trump is named: they are needed then.
        extra = np.int64(counts[t * 6 + 5]) if table[DISSLE] > 0 else np.int64(0)
        if size + extra > keep:
            tot[t] = best_kept_at(counts, keep, t, table)
        best = max(best, tot[t])
    tot[4] = best


@kernel
def called_kept_totals(counts, keep, table, need, calls, meld_only, tot):
    """Raise ``tot`` (:func:`kept_totals` of ``counts``) to the best kept after any call ``calls`` allows."""
    before = np.empty(4, dtype=np.int64)
    after = np.empty(4, dtype=np.int64)
    alt = np.empty(5, dtype=np.int64)
    totals_by_trump(counts, table, before)
    for c in range(24):
        if counts[c] >= calls[c]:
            continue
        counts[c] += 1
        totals_by_trump(counts, table, after)
        if not meld_only or (after > before).any():
            alt[:4] = after
            kept_totals(counts, keep, table, need, alt)
            for q in range(5):
                tot[q] = max(tot[q], alt[q])
        counts[c] -= 1


@kernel
def tally_chunk(key0, key1, start, stop, free, ends, limits, magic, keep, do_tapp, do_kept, calls, meld_only,
                ptab, pack, kindpts, kindpack, binpts, binpack, table, evt, hist, same, pmin, sums, sqs):
    """Deal, score and tally deals ``start .. stop - 1`` into the scope-indexed tally arrays.

    The ``hand`` scope is always tallied; ``do_tapp`` adds ``hand+tapp``, ``do_kept`` adds ``kept``.
    ``calls``/``meld_only``: the calls the kept scope may make (:func:`call_limits`).
    """
    players = ends.shape[0] - 1
    buf = np.empty(free.shape[0], dtype=np.int8)
    pat = np.zeros((players + 1, 4), dtype=np.int64)
    both = np.zeros(4, dtype=np.int64)
    tot = np.zeros((players, N_QUANT), dtype=np.int64)
    tot1 = np.zeros((1, N_QUANT), dtype=np.int64)
    counts = np.zeros(24, dtype=np.uint8)
    need = np.zeros(24, dtype=np.int64)
    for i in range(start, stop):
        deal_patterns(key0, key1, i, free, ends, limits, magic, buf, pat)
        ge1 = np.int64(0)
        eq2 = np.int64(0)
        for p in range(players):
            a, b = score_patterns(pat[p], ptab, pack, kindpts, kindpack, binpts, binpack, tot[p])
            ge1 += a
            eq2 += b
        tally_deal(players, ge1, eq2, tot, evt[HAND], hist[HAND], same[HAND], pmin[HAND], sums[HAND], sqs[HAND])
        if not (do_tapp or do_kept):
            continue
        for s in range(4):
            # Base-3 digits add without carry: each card exists twice, so no digit passes 2.
            both[s] = pat[0, s] + pat[players, s]
        a, b = score_patterns(both, ptab, pack, kindpts, kindpack, binpts, binpack, tot1[0])
        if do_tapp:
            tally_deal(1, a, b, tot1, evt[HAND_TAPP], hist[HAND_TAPP], same[HAND_TAPP], pmin[HAND_TAPP],
                       sums[HAND_TAPP], sqs[HAND_TAPP])
        if do_kept:
            counts_of_patterns(both, counts)
            kept_totals(counts, keep, table, need, tot1[0])
            if calls.any():
                called_kept_totals(counts, keep, table, need, calls, meld_only, tot1[0])
            # The kept scope has totals only: its level tallies count zeros.
            tally_deal(1, np.int64(0), np.int64(0), tot1, evt[KEPT], hist[KEPT], same[KEPT], pmin[KEPT],
                       sums[KEPT], sqs[KEPT])


# ----------------------------------------------------------------------------- facade


@dataclass
class MeldTally:
    """Integer tallies of a meld-odds run (see the module docstring), summed over chunks."""

    deals: int
    members: tuple[int, int, int]  # hands per deal in each scope
    unit: int
    scopes: tuple[str, ...]  # the scopes tallied (others stay zero)
    evt: np.ndarray
    hist: np.ndarray
    same: np.ndarray
    pmin: np.ndarray
    sums: np.ndarray
    sqs: np.ndarray
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    @classmethod
    def empty(cls, deals: int, players: int, bins: int, unit: int, scopes: tuple[str, ...]) -> "MeldTally":
        m = players
        return cls(
            deals=deals, members=(players, 1, 1), unit=unit, scopes=scopes,
            evt=np.zeros((3, N_LEVELS, m + 1, m + 1), dtype=np.int64),
            hist=np.zeros((3, N_QUANT, bins), dtype=np.int64),
            same=np.zeros((3, N_QUANT, bins), dtype=np.int64),
            pmin=np.zeros((3, bins), dtype=np.int64),
            sums=np.zeros((3, N_QUANT), dtype=np.int64),
            sqs=np.zeros((3, N_QUANT), dtype=np.int64),
        )

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.evt, self.hist, self.same, self.pmin, self.sums, self.sqs

    def add(self, other: "MeldTally") -> None:
        """Add another tally's counts (thread-safe; integer sums, so the order does not matter)."""
        with self._lock:
            for mine, theirs in zip(self.arrays(), other.arrays()):
                # An object array (grand sums) takes Python ints, which cannot overflow.
                mine += theirs.astype(object) if mine.dtype == object else theirs


def draw_tables(m: int) -> tuple[np.ndarray, np.ndarray]:
    """``rng.next_below``'s rejection limit and Lemire's fastmod multiplier per bound 0..m."""
    bounds = np.maximum(np.arange(m + 1, dtype=np.uint64), np.uint64(1))
    limits = (np.uint64(1) << np.uint64(32)) // bounds * bounds
    magic = np.array([0 if b < 2 else (2**64 - 1) // b + 1 for b in range(m + 1)], dtype=np.uint64)
    return limits, magic


def default_chunk_size(deals: int) -> int:
    """Chunks of at least 50 000 deals and at most ~256 chunks in all."""
    return max(50_000, -(-deals // 256))


@dataclass(frozen=True)
class DealSetup:
    """What :func:`tally_chunk` needs to deal a preset: the deck, owner ends, draw tables, key."""

    key: tuple[np.uint64, np.uint64]
    free: np.ndarray
    ends: np.ndarray
    limits: np.ndarray
    magic: np.ndarray


def deal_setup(rules: Rules, seed: int) -> DealSetup:
    """The meld-odds deals of ``seed``: those of ``Dealer(rules, seed, stream=streams.stream("meld_odds"))``."""
    lay = rules.layout
    spec = make_spec(rules)
    ends = np.array([lay.hand_size * (i + 1) for i in range(lay.players)] + [spec.free.shape[0]], dtype=np.int64)
    limits, magic = draw_tables(spec.free.shape[0])
    return DealSetup(derive_key(seed, *streams.stream("meld_odds")), spec.free, ends, limits, magic)


def run_meld_tally(rules: Rules, deals: int, seed: int, scopes: tuple[str, ...] = SCOPES,
                   chunk_size: int | None = None, scale: Scale | None = None) -> MeldTally:
    """Deal ``deals`` deals of ``rules`` under ``seed`` and tally meld levels and totals.

    ``scopes``: which of :data:`SCOPES` to tally (``hand`` always is). Same (rules, deals,
    seed, scopes) gives the same tally for any ``scale`` (workers, checkpoint, scheduler)
    and ``chunk_size``: the chunks run as a :class:`~binokel_sim.runner.Job` and their
    integer sums add up to the same tally.
    """
    if deals < 1:
        raise ValueError(f"deals must be positive, got {deals}")
    unknown = set(scopes) - set(SCOPES)
    if unknown:
        raise ValueError(f"unknown scope {sorted(unknown)[0]!r} (one of {', '.join(SCOPES)})")
    scopes = tuple(s for s in SCOPES if s in scopes or s == "hand")
    st = score_tables(rules)
    bins = st.max_total + 1
    if bins > MAX_BINS:
        raise InputError(f"melds: totals up to {st.max_total * st.unit} in steps of {st.unit} need {bins} histogram "
                         f"bins (at most {MAX_BINS}); use meld values with a larger common divisor")
    players = rules.layout.players
    total = MeldTally.empty(deals, players, bins, st.unit, scopes)
    # Grand sums of totals and squares as Python ints: no overflow however many deals.
    total.sums, total.sqs = total.sums.astype(object), total.sqs.astype(object)
    # A chunk's int64 sum of squared deal totals must not overflow; the chunking never changes the numbers.
    size = min(chunk_size or default_chunk_size(deals), max(1, (1 << 62) // (players * bins) ** 2))
    job = Job("meld-odds", tally_job_chunk, n=deals, seed=seed, rules=rules, params={"scopes": list(scopes)},
              chunk_size=size)
    for arrays in job.run(scale, desc="meld odds"):
        part = MeldTally.empty(0, players, bins, st.unit, scopes)
        part.evt, part.hist, part.same, part.pmin, part.sums, part.sqs = arrays
        total.add(part)
    return total


def tally_job_chunk(job, chunk) -> tuple[np.ndarray, ...]:
    """One chunk's tally arrays, as a :class:`~binokel_sim.runner.Job` calls it (top-level: pickles for Dask)."""
    rules = job.rules
    return chunk_tally(rules, deal_setup(rules, job.seed), score_tables(rules), tuple(job.params["scopes"]),
                       chunk).arrays()


def chunk_tally(rules: Rules, ds: DealSetup, st, scopes: tuple[str, ...], chunk) -> MeldTally:
    """The tally of deals ``chunk.start .. chunk.stop - 1``."""
    part = MeldTally.empty(chunk.size, rules.layout.players, st.max_total + 1, st.unit, scopes)
    tally_chunk(ds.key[0], ds.key[1], np.int64(chunk.start), np.int64(chunk.stop), ds.free, ds.ends,
                ds.limits, ds.magic, np.int64(rules.layout.hand_size), "hand+tapp" in scopes, "kept" in scopes,
                call_limits(rules), rules.calling.meld_only, *st.arrays(), st.table, *part.arrays())
    return part
