"""Array layouts shared by the search kernels: ``cfg`` slots, ``stats`` slots, move-buffer columns.

>>> CFG_SIZE, MV_COLS, STATS_SIZE == DEPTH + 25
(14, 73, True)
"""

# cfg slots; ``cfg[C_LIMIT]``: node budget of the query (0: none), see ``stats[S_ABORT]``;
# ``C_TT_ROWS``, ``C_QT_ROWS``: the tables' rows (the search gets their data pointers, not the arrays);
# ``C_KILL``: 1 while the defenders' killer moves are on (the exact driver's low tests, see ``driver.value``);
# ``C_RULE``: the play-rules word (:func:`binokel_sim.play.legal.play_rule`; partners are the seats on one
# side of ``C_MAX``); ``C_QMIN``: the fewest tricks left at which the quasi table is probed and written
# (:data:`binokel_sim.play.solver.quasi.QMIN`, the ``within`` query :data:`~binokel_sim.play.solver.quasi.QMIN_WITHIN`).
(C_SEATS, C_TRUMP, C_MAX, C_CREDIT, C_MODE, C_LAST, C_GEN, C_BONUS_SEATS, C_LIMIT, C_TT_ROWS, C_QT_ROWS, C_KILL,
 C_RULE, C_QMIN) = range(14)
CFG_SIZE = 14
MODE_POINTS, MODE_TRICKS = 0, 1
#: Most cards a search can play (4 seats x 12 cards).
MAX_PLY = 64
#: Columns of the per-ply move buffer ``mv``: moves, their ordering scores, searched values by card type,
#: and the ply's killer move + 1 (0: none).
MV_SCORE, MV_VALUE, MV_KILL, MV_COLS = 24, 48, 72, 73
#: ``stats[S_*]``: counters for measurement (nodes, table probes/hits/cutoffs, driver iterations,
#: quick-bound cutoffs, cutoffs and first-move cutoffs). ``stats[S_ABORT]`` != 0 stops the search:
#: set by the kernel when ``stats[S_NODES]`` passes ``cfg[C_LIMIT]``, or by another thread (a time
#: budget; the kernels release the GIL). An aborted search returns a meaningless value and stores
#: nothing, so every table entry stays a proven fact.
S_NODES, S_PROBES, S_HITS, S_TTCUT, S_ITERS, S_QCUT, S_CUTS, S_FIRST, S_EQUIV, S_ABORT, S_QHITS, S_QSCUT = range(12)
#: ``stats[DEPTH + tricks_left]``: nodes by tricks left. The search writes through the array's pointer
#: (no bounds check), so the slots cover the most tricks a rules file allows: ``layout.hand_size`` <= 24
#: (docs/rules.md §12; 18 at ``dabb-two``, which wrote past the 16 slots there were before).
DEPTH = 12
STATS_SIZE = DEPTH + 25
