"""Rules as data: a frozen, typed :class:`Rules` object read from TOML.

Every difference between the sources is a key here (see ``data/rules/*.toml``);
no code branches on a preset's name. A user file may say ``inherits = "standard"``
(a preset name or a ``.toml`` path) and override any key; unknown keys and invalid values
raise :class:`InputError` naming the key, and every number must lie in its range
(:data:`RANGES`). Files are read by :mod:`binokel_sim.rules_files`.

>>> r = load_rules("standard")
>>> r.layout.players, r.layout.hand_size, r.layout.tapp_size, r.bidding.min_bid
(3, 12, 4, 150)
>>> load_rules("grupp").melds.eight["U"]
1000
>>> RANGES["play.last_trick"]
(0, 1000)
"""

from __future__ import annotations

import dataclasses
import functools
import os
from dataclasses import dataclass, field, fields
from typing import Any, get_type_hints

import numpy as np

from binokel_sim.errors import InputError, shown
from binokel_sim.layout_checks import RANGES, check_rules
from binokel_sim.rules_files import preset_names, resolve

__all__ = ["RANGES", "Rules", "as_rules", "load_rules", "preset_names"]

MELD_RANKS = ("A", "K", "O", "U")


@dataclass(frozen=True)
class Layout:
    """Who plays with which deck: docs/rules.md §2."""

    name: str
    players: int
    sevens: bool
    hand_size: int
    tapp_size: int
    #: Fixed teams as seat lists, e.g. ``[[0, 2], [1, 3]]`` for Kreuzbinokel; empty: soloist against all.
    teams: tuple[tuple[int, ...], ...] = ()
    #: ``bid``: auction, Tapp and soloist (docs/rules.md §2-§9); ``talon``: two-hand Binokel, no
    #: auction, a turned trump and a talon drawn from while it lasts (§10; ``tapp_size`` is the talon).
    kind: str = "bid"
    #: A fourth player deals and sits out of each deal (scoring ``scoring.dealer_bonus``).
    dealer_sits_out: bool = False

    @property
    def deck_size(self) -> int:
        return 48 if self.sevens else 40

    @property
    def table_players(self) -> int:
        """Players at the table: those at play, plus the dealer where the dealer sits out."""
        return self.players + int(self.dealer_sits_out)

    @property
    def partnership(self) -> bool:
        return bool(self.teams)

    def partners(self, seat: int) -> tuple[int, ...]:
        """Seats on ``seat``'s side at play (itself included) when ``seat`` is the soloist."""
        return next((tuple(team) for team in self.teams if seat in team), (seat,))

    @functools.cached_property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """:meth:`partners` of each seat at play, by the soloist's seat, and as bit masks (:attr:`side_masks`).

        >>> load_rules("kreuz").layout.sides[1], load_rules("kreuz").layout.side_masks[1]
        ((1, 3), 10)
        """
        return tuple(self.partners(s) for s in range(self.players))

    @functools.cached_property
    def side_masks(self) -> tuple[int, ...]:
        return tuple(sum(1 << s for s in side) for side in self.sides)


@dataclass(frozen=True)
class Bidding:
    min_bid: int
    bid_step: int
    #: Forehand must open at ``min_bid`` (False: it may pass, and a deal all pass is thrown in; docs/rules.md §3).
    forehand_must_open: bool = True
    #: A bid may also raise by any multiple of this (0: no jumps; a multiple of ``bid_step``; §3).
    jump_step: int = 0


@dataclass(frozen=True)
class Calling:
    """Calling a card (*Rufen*, docs/rules.md §4.4): after taking the Tapp the soloist of a trump game names a
    card; an opponent who holds it hands it over and gets back a card of the soloist's choice."""

    allowed: bool = False
    #: ``absent``: a card of which the soloist holds no copy; ``not_both``: one he does not hold twice.
    cards: str = "absent"
    #: The call must raise the soloist's melds at some trump.
    meld_only: bool = False


@dataclass(frozen=True)
class Surrender:
    allowed: bool
    penalty_factor: int
    credit: int
    #: Opponents' credit is half the bid instead of ``credit``.
    credit_half_bid: bool
    #: At fixed partnerships the defending team gets its melds plus the credit once, not each defender.
    credit_per_team: bool = False


