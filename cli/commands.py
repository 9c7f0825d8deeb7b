"""Imports every command module so each attaches itself to the ``binokel`` group."""

# One line per command module; keep alphabetical.
from . import bid  # noqa: F401
from . import compare  # noqa: F401
from . import corpus  # noqa: F401
from . import deal  # noqa: F401
from . import melds  # noqa: F401
from . import odds_bids  # noqa: F401
from . import odds_melds  # noqa: F401
from . import odds_tapp  # noqa: F401
from . import report  # noqa: F401
from . import simulate_games  # noqa: F401
from . import solve  # noqa: F401
