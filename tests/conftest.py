import sys
from pathlib import Path

# Test helpers (stats.py, clitools.py) import as plain modules, and so do the test modules of the folders
# (tests/<package>/, mirroring the package) that others reuse fixtures from: pytest imports a test file
# by its base name (no __init__.py), so every folder is on the path before any test is collected.
HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
for folder in sorted(HERE.iterdir()):
    if folder.is_dir() and folder.name not in ("data", "__pycache__") and any(folder.glob("test_*.py")):
        sys.path.insert(1, str(folder))

from hypothesis import settings  # noqa: E402

# Property tests draw the same examples on every run, so CI results are reproducible.
settings.register_profile("binokel", derandomize=True, deadline=None)
settings.load_profile("binokel")
