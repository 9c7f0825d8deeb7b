"""Running chunks on a Dask cluster: the scheduler's address checked before any work, the client, the run.

:func:`binokel_sim.runner.run_jobs` hands a job's chunks here for ``--scheduler tcp://host:port``; the same
chunk function runs on the cluster's workers (install the ``distributed`` extra).

>>> check_scheduler("tcp://127.0.0.1:8786")
'tcp://127.0.0.1:8786'
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from binokel_sim.errors import InputError, shown
from binokel_sim.pool import Interrupted
_HOST = re.compile(r"(?=.{1,253}\Z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}"
                   r"[A-Za-z0-9])?)*")
_SCHEDULER = re.compile(r"tcp://(\[[0-9A-Fa-f:.]{2,45}\]|[^\s/:\[\]]+):([0-9]{1,5})")


def check_scheduler(address: str) -> str:
    """Validate a scheduler address ``tcp://host:port`` (a host name or IP address, a port 1..65535),
    before any work; :class:`InputError` otherwise.

    >>> check_scheduler("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler("inproc://x")
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: --scheduler: expected an address like tcp://host:8786, got 'inproc://x'
    """
    import ipaddress

    m = _SCHEDULER.fullmatch(address) if isinstance(address, str) and len(address) <= 300 else None
    bad = InputError(f"--scheduler: expected an address like tcp://host:8786, got {shown(address)}")
    if m is None or not 1 <= int(m.group(2)) <= 65535:
        raise bad
    host = m.group(1)
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        if host.startswith("[") or not _HOST.fullmatch(host):
            raise bad from None
    return address


def _call_chunk(job: Any, chunk: Any) -> Any:
    """What a Dask worker runs: the job's chunk function on one chunk."""
    return job.fn(job, chunk)


def require_dask() -> None:
    """One-line :class:`InputError` naming the extra to install when Dask's ``distributed`` is missing."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("--scheduler needs Dask: pip install 'binokel-sim[distributed]'") from None


def connect(address: str, timeout: float = 10.0):
    """A ``distributed.Client`` for ``address``; one-line :class:`InputError` when it cannot."""
    check_scheduler(address)
    require_dask()
    from distributed import Client

    try:
        return Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"--scheduler: cannot reach {address}: {why}") from None


def run_dask(jobs: Sequence[Any], todo: list[tuple[int, Any]], address: str,
             finish: Callable[[int, Any, Any], None], checkpoint=None, total: int = 0, what: str = "") -> None:
    """Run the ``(job index, chunk)`` pairs ``todo`` on the cluster at ``address``, calling ``finish(j, chunk,
    result)`` as each comes back; Ctrl-C raises :class:`Interrupted` (``checkpoint``, ``what``: its message's)."""
    client = connect(address)  # first: it names the extra when Dask is missing
    from distributed import as_completed

    done = 0
    try:
        futures = {
            client.submit(_call_chunk, jobs[j], c, key=jobs[j].chunk_key(c), pure=False): (j, c) for j, c in todo
        }
        for fut in as_completed(futures, loop=client.loop):
            finish(*futures[fut], fut.result())
            done += 1
    except KeyboardInterrupt:
        raise Interrupted(done, total, checkpoint, what) from None
    finally:
        client.close()
