import sys
from pathlib import Path

# Test helpers (stats.py) import as plain modules.
sys.path.insert(0, str(Path(__file__).parent))

from hypothesis import settings  # noqa: E402

# Property tests draw the same examples on every run, so CI results are reproducible.
settings.register_profile("binokel", derandomize=True, deadline=None)
settings.load_profile("binokel")
