"""The deals the studies read: one row per random deal, played out (:mod:`.deals`), taken from a matching
corpus where one ships and solved afresh otherwise (:mod:`.rows`).

The studies themselves (the Tapp's worth, bid levels, calibration, the report) are the modules of
``analyses/``; their commands live in ``cli/``. ``deals`` sits in the evaluation layer (the instant tier
reads its bounds), ``rows`` above the corpus it reads.
"""
