"""A corpus's identity, checked end to end (issue #59): an edited manifest is refused in one line, a re-sealed
one by its rows, and a build never appends another seed's deals."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from binokel_sim.corpus.builder import build_corpus
from binokel_sim.corpus.manifest import IDENTITY_DIGEST, file_sha256, read_manifest, write_manifest
from binokel_sim.corpus.reader import load_corpus
from binokel_sim.corpus.seal import seal_corpus
from binokel_sim.errors import InputError
from binokel_sim.runner import Scale
from clitools import assert_one_line_error, run_cli

# A cheap preset (a second for the lot); the checks do not depend on it.
PRESET, SEED, N = "four-solo", 7, 4
ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted(p.parent for p in [*ROOT.glob("data/corpus/*/manifest.json"),
                                    *ROOT.glob("data/corpus/*/phase2/manifest.json")])


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """N deals of seed 7 in chunks of 2."""
    d = tmp_path_factory.mktemp("seed7")
    build_corpus(PRESET, N, d, seed=SEED, chunk_size=2, scale=Scale(workers=1))
    return d


@pytest.fixture
def corpus(built, tmp_path):
    d = tmp_path / "c"
    shutil.copytree(built, d)
    return d


def edit(folder: Path, reseal: bool = False, **fields) -> None:
    """Set manifest fields; ``reseal``: recompute the digest too, as someone who read the code would."""
    m = json.loads((folder / "manifest.json").read_text())
    m.update(fields)
    if reseal:
        write_manifest(m, folder)
    else:
        (folder / "manifest.json").write_text(json.dumps(m, indent=2))


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_a_built_corpus_carries_a_digest_that_checks(corpus):
    m = read_manifest(corpus)
    assert len(m[IDENTITY_DIGEST]) == 64 and m["identity_fields"]["seed"]
    assert load_corpus(corpus).n == N


def test_an_edited_seed_is_one_line_naming_it(corpus, capsys):
    edit(corpus, seed=8)
    line = assert_one_line_error(capsys, "corpus", "info", str(corpus), contains="the manifest's seed 8 is not")
    assert f"corpus {corpus}:" in line and "edited" in line


def test_a_reseeded_digest_is_refused_by_the_rows(corpus, capsys):
    edit(corpus, reseal=True, seed=8)
    want = "the manifest's seed 8 does not match its rows (deal 0 in chunk-00000.parquet was dealt from another seed"
    for args in (["corpus", "info", str(corpus)], ["corpus", "refresh", str(corpus)],
                 ["corpus", "seal", str(corpus)]):
        assert_one_line_error(capsys, *args, contains=want)
    with pytest.raises(InputError, match="seed 8 does not match its rows"):
        load_corpus(corpus)


@pytest.mark.parametrize("reseal", [False, True])
def test_a_build_with_another_seed_appends_nothing(corpus, capsys, reseal):
    if reseal:  # the reported defect: the manifest now says 8, the chunks hold seed 7's deals 0..3
        edit(corpus, reseal=True, seed=8)
    before = snapshot(corpus)
    line = assert_one_line_error(capsys, "corpus", "build", "--rules", PRESET, "--deals", str(N + 2), "--out",
                                 str(corpus), "--seed", "8", "--chunk-size", "2", "--workers", "1")
    assert ("does not match its rows" if reseal else "was built with seed 7, not 8") in line, line
    assert snapshot(corpus) == before


@pytest.mark.parametrize("field, value, named", [
    ("policy", "melds", "the manifest's policy 'melds' is not"),
    ("rules_hash", "0123456789abcdef", "the manifest's rules_hash '0123456789abcdef' is not"),
    ("solve_budget", 1000, "the manifest's solve_budget 1000 is not"),
    ("stream", [4, 5], "the manifest's stream [4, 5] is not"),
    ("chunk_size", 3, None),  # the shape check sees this one first: chunk 1 no longer fits
])
def test_each_identity_field_is_bound_by_the_digest(corpus, capsys, field, value, named):
    edit(corpus, **{field: value})
    line = assert_one_line_error(capsys, "corpus", "info", str(corpus))
    assert (named or "manifest.json is damaged") in line, line


@pytest.mark.parametrize("field, value, named", [
    ("policy", "melds", "the manifest's policy 'melds' does not match its rows (deal 0 was chosen by policy "
                        "'heuristic')"),
    ("rules_hash", "0123456789abcdef", "the manifest's rules_hash '0123456789abcdef' is not the hash of its "
                                       "rules_data"),
    ("stream", [4, 5], "the manifest's seed 7 does not match its rows"),
])
def test_a_resealed_edit_is_refused_by_the_rows_or_the_rules_data(corpus, capsys, field, value, named):
    edit(corpus, reseal=True, **{field: value})
    assert_one_line_error(capsys, "corpus", "info", str(corpus), contains=named)


def test_a_chunk_of_another_corpus_is_refused(corpus, tmp_path, capsys):
    # Chunk 1 from a seed-8 build, its checksum written into the manifest and the digest recomputed.
    other = tmp_path / "seed8"
    build_corpus(PRESET, N, other, seed=8, chunk_size=2, scale=Scale(workers=1))
    shutil.copy(other / "chunk-00001.parquet", corpus / "chunk-00001.parquet")
    m = json.loads((corpus / "manifest.json").read_text())
    m["chunks"][1]["sha256"] = file_sha256(corpus / "chunk-00001.parquet")
    write_manifest(m, corpus)
    assert_one_line_error(capsys, "corpus", "info", str(corpus), contains="deal 2 in chunk-00001.parquet was dealt")


def test_a_manifest_without_a_digest_is_sealed_only_after_its_rows_check(corpus, capsys):
    m = json.loads((corpus / "manifest.json").read_text())
    for k in (IDENTITY_DIGEST, "identity_fields"):
        m.pop(k)
    (corpus / "manifest.json").write_text(json.dumps(m, indent=2))
    assert_one_line_error(capsys, "corpus", "info", str(corpus), contains=f"run `binokel corpus seal {corpus}`")
    unsealed = (corpus / "manifest.json").read_text()
    (corpus / "manifest.json").write_text(unsealed.replace('"seed": 7', '"seed": 8'))
    assert_one_line_error(capsys, "corpus", "seal", str(corpus), contains="seed 8 does not match its rows")
    assert '"seed": 8' in (corpus / "manifest.json").read_text() and IDENTITY_DIGEST not in read_manifest(
        corpus, sealed=False)
    (corpus / "manifest.json").write_text(unsealed)
    code, out, err = run_cli(capsys, "corpus", "seal", str(corpus))
    assert code == 0 and "sealed: its identity digest is written" in out, err
    assert seal_corpus(corpus)["sealed"] is False and load_corpus(corpus).n == N


def test_a_refresh_and_an_append_keep_the_digest_in_step(corpus):
    build_corpus(PRESET, N + 1, corpus, seed=SEED, scale=Scale(workers=1))
    from binokel_sim.corpus.refresh import refresh_corpus

    refresh_corpus(corpus, scale=Scale(workers=1))
    c = load_corpus(corpus)
    assert c.n == N + 1 and c.df["deal"].tolist() == list(range(N + 1))


@pytest.mark.slow
def test_the_shipped_corpora_pass_the_strict_check():
    assert len(SHIPPED) >= 16
    for folder in SHIPPED:
        m = read_manifest(folder)  # the digest is there and matches
        if m.get("play", "open") == "single-dummy":
            from binokel_sim.analyses.sd_corpus import load_sd_corpus

            rows = load_sd_corpus(folder)[1]
        else:
            rows = load_corpus(folder).df
        assert len(rows) == m["deals"], folder



def test_a_single_dummy_corpus_is_checked_by_its_melds(tmp_path, capsys):
    # Its rows hold no hands: every row's soloist melds, dealt again, confirm the seed.
    d = tmp_path / "sd"
    shutil.copytree(ROOT / "data/corpus/standard-sd", d)
    edit(d, reseal=True, seed=2)
    assert_one_line_error(capsys, "corpus", "info", str(d),
                          contains="the manifest's seed 2 does not match its rows (deals 0..9 in chunk-00000.parquet")
