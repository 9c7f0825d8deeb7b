"""The ``binokel`` command tree, registered in one place.

Command modules define plain Click commands and never import this module or
:mod:`binokel_sim.cli.main`; the groups and every command's registration live here, so the
imports run one way: main -> commands -> command modules. A command module is imported
only when its command is looked up (:class:`LazyCommands`): ``binokel bid`` never pays for
the report's or the game simulator's imports.
"""

from __future__ import annotations

import click

from binokel_sim._version import __version__
from .numbers import bound_numbers


def _bid() -> click.Command:
    from .bid import bid_cmd

    return bid_cmd


def _card() -> click.Command:
    from .card import card_cmd

    return card_cmd


def _serve() -> click.Command:
    from .serve import serve_cmd

    return serve_cmd


def _calibrate() -> click.Command:
    from .calibrate import calibrate_cmd

    return calibrate_cmd


def _compare() -> click.Command:
    from .compare import compare_cmd

    return compare_cmd


def _corpus() -> click.Command:
    from .corpus import corpus

    return corpus


def _deal() -> click.Command:
    from .deal import deal_cmd

    return deal_cmd


def _melds() -> click.Command:
    from .melds import melds_cmd

    return melds_cmd


def _report() -> click.Command:
    from .report import report_cmd

    return report_cmd


def _solve() -> click.Command:
    from .solve import solve_cmd

    return solve_cmd


def _fit_formula() -> click.Command:
    from .fit_formula import fit_formula_cmd

    return fit_formula_cmd


def _fit_defence() -> click.Command:
    from .fit_defence import fit_defence_cmd

    return fit_defence_cmd


def _fit_instant() -> click.Command:
    from .fit_instant import fit_instant_cmd

    return fit_instant_cmd


def _odds_bids() -> click.Command:
    from .odds_bids import odds_bids_cmd

    return odds_bids_cmd


def _odds_melds() -> click.Command:
    from .odds_melds import odds_melds_cmd

    return odds_melds_cmd


def _odds_tapp() -> click.Command:
    from .odds_tapp import odds_tapp_cmd

    return odds_tapp_cmd


def _study() -> click.Command:
    from .study import study

    return study


def _games() -> click.Command:
    from .simulate_games import games_cmd

    return games_cmd


class LazyCommands(dict):
    """A group's commands by name, each imported (and its numbers bounded) when first looked up: ``binokel bid``
    imports the bid command's modules only, not every command's (start-up time of the instant tier)."""

    def _load(self, name: str) -> click.Command:
        cmd = dict.__getitem__(self, name)
        if not isinstance(cmd, click.Command):
            cmd = bound_numbers(cmd()) if callable(cmd) else cmd
            dict.__setitem__(self, name, cmd)
        return cmd

    def __getitem__(self, name: str) -> click.Command:
        return self._load(name)

    def get(self, name, default=None):  # type: ignore[override]
        return self._load(name) if name in self else default

    def values(self):  # type: ignore[override]
        return [self._load(n) for n in self]

    def items(self):  # type: ignore[override]
        return [(n, self._load(n)) for n in self]


def _lazy(group: click.Group, loaders: dict) -> click.Group:
    group.commands = LazyCommands(loaders)
    return group


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


@click.group(short_help="Fit the advisor's models (formula, instant tier, pass value).")
def fit() -> None:
    """Fit the models the advisor uses (the hand-point formula, the instant tier, the pass value)."""


# One line per command; keep alphabetical within each group.
_lazy(cli, {"bid": _bid, "calibrate": _calibrate, "card": _card, "compare": _compare, "corpus": _corpus, "deal": _deal,
            "fit": lambda: _lazy(fit, {"defence": _fit_defence, "formula": _fit_formula,
                                        "instant": _fit_instant}), "melds": _melds,
            "odds": lambda: _lazy(odds, {"bids": _odds_bids, "melds": _odds_melds, "tapp": _odds_tapp}),
            "report": _report, "serve": _serve, "simulate": lambda: _lazy(simulate, {"games": _games}), "solve": _solve,
            "study": _study})
