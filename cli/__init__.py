"""Click commands of the ``binokel`` CLI: parse, call the library, write output."""
