"""Melds: the meld scorer (numba), meld events and patterns, and the readable explanation of a hand's melds."""
