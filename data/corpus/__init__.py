"""Shipped corpora of solved deals, one folder per preset (see :mod:`binokel_sim.corpus`)."""
