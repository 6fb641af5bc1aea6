"""The REST-MEX 2022 composite measures over several prediction fields: measure_s and measure_c,
each a :func:`~compreport.stats.metrics.composite.combine` of per-field measures."""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError, raw
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared
from compreport.stats.metrics.classification import ClassificationMetric
from compreport.stats.metrics.composite import Part, check_weights, combine
from compreport.stats.metrics.fields import field_index, sets_error
from compreport.stats.metrics.numeric import ErrorMetric

#: The parts of the REST-MEX measures (the registry's own instances are alike).
MACRO_F1 = ClassificationMetric("macro_f1", "")
MAE = ErrorMetric("mae", "")


class MeasureS(Metric):
    """REST-MEX 2022 sentiment: ``(1/(1 + MAE_polarity) + macroF1_type) / 2`` (thesis A.1).

    Predictions have two fields: polarity (1-5, numeric) and attraction type (labels).
    ``polarity`` and ``type`` name them (default: first and second field); ``weights`` (default
    ``[1, 1]``) weigh the two parts. A :mod:`composite <.composite>` of ``mae`` (scored as
    ``1/(1 + MAE)``) and ``macro_f1``, resampled jointly.
    """

    reads = "several fields per item"

    name = "measure_s"
    description = "REST-MEX 2022 sentiment: (1/(1+MAE polarity) + macro-F1 type)/2 (two fields)"
    allowed = ("polarity", "type", "weights")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the polarity (numbers) and type (labels) fields; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        if len(comp.fields) < 2:
            raise InputError(
                f"competition {comp.id!r}: metric 'measure_s' needs predictions with two fields "
                f"(polarity, type); declare `fields` in [data]"
            )
        fp = field_index(comp, params, "polarity", 0)
        ft = field_index(comp, params, "type", 1)
        if (err := sets_error(comp, ft, self.name)) is not None:  # one type per review
            raise err
        w = check_weights(comp, self.name, params.get("weights"), 2)
        try:
            mae = MAE.prepare(comp, {"field": comp.fields[fp]})
        except InputError as exc:
            raise InputError(raw(exc).replace("metric 'mae'", "metric 'measure_s'")) from None
        f1 = MACRO_F1.prepare(comp, {"field": comp.fields[ft]})
        # type first: the columns in the order of REST-MEX's first implementation (label codes,
        # then numbers), so the patterns engine draws the same resamples (a + b == b + a)
        parts = [Part(f1, w[1]), Part(mae, w[0], lambda x: 1 / (1 + x))]
        return combine(self.name, params, parts, True, 1.0)

    def reference(self, gold, pred, polarity=None, type=None):
        """scikit-learn's MAE and macro-F1 of ``gold``, ``pred``, (n, 2): [polarity, type]."""
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold), np.asarray(pred)
        mae = sk.mean_absolute_error(gold[:, 0].astype(float), pred[:, 0].astype(float))
        f1 = sk.f1_score(gold[:, 1], pred[:, 1], average="macro", zero_division=0)
        return (1 / (1 + mae) + f1) / 2


class MeasureC(Metric):
    """REST-MEX 2022 epidemiological semaphore: ``sum_w weight_w * macroF1_w / sum(weights)``.

    One field per forecast horizon (default all fields, in order) with weights
    ``[1, 2, 4, 8]`` (thesis A.1: weeks 0, 2, 4, 8).
    """

    reads = "several fields per item"

    name = "measure_c"
    description = "REST-MEX 2022 semaphore: (F1_w0 + 2 F1_w2 + 4 F1_w4 + 8 F1_w8)/15 (four fields)"
    allowed = ("fields", "weights")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the label fields of every horizon; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        names = params.get("fields") or list(comp.fields)
        fs = [field_index(comp, {"field": nm}) for nm in names]
        for f in fs:  # one semaphore colour per horizon
            if (err := sets_error(comp, f, self.name)) is not None:
                raise err
        weights = check_weights(
            comp, self.name, params.get("weights") or [2**j for j in range(len(fs))], len(fs)
        )
        parts = [
            Part(MACRO_F1.prepare(comp, {"field": comp.fields[f]}), w)
            for f, w in zip(fs, weights, strict=True)
        ]
        return combine(self.name, params, parts, True, 1.0)

    def reference(self, gold, pred, fields=None, weights=None):
        """Weighted mean of scikit-learn's macro-F1 per field; ``gold``/``pred``: (n, F) arrays."""
        from sklearn import metrics as sk

        gold, pred = np.asarray(gold), np.asarray(pred)
        w = np.asarray(weights or [2**j for j in range(gold.shape[1])], float)
        f1 = [
            sk.f1_score(gold[:, j], pred[:, j], average="macro", zero_division=0)
            for j in range(gold.shape[1])
        ]
        return float(np.dot(w, f1) / w.sum())
