"""``compreport init DIR``: a commented competition.toml and the folders it names."""

from __future__ import annotations

from pathlib import Path

from compreport.errors import InputError, note

#: The commented competition.toml that ``compreport init`` writes.
TEMPLATE = """\
# compreport competition spec. Every key is optional unless marked "required".
# Unknown keys are errors (with a suggestion), so typos do not pass silently.

name = "My task 2026: Subtask A (Spanish)"   # shown in tables and reports
# id = "my-task-a-es"        # folder name under OUT/ (default: derived from name)
challenge = "My task"        # the group path (challenge -> task -> language) of the
year = 2026                  # cross-competition tables; override with `group = [...]`
task = "Subtask A"
language = "Spanish"
baselines = []               # system names that are baselines, e.g. ["baseline_svm"]

[data]                       # required: one of the two layouts
gold = "gold.tsv"            # id<TAB>label, header optional; '#' lines are comments
runs = "runs"                # one file (or .zip) per run; subfolders: one per team
# id_col = 1                 # id / label column of files with more columns: position or header name
# label_col = "label"
# sep = "auto"               # auto (per file), tab, comma, whitespace
# missing = "error"          # "wrong": a blank or absent prediction is scored as a wrong answer
# cluster = "question"       # gold column of each item's cluster: clusters are resampled whole
# exclude = ["*.log"]        # run files to leave out
# fields = ["polarity", "type"]   # predictions with several fields (measure_s, measure_c)
# table = "data.csv"         # ... or a wide table: one row per item, one column per system
# gold_column = "y"
# [data.runs]                # instead of runs = "...": runs whose columns differ from the gold's
# path = "runs"
# label_col = 5

# [names]                    # run -> name, team, baseline, exclude (CSV/TSV with a header)
# file = "names.tsv"

[[metrics]]                  # the first metric ranks the systems
name = "macro_f1"            # `compreport metrics` lists them
# labels = ["FAVOR", "AGAINST"]   # average over a subset of classes
# [[metrics]]
# name = "f1"
# pos_label = 1

[bootstrap]
resamples = 10000
seed = 0
alpha = 0.05
"""


def scaffold(directory: Path, force: bool = False) -> list[Path]:
    """Write ``directory/competition.toml`` (:data:`TEMPLATE`) and create ``directory/runs``.

    Parameters
    ----------
    directory : Path
        Created if missing.
    force : bool
        Replace an existing competition.toml; unless it is the template itself, the user's file is
        kept beside it as ``competition.toml.bak`` (``.bak.2``, ... when taken), with a note.

    Returns
    -------
    list of Path
        The spec and the runs folder.

    Raises
    ------
    InputError
        When the spec exists (without ``force``) or ``directory`` is a file.
    """
    spec = directory / "competition.toml"
    if spec.exists() and not force:
        raise InputError(f"{spec}: already exists; pass --force to overwrite it")
    if directory.exists() and not directory.is_dir():
        raise InputError(f"{directory}: exists and is not a directory")
    (directory / "runs").mkdir(parents=True, exist_ok=True)
    if spec.exists() and spec.read_bytes() != TEMPLATE.encode("utf-8"):  # the user's: never lost
        kept, k = spec.with_name(spec.name + ".bak"), 1
        while kept.exists():
            k += 1
            kept = spec.with_name(f"{spec.name}.bak.{k}")
        spec.replace(kept)
        note(f"{spec}: the existing file is kept as {kept.name}")
    spec.write_text(TEMPLATE, encoding="utf-8")
    return [spec, directory / "runs"]
