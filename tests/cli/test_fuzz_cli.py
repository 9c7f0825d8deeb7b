"""Fuzzing the command line with bad input: every call answers, or fails with one ``error:`` line and exit 2.

Hypothesis draws malformed cards, broken rules files (wrong types, huge values, unknown keys,
binary bytes, long names), bad paths and scheduler addresses, and runs them through the entry
point in-process on the fast commands (``melds``, ``deal``, ``solve`` on tiny hands, ``bid`` at
the instant tier, ``corpus info``, rules loading). Examples are derived from the test's name
(the same calls on every run) and no example database is written.
"""

from __future__ import annotations

import json
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from binokel_sim.errors import InputError
from binokel_sim.runner import check_scheduler
from clitools import one_line_or_answer, run_cli

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

SUITS, RANKS = "EGHS", ["A", "10", "K", "O", "U", "7"]
CARDS = [s + r for s in SUITS for r in RANKS]
#: Text that looks like cards, and text that does not.
card_like = st.lists(st.one_of(st.sampled_from(CARDS), st.sampled_from(["X9", "E11", "GG", "e a", "Grün Ober", "🂡",
                                                                       "E", "10", ",", "/", "  "])),
                     max_size=16).map(" ".join)
junk = st.text(alphabet=string.printable + "äöüß€\u200b\ufeff", max_size=40)
#: Hands of about the right size from the 40-card deck: some valid, some a card off.
near_hand = st.lists(st.sampled_from([c for c in CARDS if not c.endswith("7")]), min_size=9, max_size=13).map(" ".join)


@FUZZ
@given(hand=st.one_of(card_like, near_hand, junk),
       trump=st.one_of(st.sampled_from(["E", "G", "best", "none", "Grün"]), junk))
def test_melds(capsys, hand, trump):
    one_line_or_answer(*run_cli(capsys, "melds", hand, "--trump", trump))


@FUZZ
@given(hand=st.one_of(near_hand, card_like, junk),
       seat=st.one_of(st.integers(-3, 5).map(str), junk),
       rules=st.sampled_from(["standard", "four-solo", "kreuz", "two-hand", "nope"]))
def test_bid_instant_tier(capsys, hand, seat, rules):
    one_line_or_answer(*run_cli(capsys, "bid", hand, "--seat", seat, "--rules", rules, "--json"))


@FUZZ
@given(seed=st.one_of(st.integers(-5, 10 ** 20).map(str), junk),
       index=st.one_of(st.integers(-2, 10 ** 18).map(str), junk),
       rules=st.sampled_from(["standard", "kreuz-48", "two-hand", "four-dealer-out"]))
def test_deal(capsys, seed, index, rules):
    one_line_or_answer(*run_cli(capsys, "deal", "--seed", seed, "--index", index, "--rules", rules))


tiny_hand = st.lists(st.sampled_from(CARDS[:18]), min_size=0, max_size=2).map(" ".join)


@FUZZ
@given(hands=st.one_of(st.lists(tiny_hand, min_size=1, max_size=5).map(" / ".join), junk),
       trump=st.one_of(st.sampled_from(["E", "G", "none", "X"]), junk),
       extra=st.sampled_from([[], ["--target", "20"], ["--leader", "1"], ["--solo", "2"], ["--cards"],
                              ["--trick", "EA"], ["--teams", "0,2"], ["--leader", "9"]]))
def test_solve_on_tiny_hands(capsys, hands, trump, extra):
    one_line_or_answer(*run_cli(capsys, "solve", "--hands", hands, "--trump", trump, *extra))


position = st.fixed_dictionaries({}, optional={
    "hands": st.one_of(st.lists(tiny_hand, min_size=1, max_size=4).map(" / ".join), st.integers(), st.none()),
    "trump": st.one_of(st.sampled_from(["E", "none", "Q"]), st.integers(-2, 9)), "leader": st.integers(-2, 5),
    "query": st.sampled_from(["exact", "bounds", "nope", 3]), "targets": st.lists(st.integers(-10, 400), max_size=3),
    "step": st.integers(-1, 50), "budget_nodes": st.integers(-1, 10 ** 6), "cards": st.booleans(),
    "unknown": st.just(1)})
batch_line = st.one_of(position.map(json.dumps), junk, st.just("[1, 2]"), st.just("null"), st.just("{"))


@FUZZ
@given(lines=st.lists(batch_line, min_size=1, max_size=4))
def test_solve_batch_files(capsys, tmp_path, lines):
    path = tmp_path / "batch.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    one_line_or_answer(*run_cli(capsys, "solve", "--batch", str(path), "--json"))


#: A key of the rules file and values of the wrong type, too large, or odd.
rule_key = st.sampled_from(["[play]\nlast_trick", "[bidding]\nmin_bid", "[bidding]\nbid_step", "[melds]\nfamily",
                            "[melds]\neight", "[layout]\nplayers", "[layout]\nhand_size", "[game]\ntarget",
                            "[scoring]\nround_to_10", "[layout]\nteams", "[melds]\nfour", "colour", "[nope]\nx",
                            "[bidding]\nmin_bidd", "inherits", "name"])
rule_value = st.one_of(
    st.integers(-10 ** 30, 10 ** 30).map(str),
    st.sampled_from(["9223372036854775807", "1e400", "nan", "inf", "-0", "true", '"high"', "[1, 2]", "{ A = 1 }",
                     "[[0, 2], [1]]", "1979-05-27", '"/etc/shadow"', '"standard"', '"x.toml"', '"' + "a" * 300 + '"',
                     "[[[[[[1]]]]]]", "9" * 5000]),
    junk.map(json.dumps))


