"""How metrics are named for readers: display names, and titles with their parameters in words.

For HTML, PDF, Markdown, the terminal, figures and team sheets. Files, CSV columns and
results.json keep the metric ids; the LaTeX tables typeset the same names
(:data:`compreport.report.latex.tex.METRIC_NAMES`).
"""

from __future__ import annotations

from types import MappingProxyType

from compreport.language import N_, tr
from compreport.stats.results import MetricAnalysis

#: Display names of the built-in metrics as plain Unicode text (HTML, PDF, Markdown, the terminal,
#: figures); the LaTeX tables typeset the same names
#: (:data:`compreport.report.latex.tex.METRIC_NAMES`). Any other metric (a user's) shows its own
#: name. Files and results.json keep the metric ids.
METRIC_LABELS = MappingProxyType(
    {
        "accuracy": N_("accuracy"),
        "f1": "F1",
        "macro_f1": "macro-F1",
        "micro_f1": "micro-F1",
        "weighted_f1": N_("weighted F1"),
        "precision": N_("precision"),
        "recall": N_("recall"),
        "macro_precision": N_("macro-precision"),
        "macro_recall": N_("macro-recall"),
        "mae": "MAE",
        "mse": "MSE",
        "rmse": "RMSE",
        "pearson": N_("Pearson's r"),
        "spearman": N_("Spearman's ρ"),
        "roc_auc": "ROC AUC",
        "qwk": "QWK",
        "mcc": "MCC",
        "measure_s": "measure_S",
        "measure_c": "measure_C",
        "map": "MAP",
        "mrr": "MRR",
        "icm": "ICM",
        "icm_norm": "ICM-Norm",
        "icm_soft": "ICM-Soft",
        "icm_soft_norm": "ICM-Soft-Norm",
        "cross_entropy": "CE",
        "soft_mae": "MAE-Soft",
        "samples_f1": N_("samples-F1"),
        "hamming_loss": N_("Hamming loss"),
        "subset_accuracy": N_("subset accuracy"),
        "kappa": N_("Cohen's κ"),
        "balanced_accuracy": N_("balanced accuracy"),
        "log_loss": N_("log loss"),
        "brier": N_("Brier score"),
        "span_f1": N_("span F1"),
        "span_precision": N_("span precision"),
        "span_recall": N_("span recall"),
        "span_f1_overlap": N_("span F1 (overlap)"),
        "span_precision_overlap": N_("span precision (overlap)"),
        "span_recall_overlap": N_("span recall (overlap)"),
        "relation_f1": N_("relation F1"),
        "relation_precision": N_("relation precision"),
        "relation_recall": N_("relation recall"),
    }
)
#: The ranking metrics cut at k (:mod:`compreport.stats.metrics.ranking`): ``ndcg@10`` ->
#: ``nDCG@10``.
CUT_LABELS = MappingProxyType({"map": "MAP", "p": "P", "ndcg": "nDCG"})
#: Averaged labels listed by name up to this many; more are counted ("over 20 classes").
LABELS_LISTED = 4


#: The works that define a built-in measure, cited beside it in the methods paragraph (their
#: entries are in :data:`compreport.report.references.REFERENCES`); measures every reader knows,
#: such as accuracy or F1, cite nothing.
MEASURE_REFERENCES = MappingProxyType(
    {
        "icm": ("amigo2022",),
        "icm_norm": ("amigo2022",),
        "icm_soft": ("amigo2022",),
        "icm_soft_norm": ("amigo2022",),
        "kappa": ("cohen1960",),
        "qwk": ("cohen1968",),
        "mcc": ("matthews1975",),
        **{
            f"span_{w}{o}": ("tjongkimsang2003",)
            for w in ("f1", "precision", "recall")
            for o in ("", "_overlap")
        },
    }
)


def metric_label(ma: MetricAnalysis | str) -> str:
    """The metric's display name (:data:`METRIC_LABELS`) in the report's language; a metric
    that declares one (:attr:`MetricAnalysis.label`, a user metric's ``display_name``) shows it.

    Examples
    --------
    >>> metric_label("macro_f1"), metric_label("ndcg@10"), metric_label("my_metric")
    ('macro-F1', 'nDCG@10', 'my_metric')
    """
    if not isinstance(ma, str) and getattr(ma, "label", None):
        return ma.label
    name = ma if isinstance(ma, str) else ma.name
    kind, at, k = name.partition("@")
    if at and kind in CUT_LABELS and k.isdigit():
        return f"{CUT_LABELS[kind]}@{k}"
    return tr(METRIC_LABELS[name]) if name in METRIC_LABELS else name


def positive(name: str) -> str:
    """What ``pos_label`` names for metric ``name``: ``relevant label`` for a ranking metric (the
    relevant candidates), else ``positive class``."""
    kind = name.partition("@")[0]
    ranking = kind in ("map", "mrr", "p", "ndcg") and metric_label(name) != name
    return tr("relevant label") if ranking else tr("positive class")


def metric_title(ma: MetricAnalysis) -> str:
    """The display name with its parameters in words: ``macro-F1 over 20 classes``, ``macro-F1 over
    FAVOR, AGAINST``, ``F1 (positive class 1)``, ``MAE of polarity``; any other parameter as
    ``(key = value)``."""
    params = dict(ma.params or {})
    out = metric_label(ma)
    if isinstance(params.get("parts"), list):  # a composite: its formula, in symbols
        return out + " = " + composite_formula(params["parts"], params.get("weights"))
    params.pop("label", None)  # the name shown (composite, mean, ratio)
    labels = params.pop("labels", None)
    if labels:
        labels = list(labels)
        out += (
            tr(" over {n} classes", n=len(labels))
            if len(labels) > LABELS_LISTED
            else tr(" over {labels}", labels=", ".join(map(str, labels)))
        )
    if params.get("pos_label") is not None:
        out += f" ({positive(ma.name)} {params.pop('pos_label')})"
    params.pop("pos_label", None)
    if params.get("field") is not None:
        out += tr(" of {field}", field=params.pop("field"))
    if params.get("fields"):
        out += tr(" of {field}", field=" + ".join(map(str, params.pop("fields"))))
    rest = ", ".join(f"{k} = {v}" for k, v in sorted(params.items()))
    return out + (f" ({rest})" if rest else "")


def composite_formula(parts: list[dict], weights: list | None) -> str:
    """A composite's parts as a formula of their titles: ``(macro-F1 of a + macro-F1 of b)/2``,
    ``(2·F1 of a + 1·F1 of b)/3`` when the weights differ.

    >>> composite_formula([{"metric": "rmse", "field": "a"}, {"metric": "rmse", "field": "b"}],
    ...                   [1.0, 1.0])
    '(RMSE of a + RMSE of b)/2'
    >>> composite_formula([{"metric": "accuracy", "field": "a"}, {"metric": "mae"}], [2, 1])
    '(2·accuracy of a + 1·MAE)/3'
    """
    from types import SimpleNamespace

    weights = list(weights) if weights else [1] * len(parts)
    titles = [
        metric_title(
            SimpleNamespace(name=p["metric"], params={k: v for k, v in p.items() if k != "metric"})
        )
        for p in parts
    ]
    total = sum(weights)
    num = lambda w: f"{w:g}"  # noqa: E731
    if len(set(weights)) == 1:
        return f"({' + '.join(titles)})/{len(titles)}"
    return (
        "("
        + " + ".join(f"{num(w)}·{t}" for w, t in zip(weights, titles, strict=True))
        + (f")/{num(total)}")
    )
