"""``--fresh`` / ``--corpus DIR``: where a study's solved deals come from (see :mod:`binokel_sim.corpus.studies`)."""

from __future__ import annotations

from typing import Callable

import click


def corpus_options(fn: Callable) -> Callable:
    """Add ``--fresh`` and ``--corpus DIR``; the command gets ``fresh`` and ``corpus_dir``."""
    fn = click.option("--corpus", "corpus_dir", type=click.Path(), default=None,
                      help="Read solved deals from this corpus folder (its rules, seed and policy must match).")(fn)
    return click.option("--fresh", is_flag=True,
                        help="Solve every deal afresh, even where a matching corpus holds it.")(fn)
