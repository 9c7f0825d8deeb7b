"""``binokel serve``: a local web page for card players and the JSON API it reads.

Pages: Hand (click a hand: melds, the bid ladder, a checked run in the background), Tapp (what the
Tapp is worth, exact meld odds of hand + Tapp, the best discard), Table (the card to play), Rules
(presets side by side). The API under ``/api/`` mirrors the Python API (melds, bid, tapp, card,
compare, checked jobs); bad input is a 422 with one line.

>>> from fastapi.testclient import TestClient
>>> from binokel_sim.web import create_app
>>> TestClient(create_app()).get("/api/presets").status_code
200
"""

from binokel_sim.web.app import create_app

__all__ = ["create_app"]
