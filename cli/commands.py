"""The ``binokel`` command tree, registered in one place.

Command modules define plain Click commands and never import this module or
:mod:`binokel_sim.cli.main`; the groups and every ``add_command`` live here, so the
imports run one way: main -> commands -> command modules.
"""

from __future__ import annotations

import click

from binokel_sim import __version__

from .bid import bid_cmd
from .compare import compare_cmd
from .corpus import corpus
from .deal import deal_cmd
from .melds import melds_cmd
from .odds_bids import odds_bids_cmd
from .odds_melds import odds_melds_cmd
from .odds_tapp import odds_tapp_cmd
from .report import report_cmd
from .simulate_games import games_cmd
from .solve import solve_cmd
from .fit_instant import fit_instant_cmd
from .studies import calibrate_cmd, fit_formula_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="binokel")
def cli() -> None:
    """binokel-sim: meld odds, double-dummy play, hand evaluation and reports for Binokel."""


@click.group(short_help="Meld odds, Tapp value, bid levels (Monte Carlo, exact).")
def odds() -> None:
    """Monte Carlo and exact studies (meld odds, Tapp value, bid levels)."""


@click.group(short_help="Whole-game simulation.")
def simulate() -> None:
    """Whole-game simulation."""


@click.group(short_help="Fit the advisor's models (the hand-point formula).")
def fit() -> None:
    """Fit the models the advisor uses (the hand-point formula)."""


# One line per command; keep alphabetical within each group.
for command in (bid_cmd, calibrate_cmd, compare_cmd, deal_cmd, melds_cmd, report_cmd, solve_cmd):
    cli.add_command(command)
for group in (corpus, fit, odds, simulate):
    cli.add_command(group)
fit.add_command(fit_formula_cmd)
fit.add_command(fit_instant_cmd)
odds.add_command(odds_bids_cmd)
odds.add_command(odds_melds_cmd)
odds.add_command(odds_tapp_cmd)
simulate.add_command(games_cmd)
