"""binokel-sim: an analysis toolkit for the card game Binokel.

The engine (cards, rules, dealing, melds, play, solver, evaluation) lives here;
``binokel_sim.cli`` and ``binokel_sim.analyses`` are mapped from the top-level
``cli/`` and ``analyses/`` folders, and ``binokel_sim.presets`` from ``data/rules/``.
"""

__version__ = "0.1.0"
