"""The one exception type that user-facing commands turn into a one-line error (exit 2)."""


class InputError(ValueError):
    """Bad user input: a wrong card, a broken rules file, an impossible position.

    The message is one line that names the problem; the CLI prints it as
    ``error: <message>`` and exits with status 2.
    """
