"""A 48-card corpus in two phases, and the point figures that join them (:mod:`binokel_sim.twophase`).

Phase 1 is the corpus's own rows: deals ``0 .. n1-1``, every total proven within a fixed node budget
(an interval). Phase 2 lives in the sub-folder ``phase2`` (:data:`PHASE2`): deals ``0 .. n2-1`` of the
same seed, rules and policy, each total proven to within a bid step (``--within 10``), so every bid is
decided. Each phase is a corpus of its own (its manifest, chunks, build command and resume);
``binokel corpus phase2 FOLDER --deals N`` builds or extends phase 2 with phase 1's settings.

:func:`load_phases` joins them after checking that phase 2 holds phase 1's deals: the same seed, rules,
stream and policy (its manifest), the same hands, Tapp, discard and contract deal by deal, and
intervals that share a point with phase 1's (both are proofs of one total: disjoint intervals mean one
solver is wrong). Phase 1 is extended only by a solver that proves the same bounds (the builder solves
two deals again where the solver's version changed: bounds at a budget depend on the search); phase 2
by any: its intervals are narrower than a bid step whichever solver proved them.

>>> import tempfile
>>> from binokel_sim.corpus.builder import build_corpus
>>> from binokel_sim.corpus.reader import load_corpus
>>> d = tempfile.mkdtemp()
>>> _ = build_corpus("four-solo", 3, d, seed=2, chunk_size=2)
>>> load_phases(load_corpus(d)) is None        # no phase 2: None
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from binokel_sim.errors import InputError
from binokel_sim.rules import Rules
from binokel_sim.twophase import OPEN, TwoPhaseEstimate, regression_mean, stratified_rate

from .manifest import MANIFEST
from .reader import Corpus, load_corpus

#: The sub-folder of a corpus that holds its phase 2.
PHASE2 = "phase2"
#: What phase 2 must share with phase 1 (manifest keys).
SHARED = ("seed", "stream", "policy", "rules_hash")
#: The row columns that say two rows are the same deal, played the same way.
SAME_DEAL = ("soloist", "tapp", "discard", "contract")
#: Phase 2's settings where a build starts it: every total to within 10 points (every bid decided) and no further
#: -- a node budget of 1 ends the ``within`` query's exact phase at once (``Solver.within``) -- in chunks of 50
#: deals. The shipped phase 2 of ``wuerttemberg`` and ``standard-48`` went on to the exact value within 200 M nodes
#: (their manifests keep it, and so does a resumed build): 1.5x the nodes for exact totals that decide no bid
#: more; they narrow only the range phase 2's open intervals leave a mean (``--solve-budget 200000000n`` asks it).
PHASE2_WITHIN, PHASE2_BUDGET, PHASE2_CHUNK = 10, 1, 50
#: The fewest phase-2 deals that give figures (a regression needs three); fewer: the corpus reads as bounds.
MIN_DEALS = 3
#: Bids whose figures ``corpus info`` prints for a two-phase corpus.
TWO_PHASE_BIDS = tuple(range(150, 410, 10))


def phase2_folder(folder: str | os.PathLike) -> Path:
    """The folder of a corpus's phase 2."""
    return Path(folder) / PHASE2


def phase2_command(folder: str | os.PathLike, deals: int = 400) -> str:
    """The command that builds (or extends) a corpus's phase 2.

    >>> phase2_command("data/corpus/grupp", 200)
    'binokel corpus phase2 data/corpus/grupp --deals 200'
    """
    return f"binokel corpus phase2 {os.fspath(folder)} --deals {deals}"


@dataclass(frozen=True)
class PhaseRows:
    """Rows of both phases: ``phase1`` (deals ``0 .. n1-1``, totals as intervals) and ``phase2`` (the first ``n2``
    of them, every bid decided); :meth:`domain` keeps a group of deals in both (a hand class).

    >>> import pandas as pd, numpy as np
    >>> r = PhaseRows(pd.DataFrame({"deal": range(5)}), pd.DataFrame({"deal": range(2)}))
    >>> d = r.domain(np.array([True, False, True, True, False]))
    >>> d.phase1["deal"].tolist(), d.phase2["deal"].tolist(), (d.n1, d.n2)
    ([0, 2, 3], [0], (3, 1))
    """

    phase1: pd.DataFrame
    phase2: pd.DataFrame

    @property
    def n1(self) -> int:
        return len(self.phase1)

    @property
    def n2(self) -> int:
        return len(self.phase2)

    def domain(self, mask1: np.ndarray) -> "PhaseRows":
        """The deals where ``mask1`` (bool[n1]) holds, in both phases: phase 2's stay the first of phase 1's."""
        m = np.asarray(mask1, dtype=bool)
        return PhaseRows(self.phase1[m].reset_index(drop=True), self.phase2[m[:self.n2]].reset_index(drop=True))


