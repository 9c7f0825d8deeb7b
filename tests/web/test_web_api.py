"""The JSON API of ``binokel serve``: the Python API's answers, and one line with a 422 for every bad input."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from binokel_sim.dealing.hand_input import read_hand
from binokel_sim.errors import InputError
from binokel_sim.game.bid_answer import instant_bid
from binokel_sim.output import finite
from binokel_sim.web import create_app

HAND = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(max_samples=500, leave_after=3.0)) as c:
        yield c


def words_of(fn) -> str:
    """The one line the Python API raises for the same input."""
    with pytest.raises(InputError) as e:
        fn()
    return str(e.value)


def test_presets_carry_each_deck(client):
    ps = {p["name"]: p for p in client.get("/api/presets").json()}
    assert sum(c["copies"] for c in ps["standard"]["cards"]) == 40
    assert sum(c["copies"] for c in ps["wuerttemberg"]["cards"]) == 48
    assert (ps["wuerttemberg"]["hand_size"], ps["wuerttemberg"]["tapp_size"]) == (15, 3)
    assert ps["two-hand"]["auction"] is False


def test_melds_by_hand(client):
    a = client.post("/api/melds", json={"rules": "standard", "hand": HAND}).json()
    # Trump Eichel: trump family 150 + four Aces 100; another trump: the family counts 100.
    assert a["best"]["total"] == 250 and a["best"]["trump"] == "E"
    assert {s: r["total"] for s, r in a["by_trump"].items()} == {"E": 250, "G": 200, "H": 200, "S": 200}


def test_bid_is_the_python_api_answer(client):
    a = client.post("/api/bid", json={"rules": "standard", "hand": HAND}).json()
    b = finite(instant_bid(HAND, "standard").to_json())
    assert a == b
    assert a["ceiling_bid"] >= a["safe_bid"] and a["versus_pass"]["bid_up_to"] is not None
    assert all(r["p_make_lo"] <= r["p_make"] <= r["p_make_hi"] for r in a["bids"])


def test_bid_margin_objective(client):
    a = client.post("/api/bid", json={"hand": HAND, "objective": "margin"}).json()
    assert a["versus_pass"]["objective"] == "margin" and "expected_margin" in a["bids"][0]


@pytest.mark.parametrize("body, words", [
    ({"hand": "EA EA EA E10 EK EO EU GA G10 HA H10 SA"}, lambda: read_hand("EA EA EA E10 EK EO EU GA G10 HA H10 SA",
                                                                               "standard", 12)),
    ({"hand": "EA EA E10"}, lambda: read_hand("EA EA E10", "standard", 12)),
    ({"hand": "EA EA E10 EK EO EU GA G10 HA H10 SA XY"}, lambda: read_hand("EA EA E10 EK EO EU GA G10 HA H10 SA XY",
                                                                           "standard", 12)),
    ({"hand": "EA EA E10 EK EO EU GA G10 HA H10 SA S7"}, lambda: read_hand("EA EA E10 EK EO EU GA G10 HA H10 SA S7",
                                                                           "standard", 12)),
])
def test_bad_hands_are_422_with_the_api_words(client, body, words):
    for path in ("/api/melds", "/api/bid", "/api/tapp", "/api/jobs"):
        r = client.post(path, json=body)
        assert r.status_code == 422, path
        assert r.json()["detail"] == words_of(words), path


@pytest.mark.parametrize("body, start", [
    ({"rules": "nope", "hand": HAND}, "rules: unknown preset 'nope' (known: calling,"),
    ({"rules": "data/rules/standard.toml", "hand": HAND}, "rules: unknown preset 'data/rules/standard.toml'"),
    ({"rules": "/etc/passwd", "hand": HAND}, "rules: unknown preset '/etc/passwd'"),
    ({"hand": HAND, "seat": 3}, "seat: expected 0..2 for preset 'standard', got 3"),
    ({"hand": HAND, "seat": "x"}, "seat: Input should be a valid integer"),
    ({"hand": HAND, "confidence": 1.5}, "confidence: must be between 0 and 1 (exclusive), got 1.5"),
    ({"hand": HAND, "objective": "win"}, "objective: Input should be 'own' or 'margin'"),
    ({"rules": "two-hand", "hand": HAND}, "bid evaluation: rules 'two-hand'"),
    ({}, "hand: Field required"),
])
def test_bad_questions_are_one_line(client, body, start):
    r = client.post("/api/bid", json=body)
    assert r.status_code == 422
    detail = r.json()["detail"]
    assert detail.startswith(start) and "\n" not in detail and "Traceback" not in detail


def test_not_json_is_one_line(client):
    r = client.post("/api/bid", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "\n" not in r.json()["detail"]


def test_cards_read_as_the_engine_reads_them(client):
    a = client.post("/api/cards", json={"cards": "Grün Ober, SU, ace of acorns, SU", "ordered": True}).json()
    assert a["cards"] == ["GO", "SU", "EA", "SU"]
    assert client.post("/api/cards", json={"cards": "SU GO EA"}).json()["cards"] == ["EA", "GO", "SU"]
    r = client.post("/api/cards", json={"cards": "GO SU", "what": "Tapp", "size": 4})
    assert r.status_code == 422 and r.json()["detail"] == words_of(lambda: read_hand("GO SU", "standard", 4, "Tapp"))
    r = client.post("/api/cards", json={"cards": "S7", "rules": "standard"})
    assert r.status_code == 422 and r.json()["detail"] == words_of(lambda: read_hand("S7", "standard", what="cards"))


def test_tapp_answer(client):
    a = client.post("/api/tapp", json={"hand": HAND, "tapp": "GK GO SU H10"}).json()
    assert a["odds"]["ways"] == 20475 and a["odds"]["exact"] is True
    assert a["exchange"]["trump"] == "E" and len(a["exchange"]["discard"].split()) == 4
    assert a["value"]["n"] == 200 and a["value"]["se"] > 0
    r = client.post("/api/tapp", json={"hand": HAND, "tapp": "EA GO SU H10"})
    assert r.status_code == 422 and r.json()["detail"] == "card EA is in hand and Tapp 3 times (at most twice)"
    r = client.post("/api/tapp", json={"hand": HAND, "tapp": "GO SU"})
    assert r.status_code == 422 and r.json()["detail"] == "Tapp: 2 cards, but a hand of preset 'standard' has 4"


def test_card_answer_and_its_bad_input(client):
    q = {"hand": "EA EA E10 EK EO GA G10 HA H10 SA S10 SK", "seat": 0, "soloist": 0, "trump": "E",
         "tapp": "EU GK HO SU", "discards": "EU GK HO SU", "played": "EA EK EU", "worlds": 8}
    a = client.post("/api/card", json=q).json()
    assert a["trick"] == 2 and a["card_of_trick"] == 1 and a["play"] in [c["card"] for c in a["cards"]]
    assert sum(c["play"] for c in a["cards"]) == 1
    r = client.post("/api/card", json={**q, "played": "EA EK EU EU"})
    assert r.status_code == 422 and "\n" not in r.json()["detail"]
    r = client.post("/api/card", json={**q, "worlds": 100000})
    assert r.status_code == 422 and r.json()["detail"].startswith("worlds: Input should be less than or equal to 200")


def test_openapi_lists_the_api(client):
    paths = client.get("/api/openapi.json").json()["paths"]
    for p in ("/api/melds", "/api/bid", "/api/tapp", "/api/card", "/api/compare", "/api/jobs", "/api/jobs/{job_id}"):
        assert p in paths


def test_pages_render_and_set_a_client_cookie(client):
    for page in ("hand", "tapp", "table", "rules"):
        r = client.get(f"/{page}?rules=wuerttemberg")
        assert r.status_code == 200 and 'data-rules="wuerttemberg"' in r.text
    assert client.get("/hand").cookies.get("binokel_client") or client.cookies.get("binokel_client")


def test_job_limits(client):
    r = client.post("/api/jobs", json={"hand": HAND, "samples": 501})
    assert r.status_code == 422 and r.json()["detail"] == "samples: at most 500 on this server, got 501"
    r = client.get("/api/jobs/nope")
    assert r.status_code == 422 and r.json()["detail"] == "job: no job 'nope' of yours on this server"


@pytest.mark.slow
def test_job_runs_to_the_checked_answer_and_one_per_client(client):
    j = client.post("/api/jobs", json={"hand": HAND, "samples": 12, "seed": 3}).json()
    second = client.post("/api/jobs", json={"hand": HAND, "samples": 12})
    assert second.status_code == 429 and j["id"] in second.json()["detail"]
    other = TestClient(client.app, cookies={"binokel_client": "someone-else"})
    busy = other.post("/api/jobs", json={"hand": HAND, "samples": 12})
    assert busy.status_code == 429 and "all are busy" in busy.json()["detail"]
    t0 = time.monotonic()
    while (s := client.get(f"/api/jobs/{j['id']}").json())["state"] not in ("done", "error"):
        assert time.monotonic() - t0 < 120
        time.sleep(0.2)
    assert s["state"] == "done", s["error"]
    r = s["result"]
    assert r["tier"] == "checked" and r["samples"] == 12 and r["seed"] == 3 and s["done"] == 12
    assert r["versus_pass"]["passing"]["n"] > 0


@pytest.mark.slow
def test_cancel_frees_the_worker_and_a_page_that_left_is_cancelled(client):
    j = client.post("/api/jobs", json={"hand": HAND, "samples": 500}).json()
    time.sleep(1.0)
    t0 = time.monotonic()
    s = client.delete(f"/api/jobs/{j['id']}").json()
    assert s["state"] == "cancelled" and s["freed_in"] < 2.0 and time.monotonic() - t0 < 2.0
    proc = client.app.state.jobs.jobs[j["id"]].process
    assert proc.poll() is not None  # the process is gone
    j = client.post("/api/jobs", json={"hand": HAND, "samples": 500}).json()
    time.sleep(5.0)  # no poll for longer than leave_after (3 s): the page is gone
    s = client.get(f"/api/jobs/{j['id']}").json()
    assert s["state"] == "cancelled" and "page was gone" in s["error"]
