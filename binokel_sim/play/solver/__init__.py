"""Exact double-dummy solver for Binokel trick play (docs/rules.md §6).

Queries (Python API, :mod:`binokel_sim.play.solver.api`): the exact points the
soloist's side can guarantee, a threshold test, the value of every legal card,
Durch and Bettel; plus the kernel :func:`max_points_batch` for many deals. Ask
only what the answer needs (:mod:`.queries`): ``exact``, ``at_least(T)`` (one
test, 1-4 % of the exact cost away from the value), ``grid(step, lo, hi)`` (the
grid interval holding the value), ``bounds(budget)`` (an anytime interval, exact
when the budget suffices); each returns the proven interval ``lo..hi``.

>>> pos = Position.parse("EA EK / E10 EU / EO GA", trump=None, leader=0, solo=0)
>>> Solver().max_points(pos)
34

Design
------
*State.* Each seat's hand is two 24-bit masks over card types: ``h1`` (holds at
least one) and ``h2`` (holds two). Identical cards are therefore one move, and
playing/undoing a card is one bit flip. The trick in progress is carried as
scalars down the recursion: led card, winning card and seat, card points so far,
plus the seats that already won a trick (only needed for meld bonuses). Legal
moves come from :func:`binokel_sim.play.legal.legal_mask` (follow, must beat, must
trump and overtrump, first of two identical cards wins) -- the same kernel every
other part of the toolkit plays with.

*Search* (:mod:`.search`). Fail-soft alpha-beta over single card plays, value =
points (or tricks, for Durch/Bettel) the credited seats win from here on,
cards already in the trick and the last-trick bonus included. The maximising
seats (the soloist's side; for Bettel the defenders) and the credited seats are
separate masks, so one search serves all queries. Exact values come from
zero-window tests run from above (:func:`.driver.value`): test ``>= hi``, lower
``hi`` to the fail-soft result, until a test succeeds. Refuting a target above the
value costs little, proving one the side reaches costs the defenders' whole tree,
so this pays for that proof about once (MTD(f) from below or bisection paid 3-4
times the nodes). A threshold is one zero-window search; a grid query runs the
same tests from above at grid points only; ``bounds`` steps down by 30, then 10,
then 1, and under a budget gives each test a share of it, replacing a test cut off
by an easier one lower down. The budget is a node limit in ``cfg`` and an abort
flag in ``stats`` (set by the kernel, or by a timer thread: kernels release the
GIL); an aborted search stores nothing, so every table entry stays a proven fact.

*Quick bounds* (:mod:`.bounds`). At each trick start the value lies in ``[0, ub]``
with ``ub`` = points still in the hands + last trick + unearned meld bonuses,
narrowed by the points the seat on lead surely cashes (its top cards, cut where a
seat holding trumps could ruff) and by the top run of trumps held by one side
(those cards end in that side's tricks, each opposing seat adding at least its
cheapest cards); a window outside returns at once. They are computed after the
table probe, which settles most windows alone. The last trick is evaluated directly.

*Equivalent cards.* Two cards of one suit held by the player to move, with no
other seat's card ranked between or equal to them (and the trick's winning card
not between), lead to the same tricks; their values differ by at most their
points difference. A card whose searched twin's bound already settles the window
is skipped (:func:`.ordering.twin_bound`).

*Transposition table* (:mod:`.table`). Keyed at trick starts on every seat's
remaining cards, the player on lead, trump, the side/credit masks, the query
mode and which bonus seats already hold a trick; a row stores a 64-bit signature
of that key, independent of the bucket's hash (a false hit: ~2**-64 a probe),
a lower and an upper bound and the best lead, 16 bytes; rows sit in buckets of
four, one cache line, and replacement prefers old generations, then the fewest
tricks left. The probe's one memory read is the search's single dearest
instruction (13-15 % of its time, ``perf``), so 12-trick deals get 2**22 rows
(64 MiB): against the 40-byte rows with the full key at 2**20, 0.91x the nodes on
80 corpus solves and 0.91x the CPU time on 20 of them (``farm-bench``, 6 pairs).
Since entries are facts about a state, one table serves every query
on a deal -- several thresholds, card values, other trumps (trump is in the key);
a change of meld bonuses starts a new generation (O(1) clear), and so does a
position holding a card the deal so far did not (another deal).

*Quasi-symmetry table* (:mod:`.quasi`, after Kupferschmid & Helmert). States whose
seats hold the same *relative* ranks (ranks counted among those still in play)
have the same game tree up to renaming cards, so their values differ by at most
the points of the renamed cards. A second table, keyed on relative ranks, holds
these twins (with their types in play) and is written and probed with at least
four tricks left; a probe intersects every twin's bounds widened by that
difference. The exact-key table above is unchanged: keying it on relative ranks
(commit b546891) made every twin compete for one bucket, which overflowed (one
deal 3.2 M -> 14.4 M nodes). Against the solver before it (commit 5462fde, move
ordering zeroed per deal): 0.58x the nodes on 100 standard deals and 0.39x on ten
13-trick deals, no deal above 1.0x; but ~20-35 % more time per node (a second
probe and store), so 0.71x the time (``benchmarks/bench_solver.py``). Written for
every subtree: keeping only subtrees of 64+ nodes gave 0.79x the nodes, not 0.55x.

*Tried and dropped* (40 ``standard`` corpus deals, 80 solves; time ratios from
``farm-bench`` pairs): enhanced transposition cutoffs (probe every card's next trick
start before searching, at a trick's last seat) cut nodes 15.5 % from three tricks
left and 8 % from five, for 1.02x and 0.99x the time -- each extra probe is a memory
miss; probing only after the first card failed added nodes. No table at two tricks
left: +34 % nodes. The quasi table from three tricks: -6.4 % nodes, 1.00x time.
Prefetching the quasi bucket while the main probe waits: 1.00x. Replacement by
subtree size instead of tricks left: no change at 2**22 rows. The quick bounds are
far from the window where the search has to run (the upper bound >= 45 points above
alpha for most nodes below fail-low trick starts), so sharper static bounds of the
same kind would cut little. The exact driver's tests: on 40 corpus solves 68 % of the
nodes go to tests that fail, 37 % of them within 10 points above the value; a failing
test's fail-soft result is nearly always exactly its target - 1 (the refutation's leaves
are "the soloist takes the rest" bounds), yet larger steps down do not help: stepping by
2, 3, 5 or 10 before closing in from above, or bisection, cost 0.98-1.08x the nodes (the
near-value proofs are the cost whichever way they are reached). A memory of the card that
cut late at each mid-trick state (hashed, 2**18 hint rows): -1 % nodes, slower. The
parent checking a child trick start's table row before calling it: same nodes, 1.04x
the time. The quasi table from five tricks: +17 % nodes, 1.09x the time. A first test
">= 1" (the deals whose soloist takes no trick fail ~140 tests one point apart, each
10-20 k nodes) in a scratch table generation so later tests never see its moves: 80
corpus solves +1.9 % nodes, 200 random deals -0.7 %, but 14 of them above 1.2x (the
">= 1" proof costs up to 1.1 M nodes where the value is high). A plain minimax for
trick starts with two tricks left (no table, no window): 6 % fewer nodes counted, the
same time (``farm-bench`` 10 pairs 1.008x): the nodes it saves were cheap. Jumping 5
points while the last failing test was cheap (< 3 000 nodes, far above the value): 2.3x
fewer tests but +13 % nodes on 80 corpus solves (+4 % on 200 random deals): the far
tests' table entries are what make the near ones cheap. Tests with a window of 5 points
below ``hi`` instead of zero windows (a value inside is then exact at once): 200 random deals
1.00x the nodes (the deals whose side wins no trick 0.5x), 120 corpus solves 1.035x (1.087x with
10 points). Trying the strongest card first where the maximising side needs at most one more
point (the "no trick" proofs): +5-6 % nodes everywhere, the worst deals unchanged. Huge pages
for the tables: numpy already advises them for large arrays (``AnonHugePages`` 86 MiB of a
solver's 112 MiB), and two solver processes side by side take 1.00-1.05x the CPU of one.

*Engine.* Every kernel of the search allocates nothing and is compiled with
``@kernel(noalloc=True)``: numba then skips the atomic reference counting of the
array arguments on every recursive call, which cost two thirds of the time
(~10 M nodes/s instead of ~3 M). The search's helpers that take arrays (move
ordering, table probes and stores, quick bounds, keys) are inlined into it
(``inline="always"``): LLVM left them as calls, and each call pushed every array
argument as seven to nine machine words -- a third of the search's own samples were
``push`` instructions. For the same reason the search itself takes no arrays: the driver
passes the data pointers of its eight arrays (:func:`.bitops.ptr_of`, one word each; the
tables' row counts go in ``cfg``), and the search indexes them flat
(``tt[row * TT_COLS + 1]``). Same nodes; 40 ``standard`` corpus solves 0.83x the CPU time
of the whole process (``farm-bench``, 6 pairs, 0.80-0.99), ~150 instead of ~175-205 ns per
node. Bit scans are one ``tzcnt`` (:mod:`.bitops`). At the last card of a trick the table
buckets of every next trick start are prefetched before the moves are ordered, so the children's probes (a memory miss each: a fifth of the time) overlap;
the quasi table's rows hold a signature instead of the key words, so its bucket is three
lines instead of six, and they are prefetched too. On 8 ``standard`` corpus solves (38.3 M
nodes, unchanged): 356 -> 218 ns per node (inlining and ``tzcnt``, ``farm-bench`` 4 pairs
0.71x CPU, range 0.64-0.77), the main table's prefetch 0.96x more (0.90-1.00), the quasi
rows and their prefetch 0.89x more (40 solves, 0.88-0.92). Enhanced transposition cutoffs
with the prefetched buckets (probe every next trick start before searching): 17 % fewer
nodes, but slower (40 solves 23.0-25.5 s against 20.9-23.7 s). Tried and dropped: the
hands, rules and bonuses packed into one array so the recursion passes four arrays
instead of eight (1.07x slower: the views cost more than the pushes they save);
prefetching the first line of the quasi table's 48-byte-row buckets (1.00x); inlining the scalar helpers as well (same speed, the
first compilation 38 s instead of 30 s; it was 22 s before any inlining).

*Move ordering.* Table move at trick starts, then rules of thumb: lead cards no
opponent can beat (and, in a plain suit, no opponent can ruff), else low cards; a
follower who puts his side ahead safely adds points, if an opponent still to play
may take the trick plays cheap, a follower whose partner still to play may win it
adds points, and one who cannot win the trick for his side throws his cheapest card.
No history counts, and killer moves only for the defenders in the exact driver's low
tests (a side that wins almost nothing, :func:`.driver.value`), cleared before each test:
so a query's node count depends only on its position and its deal's earlier queries (the
table). Measured by where the nodes lie: on 8 ``standard`` corpus solves 84 % of
the nodes were under cards tried first at nodes that cut off later -- mostly a
defender's card in the middle of a trick -- and the killer move (the last card that
cut at the ply, taken from another lead) was most often that card. Without killers
38.3 M -> 24.4 M nodes (with them 1.57x); history counts as tie-breaks made no difference (24.4 M
with them, 24.3 M without); the partner's and the cheap-card rules above 24.3 M ->
20.6 M. On 60 random ``standard`` deals 115 M -> 79.5 M nodes (0.69x), 20.9 s ->
15.2 s; ``kreuz`` 0.73x and ``four-solo`` 0.83x the nodes (40 deals each), 10 tricks
0.73x. A counter move (the card that last cut after the same led and winning
cards) tried before the rules of thumb: 65 % more nodes. Leading low to a suit whose
top card the partner holds: no change. Sure winners of plain suits led before
sure trumps: 82.3 -> 80.9 M nodes on 40 corpus solves, 79.5 -> 75.0 M on the 60 deals.

*Where a threshold query's nodes lie* (300 rows the checked tier of ``binokel bid`` asked at its
deciding bids, three random ``standard`` hands; 157 M nodes, 0.19x the 809 M of solving the
same rows exactly). Tests within 4 points of the value cost 1.1 M (proved) to 1.5 M (refuted)
nodes each, 49 % of all nodes; within 5-9 points 0.5-0.8 M, 27 %; 40 or more points away
2-63 k. The first move cuts at 94-95 % of the cut nodes in proofs and refutations alike, and
the nodes peak at four to six tricks left (65 % there), so better move ordering has little
left to find: what would shrink these proofs is a table whose entries cover more positions
(partition search, as the bridge solvers key on the ranks that matter) or a sharper bound.
Tried on these rows and dropped: the defenders' killer moves in every test (-2.3 % nodes, the
same CPU time: 16.1 / 16.2 s against 15.9 / 16.3 s); the table at 2**20 rows (random deals,
exact: 1.04x the nodes, 1.02x the time) or 2**18 (1.62x, 1.50x); the lowest open target first
(+5 % nodes); dropping the per-node counters of the search (nodes by depth, probes, hits,
cuts: 16.4 s against 16.8 s, three pairs 0.96-1.02x: within the machine's noise).
"""

from binokel_sim.play.solver.api import Solver, solve, without_trump
from binokel_sim.play.solver.driver import max_points_batch, max_points_batch_into
from binokel_sim.play.solver.position import Position, parse_trump

__all__ = ["Solver", "solve", "Position", "parse_trump", "without_trump", "max_points_batch", "max_points_batch_into"]
