"""Whether two fitted instant models are one model, up to the rounding of the machine that fitted them.

Least squares, pseudo-inverses and the censored fit round differently on another CPU or BLAS kernel: a refit
of the shipped real-play model on another machine gave the intercept ``130.89734923247934`` against the
stored ``130.8973492324788``. Such a refit is the same model, and the code says so here, in one place, never
with ``==`` on fitted floats:

- every fitted float array (line, Tapp line and its covariance, pool edges, the estimate's error model, the
  drawn ladder's edges and seat shifts) agrees to :data:`RTOL` relative to its largest entry;
- every array of rounded residuals (whole points: ``rint(total - line)``) and of pool indices agrees
  exactly, except that a last-bit difference may tip a value at a half point or a pool edge: at most one
  point (or one pool) apart, in at most :data:`ROUNDED_SHARE` of the entries;
- the rules hash, the rules' name and the number of draws are equal.

>>> from binokel_sim.evaluation.instant import InstantModel
>>> a = InstantModel(rules_hash="x", rules="standard", intercept=130.8973492324788, coef=[1.0] * 7,
...                  seat=[0.0, -10.7, -6.5], residuals=[[3, 1, 1]] * 2000, tapp=[50.0, [0.0] * 7, 10.0])
>>> b = InstantModel(rules_hash="x", rules="standard", intercept=130.89734923247934, coef=[1.0] * 7,
...                  seat=[0.0, -10.7, -6.5], residuals=[[4, 1, 1]] + [[3, 1, 1]] * 1999, tapp=[50.0, [0.0] * 7, 10.0])
>>> a == b, same_model(a, b), differences(a, b)
(False, True, [])
>>> from dataclasses import replace
>>> differences(a, replace(a, intercept=131.0))
['intercept: 130.8973492324788 against 131.0 (beyond a relative 1e-09)']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from binokel_sim.evaluation.instant import InstantModel

__all__ = ["RTOL", "ROUNDED_SHARE", "ModelIdentity", "differences", "identity", "same_model"]

#: Fitted floats agree to this relative tolerance (of each array's largest entry). The CPUs and BLAS kernels
#: seen so far differ near 1e-14 relative; 1e-9 is far above that and far below any change a refit on other
#: deals or other code makes (those move coefficients by 1e-3 and more).
RTOL = 1e-9
#: The share of rounded entries (residual points, pool indices) a last-bit difference may tip by one.
ROUNDED_SHARE = 1e-3

_EXACT = ("rules_hash", "rules", "draws")
_FLOATS = ("intercept", "coef", "seat", "tapp_cov", "pool_edges", "open_share", "estimate_error", "draw_edges",
           "draw_shift")
_ROUNDED = ("residuals", "pool", "draw_rows")


def _floats(v: Any) -> np.ndarray:
    """The numbers of a (possibly nested, ragged) field as one flat float array."""
    if isinstance(v, (list, tuple)):
        parts = [_floats(x) for x in v]
        return np.concatenate(parts) if parts else np.empty(0)
    return np.array([float(v)])


def _float_gap(a: Any, b: Any, rtol: float) -> str | None:
    x, y = _floats(a), _floats(b)
    if x.shape != y.shape:
        return f"{x.size} numbers against {y.size}"
    scale = max(float(np.abs(x).max(initial=0.0)), float(np.abs(y).max(initial=0.0)))
    if np.allclose(x, y, rtol=0.0, atol=rtol * scale):
        return None
    i = int(np.argmax(np.abs(x - y)))
    return f"{float(x[i])!r} against {float(y[i])!r} (beyond a relative {rtol:g})"


def _rounded_gap(a: Any, b: Any, share: float) -> str | None:
    x, y = _floats(a), _floats(b)
    if x.shape != y.shape:
        return f"{x.size} entries against {y.size}"
    d = np.abs(x - y)
    if d.max(initial=0.0) > 1 or (d > 0).sum() > share * max(x.size, 1):
        return f"{int((d > 0).sum())} of {x.size} entries differ, by up to {d.max(initial=0.0):g}"
    return None


def differences(a: "InstantModel", b: "InstantModel", rtol: float = RTOL, share: float = ROUNDED_SHARE) -> list[str]:
    """What sets ``a`` and ``b`` apart beyond the machine's rounding, a line per field (empty: one model)."""
    out = []
    for name in _EXACT:
        if getattr(a, name) != getattr(b, name):
            out.append(f"{name}: {getattr(a, name)!r} against {getattr(b, name)!r}")
    gaps = [(n, _float_gap(getattr(a, n), getattr(b, n), rtol)) for n in _FLOATS]
    gaps.append(("tapp", _float_gap(a.tapp, b.tapp, rtol)))
    gaps += [(n, _rounded_gap(getattr(a, n), getattr(b, n), share)) for n in _ROUNDED]
    return out + [f"{n}: {g}" for n, g in gaps if g is not None]


def same_model(a: "InstantModel | None", b: "InstantModel | None", rtol: float = RTOL) -> bool:
    """Whether ``a`` and ``b`` are one fitted model (:func:`differences` finds nothing); None is no model."""
    return a is not None and b is not None and not differences(a, b, rtol)


@dataclass(frozen=True)
class ModelIdentity:
    """:func:`identity` of a fitted model: its exact fields (``rules_hash``, ``rules``, ``draws``), its ``play``,
    and digests of its rounded integers (``rounded``) and of its floats to 9 digits (``floats``);
    :meth:`to_dict` is the cache key's part (a checkpoint's)."""

    rules_hash: str
    rules: str
    draws: int
    play: str
    rounded: str
    floats: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def identity(m: "InstantModel") -> ModelIdentity:
    """A model's identity for a cache key (a checkpoint's): its exact fields and play, a digest of its rounded
    integers, and a digest of its fitted floats rounded to 9 significant digits (:data:`RTOL`).

    The same model fitted on another CPU gives the same identity but for a float that the rounding tips across
    a 9th-digit boundary; then the key misses and the cached work is only computed again -- never reused for
    another model, as a key on the raw float bits would be for no model at all on another machine.

    >>> from binokel_sim.evaluation.instant import InstantModel
    >>> a = InstantModel(rules_hash="x", rules="standard", intercept=130.8973492324788, coef=[1.0] * 7,
    ...                  seat=[0.0, -10.7, -6.5], residuals=[[3, 1, 1]], tapp=[50.0, [0.0] * 7, 10.0])
    >>> from dataclasses import replace
    >>> same, other = replace(a, intercept=130.89734923247934), replace(a, intercept=131.0)
    >>> identity(a) == identity(same), identity(a) == identity(other)
    (True, False)
    """
    import hashlib

    def digest(names: tuple[str, ...], text) -> str:
        return hashlib.sha256("|".join(text(_floats(getattr(m, n))) for n in names).encode()).hexdigest()[:24]

    return ModelIdentity(**{n: getattr(m, n) for n in _EXACT}, play=m.play,
                         rounded=digest(_ROUNDED, lambda x: ",".join(str(int(v)) for v in x)),
                         floats=digest((*_FLOATS, "tapp"),
                                       lambda x: ",".join(f"{v + 0.0:.8e}" for v in x)))  # -0.0 as 0.0
