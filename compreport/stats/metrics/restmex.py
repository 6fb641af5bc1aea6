"""The REST-MEX 2022 composite measures over several prediction fields: measure_s and measure_c."""

from __future__ import annotations

import numpy as np

from compreport.errors import InputError
from compreport.inputs.competition import Competition
from compreport.stats.metrics.base import Metric, Prepared, safe_divide
from compreport.stats.metrics.classification import confusion_stats, f1_per_class, label_mask
from compreport.stats.metrics.fields import encode, field_index, to_float


class MeasureS(Metric):
    """REST-MEX 2022 sentiment: ``(1/(1 + MAE_polarity) + macroF1_type) / 2`` (thesis A.1).

    Predictions have two fields: polarity (1-5, numeric) and attraction type (labels).
    ``polarity`` and ``type`` name them (default: first and second field).
    """

    name = "measure_s"
    description = "REST-MEX 2022 sentiment: (1/(1+MAE polarity) + macro-F1 type)/2 (two fields)"
    allowed = ("polarity", "type")

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
        gold, pred = to_float(comp, fp, self.name)
        enc = encode(comp, ft, self.name)
        m, k = comp.m, enc.k
        full_mask = label_mask(comp, enc, {})
        columns = np.column_stack([enc.gold, enc.pred.T, gold, pred.T]).astype(np.float64)

        def stats(rows):
            gs, conf = confusion_stats(rows[:, : 1 + m], k, m)
            err = np.abs(rows[:, 2 + m :] - rows[:, [1 + m]])
            return gs, np.concatenate([conf, err[..., None]], axis=-1)

        def finalize(shared, sys, count, systems=None):
            gs = shared[..., None, :]
            mask = full_mask if systems is None else full_mask[systems]
            f1 = (f1_per_class(sys[..., :k], sys[..., k : 2 * k], gs) * mask).sum(-1) / mask.sum(-1)
            mae = safe_divide(sys[..., 2 * k], np.asarray(count)[..., None])
            return (1 / (1 + mae) + f1) / 2

        return self._prepared(
            params,
            columns=columns,
            stats=stats,
            finalize=finalize,
            label_fields=[ft],
            class_scores={ft: None},
        )

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

    name = "measure_c"
    description = "REST-MEX 2022 semaphore: (F1_w0 + 2 F1_w2 + 4 F1_w4 + 8 F1_w8)/15 (four fields)"
    allowed = ("fields", "weights")

    def prepare(self, comp: Competition, params: dict) -> Prepared:
        """Bind to the label fields of every horizon; see :meth:`Metric.prepare`."""
        params = self.check_params(params)
        names = params.get("fields") or list(comp.fields)
        fs = [field_index(comp, {"field": nm}) for nm in names]
        weights = np.asarray(params.get("weights") or [2**j for j in range(len(fs))], dtype=float)
        if len(weights) != len(fs):
            raise InputError(
                f"competition {comp.id!r}: metric 'measure_c' has {len(fs)} field(s) "
                f"but {len(weights)} weight(s)"
            )
        m = comp.m
        encs = [encode(comp, f, self.name) for f in fs]
        masks = [label_mask(comp, e, {}) for e in encs]
        columns = np.column_stack([np.column_stack([e.gold, e.pred.T]) for e in encs]).astype(
            np.float64
        )
        ks = [e.k for e in encs]

        def stats(rows):
            shared, sys = [], []
            for j, k in enumerate(ks):
                gs, conf = confusion_stats(rows[:, j * (m + 1) : (j + 1) * (m + 1)], k, m)
                shared.append(gs)
                sys.append(conf)
            return np.concatenate(shared, -1), np.concatenate(sys, -1)

        def finalize(shared, sys, count, systems=None):
            total, a, b = 0.0, 0, 0
            for w, k, mask in zip(weights, ks, masks, strict=True):
                mask = mask if systems is None else mask[systems]
                gs = shared[..., None, a : a + k]
                f1 = (
                    f1_per_class(sys[..., b : b + k], sys[..., b + k : b + 2 * k], gs) * mask
                ).sum(-1) / mask.sum(-1)
                total = total + w * f1
                a, b = a + k, b + 2 * k
            return total / weights.sum()

        return self._prepared(
            params,
            columns=columns,
            stats=stats,
            finalize=finalize,
            label_fields=fs,
            class_scores={f: None for f in fs},
        )

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