@dataclass(frozen=True)
class Phases:
    """Phase 1 (the corpus) and phase 2 (its rows of deals ``0 .. n2-1``, at most phase 1's deals)."""

    phase1: Corpus
    phase2: Corpus

    @property
    def n1(self) -> int:
        return self.phase1.n

    @property
    def n2(self) -> int:
        return self.phase2.n

    def rows(self) -> PhaseRows:
        """Both phases' rows."""
        return PhaseRows(self.phase1.df, self.phase2.df)


def _prefix(df: pd.DataFrame) -> int:
    """How many rows hold deals ``0 .. k-1`` without a gap.

    >>> _prefix(pd.DataFrame({"deal": [0, 1, 3]})), _prefix(pd.DataFrame({"deal": [0, 1]}))
    (2, 2)
    """
    ok = df["deal"].to_numpy() == np.arange(len(df))
    return int(len(ok) if ok.all() else np.argmin(ok))


def _refuse(folder: Path, why: str) -> InputError:
    return InputError(f"corpus {folder}: its phase 2 ({PHASE2}/) {why}")


def load_phases(c: Corpus) -> Phases | None:
    """The corpus with its phase 2, checked against it (module docstring); None where it has none, or fewer than
    :data:`MIN_DEALS` deals of it."""
    folder = phase2_folder(c.path)
    if not (folder / MANIFEST).is_file():
        return None
    ph = join_phases(c, load_corpus(folder))
    # A phase 2 just started (a build killed before its first chunk) holds too few deals for any figure.
    return ph if ph.n2 >= MIN_DEALS else None


def join_phases(c: Corpus, p2: Corpus) -> Phases:
    """Phase 1 ``c`` and phase 2 ``p2`` as :class:`Phases`, once ``p2`` is shown to hold ``c``'s deals (module
    docstring; an :class:`InputError` naming the first difference if not)."""
    m1, m2 = c.manifest, p2.manifest
    for key in SHARED:
        if m2.get(key) != m1.get(key):
            raise _refuse(c.path, f"was built with {key} {m2.get(key)}, phase 1 with {m1.get(key)}: other deals")
    if not m2.get("solve_within"):
        raise _refuse(c.path, "was not built with --within: its totals do not decide every bid")
    # Each phase's deals 0 .. k-1 without a gap (a killed build may leave one): phase 2 then stays a simple
    # random subsample of phase 1.
    c = Corpus(c.path, c.manifest, c.df.iloc[:_prefix(c.df)].reset_index(drop=True), c.bad)
    df2 = p2.df.iloc[:min(_prefix(p2.df), c.n)].reset_index(drop=True)
    if not len(df2):
        return Phases(c, Corpus(p2.path, p2.manifest, df2, p2.bad))
    df1 = c.df.iloc[:len(df2)]
    same = [f"hand{s}" for s in range(int(m1["rules_data"]["layout"]["players"]))] + list(SAME_DEAL)
    for col in same:
        differ = np.nonzero(df1[col].to_numpy() != df2[col].to_numpy())[0]
        if differ.size:
            raise _refuse(c.path, f"differs from phase 1 at deal {int(differ[0])} ({col}): not the same deals, or "
                                  "one phase was refreshed and the other not (`binokel corpus refresh` each)")
    for pre in ("", "base_"):
        lo1, hi1 = df1[f"{pre}points_lo"].to_numpy(), df1[f"{pre}points_hi"].to_numpy()
        lo2, hi2 = df2[f"{pre}points_lo"].to_numpy(), df2[f"{pre}points_hi"].to_numpy()
        apart = np.nonzero((lo2 > hi1) | (hi2 < lo1))[0]
        if apart.size:
            i = int(apart[0])
            raise _refuse(c.path, f"proves deal {i}'s {pre.rstrip('_') or 'contract'} total {lo2[i]}..{hi2[i]}, "
                                  f"phase 1 {lo1[i]}..{hi1[i]}: one of the solves is wrong")
    return Phases(c, Corpus(p2.path, p2.manifest, df2, p2.bad))


@dataclass(frozen=True)
class BidFigure:
    """P(make) and E[score] at one bid, each a two-phase point figure."""

    bid: int
    p_make: TwoPhaseEstimate
    expected_score: TwoPhaseEstimate


