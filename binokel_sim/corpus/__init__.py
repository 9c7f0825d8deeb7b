"""A corpus of solved deals: build once, keep as versioned data, let every study read it.

A corpus folder holds Parquet chunk files (``chunk-00000.parquet`` ...; one row per
deal) and ``manifest.json`` (:mod:`.manifest`). :func:`build_corpus` builds or extends
one (:mod:`.builder`), :func:`load_corpus` reads and validates one (:mod:`.reader`; its identity:
:mod:`.identity`, and :mod:`.seal` for a corpus written before the digest).
Shipped corpora live in ``data/corpus/<preset>/`` (installed as ``binokel_sim.corpora``).
"""

from binokel_sim.corpus.builder import DEFAULT_POLICY, build_corpus, corpus_rows
from binokel_sim.corpus.manifest import read_manifest

__all__ = ["DEFAULT_POLICY", "build_corpus", "corpus_rows", "read_manifest"]