@FUZZ
@given(key=rule_key, value=rule_value, base=st.sampled_from(["standard", "two-hand", "kreuz", None]))
def test_rules_file_values(capsys, tmp_path, key, value, base):
    head = (f'inherits = "{base}"\nname = "fuzz"\n' if base else "")
    path = tmp_path / "fuzz.toml"
    path.write_text(head + f"{key} = {value}\n", encoding="utf-8")
    one_line_or_answer(*run_cli(capsys, "melds", "EA EK", "--rules", str(path)))


@FUZZ
@given(data=st.binary(max_size=200), prefix=st.sampled_from([b"", b'inherits = "standard"\nname = "x"\n', b"\xff\xfe"]))
def test_rules_file_bytes(capsys, tmp_path, data, prefix):
    path = tmp_path / "bytes.toml"
    path.write_bytes(prefix + data)
    one_line_or_answer(*run_cli(capsys, "deal", "--rules", str(path)))


@FUZZ
@given(name=st.one_of(st.text(alphabet=string.ascii_letters + "./-_~ ", min_size=1, max_size=12),
                      st.integers(200, 5000).map(lambda n: "r" * n),
                      st.integers(200, 400).map(lambda n: "r" * n + ".toml"),
                      st.sampled_from(["/etc/shadow", "/etc", "/", "..", "~", "/dev/null", "/proc/self/environ.toml",
                                       "standard ", "Standard", "data/rules/standard.toml", "x/../standard"])))
def test_rules_names(capsys, name):
    one_line_or_answer(*run_cli(capsys, "melds", "EA", "--rules", name))


bad_path = st.one_of(
    st.text(alphabet=string.ascii_letters + "./-_ ", min_size=0, max_size=20),
    st.integers(240, 300).map(lambda n: "o" * n + ".csv"), st.integers(1, 40).map(lambda n: "d/" * n + "t.csv"),
    st.sampled_from(["/", "/proc/x.csv", "/dev/null/x.csv", "/sys/x.json", ".", "..", "t.xlsx", "t.CSV", "t.",
                     "/etc/passwd/t.csv", "-", "--out", "t.csv/", "a" * 5000 + ".csv"]))


@FUZZ
@given(path=bad_path, kind=st.sampled_from(["melds", "deal"]))
def test_output_paths(capsys, tmp_path, monkeypatch, path, kind):
    monkeypatch.chdir(tmp_path)
    args = ["melds", "EA EK", "--out", path] if kind == "melds" else ["deal", "--out", path]
    one_line_or_answer(*run_cli(capsys, *args))


@FUZZ
@given(folder=bad_path)
def test_corpus_info_paths(capsys, tmp_path, monkeypatch, folder):
    monkeypatch.chdir(tmp_path)
    one_line_or_answer(*run_cli(capsys, "corpus", "info", folder))


#: Manifest fields set to the wrong shape.
manifest_edit = st.tuples(st.sampled_from(["seed", "chunk_size", "chunks", "deals", "policy", "rules_hash", "builds",
                                           "cpu_seconds", "format", "solve_budget"]),
                          st.sampled_from([None, 0, -1, 1, "x", [1], [{}], {"a": 1}, 10 ** 30, True, 1.5]))


@FUZZ
@given(edit=manifest_edit)
def test_corpus_manifests_of_the_wrong_shape(capsys, tmp_path, edit):
    m = json.loads(open("data/corpus/four-solo/manifest.json", encoding="utf-8").read())
    key, value = edit
    m[key] = value
    (tmp_path / "manifest.json").write_text(json.dumps(m))
    one_line_or_answer(*run_cli(capsys, "corpus", "info", str(tmp_path)))


def _valid_scheduler(address: str) -> bool:
    try:
        check_scheduler(address)
        return True
    except InputError:
        return False


scheduler = st.one_of(
    st.sampled_from(["tcp://a:b", "inproc://x", "tls://h:8786", "ws://h:1", "tcp://h:0", "tcp://h:65536", "tcp://",
                     "tcp://h", "tcp://[::1", "tcp://" + "h" * 5000 + ":1", "h:8786", "tcp://h:1/x", "tcp://-h:1",
                     "tcp://h_h:1", "tcp://h:-1", "tcp:// h:1", "TCP://h:1"]),
    st.builds(lambda s, h, p: f"{s}://{h}:{p}", st.sampled_from(["tcp", "tls", "udp", ""]), junk, junk))


@FUZZ
@given(address=scheduler)
def test_scheduler_addresses(capsys, address):
    if _valid_scheduler(address):  # a real address would be dialled: not this test's business
        return
    code, out, err = run_cli(capsys, "odds", "melds", "--deals", "10", "--scheduler", address)
    one_line_or_answer(code, out, err)
    assert code == 2 and "--scheduler" in err


@pytest.mark.parametrize("args", [["odds", "melds", "--deals", "10", "--checkpoint", "x" * 300],
                                  ["odds", "melds", "--deals", "10", "--workers", "0"],
                                  ["corpus", "build", "--deals", "1", "--out", "c" * 300]])
def test_scale_options(capsys, args):
    one_line_or_answer(*run_cli(capsys, *args))
