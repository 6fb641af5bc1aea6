"""What every metric provides: the :class:`Metric` interface and the :class:`Prepared` result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from compreport.errors import InputError, suggest
from compreport.inputs.competition import Competition


@dataclass
class Prepared:
    """A metric bound to one competition's data.

    Attributes
    ----------
    name : str
        The metric's name (a registry name or ``file.py:function``).
    params : dict
        The parameters after validation and defaults (``pos_label`` filled in, ``labels``
        as a list).
    higher_is_better : bool
        Orientation of the scores.
    ideal : float or None
        The best possible score (``None``: unbounded or unknown).
    columns : ndarray, shape (n, c), or None
        Numeric columns that fully determine the item statistics (used to merge
        identical items into patterns). ``None`` for non-decomposable metrics.
    stats : callable
        ``stats(rows)`` with ``rows`` a (R, c) slice of ``columns`` returns
        ``(shared, per_system)`` of shapes (R, a) and (R, m, b).
    finalize : callable
        ``finalize(shared_sum, system_sum, count, systems=None)`` with shapes (..., a),
        (..., m, b), (...) returns scores of shape (..., m). ``systems`` (k,) says which
        system each of ``k`` stat rows belongs to when they are not the m systems in order
        (the randomization test scores swapped pairs).
    swapped : callable or None
        For the randomization test, when a system's item statistics depend on the system and not
        only on the item's values (``pearson`` centres each system on its own mean):
        ``swapped(shared, kept, moved_shared, moved, count, systems, sources)`` returns the scores
        (R, k) of systems ``systems`` (k,) once they hold the predictions of ``sources`` (k,) on
        the swapped items, ``shared`` (R, a) the shared sums of all items, ``kept`` (R, k, b) the
        sums of ``systems`` over the items they keep, ``moved_shared`` (R, a) and ``moved``
        (R, k, b) the shared sums and those of ``sources`` over the swapped items. ``None``: the
        statistics are the same whichever system's column holds a value, so the engine scores
        ``finalize(shared, kept + moved, count, systems)``.
    evaluate : callable or None
        For non-decomposable metrics: ``evaluate(idx)`` returns the (m,) scores of the
        items ``idx`` (an int array, repeats allowed).
    label_fields : list of int
        Fields read as class labels (checked for labels never seen in gold).
    cells : int or None
        Set by confusion-based metrics: ``columns`` are integer codes ``0..cells-1`` of gold then
        of the m systems, an item's shared statistics depend only on its gold code and its
        statistics for system ``s`` only on the pair (gold, system ``s``'s code), the same function
        for every system. The engine may then sum resample weights per (gold, predicted) cell of
        each system instead of per item (:mod:`compreport.stats.resampling`).
    class_scores : dict
        Gold fields holding class labels whose per-class statistics the score is built from (a
        class's F1, precision or recall, the ranks of ROC AUC's two classes), each with the labels
        concerned (None: every gold class): a class with few items makes them unstable (the
        analysis warns, :func:`compreport.stats.classes.small_classes`).
    label : str or None
        The name readers see in captions, tables and results.json's ``label`` instead of
        :attr:`name` (a user metric's ``display_name``); None: the name's own display form.

    Examples
    --------
    Macro-F1 of two systems on three items; a bootstrap resample's score is the same function of
    the item statistics weighted by how often it drew each item:

    >>> import numpy as np
    >>> from compreport.inputs.competition import Competition, MetricSpec
    >>> from compreport.stats.metrics import get_metric
    >>> comp = Competition("demo", "demo", gold=np.array([["a"], ["b"], ["a"]]),
    ...                    predictions=np.array([[["a"], ["b"], ["b"]], [["a"], ["a"], ["a"]]]),
    ...                    systems=["s1", "s2"], item_ids=np.array(["1", "2", "3"]),
    ...                    metrics=[MetricSpec("macro_f1")])
    >>> p = get_metric("macro_f1").prepare(comp, {})
    >>> shared, per = p.stats(p.columns)       # (3, a) and (3, 2, b): one row per item
    >>> p.finalize(shared.sum(0), per.sum(0), 3).round(3).tolist()
    [0.667, 0.4]
    >>> w = np.array([0.0, 1.0, 2.0])          # a resample: item 2 once, item 3 twice
    >>> p.finalize(w @ shared, np.tensordot(w, per, 1), 3).round(3).tolist()
    [0.25, 0.4]
    """

    name: str
    params: dict
    higher_is_better: bool
    ideal: float | None
    columns: np.ndarray | None = field(default=None, repr=False)
    stats: Callable | None = field(default=None, repr=False)
    finalize: Callable | None = field(default=None, repr=False)
    swapped: Callable | None = field(default=None, repr=False)
    evaluate: Callable | None = field(default=None, repr=False)
    label_fields: list[int] = field(default_factory=list)
    cells: int | None = None
    class_scores: dict = field(default_factory=dict)
    label: str | None = None

    @property
    def decomposable(self) -> bool:
        """Whether scores come from summed item statistics (``columns``/``stats``/``finalize``)."""
        return self.columns is not None


class Metric:
    """Base class of every metric.

    Subclasses set the attributes and implement :meth:`prepare` and :meth:`reference`.

    Attributes
    ----------
    name : str
        Registry name.
    higher_is_better : bool
        Orientation of the scores.
    ideal : float or None
        The best possible score.
    allowed : tuple of str
        Parameter names the metric accepts.
    description : str
        One line for ``compreport metrics``.
    reads : str
        What the gold and the runs must give, the heading ``compreport metrics`` lists the metric
        under (default ``one label per item``).
    ranks : bool
        A ranking metric, which reads the runs' scores (``--score-col``).
    """

    name: str = ""
    higher_is_better: bool = True
    ideal: float | None = 1.0
    allowed: tuple[str, ...] = ("field",)
    description: str = ""
    reads: str = "one label per item"
    #: Whether it ranks candidates by the runs' scores (``map``, ``mrr``, ...): read from the
    #: runs' score column when label metrics read their label column beside it.
    ranks: bool = False

    def check_params(self, params: dict) -> dict:
        """A copy of ``params``.

        Raises
        ------
        InputError
            For a parameter name not in :attr:`allowed` (with a "did you mean").
        """
        for key in params:
            if key not in self.allowed:
                opts = ", ".join(self.allowed) or "none"
                raise InputError(
                    f"metric {self.name!r}: unknown parameter {key!r}"
                    f"{suggest(key, list(self.allowed))} (parameters: {opts})"
                )
        return dict(params)

    def prepare(self, comp: Competition, params: dict) -> Prepared:  # pragma: no cover - abstract
        """Validate ``params`` and the competition's values and bind the metric to them.

        Parameters
        ----------
        comp : Competition
            Gold (n, F) and predictions (m, n, F) as strings.
        params : dict
            The user's parameters (``field``, ``pos_label``, ``labels``, ...).

        Returns
        -------
        Prepared
        """
        raise NotImplementedError

    def reference(self, gold: np.ndarray, pred: np.ndarray, **params) -> float:  # pragma: no cover
        """The metric computed by scikit-learn/scipy on raw values (used by the tests).

        Parameters
        ----------
        gold, pred : array_like, shape (n,)
            Gold and one system's predictions.
        **params
            As for :meth:`prepare`.

        Returns
        -------
        float
        """
        raise NotImplementedError

    def _prepared(self, params: dict, **kw) -> Prepared:
        return Prepared(self.name, params, self.higher_is_better, self.ideal, **kw)


def present_labels(gold_counts, predicted_counts, drop=None) -> np.ndarray:
    """Which labels a score averages over when the label set is each system's own: those with a
    gold count or a predicted count above 0 (scikit-learn's union of ``y_true`` and ``y_pred``),
    never the code ``drop`` (a missing prediction). Shapes broadcast: (..., k).

    The randomization test needs it: a system holding some of another's predictions averages over
    the labels that mixture predicts, not over its own (:func:`mixture_swapped`).

    >>> present_labels(np.array([2.0, 0, 0]), np.array([[0.0, 1, 0], [1.0, 0, 0]])).tolist()
    [[True, True, False], [True, False, False]]
    """
    mask = (np.asarray(gold_counts) > 0) | (np.asarray(predicted_counts) > 0)
    if drop is not None:
        mask = mask.copy()
        mask[..., drop] = False
    return mask


def mixture_swapped(finalize: Callable) -> Callable:
    """A :attr:`Prepared.swapped` for metrics whose label set depends on the system's predictions
    (macro and micro averages without ``labels``, Hamming loss, span averages): it scores the
    mixture of kept and received statistics with ``finalize(..., mixed=True)``, which takes the
    labels from the mixture's own counts instead of the original system's."""

    def swapped(shared, kept, moved_shared, moved, count, systems, sources):
        return finalize(shared, kept + moved, count, systems, mixed=True)

    return swapped


def safe_divide(a, b) -> np.ndarray:
    """``a / b`` elementwise (broadcast), 0 where ``b == 0`` (scikit-learn's ``zero_division=0``).

    Examples
    --------
    >>> safe_divide([1.0, 2.0], [4.0, 0.0]).tolist()
    [0.25, 0.0]
    """
    a, b = np.broadcast_arrays(np.asarray(a, dtype=float), np.asarray(b, dtype=float))
    return np.divide(a, b, out=np.zeros(a.shape), where=b != 0)
