"""The web app: four pages (Hand, Tapp, Table, Rules) and the JSON API under ``/api/`` they use.

FastAPI routes and validates (pydantic models: the OpenAPI schema at ``/api/openapi.json``, its docs at
``/api/docs``); Jinja2 renders the page shells; the answers come from :mod:`binokel_sim.web.answers`.
Bad input of any kind -- a card too many, a wrong hand size, an unknown preset, a value of the wrong
type -- is a 422 whose ``detail`` is one line, the words the page shows.

>>> from fastapi.testclient import TestClient
>>> c = TestClient(create_app())
>>> hand = "EA EA E10 EK EO EU GA G10 HA H10 SA S10"
>>> c.post("/api/melds", json={"rules": "standard", "hand": hand}).json()["best"]["total"]
250
>>> r = c.post("/api/melds", json={"rules": "standard", "hand": "EA EA EA"}); r.status_code, r.json()["detail"]
(422, 'hand: card EA appears 3 times (at most twice)')
"""

from __future__ import annotations

import secrets
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from binokel_sim._version import __version__
from binokel_sim.errors import InputError
import binokel_sim.web.answers as answers
from binokel_sim.web.jobs import JobLimit, JobManager

#: The cookie naming a player's browser (one checked job per player).
CLIENT_COOKIE = "binokel_client"
#: The pages, in the order of the menu: path, title.
PAGES = (("hand", "Hand"), ("tapp", "Tapp"), ("table", "Table"), ("rules", "Rules"))


class HandQuery(BaseModel):
    """A hand of a preset at a seat."""

    rules: str = Field("standard", description="Preset name (GET /api/presets lists them).")
    hand: str = Field(..., description="The hand's cards, e.g. 'EA EA E10 EK EO EU GA G10 HA H10 SA S10'.")
    seat: int = Field(0, description="The hand's seat (0 = forehand).")


class BidQuery(HandQuery):
    confidence: float = Field(0.8, description="P(make) the safe bid needs (0..1).")
    objective: Literal["own", "margin"] = Field("own", description="What 'bid up to' weighs against passing.")


class JobQuery(BidQuery):
    samples: int = Field(200, ge=1, description="Random deals of the unseen cards, played double-dummy.")
    seed: int = Field(1, ge=0, description="Random seed: the same seed gives the same numbers.")


class TappQuery(HandQuery):
    tapp: str | None = Field(None, description="The Tapp's cards once turned up: the best discard and trump.")


class CardQuery(BaseModel):
    """``binokel card``'s question: what the table showed one seat."""

    rules: str = "standard"
    hand: str = Field(..., description="Your hand at the first trick (the soloist's kept cards).")
    seat: int = Field(..., ge=0, le=7)
    soloist: int = Field(..., ge=0, le=7)
    trump: str = Field(..., description="E, G, H or S.")
    played: str = Field("", description="Every card played so far, in order from the first lead.")
    tapp: str | None = None
    melds: str | None = Field(None, description="The cards each seat laid out, 'A / B / C', '-' for none.")
    discards: str | None = None
    leader: int | None = Field(None, ge=0, le=7)
    worlds: int = Field(20, ge=1, le=200, description="Deals of the unseen cards to sample.")
    seed: int = Field(1, ge=0)


class CardsQuery(BaseModel):
    """Typed cards to read as the engine reads them."""

    rules: str = "standard"
    cards: str = Field(..., description="Card text: 'EA EA E10', 'Grün Ober, SU', 'ace of acorns'.")
    what: str = Field("cards", max_length=40, description="What they are, for the message: hand, Tapp, ...")
    size: int | None = Field(None, ge=1, le=48, description="Demand exactly this many cards.")
    ordered: bool = Field(False, description="Keep the order given (the cards played) instead of deck order.")


class CompareQuery(BaseModel):
    rules: list[str] = Field(..., min_length=1, max_length=16)


def _one_line(e: RequestValidationError) -> str:
    """A pydantic error list as one line: ``field: message``, the first error (and how many more)."""
    errs = e.errors()
    first = errs[0] if errs else {"loc": (), "msg": "invalid request"}
    loc = ".".join(str(x) for x in first.get("loc", ()) if x not in ("body", "query"))
    more = f" (and {len(errs) - 1} more)" if len(errs) > 1 else ""
    return f"{loc or 'request'}: {first.get('msg', 'invalid')}{more}".replace("\n", " ")


def client_of(request: Request) -> str:
    """Who is asking: the page's cookie, else the peer's address (an API client without cookies)."""
    return request.cookies.get(CLIENT_COOKIE) or (request.client.host if request.client else "unknown")


def _reports_folder() -> Path | None:
    """The committed reports beside the package (a source checkout), if there."""
    here = Path(__file__).resolve().parents[2] / "reports"
    return here if here.is_dir() else None