@dataclass(frozen=True)
class Melds:
    """A meld table: docs/rules.md §5. ``four``/``eight`` map rank letter to points."""

    table: str
    family: int
    trump_family: int
    double_family: int
    trump_double_family: int
    pair: int
    trump_pair: int
    double_pair: int
    trump_double_pair: int
    four: dict[str, int]
    eight: dict[str, int]
    binokel: int
    double_binokel: int
    dissle: int
    eight_tens: int
    eight_sevens: int
    #: Leaf King + leaf Ober + bell Unter (two-hand table only; 0 = not a meld).
    grand_binokel: int = 0

    def as_array(self) -> np.ndarray:
        """The table as ``int64[MELD_SLOTS]`` in the order of :data:`MELD_SLOT_NAMES`."""
        return np.array(
            [
                self.family, self.trump_family, self.double_family, self.trump_double_family,
                self.pair, self.trump_pair, self.double_pair, self.trump_double_pair,
                *(self.four[r] for r in MELD_RANKS), *(self.eight[r] for r in MELD_RANKS),
                self.binokel, self.double_binokel, self.dissle, self.eight_tens, self.eight_sevens,
            ],
            dtype=np.int64,
        )


#: Slot order of :meth:`Melds.as_array`, shared with the numba scorer.
MELD_SLOT_NAMES = (
    "family", "trump_family", "double_family", "trump_double_family", "pair", "trump_pair", "double_pair",
    "trump_double_pair", "four_A", "four_K", "four_O", "four_U", "eight_A", "eight_K", "eight_O", "eight_U",
    "binokel", "double_binokel", "dissle", "eight_tens", "eight_sevens",
)


@dataclass(frozen=True)
class Play:
    #: ``forehand`` (seat 0) or ``soloist`` leads to the first trick.
    first_lead: str
    last_trick: int
    #: At fixed partnerships a follower whose partner holds the trick need only follow suit (§6).
    partner_frees: bool = False
    #: A follower of a trumped trick must still beat the highest card of the led suit if able (§6).
    beat_led_when_trumped: bool = False

    def first_leader(self, soloist: int, durch: bool = False) -> int:
        """Seat leading the first trick: the soloist at a Durch (docs/rules.md §8), else per ``first_lead``.

        >>> Play("forehand", 10).first_leader(2), Play("forehand", 10).first_leader(2, durch=True)
        (0, 2)
        """
        return soloist if durch or self.first_lead == "soloist" else 0


@dataclass(frozen=True)
class Scoring:
    failure_factor: int
    round_to_10: bool
    melds_need_trick: bool
    #: Points for the dealer who sits out at a four-player table (0: none).
    dealer_bonus: int
    #: At fixed partnerships a team's card points are rounded once, not each player's (§7).
    round_per_team: bool = False
    #: At fixed partnerships a player's melds count when his team took a trick, not only he (§7).
    team_trick_keeps_melds: bool = False

    @property
    def melds_as_bonus(self) -> bool:
        """The solver credits each side seat's melds when that seat takes its first trick (a trick bonus); else
        they are added outside the play (they need no trick, or ``team_trick_keeps_melds``: a side that makes
        its contract took a trick anyway, so its best play and made bids are the same either way)."""
        return self.melds_need_trick and not self.team_trick_keeps_melds


@dataclass(frozen=True)
class Durch:
    allowed: bool
    #: The soloist uses the Tapp before announcing (False: Durch is played from the hand).
    uses_tapp: bool
    value: int
    open_value: int
    open_hand_value: int
    failure_factor: int
    opponent_credit: int


@dataclass(frozen=True)
class Bettel:
    allowed: bool
    value: int
    failure_factor: int


@dataclass(frozen=True)
class Talon:
    """Options of the talon game (two-hand Binokel, docs/rules.md §10); unused by ``bid`` layouts."""

    #: The holder of a trump Seven may exchange it for the turned card while the talon lasts.
    seven_exchange: bool = True
    #: After the talon is exhausted a follower must also head the trick when able.
    must_head: bool = True
    #: The dealer's points when the turned card is a Seven.
    turned_seven: int = 10


