"""``binokel serve`` in a real browser: Debian's chromium, headless, driven by Playwright.

The server runs in this process on a free port (uvicorn in a thread); the browser clicks cards, reads the
ladder, starts and cancels a checked job, asks the Table page for a card, compares presets and hits each
bad input, comparing what the page shows with what the API answers. With ``BINOKEL_SCREENSHOTS=DIR`` it
also writes a screenshot of each page there (``docs/img`` holds the committed ones).
"""

from __future__ import annotations

import os
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from binokel_sim.web import create_app

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
#: As root in a container, without the network: no sandbox, no GPU, no background connections.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
HAND = ["EA", "EA", "E10", "EK", "EO", "EU", "GA", "G10", "HA", "H10", "SA", "S10"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(max_samples=2000, leave_after=5.0), host="127.0.0.1", port=port,
                                        log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    base = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            httpx.get(f"{base}/api/presets", timeout=1.0)
            break
        except httpx.HTTPError:
            time.sleep(0.1)
    yield base
    srv.should_exit = True
    th.join(10)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed (apt-get install chromium; .ci/run installs it)"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, base_url=server)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def shot(pg, name: str) -> None:
    folder = os.environ.get("BINOKEL_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(Path(folder) / f"serve-{name}.png"), full_page=True)


def open_page(pg, path: str) -> None:
    pg.goto(path)
    pg.wait_for_selector("body[data-ready='1']", state="attached", timeout=15_000)


def click_hand(pg, cards: list[str], picker: str = "#picker") -> None:
    for c in cards:
        pg.locator(f"{picker} .deck button[data-card='{c}']:not([disabled])").first.click()


def api(server: str, path: str, body: dict) -> httpx.Response:
    return httpx.post(f"{server}{path}", json=body, timeout=60)


def test_hand_page_clicks_a_hand_and_reads_the_ladder(page, server):
    open_page(page, "/hand?rules=standard")
    click_hand(page, HAND)
    page.wait_for_selector("#ladder-table", state="attached", timeout=15_000)
    want = api(server, "/api/bid", {"rules": "standard", "hand": " ".join(HAND)}).json()
    assert page.text_content("#safe-bid") == str(want["safe_bid"])
    assert page.text_content("#ceiling-bid") == str(want["ceiling_bid"])
    assert page.text_content("#bid-up-to") == str(want["versus_pass"]["bid_up_to"])
    assert page.text_content("#meld-total") == "250" and page.text_content("#best-trump") == "Eichel"
    assert page.locator("#chart svg").count() == 1
    # The first answer (melds + instant ladder, the browser's own clock) on a warm server.
    assert int(page.eval_on_selector("body", "b => b.dataset.answeredMs")) < 1500
    # The hand holds 12: a 13th card is refused on the page.
    page.locator("#picker .deck button[data-card='GK']:not([disabled])").first.click()
    assert "holds 12 cards" in page.text_content("#error")
    shot(page, "hand")


def test_hand_page_starts_and_cancels_a_checked_job(page, server):
    open_page(page, "/hand?rules=standard")
    click_hand(page, HAND)
    page.wait_for_selector("#ladder-table", state="attached", timeout=15_000)
    page.fill("#samples", "2000")
    page.click("#check-start")
    page.wait_for_function("document.querySelector('#check-state').dataset.state === 'running'", timeout=30_000)
    # The page stays answerable while the job runs: the API answers within a second.
    t0 = time.monotonic()
    api(server, "/api/melds", {"rules": "standard", "hand": " ".join(HAND)})
    assert time.monotonic() - t0 < 1.0
    shot(page, "checked-running")
    page.click("#check-cancel")
    page.wait_for_function("document.querySelector('#check-state').dataset.state === 'cancelled'")
    freed = float(page.text_content("#check-state").split("freed in ")[1].split(" s")[0])
    assert freed < 2.0


def test_hand_page_shows_the_apis_words_for_bad_input(page, server):
    open_page(page, "/hand?rules=standard")
    for text in ("EA EA EA E10 EK EO EU GA G10 HA H10 SA", "EA EA E10", "EA EA E10 EK EO EU GA G10 HA H10 SA XY"):
        page.fill("#picker-text", text)
        page.click("#picker-use")
        page.wait_for_selector("#error:not([hidden])")
        words = api(server, "/api/melds", {"rules": "standard", "hand": text}).json()["detail"]
        assert page.text_content("#error") == words
    shot(page, "bad-input")
    page.goto("/hand?rules=nope")
    page.wait_for_selector("#error:not([hidden])")
    assert page.text_content("#error") == httpx.get(f"{server}/api/presets/nope").json()["detail"]


def test_tapp_page(page, server):
    open_page(page, "/tapp?rules=standard")
    click_hand(page, HAND)
    page.wait_for_selector("#tapp-worth", timeout=15_000)
    want = api(server, "/api/tapp", {"rules": "standard", "hand": " ".join(HAND)}).json()
    assert page.text_content("#tapp-worth") == f"{want['value']['mean']:.1f} ± {want['value']['se']:.1f}"
    click_hand(page, ["GK", "GO", "SU", "H10"], "#tapp-picker")
    page.wait_for_selector("#exchange-answer", timeout=15_000)
    assert "trump E, discard" in page.text_content("#exchange-answer")
    assert page.locator("#levels-table tr").count() > 3
    shot(page, "tapp")


def test_table_page_gives_the_card(page, server):
    open_page(page, "/table?rules=standard")
    click_hand(page, ["EA", "EA", "E10", "EK", "EO", "GA", "G10", "HA", "H10", "SA", "S10", "SK"])
    page.fill("#tapp", "EU GK HO SU")
    page.fill("#discards", "EU GK HO SU")
    click_hand(page, ["EA", "EK", "EU"], "#played-picker")
    page.fill("#worlds", "8")
    page.click("#ask-card")
    page.wait_for_selector("#play-card", timeout=60_000)
    want = api(server, "/api/card", {"hand": "EA EA E10 EK EO GA G10 HA H10 SA S10 SK", "seat": 0, "soloist": 0,
                                     "trump": "E", "tapp": "EU GK HO SU", "discards": "EU GK HO SU",
                                     "played": "EA EK EU", "worlds": 8}).json()
    assert page.text_content("#play-card") == want["play"]
    assert page.locator("#card-table tr").count() == len(want["cards"]) + 1
    shot(page, "table")
    page.fill("#discards", "EA")
    page.click("#ask-card")
    page.wait_for_selector("#error:not([hidden])")
    assert "\n" not in page.text_content("#error") and page.text_content("#error")


def test_rules_page_compares_presets(page, server):
    open_page(page, "/rules?rules=standard")
    page.click("#compare")
    page.wait_for_selector("#compare-rows", timeout=120_000)
    heads = page.locator("#compare-rows th").all_text_contents()
    assert heads[:3] == ["figure", "standard", "wuerttemberg"]
    assert page.locator("#compare-rows tr").count() > 10
    shot(page, "rules")