@dataclass(frozen=True)
class TwoPhaseFigures:
    """A two-phase corpus's headline figures: the soloist's total (trump contracts), the Tapp value
    (paired), and P(make) / E[score] at each bid; ``n1`` / ``n2`` the phases' deals."""

    n1: int
    n2: int
    soloist_total: TwoPhaseEstimate
    tapp_value: TwoPhaseEstimate
    bids: tuple[BidFigure, ...]
    #: The mean total over every contract (a special's value counted), as the bid tables print it.
    mean_total: TwoPhaseEstimate

    def to_dict(self) -> dict:
        return {"n1": self.n1, "n2": self.n2, "soloist_total": self.soloist_total.to_dict(),
                "mean_total": self.mean_total.to_dict(),
                "tapp_value": self.tapp_value.to_dict(),
                "bids": [{"bid": b.bid, "p_make": b.p_make.to_dict(), "expected_score": b.expected_score.to_dict()}
                         for b in self.bids]}


def _mid(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return (np.asarray(lo, np.float64) + np.asarray(hi, np.float64)) / 2


def _pair(x1: tuple[np.ndarray, np.ndarray], x2: tuple[np.ndarray, np.ndarray],
          sel1: np.ndarray | None = None) -> TwoPhaseEstimate:
    """The regression estimate from phase 1's and phase 2's (lo, hi) of one figure (``sel1``: a subset of phase 1's
    deals, phase 2's being its first ones); the residual is half phase 2's mean width, the most its intervals can
    move a mean of midpoints."""
    s1 = np.ones(len(x1[0]), dtype=bool) if sel1 is None else sel1
    s2 = s1[:len(x2[0])]
    w = (np.asarray(x2[1]) - np.asarray(x2[0]))[s2]
    return regression_mean(_mid(*x1)[s1], _mid(*x2)[s2], residual=float(np.mean(w) / 2) if w.size else 0.0)


def two_phase_mean(rows: PhaseRows, col: str, trump_only: bool = False) -> TwoPhaseEstimate:
    """The two-phase mean of ``value`` or ``tapp_value`` over ``rows`` (``trump_only``: trump contracts only), each
    phase at its intervals' midpoints (:func:`binokel_sim.twophase.regression_mean`)."""
    from binokel_sim.studies.deals import row_bounds

    trump = rows.phase1["code"].to_numpy() < 4 if trump_only else None
    return _pair(row_bounds(rows.phase1, col), row_bounds(rows.phase2, col), trump)


def _outcomes(rules: Rules, df, bids: np.ndarray):
    """Per deal and bid: made at the lower / upper bounds and the score at both, from corpus rows."""
    from binokel_sim.evaluation.ladder import outcomes
    from binokel_sim.studies.deals import add_bounds, parts_of, point_intervals, upper_parts

    g = add_bounds(df.copy(), point_intervals(df))
    made_lo, score_lo = outcomes(rules, parts_of(g), bids)[:2]
    made_hi, score_hi = outcomes(rules, upper_parts(g), bids)[:2]
    return made_lo, made_hi, score_lo, score_hi


def two_phase_figures(rows: PhaseRows, rules: Rules, bids=TWO_PHASE_BIDS) -> TwoPhaseFigures:
    """The headline figures of a two-phase corpus (:mod:`binokel_sim.twophase`) over ``rows`` (a corpus's
    :meth:`Phases.rows`, or a domain of them): the auxiliary of every figure is its phase-1 midpoint, the
    value its phase-2 midpoint (half a phase-2 width at most from the truth: the estimate's ``residual``);
    a rate's strata are the bids phase 1 decided. An :class:`InputError` where phase 2 leaves a bid open."""
    b = np.asarray(bids, dtype=np.int64)
    ml1, mh1, sl1, sh1 = _outcomes(rules, rows.phase1, b)
    ml2, mh2, sl2, sh2 = _outcomes(rules, rows.phase2, b)
    if (ml2 != mh2).any():
        i, j = np.argwhere(ml2 != mh2)[0]
        raise InputError(f"phase 2 leaves deal {int(rows.phase2['deal'].iloc[i])} open at bid {int(b[j])}: "
                         "not decided at every bid")
    figures = []
    for j, bid in enumerate(b.tolist()):
        decided = np.where(ml1[:, j], 1, np.where(~mh1[:, j], 0, OPEN))
        figures.append(BidFigure(int(bid), stratified_rate(decided, ml2[:, j]),
                                 _pair((sl1[:, j], sh1[:, j]), (sl2[:, j], sh2[:, j]))))
    return TwoPhaseFigures(rows.n1, rows.n2, two_phase_mean(rows, "value", trump_only=True),
                           two_phase_mean(rows, "tapp_value"), tuple(figures), two_phase_mean(rows, "value"))


@dataclass(frozen=True)
class InstantSplit:
    """A corpus's deals for the instant model (:mod:`binokel_sim.evaluation.instant`): ``train`` (its fit),
    ``test`` (held out, for calibration), ``which`` (the held-out rule in words), ``phase2`` (the phase-2
    deals ``n2`` the split used, None: phase 1 alone)."""

    train: pd.DataFrame
    test: pd.DataFrame
    which: str
    phase2: int | None


def instant_split(c: Corpus, seats: int, phase2: int | None) -> InstantSplit:
    """The instant model's training and held-out deals of corpus ``c``. ``phase2=None``: phase 1's rows, the held-out
    rule of :func:`~binokel_sim.evaluation.instant.held_out`. ``phase2=n2`` (a two-phase corpus): every other deal
    below ``n2`` is held out, its phase-2 row the test (decided at every bid: calibration without bounds); the
    fit takes the other phase-2 rows (totals known to a bid step) and phase 1's rows from ``n2`` on (intervals:
    the censored fit uses them as such).

    >>> import tempfile
    >>> from binokel_sim.corpus.builder import build_corpus
    >>> d = tempfile.mkdtemp()
    >>> _ = build_corpus("four-solo", 6, d, seed=2, chunk_size=3)
    >>> s = instant_split(load_corpus(d), 4, None)
    >>> (len(s.train), len(s.test), s.phase2)      # nothing held out below deal 500
    (6, 0, None)
    """
    from binokel_sim.evaluation.instant import held_out, held_out_rule

    if phase2 is None:
        out = held_out(c.df["deal"].to_numpy(), seats)
        return InstantSplit(c.df[~out], c.df[out].reset_index(drop=True), held_out_rule(seats), None)
    ph = load_phases(c)
    if ph is None or ph.n2 < phase2:
        raise InputError(f"corpus {c.path}: the instant model was fitted with {phase2} phase-2 deals; the corpus "
                         f"holds {0 if ph is None else ph.n2} (`{phase2_command(c.path, phase2)}` builds them)")
    p2 = ph.phase2.df
    d2 = p2["deal"].to_numpy()
    test = held_out(d2, seats, phase2)
    train = pd.concat([p2[(d2 < phase2) & ~test], c.df[c.df["deal"].to_numpy() >= phase2]], ignore_index=True)
    return InstantSplit(train, p2[test].reset_index(drop=True), held_out_rule(seats, phase2), phase2)


def build_phase2(folder: str | os.PathLike, deals: int, *, within: int | None = None, solve_budget: int | None = None,
                 chunk_size: int | None = None, scale=None, command: str | None = None) -> dict:
    """Build or extend phase 2 of the corpus in ``folder`` to ``deals`` deals with phase 1's seed, rules and
    policy (:func:`binokel_sim.corpus.builder.build_corpus` in ``folder/phase2``); returns its manifest.
    ``within`` / ``solve_budget`` / ``chunk_size``: a new phase 2's settings (None: 10 points, no exact phase,
    50 deals: :data:`PHASE2_WITHIN`, :data:`PHASE2_BUDGET`, :data:`PHASE2_CHUNK`), an existing one keeps its own."""
    from .builder import build_corpus
    from .identity import rules_of_data
    from .manifest import read_manifest

    folder = Path(folder)
    m1 = read_manifest(folder)
    if m1.get("solve_budget") is None or m1.get("solve_within") is not None:
        raise InputError(f"corpus {folder}: phase 2 joins a corpus of bounds within a node budget (built with "
                         "--solve-budget); this one's totals need none")
    if deals > int(m1["deals"]):
        raise InputError(f"--deals {deals}: phase 2 takes deals of phase 1, which holds {m1['deals']}; extend "
                         "phase 1 first")
    target = phase2_folder(folder)
    own = read_manifest(target) if (target / MANIFEST).is_file() else {}
    return build_corpus(rules_of_data(m1, folder), deals, target, seed=int(m1["seed"]), policy=m1["policy"],
                        chunk_size=chunk_size or own.get("chunk_size", PHASE2_CHUNK), scale=scale, command=command,
                        solve_budget=solve_budget or own.get("solve_budget", PHASE2_BUDGET),
                        solve_within=within or own.get("solve_within", PHASE2_WITHIN))
