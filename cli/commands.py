"""Imports every command module so each attaches itself to the ``binokel`` group."""

# One line per command module; keep alphabetical.
from . import deal  # noqa: F401
from . import melds  # noqa: F401
from . import odds_melds  # noqa: F401
