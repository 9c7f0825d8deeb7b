"""Meld odds: the Monte Carlo kernels and the exact combinatorics (dealt hand, hand + Tapp, best kept hand)."""
