"""Two-hand Binokel (docs/rules.md §10): the talon game."""
