"""A checked-tier job's process: the question as JSON on stdin, progress and the answer as JSON lines.

Started by :class:`binokel_sim.web.jobs.JobManager` as ``python -m binokel_sim.web.worker``; each line on
stdout is one message: ``{"kind": "progress", "done": D, "total": T}`` (deals played), ``{"kind": "passing",
"done": D, "total": T}`` (forced-pass deals played: passing is weighed), then ``{"kind": "done", "result":
{...}}`` or ``{"kind": "error", "error": "one line"}``.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from binokel_sim.errors import InputError


def run(params: dict[str, Any], out=sys.stdout) -> None:
    """Answer one checked question (``params``: rules, hand, seat, samples, seed, confidence, objective)."""
    from binokel_sim.evaluation.deals import EvalSettings
    from binokel_sim.game.bid_answer import checked_bid
    from binokel_sim.output import finite
    from binokel_sim.runner import Scale

    def send(kind: str, **kw: Any) -> None:
        out.write(json.dumps({"kind": kind, **kw}) + "\n")
        out.flush()

    def progress(done: int, total: int) -> None:
        send("progress", done=done, total=total)

    def passing(done: int, total: int) -> None:
        send("passing", done=done, total=total)

    try:
        p = params
        # The samples report through ``progress``; the forced-pass deals that weigh passing through the scale.
        ans = checked_bid(p["hand"], p["rules"], p["seat"], p["samples"], p["seed"], p["confidence"],
                          p["objective"], EvalSettings(policy="heuristic"), None, Scale(workers=1, report=passing),
                          progress)
        send("done", result=finite(ans.to_json()))
    except InputError as e:
        send("error", error=str(e))
    except Exception as e:  # a defect: one line to the page, never a traceback
        send("error", error=f"internal error: {type(e).__name__}: {e}".splitlines()[0])


if __name__ == "__main__":
    run(json.loads(sys.stdin.read()))
