"""Shipped duplicate matches of bidding policies, one rows table per preset (``binokel study match --out``;
read by the report, :mod:`binokel_sim.analyses.report_match`)."""