@dataclass(frozen=True)
class Discard:
    """What the table learns of the soloist's lay-away (docs/rules.md §4.1)."""
    #: Trumps laid away are announced to every seat (False: the lay-away stays the soloist's secret).
    trumps_shown: bool = False


@dataclass(frozen=True)
class Game:
    target: int
    aus: bool
    #: ``soloist``: a soloist at the target wins, else the one highest score, ties play on; ``highest``: the
    #: highest score at the target wins, ties to the soloist, then by seat order (§9).
    decided_by: str = "soloist"


@dataclass(frozen=True)
class Rules:
    """A complete rules preset. Build with :func:`load_rules`."""

    name: str
    description: str
    layout: Layout
    bidding: Bidding
    surrender: Surrender
    melds: Melds
    play: Play
    scoring: Scoring
    durch: Durch
    bettel: Bettel
    game: Game
    talon: Talon = field(default_factory=Talon)
    calling: Calling = field(default_factory=Calling)
    discard: Discard = field(default_factory=Discard)
    source: str = field(default="", compare=False)
    #: What charts and pages call the rule set (a file's own ``title``, never an inherited file's; else its name).
    title: str = field(default="", compare=False)

    @property
    def display_name(self) -> str:
        """The rule set in a player's words: its ``title``, else its name.

        >>> load_rules("wuerttemberg").display_name
        'Württemberg club game (48 cards)'
        """
        return self.title or self.name

    @property
    def n_seats(self) -> int:
        return self.layout.players

    def meld_array(self) -> np.ndarray:
        return self.melds.as_array()

    def require_auction(self, what: str) -> None:
        """Raise :class:`InputError` naming ``what`` when the layout has no auction and Tapp (two-hand)."""
        if self.layout.kind != "bid":
            raise InputError(f"{what}: rules {self.name!r} (layout {self.layout.name!r}) have no auction or Tapp; "
                             "two-hand studies: odds melds, simulate games, report, compare")

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (TOML shape) for provenance in reports and JSON output."""
        d = dataclasses.asdict(self)
        d.pop("source")
        d.pop("title")  # a label, not a rule: corpus manifests and hashes stay as they were
        d["layout"]["teams"] = [list(t) for t in self.layout.teams]
        return d


_SECTIONS = {"layout": Layout, "bidding": Bidding, "surrender": Surrender, "melds": Melds, "play": Play,
             "scoring": Scoring, "durch": Durch, "bettel": Bettel, "game": Game}
_OPTIONAL = {"talon": Talon, "calling": Calling, "discard": Discard}  # sections a file may leave out
_TOP_KEYS = {"name", "description", "title", "inherits", *_OPTIONAL, *_SECTIONS}
_CHOICES = {("play", "first_lead"): ("forehand", "soloist"), ("layout", "kind"): ("bid", "talon"),
            ("calling", "cards"): ("absent", "not_both"), ("game", "decided_by"): ("soloist", "highest")}


class _Source:
    """Which keys the loaded file sets itself: only their values are echoed in errors, never an inherited file's."""

    def __init__(self, own: frozenset[str]):
        self.own = own

    def got(self, key: str, value: Any) -> str:
        parts = key.replace("[]", "").split(".")
        if any(".".join(parts[:i]) in self.own for i in range(1, len(parts) + 1)):
            return f"got {shown(value)}"
        return "got a value of the inherited file"


