"""Cards, card text and the compact encodings the kernels use.

A card *type* is an int ``suit * 6 + rank`` (python-chess style named ints):
suits ``E G H S`` = 0..3, ranks ``A 10 K O U 7`` = 0..5 (0 is the highest).
Every type exists twice in a deck, so a hand is a count vector of 24 ``uint8``
(each 0..2); kernels take those vectors or flat arrays of card types.

>>> parse_cards("EA, Grün Ober, bells unter")
[0, 9, 22]
>>> format_cards([0, 9, 22])
'EA GO SU'
"""

from __future__ import annotations

import re
import unicodedata
from typing import Iterable, NewType

import numpy as np

from binokel_sim.errors import InputError, shown

CardType = NewType("CardType", int)

SUITS = "EGHS"
RANKS = ("A", "10", "K", "O", "U", "7")
N_SUITS = 4
N_RANKS = 6
N_TYPES = N_SUITS * N_RANKS
COPIES = 2
#: Cards in the largest deck (48: every type twice, sevens included); no hand or pile holds more.
MAX_DECK = N_TYPES * COPIES

RANK_A, RANK_10, RANK_K, RANK_O, RANK_U, RANK_7 = range(6)
SUIT_E, SUIT_G, SUIT_H, SUIT_S = range(4)

#: Card points by rank (A 11, 10 10, K 4, O 3, U 2, 7 0).
RANK_POINTS = np.array([11, 10, 4, 3, 2, 0], dtype=np.int64)
#: Card points by card type (int64, read-only): the one table every module and kernel uses.
CARD_POINTS = np.tile(RANK_POINTS, N_SUITS)
CARD_POINTS.setflags(write=False)

SUIT_NAMES_DE = ("Eichel", "Grün", "Herz", "Schellen")
SUIT_NAMES_EN = ("acorns", "leaves", "hearts", "bells")
RANK_NAMES_DE = ("Ass", "Zehn", "König", "Ober", "Unter", "Sieben")
RANK_NAMES_EN = ("ace", "ten", "king", "ober", "unter", "seven")


def card_type(suit: int, rank: int) -> CardType:
    """Card type of ``suit`` and ``rank``: ``card_type(SUIT_G, RANK_O) == 9``."""
    return CardType(suit * N_RANKS + rank)


def suit_of(card: int) -> int:
    """Suit index of a card type."""
    return card // N_RANKS


def rank_of(card: int) -> int:
    """Rank index of a card type (0 = Ace, the highest)."""
    return card % N_RANKS


CARD_TEXT = tuple(SUITS[s] + RANKS[r] for s in range(N_SUITS) for r in range(N_RANKS))


def _fold(word: str) -> str:
    """Lower-case and strip accents so 'Grün', 'gruen' and 'grun' compare equal."""
    word = word.lower().replace("ü", "ue").replace("ö", "oe").replace("ä", "ae")
    word = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in word if not unicodedata.combining(ch))


_SUIT_WORDS = {
    SUIT_E: ("eichel", "eicheln", "acorn", "acorns", "clubs", "kreuz"),
    SUIT_G: ("gruen", "grun", "green", "schippe", "schippen", "laub", "gras", "leaf", "leaves", "spades", "pik"),
    SUIT_H: ("herz", "hearts", "heart", "rot"),
    SUIT_S: ("schellen", "schelle", "bollen", "bells", "bell", "diamonds", "karo"),
}
_RANK_WORDS = {
    RANK_A: ("ass", "as", "sau", "daus", "ace", "a"),
    RANK_10: ("zehn", "zehner", "ten", "10"),
    RANK_K: ("koenig", "konig", "king", "k"),
    RANK_O: ("ober", "over", "o"),
    RANK_U: ("unter", "under", "u"),
    RANK_7: ("sieben", "siebener", "seven", "7"),
}
SUIT_WORD = {w: s for s, ws in _SUIT_WORDS.items() for w in ws}
RANK_WORD = {w: r for r, ws in _RANK_WORDS.items() for w in ws}
_CANONICAL = re.compile(r"^([egsh])(a|10|k|o|u|7)$")
_SPLIT = re.compile(r"[\s,;\-]+")


def _canonical(token: str) -> int | None:
    m = _CANONICAL.match(token)
    if not m:
        return None
    return card_type(SUITS.index(m.group(1).upper()), RANKS.index(m.group(2).upper()))


