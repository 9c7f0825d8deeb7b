"""Game simulation: auction, double-dummy play-out, game end rules, whole games and the CLI."""

from __future__ import annotations

import json
import random

import numpy as np
import pandas as pd
import pytest

import solver_reference as ref
from binokel_sim.cards import CARD_POINTS, N_TYPES
from binokel_sim.errors import InputError
from binokel_sim.game.simulate import _claim, _Outcome, _winner, simulate_game
from binokel_sim.game.auction import auction, floor_to_step
from binokel_sim.game.cardplay import play_line
from binokel_sim.simulation import simulate_games
from binokel_sim.rules import load_rules
from binokel_sim.evaluation.going_out import goes_out
from binokel_sim.runner import Scale
from binokel_sim.play.solver import Position, Solver
from clitools import assert_one_line_error, run_cli

STD = load_rules("standard")
FOUR = load_rules("four-solo")


@pytest.mark.parametrize("ceilings,expected", [
    ([150, 230, 200], (1, 200)),  # M outbids F at 160; R bids 170..190, M answers up to 200
    ([0, 0, 0], (0, 150)),        # nobody bids: forehand's opening stands
    ([400, 0, 0], (0, 150)),      # a strong forehand pays only its opening bid
    ([0, 0, 300], (2, 160)),      # R needs one step over the opening
    ([300, 300, 0], (1, 300)),    # F answers 170, 190, ..., 290; M's 300 ends it
    ([310, 300, 0], (0, 310)),
    ([240, 150, 255], (2, 240)),  # F keeps 150 against M; R bids 160, 180, ..., 240, F cannot answer 250
])
def test_auction_hand_checked(ceilings, expected):
    assert auction(ceilings, STD) == expected


def test_auction_four_seats_and_bad_input():
    assert auction([0, 180, 0, 200], FOUR) == (3, 190)
    assert auction([0, 180, 185, 0], FOUR) == (1, 180)  # seat 2 bids 170; 190 is above its ceiling
    with pytest.raises(InputError, match="expected 3 ceilings"):
        auction([150, 150], STD)
    assert floor_to_step(237.5, STD) == 230 and floor_to_step(150, STD) == 150 and floor_to_step(149.9, STD) == 0


def _random_position(rng: random.Random, seats: int, size: int, trump) -> Position:
    deck = [c for c in range(N_TYPES) if c % 6 != 5] * 2
    rng.shuffle(deck)
    hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(seats)]
    return Position.parse([list(h) for h in hands], trump=trump, leader=rng.randrange(seats), solo=0,
                          teams=[[0, 2], [1, 3]] if seats == 4 else None,
                          bonus=[rng.choice([0, 20, 40])] + [0] * (seats - 1))


@pytest.mark.parametrize("seats,size,trump", [(3, 3, 0), (3, 4, None), (3, 4, 2), (4, 3, 1)])
def test_play_line_realises_the_minimax_value(seats, size, trump):
    rng = random.Random(seats * 100 + size)
    solver = Solver(table_bits=12)
    for _ in range(4):
        pos = _random_position(rng, seats, size, trump)
        hands = tuple(tuple(c for c in range(N_TYPES) for _ in range(int(h[c]))) for h in pos.hands)
        want = ref.minimax(hands, (), pos.leader, pos.trump, set(pos.side), last=10, bonus=pos.bonus)
        line = play_line(pos, solver)
        assert line.side_value == want
        # The side's points on the line (its meld bonus once it holds a trick) equal the value.
        side_pts = sum(line.seat_points[s] + (pos.bonus[s] if line.seat_tricks[s] else 0) for s in pos.side)
        assert side_pts == want
        all_pts = sum(int(CARD_POINTS[c]) * int(h[c]) for h in pos.hands for c in range(N_TYPES)) + 10
        assert sum(line.seat_points) == sum(line.trick_points) == all_pts
        assert sum(line.seat_tricks) == size and len(line.trick_winners) == size


