"""``binokel card``: a seat's view entered as at the table equals the engine's own view, the advice is the study
player's choice, the exact values agree with the proven ranges, and bad input is one line."""

from __future__ import annotations

import numpy as np
import pytest
from clitools import assert_one_line_error, run_json

from binokel_sim.cards import cards_of, counts_of, format_cards
from binokel_sim.dealing.dealer import Dealer
from binokel_sim.errors import InputError
from binokel_sim.play.advice import advise, table_view
from binokel_sim.play.knowledge import PlayState, shown_counts, trumps_of
from binokel_sim.play.playout import RuleBased
from binokel_sim.play.single_dummy import SingleDummy
from binokel_sim.play.worlds import sample, world_key
from binokel_sim.rules import load_rules

R = load_rules("standard")
HAND = "EA EA E10 EK EO GA G10 HA H10 SA S10 SK"
TAPP = "EU GK HO SU"


def _deal(seed: int, trump: int = 0, rules=R) -> PlayState:
    """A seeded deal, soloist 0 keeping the Tapp and laying away his cheapest plain cards."""
    d = Dealer(rules, seed=seed).deal_object(0)
    hands = [h.counts.copy() for h in d.hands]
    full = hands[0] + d.tapp.counts
    plain = sorted((c for c in cards_of(full) if c // 6 != trump), key=lambda c: (c % 6 < 2, -(c % 6)))
    pile = counts_of(plain[:rules.layout.tapp_size])
    hands[0] = full - pile
    return PlayState.start(rules, hands, pile=pile, tapp=d.tapp.counts, trump=trump, soloist=0)


def _entered(st: PlayState, seat: int, rules=R):
    """The view of ``seat`` entered as a player would type it: a defender gives the announced trumps of the
    discards where the rules announce them."""
    melds = " / ".join(format_cards(cards_of(st.shown[s])) or "-" for s in range(st.seats))
    discards = format_cards(cards_of(st.pile)) if seat == st.soloist else \
        (format_cards(cards_of(trumps_of(st.pile, st.trump))) or "-") if rules.discard.trumps_shown else None
    return table_view(rules, format_cards(cards_of(st.hands[seat])), seat, st.soloist, "EGHS"[st.trump],
                      played=format_cards(st.cards), tapp=format_cards(cards_of(st.tapp)), melds=melds,
                      discards=discards)


@pytest.mark.parametrize("preset,seed", [("standard", 3), ("standard", 7), ("standard", 11), ("kreuz", 4),
                                         ("four-solo", 5), ("dabb-four", 6), ("dabb", 8), ("standard-48", 9)])
def test_the_entered_view_is_the_engines_view_at_every_card(preset, seed):
    # Partnerships (kreuz; dabb-four, where a partner holding the trick frees the follower) and the dabb rule
    # that a trumped trick's led suit must still be beaten change what a card reveals: the same either way.
    rules = load_rules(preset)
    st, rb = _deal(seed, trump=seed % 4, rules=rules), RuleBased()
    while not st.done:
        seat = st.to_move
        mine, theirs = _entered(st, seat, rules), st.view(seat)
        for f in ("hand", "played", "shown", "tapp", "deck", "table"):
            assert np.array_equal(getattr(mine, f), getattr(theirs, f)), (f, len(st.cards))
        assert (mine.pile is None) == (theirs.pile is None)
        if mine.pile is not None:
            assert np.array_equal(mine.pile, theirs.pile)
        assert (mine.pile_trumps is None) == (theirs.pile_trumps is None) == (seat == st.soloist
                                                                             or not rules.discard.trumps_shown)
        if mine.pile_trumps is not None:
            assert np.array_equal(mine.pile_trumps, theirs.pile_trumps)
        for f in ("forbidden", "held", "leader", "trick", "won", "melds", "decision", "rule", "side", "pile_size"):
            assert getattr(mine, f) == getattr(theirs, f), (f, len(st.cards))
        st = st.play(rb.choose(st))


def test_shown_cards_are_their_own_melds():
    # The melds check takes a seat's laid-out cards as valid when they are exactly the cards of their melds:
    # true of every hand's shown cards (10 000 random hands at every trump).
    table = R.meld_array()
    rng = np.random.default_rng(5)
    deck = np.repeat(np.arange(24), 2)
    for _ in range(10_000):
        h = counts_of(rng.permutation(deck)[:12])
        for t in range(4):
            s = shown_counts(h, t, table)
            assert np.array_equal(shown_counts(s, t, table), s)


def test_the_advice_is_the_study_players_choice_and_exact_values_lie_in_its_ranges():
    st, rb = _deal(7), RuleBased()
    checked = 0
    while not st.done:
        v = st.view(st.to_move)
        if len(st.cards) >= 18 and len(v.legal()) > 1:
            k = _entered(st, st.to_move)
            a = advise(R, k, worlds=8, seed=2)
            w = sample(v, 8, world_key(2, 0)).hands
            d = SingleDummy(R, worlds=8, seed=2).decide_in(v, w)
            assert (a.card, a.lo, a.hi) == (d.card, d.lo, d.hi)
            e = advise(R, k, worlds=8, seed=2, exact=True)
            assert e.cards == a.cards and e.lo == e.hi
            for lo, hi, m in zip(a.lo, a.hi, e.lo):
                assert lo - 1e-9 <= m <= hi + 1e-9
            i = e.cards.index(e.card)
            assert e.diff[i] == 0 and all((x <= 0) if e.soloist_side else (x >= 0) for x in e.diff)
            # The default's card is proven within half a point of the mean of the best.
            j = e.cards.index(a.card)
            assert abs(e.lo[j] - e.lo[i]) <= 0.5 + 1e-9
            checked += 1
        st = st.play(rb.choose(st))
    assert checked >= 3


def test_card_command_prints_and_writes_json(capsys):
    j = run_json(capsys, "card", HAND, "--seat", "0", "--soloist", "0", "--trump", "E", "--tapp", TAPP,
                 "--discards", TAPP, "--played", "EA EK EU", "--worlds", "3", "--exact")
    assert (j["trick"], j["card_of_trick"], j["unseen_cards"], j["worlds"]) == (2, 1, 22, 3)
    assert j["cards"][0]["play"] and j["cards"][0]["card"] == j["play"]
    assert len(j["cards"]) == 11 and all(c["se"] is not None for c in j["cards"])


DEFENDER = "EU GA GK GO HA HK HO HU SA S10 SK SO"


@pytest.mark.parametrize("hand,args,message", [
    (HAND, ["--trump", "X"], "unknown trump"),
    (HAND, ["--trump", "none"], "suit contracts"),
    (HAND, ["--seat", "3"], "seat: expected 0..2"),
    (HAND, ["--tapp", "EU GK HO"], "Tapp: 3 cards"),
    (HAND[:-3], [], "hand: 11 cards"),
    (DEFENDER, ["--seat", "1", "--tapp", "EO GU H10 SU", "--discards", "EO GU H10 SU"],
     "--discards: only the soloist knows them"),
    (DEFENDER, ["--seat", "1", "--tapp", "EO GU H10 SU"], "seat 0 is to play, not seat 1"),
    (HAND, ["--discards", ""], "--discards: the soloist's 4 discards"),
    (HAND, ["--played", "SK SA SO GK GU HA"], "card 6 (HA) is yours, and it was not a legal card then"),
    (HAND, ["--played", "HK"], "card 1 (HK) is yours, and it is not in your hand"),
    (HAND, ["--played", "EA"], "seat 1 is to play, not seat 0"),
    (HAND, ["--played", "EA EU EU"], "card EU: your hand, your discards and the cards played hold it 3 times"),
    (DEFENDER, ["--seat", "1", "--tapp", "GA GU H10 SU", "--played", "SK SA GA"],
     "card GA: your hand, the Tapp and the cards played hold it 3 times"),
    (HAND, ["--melds", "- / EA / -"], "melds of seat 1"),
    (HAND, ["--melds", "- / -"], "expected 3 groups"),
    (HAND, ["--played", "EA EK EQ"], "EQ"),
    (HAND, ["--worlds", "0"], "--worlds"),
])
def test_bad_input_is_one_line(capsys, hand, args, message):
    opts = {"--seat": "0", "--soloist": "0", "--trump": "E", "--tapp": TAPP, "--discards": TAPP}
    if "--seat" in args and "--discards" not in args:
        del opts["--discards"]  # a defender's view: he never saw them
    opts.update(zip(args[::2], args[1::2]))
    assert_one_line_error(capsys, "card", hand, *[x for kv in opts.items() for x in kv], contains=message)


DABB_HAND = "EA EK EO EU E10 GA GK GO HA HK SA SK"  # dabb: seat 1 defends against seat 0's Eichel game


@pytest.mark.parametrize("discards,message", [
    (None, "--discards: the trumps the soloist laid away (preset 'dabb' announces them to every seat), '-' for none"),
    ("GU", "discards: GU is not a trump; a defender knows only the trumps laid away (trump E)"),
    ("EO EO EU EU E10", "discards: 5 trumps, but the soloist lays away 4 cards"),
])
def test_a_dabb_defender_gives_the_announced_trumps(capsys, discards, message):
    args = ["--rules", "dabb", "--seat", "1", "--soloist", "0", "--trump", "E", "--tapp", "GU H10 SU SO",
            "--played", "HA"]
    assert_one_line_error(capsys, "card", DABB_HAND, *args, *(["--discards", discards] if discards else []),
                          contains=message)


def test_the_announced_trumps_are_the_defenders_knowledge():
    r = load_rules("dabb")
    none = table_view(r, DABB_HAND, 1, 0, "E", tapp="GU H10 SU SO", discards="-", played="SO")
    one = table_view(r, DABB_HAND, 1, 0, "E", tapp="GU H10 SU SO", discards="EU", played="SO")
    assert none.pile is None and int(none.pile_trumps.sum()) == 0
    assert format_cards(cards_of(one.pile_trumps)) == "EU"
    assert int(none.unseen().sum()) - int(one.unseen().sum()) == 1 and one.unseen()[4] == none.unseen()[4] - 1
    # A world drawn for this seat puts the announced EU in the pile and nowhere else.
    w = sample(one, 50, world_key(2, 0))
    assert all(int(w.pile[i][4]) == 1 for i in range(50))


def test_a_history_no_deal_fits_is_one_line(capsys):
    # Seat 1 laid out the trump pair, then did not follow the trump lead: it holds no trump, yet must hold EK EO.
    with pytest.raises(InputError, match="no deal of the cards you cannot see fits"):
        advise(R, table_view(R, HAND, 0, 0, "E", tapp=TAPP, discards=TAPP, played="EA HK HU",
                             melds="- / EK EO / -"), worlds=2)
    assert_one_line_error(capsys, "card", "EU GA GK GO HA HK HO HU SA S10 SK SO", "--rules", "two-hand", "--seat",
                          "1", "--soloist", "0", "--trump", "E", contains="two-hand")


def test_card_command_text_names_the_card_and_the_caveat(capsys):
    from clitools import run_cli

    code, out, _ = run_cli(capsys, "card", HAND, "--seat", "0", "--soloist", "0", "--trump", "E", "--tapp", TAPP,
                           "--discards", TAPP, "--played", "EA EK EU", "--worlds", "3")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("# seat 0 to play card 1 of trick 2; soloist seat 0, trump E")
    assert "higher is better" in lines[1] and lines[2].endswith("<- play") and "strategy fusion" in lines[-1]
    assert sum(line.endswith("<- play") for line in lines) == 1 and len(lines) == 2 + 11 + 2


def test_one_legal_card_is_said_and_nothing_is_solved(capsys):
    from clitools import run_cli

    code, out, _ = run_cli(capsys, "card", DEFENDER, "--seat", "1", "--soloist", "0", "--trump", "E", "--tapp",
                           "EO GU H10 SU", "--played", "EA", "--exact")
    assert code == 0 and out.splitlines()[-1] == "play EU: your only legal card"  # the one trump, to follow


def test_progress_counts_the_work_and_changes_nothing(capsys):
    v = table_view(R, HAND, 0, 0, "E", tapp=TAPP, discards=TAPP, played="EA EK EU")
    for exact in (False, True):
        quiet, shown = advise(R, v, worlds=3, exact=exact), advise(R, v, worlds=3, exact=exact, progress=True)
        assert (quiet.card, quiet.lo, quiet.hi) == (shown.card, shown.lo, shown.hi)
        assert ("sampled deals solved" if exact else "zero-window tests") in capsys.readouterr().err