def parse_cards(text: str | Iterable[str]) -> list[int]:
    """Parse card text into card types, in the order given.

    Accepts canonical text (``GO``, ``S10``, ``E7``) and German or English names
    (``Grün Ober``, ``Schippe-Ober``, ``leaves ober``, ``ace of acorns``),
    case-insensitive, separated by spaces or commas. Raises :class:`InputError`
    naming the first token it cannot read.

    >>> format_cards(parse_cards("Schippe-Ober herz ass s10"))
    'GO HA S10'
    """
    if not isinstance(text, str):
        text = " ".join(text)
    raw = [t for t in _SPLIT.split(text.strip()) if t]
    tokens = [_fold(t) for t in raw]
    out: list[int] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        card = _canonical(tok)
        if card is not None:
            out.append(card)
            i += 1
            continue
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if tok in SUIT_WORD and nxt in RANK_WORD:
            out.append(card_type(SUIT_WORD[tok], RANK_WORD[nxt]))
            i += 2
            continue
        if tok in RANK_WORD and nxt == "of" and i + 2 < len(tokens) and tokens[i + 2] in SUIT_WORD:
            out.append(card_type(SUIT_WORD[tokens[i + 2]], RANK_WORD[tok]))
            i += 3
            continue
        if tok in RANK_WORD and nxt in SUIT_WORD:
            out.append(card_type(SUIT_WORD[nxt], RANK_WORD[tok]))
            i += 2
            continue
        raise InputError(_unknown_card(raw, tokens, i))
    return out


_RANKS_HINT = "ranks: Ass/A, Zehn/10, König/K, Ober/O, Unter/U, Sieben/7"


def _unknown_card(raw: list[str], tokens: list[str], i: int) -> str:
    """The message for the card at token ``i``: names the word that is wrong, not its neighbour."""
    tok, nxt = tokens[i], tokens[i + 1] if i + 1 < len(tokens) else None
    if tok in SUIT_WORD:
        if nxt is None:
            return f"{raw[i]!r} needs a rank after it ({_RANKS_HINT})"
        return f"unknown rank {raw[i + 1]!r} after {raw[i]!r} ({_RANKS_HINT})"
    if tok in RANK_WORD and nxt is not None and nxt != "of":
        return f"unknown suit {raw[i + 1]!r} after {raw[i]!r} (suits: Eichel/E, Grün/G, Herz/H, Schellen/S)"
    return f"unknown card {raw[i]!r} (write e.g. GO, S10, E7 or 'Grün Ober')"


def to_cards(value: "str | Iterable[str] | Iterable[int] | Hand") -> list[int]:
    """Card types from text, a list of card texts, a list of card types (checked) or a :class:`Hand`.

    >>> to_cards("EA GO"), to_cards(["EA", "GO"]), to_cards([0, 9]), to_cards(Hand.parse("GO EA"))
    ([0, 9], [0, 9], [0, 9], [0, 9])
    """
    if isinstance(value, str):
        return parse_cards(value)
    if isinstance(value, Hand):
        return cards_of(value.counts)
    items = list(value)
    ints = [int(c) for c in items if isinstance(c, (int, np.integer)) and not isinstance(c, bool)]
    if len(ints) == len(items):
        bad = [c for c in ints if not 0 <= c < N_TYPES]
        if bad:
            raise InputError(f"card type {bad[0]} out of range 0..{N_TYPES - 1}")
        return ints
    texts = [c for c in items if isinstance(c, str)]
    if len(texts) != len(items):
        raise InputError(f"expected card text like 'EA', got {items!r}")
    return parse_cards(" ".join(texts))


def parse_card(text: str) -> int:
    """Parse exactly one card."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise InputError(f"expected one card, got {text!r}")
    return cards[0]


def format_card(card: int) -> str:
    """Canonical text of one card type: ``format_card(9) == 'GO'``."""
    return CARD_TEXT[card]


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text of several cards separated by spaces."""
    return " ".join(CARD_TEXT[c] for c in cards)


def counts_of(cards: Iterable[int], *, check: bool = True) -> np.ndarray:
    """Count vector (``uint8[24]``) of a list of card types.

    Counted in Python integers (never in the one-byte vector, which would wrap at 256); with ``check``,
    raises :class:`InputError` for more cards than the largest deck holds, then for a card held more than
    twice.

    >>> counts_of([0, 0, 9]).tolist()[:10]
    [2, 0, 0, 0, 0, 0, 0, 0, 0, 1]
    >>> counts_of([0] * 258)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: 258 cards given; the largest deck has 48
    """
    cards = list(cards)
    if check and len(cards) > MAX_DECK:
        raise InputError(f"{len(cards)} cards given; the largest deck has {MAX_DECK}")
    tally = [0] * N_TYPES
    for c in cards:
        tally[c] += 1
    if max(tally) > 255:  # an internal caller past the checks: refuse rather than wrap
        raise InputError(f"{len(cards)} cards given; the largest deck has {MAX_DECK}")
    if check and max(tally) > COPIES:
        c = next(t for t in range(N_TYPES) if tally[t] > COPIES)
        raise InputError(f"card {CARD_TEXT[c]} appears {tally[c]} times (at most twice)")
    return np.array(tally, dtype=np.uint8)