def _check_value(key: str, value: Any, typ: Any, src: _Source) -> Any:
    if typ is bool:
        if not isinstance(value, bool):
            raise InputError(f"{key}: expected true or false, {src.got(key, value)}")
        return value
    if typ is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{key}: expected an integer, {src.got(key, value)}")
        lo, hi = RANGES[key.rsplit(".", 1)[0] if key.count(".") > 1 else key]
        if not lo <= value <= hi:
            raise InputError(f"rules: {key} must be {lo}..{hi}, {src.got(key, value)}")
        return value
    if typ is str:
        if not isinstance(value, str):
            raise InputError(f"{key}: expected a string, {src.got(key, value)}")
        return value
    if typ == dict[str, int]:
        if not isinstance(value, dict) or set(value) != set(MELD_RANKS):
            raise InputError(f"{key}: expected a table with keys {', '.join(MELD_RANKS)}")
        return {r: _check_value(f"{key}.{r}", value[r], int, src) for r in MELD_RANKS}
    if typ == tuple[tuple[int, ...], ...]:
        if not isinstance(value, list) or not all(isinstance(t, list) for t in value):
            raise InputError(f"{key}: expected a list of seat lists, e.g. [[0, 2], [1, 3]]")
        if not all(isinstance(s, int) and not isinstance(s, bool) for t in value for s in t):
            raise InputError(f"{key}: expected seat numbers, e.g. [[0, 2], [1, 3]]")
        return tuple(tuple(t) for t in value)
    raise AssertionError(typ)


def _key_name(key: str) -> str:
    """A key as written in a message: a plain name as it is, anything odd quoted and cut short."""
    return key if key.replace("_", "").replace(".", "").isalnum() and len(key) <= 60 else shown(key)


def _build_section(name: str, cls: type, data: Any, src: _Source) -> Any:
    if not isinstance(data, dict):
        raise InputError(f"{name}: missing section [{name}]" if data is None else f"{name}: expected a table")
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    for k in data:
        if k not in names:
            raise InputError(f"unknown key {name}.{_key_name(k)}")
    kwargs = {}
    for f in fields(cls):
        key = f"{name}.{f.name}"
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise InputError(f"missing key {key}")
        value = _check_value(key, data[f.name], hints[f.name], src)
        choices = _CHOICES.get((name, f.name))
        if choices and value not in choices:
            raise InputError(f"{key}: expected one of {', '.join(choices)}, {src.got(key, value)}")
        kwargs[f.name] = value
    return cls(**kwargs)


def as_rules(rules: "Rules | str | os.PathLike[str]") -> Rules:
    """What every public function does with its ``rules`` argument: a :class:`Rules` passes through,
    a preset name or a TOML path is loaded; anything else is an :class:`InputError`."""
    if isinstance(rules, (Rules, str, os.PathLike)):
        return load_rules(rules if isinstance(rules, Rules) else os.fspath(rules))
    raise InputError(f"rules: expected a preset name, a TOML path or Rules, got {type(rules).__name__}")


def load_rules(source: str | Rules = "standard") -> Rules:
    """Load a preset by name (``standard``) or a TOML file by path; a :class:`Rules` passes through."""
    if isinstance(source, Rules):
        return source
    data, origin, own = resolve(str(source))
    rules = rules_from_data(data, origin, own)
    if "talon" in data and rules.layout.kind != "talon":
        raise InputError(f"talon: layout {rules.layout.name!r} has no talon (layout.kind = \"talon\" only)")
    if isinstance(data.get("calling"), dict) and data["calling"] and rules.layout.kind != "bid":
        key = _key_name(next(iter(data["calling"])))
        raise InputError(f"calling.{key}: layout {rules.layout.name!r} has no auction (layout.kind = \"bid\" only)")
    return rules


def rules_from_data(data: dict[str, Any], origin: str, own: frozenset[str]) -> Rules:
    """Rules from a merged file's data (``own``: the keys it sets itself) or a manifest's ``Rules.to_dict()``."""
    for k in data:
        if k not in _TOP_KEYS:
            raise InputError(f"unknown key {_key_name(k)}")
    if not isinstance(data.get("name"), str):
        raise InputError(f"name: expected a string in quotes, got {shown(data['name'])}" if "name" in data else "missing key name")
    sections = {name: _build_section(name, cls, data.get(name, {} if name in _OPTIONAL else None), _Source(own))
                for name, cls in {**_SECTIONS, **_OPTIONAL}.items()}  # a file may leave the optional ones out
    title = data.get("title", "") if "title" in own else ""  # an inherited title names another rule set
    if not isinstance(title, str) or len(title) > 80:
        raise InputError(f"title: expected a string in quotes of at most 80 characters, got {shown(title)}")
    rules = Rules(name=data["name"], description=str(data.get("description", "")), source=origin, title=title,
                  **sections)
    check_rules(rules)
    return rules
