"""``binokel serve``: the local web page for players (Hand, Tapp, Table, Rules) and its JSON API."""

from __future__ import annotations

import click

from .numbers import Whole


@click.command("serve", short_help="A local web page: click a hand, get melds, the bid, the Tapp, the card.")
@click.option("--rules", "preset", default="standard", show_default=True, help="The preset the pages open with.")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (127.0.0.1: this computer only).")
@click.option("--port", type=Whole(1, 65535), default=8765, show_default=True, help="Port to listen on.")
@click.option("--max-samples", type=Whole(1), default=2000, show_default=True,
              help="Most deals one checked job may play.")
@click.option("--jobs", "max_jobs", type=Whole(1), default=1, show_default=True,
              help="Checked jobs the server runs at once (each a process on its own core).")
@click.option("-q", "--quiet", is_flag=True, help="No request log.")
def serve_cmd(preset: str, host: str, port: int, max_samples: int, max_jobs: int, quiet: bool) -> None:
    """Serve the page for players at http://HOST:PORT/ until Ctrl-C.

    Hand: click your cards; the melds at each trump, the bid ladder (P(make), E[score], safe bid, ceiling,
    bid up to against passing) and a checked run of random deals in the background. Tapp: what the Tapp is
    worth to the hand, the exact meld odds of hand + Tapp, the best discard. Table: the card to play. Rules:
    presets side by side. The JSON API is at /api/ (its documentation at /api/docs).

    \b
    Example:
      binokel serve --rules wuerttemberg --port 8765
    """
    import socket

    import uvicorn

    from binokel_sim.errors import InputError
    from binokel_sim.web.app import create_app

    app = create_app(preset, max_samples=max_samples, max_jobs=max_jobs)
    try:  # a port in use is one line, before uvicorn logs a traceback of its own
        with socket.create_server((host, port)):
            pass
    except (OSError, ValueError) as e:  # in use, no such address, a name that is no host name
        why = getattr(e, "strerror", None) or str(e)
        raise InputError(f"--host/--port: cannot listen on {host}:{port} ({why})") from None
    click.echo(f"binokel-sim page at http://{host}:{port}/  (rules {preset}; Ctrl-C stops)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning" if quiet else "info", access_log=not quiet)