def cards_of(counts: np.ndarray) -> list[int]:
    """Sorted card types of a count vector."""
    return [c for c in range(N_TYPES) for _ in range(int(counts[c]))]


def deck_types(sevens: bool) -> np.ndarray:
    """The deck as a sorted array of card types with each type twice (40 or 48 cards)."""
    ranks = N_RANKS if sevens else N_RANKS - 1
    return np.array([card_type(s, r) for s in range(N_SUITS) for r in range(ranks) for _ in range(COPIES)],
                    dtype=np.int8)


#: The deck as counts per card type (int64[24], read-only), indexed by whether it has sevens:
#: ``DECK_COUNTS[rules.layout.sevens]`` (40 or 48 cards).
DECK_COUNTS = tuple(np.bincount(deck_types(sevens), minlength=N_TYPES).astype(np.int64) for sevens in (False, True))
for _deck in DECK_COUNTS:
    _deck.setflags(write=False)


NO_TRUMP_WORDS = ("none", "no", "-", "null", "no trump", "notrump")


def parse_suit(text: str) -> int:
    """Parse a suit letter or name (``G``, ``grün``, ``leaves``, ``green``)."""
    t = _fold(text.strip())
    if len(t) == 1 and t.upper() in SUITS:
        return SUITS.index(t.upper())
    if t in SUIT_WORD:
        return SUIT_WORD[t]
    raise InputError(f"unknown trump {text!r} (use a suit letter E, G, H, S or a name such as Eichel, Grün, "
                     "leaves, hearts)")


def parse_trump(text: str, allow_none: bool = True) -> int | None:
    """The one trump parser of every command: a suit letter or German / English name, or
    ``none`` (no trump: Durch, Bettel) where ``allow_none``.

    >>> parse_trump("green"), parse_trump("Herz"), parse_trump("S"), parse_trump("none")
    (1, 2, 3, None)
    """
    if _fold(str(text).strip()) in NO_TRUMP_WORDS:
        if not allow_none:
            raise InputError(f"trump {text!r}: this needs a trump suit (E, G, H, S)")
        return None
    try:
        return parse_suit(str(text))
    except InputError:
        pass
    raise InputError(f"unknown trump {text!r} (use a suit letter E, G, H, S, a name such as Eichel, Grün, leaves, "
                     "hearts" + (", or none" if allow_none else "") + ")")


class Hand:
    """A multiset of cards: a friendly view over a ``uint8[24]`` count vector.

    >>> h = Hand.parse("GO SU GO")
    >>> str(h), len(h), h.points
    ('GO GO SU', 3, 8)
    """

    __slots__ = ("counts",)

    def __init__(self, counts: np.ndarray):
        a = np.asarray(counts)
        if a.dtype != np.uint8 and (a.shape != (N_TYPES,) or a.dtype.kind not in "iu" or a.min() < 0 or a.max() > 255):
            # a cast would wrap 256 copies to none: refuse what is not a count vector
            raise InputError(f"a hand's counts: expected {N_TYPES} whole numbers 0..255, got {shown(a.tolist(), 80)}")
        self.counts = a.astype(np.uint8)

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> "Hand":
        return cls(counts_of(parse_cards(text)))

    @classmethod
    def from_cards(cls, cards: Iterable[int]) -> "Hand":
        return cls(counts_of(cards))

    @property
    def cards(self) -> list[int]:
        return cards_of(self.counts)

    @property
    def points(self) -> int:
        return int(self.counts.astype(np.int64) @ CARD_POINTS)

    def __len__(self) -> int:
        return int(self.counts.sum())

    def __str__(self) -> str:
        return format_cards(self.cards)

    def __repr__(self) -> str:
        return f"Hand({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Hand) and bool((self.counts == other.counts).all())

    def __hash__(self) -> int:
        return hash(self.counts.tobytes())

    def __add__(self, other: "Hand") -> "Hand":
        return Hand(self.counts + other.counts)

    def to_list(self) -> list[str]:
        return [CARD_TEXT[c] for c in self.cards]