def test_game_end_rules():
    r = STD  # target 1500
    assert _winner(r, np.array([1400, 900, 1000]), 0) == -1
    assert _winner(r, np.array([1500, 1600, 1000]), 0) == 0   # the soloist wins a tie at the target
    assert _winner(r, np.array([1500, 1600, 1000]), 2) == 1   # else the higher score
    assert _winner(r, np.array([1600, 1600, 1000]), 2) == -1  # else a deciding deal
    k = load_rules("kreuz")
    assert _winner(k, np.array([1600, 1500, 1600, 1500]), 1) == 1  # the soloist's team
    assert _winner(k, np.array([1600, 1500, 1600, 1500]), 3) == 3


def test_aus_claims_at_once():
    w = load_rules("wuerttemberg")  # target 1000, aus
    run = [(1, np.array([0, 30, 0])), (0, np.array([40, 30, 0])), (0, np.array([200, 30, 0]))]
    o = _Outcome(soloist_seat=0, bid=180, contract="trump", trump=0, made=True, scores=np.zeros(3), running=run)
    seat_player = [2, 0, 1]
    # Player 0 (seat 1) passes 1000 with its first trick; the soloist would only later.
    assert _claim(w, o, seat_player, np.array([980, 900, 800])) == 0
    # The soloist's running total must also cover the bid: 40 < 180 does not claim, 200 does.
    assert _claim(w, o, seat_player, np.array([0, 0, 960])) == 2
    assert _claim(STD, o, seat_player, np.array([980, 900, 800])) == -1  # no Aus in the standard rules


@pytest.fixture(scope="module")
def short_kreuz(tmp_path_factory):
    p = tmp_path_factory.mktemp("rules") / "kreuz-short.toml"
    p.write_text('inherits = "kreuz"\nname = "kreuz-short"\n[game]\ntarget = 500\n')
    return str(p)


def test_games_are_consistent_and_reproducible(short_kreuz):
    r = load_rules(short_kreuz)
    a = simulate_games(r, games=3, seed=4, scale=Scale(workers=1))
    b = simulate_games(r, games=3, seed=4, scale=Scale(workers=2))
    pd.testing.assert_frame_equal(a.deals, b.deals)
    pd.testing.assert_frame_equal(a.games, b.games)
    pd.testing.assert_frame_equal(a.summary, b.summary)
    one = simulate_game(r, 4, 2)
    pd.testing.assert_frame_equal(pd.DataFrame([d.row() for d in one.records]),
                                  a.deals[a.deals["game"] == 2].reset_index(drop=True), check_dtype=False)
    d = a.deals
    for g, part in d.groupby("game"):
        for p in range(4):
            assert (part[f"score_p{p}"].cumsum() == part[f"total_p{p}"]).all()
        # Partners score alike; the winner's team holds the target, and only after the last deal.
        assert (part["score_p0"] == part["score_p2"]).all() and (part["score_p1"] == part["score_p3"]).all()
        last = part.iloc[-1]
        game = a.games.set_index("game").loc[g]
        assert game["deals"] == len(part) and last[f"total_p{game['winner']}"] >= 500
        assert all(max(row[f"total_p{p}"] for p in range(4)) < 500 for _, row in part.iloc[:-1].iterrows())
        assert ((part["deal"] % 4 + part["soloist_seat"]) % 4 == part["soloist"]).all()
    # Going out follows the bid ladder's rule on the soloist's own estimate after the Tapp.
    tr = d[d["contract"].isin(["trump", "surrender"])]
    rule = goes_out(tr["soloist_estimate"].to_numpy()[:, None], np.ones((len(tr), 1), bool), tr["bid"].to_numpy(), r)
    assert ((tr["contract"] == "surrender").to_numpy() == rule.diagonal()).all()
    assert (tr.loc[tr["contract"] == "trump", "made_if_played"] == tr.loc[tr["contract"] == "trump", "made"]).all()
    s = a.summary.set_index("figure")
    assert s.loc["deals per game", "n"] == 3 and s.loc["deals per game", "value"] == a.games["deals"].mean()
    assert s.loc["win rate team 0 (players 0, 2)", "value"] + s.loc["win rate team 1 (players 1, 3)", "value"] == 1


