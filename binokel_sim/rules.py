"""Rules as data: a frozen, typed :class:`Rules` object read from TOML.

Every difference between the sources is a key here (see ``data/rules/*.toml``);
no code branches on a preset's name. A user file may say ``inherits = "standard"``
(a preset name or a path) and override any key; unknown keys and invalid values
raise :class:`InputError` naming the key.

>>> r = load_rules("standard")
>>> r.layout.players, r.layout.hand_size, r.layout.tapp_size, r.bidding.min_bid
(3, 12, 4, 150)
>>> load_rules("grupp").melds.eight["U"]
1000
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, get_type_hints

import numpy as np

from binokel_sim.errors import InputError

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

    @property
    def deck_size(self) -> int:
        return 48 if self.sevens else 40

    @property
    def partnership(self) -> bool:
        return bool(self.teams)

    def partners(self, seat: int) -> tuple[int, ...]:
        """Seats on ``seat``'s side at play (itself included) when ``seat`` is the soloist."""
        for team in self.teams:
            if seat in team:
                return tuple(team)
        return (seat,)


@dataclass(frozen=True)
class Bidding:
    min_bid: int
    bid_step: int


@dataclass(frozen=True)
class Surrender:
    allowed: bool
    penalty_factor: int
    credit: int
    #: Opponents' credit is half the bid instead of ``credit``.
    credit_half_bid: bool


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
    "family", "trump_family", "double_family", "trump_double_family",
    "pair", "trump_pair", "double_pair", "trump_double_pair",
    "four_A", "four_K", "four_O", "four_U", "eight_A", "eight_K", "eight_O", "eight_U",
    "binokel", "double_binokel", "dissle", "eight_tens", "eight_sevens",
)


@dataclass(frozen=True)
class Play:
    #: ``forehand`` (seat 0) or ``soloist`` leads to the first trick.
    first_lead: str
    last_trick: int

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
class Game:
    target: int
    aus: bool


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
    source: str = field(default="", compare=False)

    @property
    def n_seats(self) -> int:
        return self.layout.players

    def meld_array(self) -> np.ndarray:
        return self.melds.as_array()

    def to_dict(self) -> dict[str, Any]:
        """Plain dict (TOML shape) for provenance in reports and JSON output."""
        d = dataclasses.asdict(self)
        d.pop("source")
        d["layout"]["teams"] = [list(t) for t in self.layout.teams]
        return d


_SECTIONS = {
    "layout": Layout, "bidding": Bidding, "surrender": Surrender, "melds": Melds, "play": Play,
    "scoring": Scoring, "durch": Durch, "bettel": Bettel, "game": Game,
}
_TOP_KEYS = {"name", "description", "inherits", *_SECTIONS}
_CHOICES = {("play", "first_lead"): ("forehand", "soloist")}


def preset_names() -> list[str]:
    """Names of the presets shipped in ``data/rules``."""
    return sorted(p.name[:-5] for p in resources.files("binokel_sim.presets").iterdir() if p.name.endswith(".toml"))


def _read_toml(source: str) -> tuple[dict[str, Any], str]:
    path = Path(source)
    # A name without a suffix or separator is a preset, so a folder called 'standard' never shadows it.
    if source.endswith(".toml") or "/" in source or "\\" in source:
        if not path.is_file():
            raise InputError(f"rules file {source} not found")
        text, origin = path.read_text(encoding="utf-8"), str(path)
    else:
        res = resources.files("binokel_sim.presets").joinpath(f"{source}.toml")
        if not res.is_file():
            raise InputError(f"unknown rules preset {source!r} (choose from {', '.join(preset_names())} or give a .toml path)")
        text, origin = res.read_text(encoding="utf-8"), f"preset:{source}"
    try:
        return tomllib.loads(text), origin
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"broken TOML in {origin}: {exc}") from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _resolve(source: str, seen: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    if source in seen:
        raise InputError(f"rules inherit in a circle: {' -> '.join((*seen, source))}")
    data, origin = _read_toml(source)
    parent = data.get("inherits")
    if parent is None:
        return data, origin
    if not isinstance(parent, str):
        raise InputError(f"inherits: expected a preset name or path, got {parent!r}")
    if not Path(parent).is_absolute() and parent.endswith(".toml") and not origin.startswith("preset:"):
        parent = str(Path(origin).parent / parent)
    base, _ = _resolve(parent, (*seen, source))
    merged = _merge(base, {k: v for k, v in data.items() if k != "inherits"})
    return merged, origin


def _check_value(key: str, value: Any, typ: Any) -> Any:
    if typ is bool:
        if not isinstance(value, bool):
            raise InputError(f"{key}: expected true or false, got {value!r}")
        return value
    if typ is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"{key}: expected an integer, got {value!r}")
        return value
    if typ is str:
        if not isinstance(value, str):
            raise InputError(f"{key}: expected a string, got {value!r}")
        return value
    if typ == dict[str, int]:
        if not isinstance(value, dict) or set(value) != set(MELD_RANKS):
            raise InputError(f"{key}: expected a table with keys {', '.join(MELD_RANKS)}")
        return {r: _check_value(f"{key}.{r}", value[r], int) for r in MELD_RANKS}
    if typ == tuple[tuple[int, ...], ...]:
        if not isinstance(value, list) or not all(isinstance(t, list) for t in value):
            raise InputError(f"{key}: expected a list of seat lists, e.g. [[0, 2], [1, 3]]")
        return tuple(tuple(_check_value(f"{key}[]", s, int) for s in t) for t in value)
    raise AssertionError(typ)


