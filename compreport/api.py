"""The Python API: read inputs, analyse them, read the results as tables.

>>> import compreport as cr
>>> data = cr.load("examples/workshop")                       # doctest: +SKIP
>>> a = cr.analyze(data, bootstrap=1000, seed=0)              # doctest: +SKIP
>>> a.leaderboard(competition="paraphrase")                   # doctest: +SKIP

:func:`load` reads what the command line's INPUT reads (a spec, a workshop directory, a wide
CSV/TSV), :func:`from_frame` reads a pandas wide table, and :func:`analyze` runs the analysis
under settings validated exactly as the CLI validates them (values given here override those of
the specs). Every problem raises :class:`~compreport.errors.InputError` (a ``ValueError``)
whose message names options the Python way (``pos_label=``, not ``--pos-label``; :mod:`compreport.language.caller`).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field

from compreport.errors import InputError
from compreport.inputs.competition import Competition, CompetitionInfo, MetricSpec
from compreport.settings import make_settings
from compreport.stats.results import Analysis
from compreport.workers import check_jobs

__all__ = ["Inputs", "analyze", "from_frame", "load"]


@dataclass
class Inputs:
    """Competitions read by :func:`load` or :func:`from_frame`, with what their specs said.

    Attributes
    ----------
    competitions : list of Competition
        In input order.
    settings : dict
        The ``[bootstrap]`` values of the specs as :class:`~compreport.settings.Settings`
        fields (validated); :func:`analyze` starts from them.
    workshop : dict
        ``name``, ``year`` and ``description`` of a workshop.toml (empty otherwise).
    pos_label : str or None
        The ``pos_label`` given to :func:`load`/:func:`from_frame`; :func:`analyze` applies it
        to the metrics its ``metrics=`` names, as the CLI applies ``--pos-label``.
    labels : list of str or None
        Likewise for ``labels``.
    specs : list of str
        The spec files read (``workshop.toml``, ``competition.toml``).
    """

    competitions: list[Competition]
    settings: dict = field(default_factory=dict)
    workshop: dict = field(default_factory=dict)
    pos_label: str | None = None
    labels: list[str] | None = None
    specs: list[str] = field(default_factory=list)

    @property
    def files(self) -> list[str]:
        """Every file these inputs were read from (specs, gold, runs, names files, user metrics):
        what a report must never write over."""
        from compreport.inputs.spec import files_read

        return files_read(self.competitions, self.specs)

    def __repr__(self) -> str:
        ids = ", ".join(c.id for c in self.competitions)
        ws = f"workshop {self.workshop['name']!r}: " if self.workshop.get("name") else ""
        return f"<Inputs: {ws}{len(self.competitions)} competition(s): {ids}>"


# --------------------------------------------------------------------------- argument checks


def _names(value, what: str) -> list[str] | None:
    """``None``, or a list of strings from a string (comma list, as on the command line) or a sequence."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    try:
        items = list(items)
    except TypeError:
        raise InputError(f"`{what}` must be a name or a list of names; got {value!r}") from None
    if not all(isinstance(x, str) for x in items):
        raise InputError(f"`{what}` must be a name or a list of names; got {value!r}")
    out = [x.strip() for x in items if x.strip()]
    if not out:
        raise InputError(f"`{what}` names nothing; got {value!r}")
    return out


def _label(value) -> str | None:
    """``pos_label`` as the text the loaders compare it with (``1`` -> ``"1"``)."""
    return None if value is None else str(value)


