"""The one exception type that user-facing commands turn into a one-line error (exit 2)."""


class InputError(ValueError):
    """Bad user input: a wrong card, a broken rules file, an impossible position.

    The message is one line that names the problem; the CLI prints it as
    ``error: <message>`` and exits with status 2.
    """


class WriteError(InputError):
    """An output could not be written (disk full, a read-only file system): one line naming the file.

    The file keeps what it held before (writes are atomic), and no temporary file is left.
    """


class MissingModel(InputError):
    """A question needs a fitted model (or a corpus) that these rules lack: one line naming the command that
    makes it."""


def shown(value: object, limit: int = 60) -> str:
    """``repr(value)``, cut to about ``limit`` characters for a one-line message.

    >>> shown("x" * 100)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (100 characters)"
    """
    try:
        r = repr(value)
    except ValueError:  # an int of more digits than Python prints
        return "a number too long to show"
    if len(r) <= limit:
        return r
    return r[:limit - 3] + "..." + (f" ({len(value)} characters)" if isinstance(value, str) else "")


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


def check_share(name: str, value: object) -> float:
    """``value`` as a float strictly between 0 and 1 (a confidence, a share), else :class:`InputError`.

    >>> check_share("confidence", 0.8)
    0.8
    >>> check_share("confidence", 1.5)
    Traceback (most recent call last):
    ...
    binokel_sim.errors.InputError: confidence: must be between 0 and 1 (exclusive), got 1.5
    """
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.0 < float(value) < 1.0:
        raise InputError(f"{name}: must be between 0 and 1 (exclusive), got {value!r}")
    return float(value)