def _build_section(name: str, cls: type, data: Any) -> Any:
    if not isinstance(data, dict):
        raise InputError(f"{name}: missing section [{name}]" if data is None else f"{name}: expected a table")
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    for k in data:
        if k not in names:
            raise InputError(f"unknown key {name}.{k}")
    kwargs = {}
    for f in fields(cls):
        key = f"{name}.{f.name}"
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise InputError(f"missing key {key}")
        value = _check_value(key, data[f.name], hints[f.name])
        choices = _CHOICES.get((name, f.name))
        if choices and value not in choices:
            raise InputError(f"{key}: expected one of {', '.join(choices)}, got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise InputError(f"{key}: must not be negative, got {value}")
        kwargs[f.name] = value
    return cls(**kwargs)


def _validate(r: Rules) -> None:
    lay = r.layout
    if lay.players not in (3, 4):
        raise InputError(f"layout.players: expected 3 or 4, got {lay.players}")
    if lay.players * lay.hand_size + lay.tapp_size != lay.deck_size:
        raise InputError(
            f"layout: {lay.players} x {lay.hand_size} cards + Tapp {lay.tapp_size} != {lay.deck_size}-card deck"
        )
    if lay.tapp_size < 1:
        raise InputError("layout.tapp_size: must be at least 1")
    if lay.teams:
        seats = sorted(s for t in lay.teams for s in t)
        if seats != list(range(lay.players)) or len(lay.teams) != 2:
            raise InputError(f"layout.teams: expected two teams covering seats 0..{lay.players - 1}")
    if r.bidding.bid_step < 1 or r.bidding.min_bid < 1:
        raise InputError("bidding: min_bid and bid_step must be positive")
    if r.game.target < 1:
        raise InputError("game.target: must be positive")
    _check_monotone(r.melds)


def _check_monotone(m: Melds) -> None:
    """A card added to a hand must never lower its melds: the exchange optimiser relies on it.

    Adding a card can turn a pair into part of a family, so the family must be worth at
    least what it absorbs; a double must be worth at least its single.
    """
    for pre in ("", "trump_"):
        fam, dfam = getattr(m, pre + "family"), getattr(m, pre + "double_family")
        pair, dpair = getattr(m, pre + "pair"), getattr(m, pre + "double_pair")
        if fam < pair or fam + pair < dpair or dfam < fam + pair or dpair < pair:
            raise InputError(
                f"melds.{pre}family/{pre}double_family/{pre}pair/{pre}double_pair: table not monotone "
                f"(need family >= pair, family + pair >= double pair, double family >= family + pair)"
            )
    for r in MELD_RANKS:
        if m.eight[r] < m.four[r]:
            raise InputError(f"melds.eight.{r}: must be at least melds.four.{r}")
    if m.double_binokel < m.binokel:
        raise InputError("melds.double_binokel: must be at least melds.binokel")


def load_rules(source: str | Rules = "standard") -> Rules:
    """Load a preset by name (``standard``) or a TOML file by path; a :class:`Rules` passes through."""
    if isinstance(source, Rules):
        return source
    data, origin = _resolve(str(source))
    for k in data:
        if k not in _TOP_KEYS:
            raise InputError(f"unknown key {k}")
    for k in ("name",):
        if not isinstance(data.get(k), str):
            raise InputError(f"missing key {k}")
    sections = {name: _build_section(name, cls, data.get(name)) for name, cls in _SECTIONS.items()}
    rules = Rules(name=data["name"], description=str(data.get("description", "")), source=origin, **sections)
    _validate(rules)
    return rules
