"""Two-hand Binokel (docs/rules.md §10): the talon game, a layout of kind ``talon``.

* :mod:`.melds` -- the two-hand meld table, static scores and one-at-a-time declarations;
* :mod:`.legal` -- the legal-move function of both phases and perft counts;
* :mod:`.heuristic` -- the talon-phase (and, for measurement, endgame) player;
* :mod:`.play` -- one deal: heuristic talon phase, exact endgame, move record and replay;
* :mod:`.endgame` -- the exact endgame against the heuristic's;
* :mod:`.odds` -- meld odds, exact and Monte Carlo;
* :mod:`.games`, :mod:`.runs` -- whole games to the target as a seeded job, the exchange study.
"""
