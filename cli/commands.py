"""Imports every command module so each attaches itself to the ``binokel`` group."""

# One line per command module; keep alphabetical.