def _labels(value) -> list[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        return _names(value, "labels")
    try:
        return [str(x) for x in value]
    except TypeError:
        raise InputError(f"`labels` must be a list of labels; got {value!r}") from None


def _metric_specs(
    metrics: list[str], pos_label: str | None, labels: list[str] | None
) -> list[MetricSpec]:
    """MetricSpecs for metric names, checked and parametrised as ``--metric`` does."""
    from compreport.inputs.spec import Options, metric_specs
    from compreport.stats.metrics import get_metric

    opts = Options(metrics=metrics, pos_label=pos_label, labels=labels, lookup=get_metric)
    return metric_specs([], opts, None)


# --------------------------------------------------------------------------- load


def load(
    path,
    *,
    metrics=None,
    gold: str | None = None,
    id: str | None = None,
    runs=None,
    pos_label=None,
    labels=None,
    sep: str | None = None,
    id_col=None,
    label_col=None,
    comments: bool | None = None,
    zip_member: str | None = None,
    names=None,
    exclude=None,
    missing: str | None = None,
    cluster_col=None,
    score_col=None,
    unjudged: bool | None = None,
    name: str | None = None,
    out_dir=None,
) -> Inputs:
    """Read competitions from files, as the command line reads its INPUT.

    Parameters
    ----------
    path : str or path-like, or a list of them
        A ``competition.toml``, a ``workshop.toml``, a directory holding one of them (or
        competition folders), a wide CSV/TSV table (gold column, optional id column, one column
        per system), or, with ``runs``, a gold file.
    metrics : str or list of str, optional
        Metric names (the first ranks systems); they replace the metrics of the specs. Needed
        for a table or a gold file. A string may be a comma list.
    gold : str, optional
        Gold column of a wide table (default ``"y"``, or the spec's ``gold_column``).
    id : str, optional
        Item-id column (a wide table: optional, a column called ``id`` is used when present;
        gold + run files: default ``"id"``).
    runs : str or path-like, optional
        A directory (its subfolders: one per team), glob or file of runs; ``path`` is then the gold file.
    pos_label : str or int, optional
        Positive class of ``f1``/``precision``/``recall``/``roc_auc``.
    labels : str or list, optional
        Classes averaged over by the macro/micro/weighted metrics.
    sep : {"auto", "tab", "comma", "whitespace"}, optional
        Field separator of gold and run files (default ``auto``: per file, tab or comma when every
        line holds one, else runs of blanks); the spec's ``[data] sep``.
    id_col, label_col : int or str, optional
        Id column and label column(s) of gold and run files: a 1-based position or a header name
        (JSON: a key); ``label_col`` may be a list (several fields). The spec's ``[data]`` keys.
    comments : bool, optional
        Skip lines starting with ``#`` (default True); ``[data] comments``.
    zip_member : str, optional
        The prediction file inside every ``.zip`` run; ``[data] zip_member``.
    names : str or path-like, optional
        A names file (CSV/TSV: ``run``, ``name``, ``team``, ``baseline``, ``exclude``); ``[names] file``.
    exclude : str or list of str, optional
        Globs of run files to leave out; added to ``[data] exclude``.
    missing : {"error", "wrong"}, optional
        A blank, absent or unreadable prediction: an error (default), or scored as a wrong answer.
    cluster_col : int or str, optional
        The gold file's (or wide table's) column naming each item's cluster (a question, a
        document, an author): the bootstrap then resamples clusters, not items; a 1-based position
        or a header name (a wide table: a name); ``[data] cluster`` (or ``query_col``). Ranking metrics
        (``map``, ``mrr``, ``p@k``, ``ndcg@k``) rank the candidates of each cluster: the query column.
    score_col : int or str, optional
        The run files' score column (ranking metrics); ``[data] score_col``.
    unjudged : bool, optional
        Candidates that runs list and the gold does not (TREC's unjudged documents) become items
        that are not relevant, in the query the runs give them (needs ``cluster_col``, the query
        column); ``[data] unjudged``. Without it they are an error.
    name : str, optional
        The competition's name (titles, captions; its id and folder are made from it) when ``path``
        is one table or gold file (default: the file's stem); a spec gives its own ``name``.
    out_dir : str or path-like, optional
        The output directory the report will be written to: runs (``runs``, or a spec's) read
        where it lies are refused before they are read. :meth:`compreport.Report.write` checks
        its ``out_dir`` against the runs again.

    Returns
    -------
    Inputs
        The competitions, the specs' ``[bootstrap]`` settings and the workshop.

    Raises
    ------
    InputError
        For any problem with the files or the options; the message names the file and the
        line, column or id at fault.
    """
    from compreport.inputs.spec import Options, load_inputs
    from compreport.stats.metrics import get_metric

    if isinstance(path, (str, os.PathLike)):
        paths = [os.fspath(path)]
    else:
        try:
            paths = [os.fspath(p) for p in path]
        except TypeError:
            raise InputError(f"`path` must be a path or a list of paths; got {path!r}") from None
    if not paths:
        raise InputError("`path` names no input")
    for value, what in (
        (sep, "sep"),
        (zip_member, "zip_member"),
        (missing, "missing"),
        (name, "name"),
    ):
        if value is not None and not isinstance(value, str):
            raise InputError(f"`{what}` must be a string; got {value!r}")
    if comments is not None and not isinstance(comments, bool):
        raise InputError(f"`comments` must be True or False; got {comments!r}")
    if isinstance(exclude, (str, os.PathLike)):
        exclude = [exclude]
    try:
        exclude = [os.fspath(g) for g in exclude or []]
    except TypeError:
        raise InputError(f"`exclude` must be a glob or a list of globs; got {exclude!r}") from None
    if name is not None:
        from compreport.inputs.slugs import check_name

        check_name(name, paths)
    opts = Options(
        gold=gold,
        id=id,
        runs=None if runs is None else os.fspath(runs),
        metrics=_names(metrics, "metrics") or [],
        pos_label=_label(pos_label),
        labels=_labels(labels),
        sep=sep,
        id_col=id_col,
        label_col=label_col,
        comments=comments,
        zip_member=zip_member,
        names=None if names is None else os.fspath(names),
        exclude=exclude,
        missing=missing,
        cluster_col=cluster_col,
        score_col=score_col,
        unjudged=unjudged,
        name=name,
        out_dir=None if out_dir is None else os.fspath(out_dir),
        lookup=get_metric,
    )
    loaded = load_inputs(paths, opts)
    return Inputs(
        loaded.competitions,
        dict(loaded.bootstrap),
        dict(loaded.workshop),
        opts.pos_label,
        opts.labels,
        list(loaded.specs),
    )


# --------------------------------------------------------------------------- from_frame


def from_frame(
    df,
    *,
    gold: str = "y",
    id: str | None = None,
    name: str = "competition",
    metrics=("accuracy",),
    pos_label=None,
    labels=None,
    baselines=(),
    cluster: str | None = None,
) -> Inputs:
    """One competition from a pandas wide table: one row per item, one column per system.

    Values become text as the file loaders give them (``str`` of each cell, stripped), so a
    table read with ``pandas.read_csv`` gives the same competition as :func:`load` on the file.

    Parameters
    ----------
    df : pandas.DataFrame
        The gold column, an optional id column, and one column per system (named after it).
    gold : str, default "y"
        The gold column.
    id : str, optional
        The item-id column; when None, a column called ``id`` is used if present, else the items
        are numbered 1..n.
    name : str, default "competition"
        Competition name; its id is the slug of it (``"My task"`` -> ``my-task``).
    metrics : str or list of str, default ("accuracy",)
        Metric names; the first ranks systems.
    pos_label : str or int, optional
        Positive class of ``f1``/``precision``/``recall``/``roc_auc``.
    labels : str or list, optional
        Classes averaged over by the macro/micro/weighted metrics.
    baselines : list of str, optional
        System columns that are baselines.
    cluster : str, optional
        The column naming each item's cluster (a question, a document, an author): the bootstrap
        resamples clusters, not items (:mod:`compreport.inputs.clusters`).

    Returns
    -------
    Inputs
        The one competition (no spec settings, no workshop).

    Raises
    ------
    InputError
        A missing gold or id column, a blank or missing value, a duplicate id or column, no
        system column, an unknown metric; the message names the column and the index label.
    """
    from compreport.inputs.frame import read_frame
    from compreport.inputs.readers import build
    from compreport.inputs.slugs import check_id, slug

    if not isinstance(name, str) or not name.strip():
        raise InputError(f"`name` must be a non-empty string; got {name!r}")
    pieces = read_frame(df, gold=gold, id_column=id)
    if cluster is not None:
        from compreport.inputs.clustercol import take_column

        pieces = take_column(pieces, cluster, "DataFrame")
    cid = slug(name)
    check_id(cid, "DataFrame")
    pl, labs = _label(pos_label), _labels(labels)
    names = _names(metrics, "metrics")
    if names is None:
        raise InputError("`metrics` names nothing; got None")
    specs = _metric_specs(names, pl, labs)
    comp = build(
        pieces, CompetitionInfo(cid, name, group=[name]), specs, [str(b) for b in baselines]
    )
    return Inputs([comp], pos_label=pl, labels=labs)


# --------------------------------------------------------------------------- analyze


def _as_inputs(data) -> Inputs:
    if isinstance(data, Inputs):
        return data
    if isinstance(data, Competition):
        return Inputs([data])
    if isinstance(data, (list, tuple)) and data and all(isinstance(c, Competition) for c in data):
        return Inputs(list(data))
    raise InputError(
        f"analyze needs what load() or from_frame() returns, a Competition or a list of them; "
        f"got {type(data).__name__}"
    )


def analyze(
    data,
    *,
    metrics=None,
    pos_label=None,
    labels=None,
    bootstrap: int | None = None,
    seed: int | None = None,
    alpha: float | None = None,
    ci: str | None = None,
    test: str | None = None,
    family: str | None = None,
    correction: str | None = None,
    include_baselines: bool | None = None,
    refine: bool | None = None,
    jobs: int = 1,
    progress: bool | None = False,
) -> Analysis:
    """Run the paired bootstrap and decide every verdict, as ``compreport report`` does.

    Settings left at None take the value of the specs' ``[bootstrap]`` (when ``data`` came from
    :func:`load`), else the default; the same inputs and seed give the same numbers as the CLI.

    Parameters
    ----------
    data : Inputs, Competition or list of Competition
        What :func:`load` or :func:`from_frame` returned, or competitions.
    metrics : str or list of str, optional
        Metric names replacing every competition's metrics (the first ranks systems), as
        ``--metric`` does.
    pos_label, labels : optional
        Positive class and averaged classes of the ``metrics`` given here (default: those given to
        :func:`load`/:func:`from_frame`).
    bootstrap : int, optional
        Replicates B (default 10,000); 0 gives scores without intervals.
    seed : int, optional
        Seed of the resampling plan (default 0).
    alpha : float, optional
        Significance level (default 0.05); intervals are at confidence 1 - alpha.
    ci : {"percentile", "bca", "normal"}, optional
        Interval method (default percentile).
    test : {"bootstrap", "berg-kirkpatrick", "randomization"}, optional
        Where p-values come from (default bootstrap: two-sided; berg-kirkpatrick is the paper's
        one-sided test).
    family : {"all-pairs", "per-row", "vs-best"}, optional
        The comparisons the correction is applied over (default all-pairs; vs-best corrects over all
        pairs and states the comparisons with the best).
    correction : {"none", "bonferroni", "holm", "bh", "maxt"}, optional
        The correction behind every verdict (default maxt under the bootstrap test, holm under the
        others).
    include_baselines : bool, optional
        Let baselines compete (default False: they are compared and grouped, but the winner, the
        comparisons with the winner and the competitiveness figures are over participants only).
    refine : bool, optional
        Re-estimate p-values from more resamples while a verdict is not settled within their
        Monte-Carlo error (default True; see :class:`~compreport.settings.Settings`).
    jobs : int, default 1
        Worker processes: with several competitions, each is analysed by one of them in parallel;
        with one, they draw its blocks of replicates. The numbers do not depend on it.
    progress : bool or None, default False
        Show a progress bar on stderr (None: when stderr is a terminal).

    Returns
    -------
    Analysis
        Scores, intervals, comparisons and verdicts of every competition and metric; see
        :meth:`~compreport.stats.results.Analysis.leaderboard`,
        :meth:`~compreport.stats.results.Analysis.pairs` and
        :meth:`~compreport.stats.results.Analysis.to_dict` (results.json).

    Raises
    ------
    InputError
        An invalid setting (the message names it, the value and the allowed values) or input.
    """
    inputs = _as_inputs(data)
    comps = list(inputs.competitions)
    if metrics is None and (pos_label is not None or labels is not None):
        raise InputError(
            "`pos_label` and `labels` apply to the metrics named with `metrics=`; name them too "
            "(or pass pos_label/labels to load() or from_frame())"
        )
    if metrics is not None:
        names = _names(metrics, "metrics")
        pl = inputs.pos_label if pos_label is None else _label(pos_label)
        labs = inputs.labels if labels is None else _labels(labels)
        comps = [dataclasses.replace(c, metrics=_metric_specs(names, pl, labs)) for c in comps]
    jobs = check_jobs(jobs)
    if progress is not None and not isinstance(progress, bool):
        raise InputError(f"`progress` must be True, False or None; got {progress!r}")
    seen: dict[str, str] = {}
    for c in comps:
        if not c.metrics:
            raise InputError(f"competition {c.id!r}: no metric given; pass metrics=[NAME]")
        if c.id in seen:
            raise InputError(
                f"competition id {c.id!r} is used twice ({seen[c.id]!r} and {c.name!r}); "
                f"give the competitions different names"
            )
        seen[c.id] = c.name
    given = {
        "bootstrap": bootstrap,
        "seed": seed,
        "alpha": alpha,
        "ci_method": ci,
        "test": test,
        "family": family,
        "correction": correction,
        "include_baselines": include_baselines,
        "refine": refine,
    }
    from compreport.stats.analysis import analyze as run

    settings = make_settings(given, "analyze", base=make_settings(inputs.settings, "spec"))
    analysis = run(comps, settings, jobs=int(jobs), progress=progress, workshop=inputs.workshop)
    analysis.sources = dataclasses.replace(
        inputs, competitions=comps
    ).files  # Report.write will not write over them
    analysis.scanned = list(
        dict.fromkeys(s for c in comps for s in c.scanned)
    )  # ... nor where runs are read
    return analysis
