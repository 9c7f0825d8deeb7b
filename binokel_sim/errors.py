"""The one exception type that user-facing commands turn into a one-line error (exit 2)."""


class InputError(ValueError):
    """Bad user input: a wrong card, a broken rules file, an impossible position.

    The message is one line that names the problem; the CLI prints it as
    ``error: <message>`` and exits with status 2.
    """


def check_count(name: str, value: object, minimum: int = 1) -> int:
    """``value`` as an int >= ``minimum`` (a count of deals, samples, games; a seed), else :class:`InputError`.

    >>> check_count("deals", 5)
    5
    >>> check_count("deals", 0)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: deals: expected an integer >= 1, got 0
    """
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or int(value) < minimum:
        raise InputError(f"{name}: expected an integer >= {minimum}, got {value!r}")
    return int(value)
