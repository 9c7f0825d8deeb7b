"""The package's layers: a module imports only from its own layer or the layers below it.

:data:`LAYERS` is the one ordered list, lowest first; each entry is a layer, a tuple of module
or package names (a package stands for everything under it, and the longest name that
matches a module places it). Every import counts: at module level or inside a function,
absolute or relative. A module that no entry names fails too, so a new module is placed on
purpose.
"""

from __future__ import annotations


from test_structure import imports_with_lines, modules

LAYERS: list[tuple[str, ...]] = [
    # Leaves: errors, numba options, cards, rule files, statistics, streams, the version.
    ("_version", "errors", "jit", "rng", "streams", "stats", "twophase", "censored", "pool", "glossary", "palette",
     "contracts", "cards", "rules_files", "layout_checks"),
    ("rules", "scoring"),
    # Records of a run: provenance, output files, checkpoints, code hashes, the chunk runner.
    ("provenance", "output", "checkpoint", "versions", "dask_link", "runner"),
    ("dealing",),
    ("melds",),
    # Card play: legal moves, the double-dummy solver and its batch back end, worlds, single-dummy.
    ("play",),
    ("exchange",),
    ("odds",),
    # Hand evaluation (the bid tiers) and the studies' deal rows (the instant tier reads their bounds).
    ("evaluation", "studies.deals"),
    # Whole games of the auction layouts; corpora of solved deals and the study rows read from them.
    ("game", "corpus", "studies"),
    ("twohand",),
    # Whole games of any layout (the auction layouts' and the two-hand talon games alike).
    ("simulation",),
    ("analyses",),
    # The web page and its API: the answers of the layers below, served (``binokel serve`` starts it).
    ("web",),
    ("cli",),
    # The package's face: its public names load lazily from the layers below.
    ("",),
]


def layer_of(module: str) -> int | None:
    """Index in :data:`LAYERS` of ``binokel_sim.<name>``; None where no entry names it."""
    rel = module.removeprefix("binokel_sim").removeprefix(".")
    best: tuple[int, int] | None = None
    for i, names in enumerate(LAYERS):
        for name in names:
            if rel == name or (name and rel.startswith(name + ".")) or (not name and not rel):
                if best is None or len(name) > best[1]:
                    best = (i, len(name))
    return best[0] if best else None


def upward_imports() -> list[str]:
    mods = modules()
    known = set(mods)
    problems = []
    for name, path in sorted(mods.items()):
        here = layer_of(name)
        if here is None:
            problems.append(f"{name}: no layer in LAYERS names it")
            continue
        for target, line in sorted(imports_with_lines(name, path, known)):
            there = layer_of(target)
            if there is not None and there > here:
                problems.append(f"{path}:{line}: {name} (layer {here}) imports {target} (layer {there})")
    return problems


def test_every_import_runs_down_the_layers():
    problems = upward_imports()
    assert not problems, "\n".join(problems)


def test_layer_of():
    assert layer_of("binokel_sim.rules") < layer_of("binokel_sim.play.solver.search") < layer_of("binokel_sim.exchange")
    assert layer_of("binokel_sim.play.dd") < layer_of("binokel_sim.exchange.policy")
    assert layer_of("binokel_sim.simulation") > layer_of("binokel_sim.game.runs")
    assert layer_of("binokel_sim") == len(LAYERS) - 1
    assert layer_of("binokel_sim.simulationx") is None


def test_imports_with_lines_reads_function_level_and_relative(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("from .b import x\n\ndef f():\n    from binokel_sim import a, VERSION\n    import binokel_sim.c.d\n")
    known = {"binokel_sim", "binokel_sim.p", "binokel_sim.p.b", "binokel_sim.a", "binokel_sim.c"}
    assert imports_with_lines("binokel_sim.p.m", src, known) == {
        ("binokel_sim.p.b", 1), ("binokel_sim.a", 4), ("binokel_sim", 4), ("binokel_sim.c", 5)}
    # The cycle question counts the package a submodule comes from: Python runs it first.
    src.write_text("from binokel_sim.p import b\n")
    assert imports_with_lines("binokel_sim.m", src, known) == {("binokel_sim.p.b", 1)}
    assert imports_with_lines("binokel_sim.m", src, known, packages=True) == {("binokel_sim.p.b", 1),
                                                                             ("binokel_sim.p", 1)}