def test_simulate_games_cli_resumes_from_checkpoint(short_kreuz, tmp_path, capsys):
    args = ["simulate", "games", "--rules", short_kreuz, "--games", "3", "--seed", "4", "--quiet"]
    code, out, err = run_cli(capsys, *args, "--deals-out", str(tmp_path / "a.csv"), "--workers", "2")
    assert code == 0, err
    ck = tmp_path / "ck"
    code, _, err = run_cli(capsys, *args, "--deals-out", str(tmp_path / "b.parquet"), "--checkpoint", str(ck),
                           "--charts", str(tmp_path), "--chart-format", "svg", "--games-out", str(tmp_path / "g.json"))
    assert code == 0, err
    # Drop the second chunk as if the run had been killed before it finished; resume.
    (chunk_dir,) = [p for p in ck.iterdir() if p.is_dir()]
    (last,) = [p for p in chunk_dir.glob("000001-*.ckpt")]
    last.unlink()
    code, out2, err = run_cli(capsys, *args, "--deals-out", str(tmp_path / "c.json"), "--checkpoint", str(ck),
                              "--json")
    assert code == 0, err
    a = pd.read_csv(tmp_path / "a.csv", comment="#")
    assert a.equals(pd.read_parquet(tmp_path / "b.parquet").astype(a.dtypes.to_dict()))
    assert a.equals(pd.DataFrame(json.loads((tmp_path / "c.json").read_text())["rows"]).astype(a.dtypes.to_dict()))
    assert (tmp_path / "games.svg").read_text().lstrip().startswith("<?xml")
    assert len(json.loads((tmp_path / "g.json").read_text())["rows"]) == 3
    summary = json.loads(out2)
    assert summary["provenance"]["seed"] == 4 and summary["provenance"]["games"] == 3
    assert "deals per game" in out


def test_simulate_games_cli_errors(capsys, tmp_path):
    assert_one_line_error(capsys, "simulate", "games", "--games", "0", contains="--games")
    assert_one_line_error(capsys, "simulate", "games", "--out", "x.txt", contains="x.txt")
    (tmp_path / "f").write_text("")
    assert_one_line_error(capsys, "simulate", "games", "--charts", str(tmp_path / "f"), contains="is a file")
    assert_one_line_error(capsys, "simulate", "games", "--scheduler", "localhost", contains="--scheduler")
    assert_one_line_error(capsys, "simulate", "games", "--rules", "nope", contains="nope")


def test_game_books_score_deal_as_is_at_kreuz(monkeypatch):
    from binokel_sim.game import simulate as game
    from binokel_sim.scoring import PlayedDeal, score_deal

    k = load_rules("kreuz")
    # Every deal: seat 1 goes out at 150, melds 80 / 0 at seats 0 / 2 -> [50 + 80 + 50, -150, same, same].
    deal = PlayedDeal(1, 150, "surrender", [0] * 4, [0] * 4, [80, 40, 0, 20])
    out = _Outcome(soloist_seat=1, bid=150, contract="surrender", trump=0, made=False,
                   scores=score_deal(k, deal), running=[])
    monkeypatch.setattr(game, "play_deal", lambda rules, row, solver, budget_nodes=None, *, play: out)
    rec = game.simulate_game(k, seed=1, game=0, solver=object(), max_deals=2)
    # Deal 0: player p sits at seat p. Deal 1: player p at seat p - 1, so the teams swap roles.
    assert [d.scores for d in rec.records] == [[180, -150, 180, -150], [-150, 180, -150, 180]]
    assert rec.totals == [30, 30, 30, 30] and rec.winner == -1


def test_ceiling_uses_the_fitted_formula_when_committed(monkeypatch):
    from binokel_sim.game import simulate as game
    from binokel_sim.cards import Hand
    from binokel_sim.evaluation.formula import Formula

    h = Hand.parse("EA EA E10 EK EO EU GA G10 HA H10 SA S10").counts
    key = (STD.name, STD.meld_array().tobytes())
    monkeypatch.setitem(game._FORMULAS, key, None)
    # Fallback: melds at the best trump + the play estimate, floored to a legal bid (the hand melds 250 at E).
    assert game.ceiling_name(STD) == "melds+play-estimate"
    assert game.ceiling(h, STD) % 10 == 0 and game.ceiling(h, STD) >= 250
    f = Formula(rules="standard", intercept=100.0, coef={"melds": 1.0, "aces": 10.0}, sd=50.0)
    monkeypatch.setitem(game._FORMULAS, key, f)
    assert game.ceiling_name(STD) == "hand-formula"
    assert game.ceiling(h, STD) == f.advise(h, STD).ceiling_bid