def create_app(rules: str = "standard", max_samples: int = 2000, max_jobs: int = 1,
               leave_after: float = 10.0) -> FastAPI:
    """The app; ``rules``: the preset the pages open with; the job limits as :class:`JobManager`."""
    answers.preset(rules)  # an unknown preset is refused before the server starts
    jobs = JobManager(max_jobs=max_jobs, max_samples=max_samples, leave_after=leave_after)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        jobs.shutdown()

    app = FastAPI(title="binokel-sim", version=__version__, lifespan=lifespan, docs_url="/api/docs",
                  redoc_url=None, openapi_url="/api/openapi.json",
                  description="Binokel hand analysis: melds, bid advice, the Tapp's worth, the card to play.")
    app.state.jobs = jobs
    templates = Jinja2Templates(directory=str(resources.files("binokel_sim.web") / "templates"))
    app.mount("/static", StaticFiles(directory=str(resources.files("binokel_sim.web") / "static")), name="static")
    reports = _reports_folder()
    if reports is not None:
        app.mount("/reports", StaticFiles(directory=str(reports), html=True), name="reports")

    @app.exception_handler(InputError)
    async def input_error(request: Request, e: InputError) -> JSONResponse:
        return JSONResponse({"detail": str(e)}, status_code=getattr(e, "status", 422))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, e: RequestValidationError) -> JSONResponse:
        return JSONResponse({"detail": _one_line(e)}, status_code=422)

    @app.exception_handler(Exception)
    async def defect(request: Request, e: Exception) -> JSONResponse:
        return JSONResponse({"detail": f"internal error: {type(e).__name__}: {e}".splitlines()[0]}, status_code=500)

    app.include_router(_api(jobs))

    @app.get("/", include_in_schema=False)
    def home() -> RedirectResponse:
        return RedirectResponse("/hand")

    def page(name: str):
        def show(request: Request):
            reports_list = sorted(p.name for p in reports.iterdir() if (p / "report.html").is_file()) if reports else []
            resp = templates.TemplateResponse(request, f"{name}.html", {
                "page": name, "pages": PAGES, "rules": request.query_params.get("rules", rules),
                "version": __version__, "reports": reports_list})
            if CLIENT_COOKIE not in request.cookies:
                resp.set_cookie(CLIENT_COOKIE, secrets.token_hex(12), httponly=True, samesite="strict")
            return resp
        return show

    for name, _ in PAGES:
        app.add_api_route(f"/{name}", page(name), methods=["GET"], include_in_schema=False)
    return app


def _api(jobs: JobManager) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/presets", summary="The presets: deck, hand and Tapp size, seats")
    def presets() -> list[dict[str, Any]]:
        return answers.presets_answer()

    @api.get("/presets/{name}", summary="One preset (an unknown name: 422 naming the known ones)")
    def one_preset(name: str) -> dict[str, Any]:
        answers.preset(name)
        return next(p for p in answers.presets_answer() if p["name"] == name)

    @api.post("/cards", summary="Typed cards read as the engine reads them (or its one line why not)")
    def cards(q: CardsQuery) -> dict[str, Any]:
        return answers.cards_answer(q.rules, q.cards, q.what, q.size, q.ordered)

    @api.post("/melds", summary="A hand's melds at its best trump and at each trump")
    def melds(q: HandQuery) -> dict[str, Any]:
        return answers.melds_answer(q.rules, q.hand)

    @api.post("/bid", summary="The instant bid ladder weighed against passing (binokel bid --json)")
    def bid(q: BidQuery) -> dict[str, Any]:
        return answers.bid_answer(q.rules, q.hand, q.seat, q.confidence, q.objective)

    @api.post("/tapp", summary="The Tapp's worth, meld odds of hand + Tapp, the best discard")
    def tapp(q: TappQuery) -> dict[str, Any]:
        return answers.tapp_answer(q.rules, q.hand, q.seat, q.tapp)

    @api.post("/card", summary="The card to play at a real table (binokel card --json)")
    def card(q: CardQuery) -> dict[str, Any]:
        return answers.card_answer(q.rules, q.hand, q.seat, q.soloist, q.trump, q.played, q.tapp, q.melds,
                                   q.discards, q.leader, q.worlds, q.seed)

    @api.post("/compare", summary="Presets side by side: meld odds and the shipped corpora's figures")
    def compare(q: CompareQuery) -> dict[str, Any]:
        return answers.compare_answer(q.rules)

    @api.post("/jobs", summary="Start a checked bid job (one per player; progress at GET /api/jobs/{id})")
    def start(q: JobQuery, request: Request) -> dict[str, Any]:
        # Validated here, in the request: a bad hand is a 422 now, not a failed job later.
        r = answers.preset(q.rules)
        from binokel_sim.dealing.hand_input import read_hand
        from binokel_sim.evaluation.pass_value import check_objective
        from binokel_sim.game.bid_answer import check_bid_question

        check_bid_question(r, q.seat, q.confidence)
        check_objective(q.objective)
        hand = " ".join(read_hand(q.hand, r, size=r.layout.hand_size).to_list())
        return jobs.start(client_of(request), {**q.model_dump(), "hand": hand}).to_json()

    @api.get("/jobs/{job_id}", summary="A job's state and progress; its answer once done")
    def poll(job_id: str, request: Request) -> dict[str, Any]:
        return jobs.get(job_id, client_of(request)).to_json()

    @api.delete("/jobs/{job_id}", summary="Cancel a job: its process ends within 2 s")
    def cancel(job_id: str, request: Request) -> dict[str, Any]:
        return jobs.cancel(job_id, client_of(request)).to_json()

    @api.post("/jobs/{job_id}/cancel", summary="Cancel a job (for a page being closed: navigator.sendBeacon)")
    def cancel_beacon(job_id: str, request: Request) -> dict[str, Any]:
        return jobs.cancel(job_id, client_of(request)).to_json()

    return api


__all__ = ["JobLimit", "create_app"]
