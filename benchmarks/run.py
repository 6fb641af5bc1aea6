"""Benchmarks of the statistics engine and the whole `compreport report --format json` process.

    python benchmarks/run.py              # our figures (about a minute)
    python benchmarks/run.py --compstats  # also CompStats 0.1.15 on the same data (about 7 minutes;
                                          # `pip install -e '.[bench]'`)
    python benchmarks/run.py --issue12    # the targets of issue 12 item 1 (many classes, 10^6 items)
    python benchmarks/run.py --refinement # issue 12 item 2: refinement on and off
    python benchmarks/run.py --render     # issue 29 item 10: the demo with every format, --jobs 1
                                          # and the default, against --format json; 300 systems
    python benchmarks/run.py --scale      # issue 30: 2,000 runs of 30 items (refused at once), and
                                          # the most systems analysed at once (447), -B 200
    python benchmarks/run.py --verdicts   # issue 36 item 1: defaults, --refine off and on, and
                                          # the verdicts refinement would change (13 min, loaded)
    python benchmarks/run.py --dask       # issue 28: --scheduler local against the local pool: a
                                          # workshop of 100 competitions, and 10^6 items

Prints wall time (median of repeats for the process), peak resident memory of the process, and
the time of the statistics alone (analysis in-process, inputs already loaded), each with the
load average of the machine when it was measured (timings on a shared machine are noisy).
With ``--compstats`` also the ratio CompStats time / our whole-process time (target: >= 200x).
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from synth import make_labels, wide_frame  # noqa: E402

from compreport.inputs.spec import Options, load_inputs  # noqa: E402
from compreport.settings import Settings  # noqa: E402
from compreport.stats.analysis import analyze_competition  # noqa: E402


def load() -> str:
    """The 1-minute load average now. It counts this benchmark too (about 1 while it runs)."""
    return f"load {os.getloadavg()[0]:.2f}"


def busy_seconds() -> float | None:
    """CPU seconds spent busy by the whole machine since boot (Linux ``/proc/stat``), else None."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def process(
    csv: Path | tuple[str, ...],
    metrics: str,
    B: int = 10000,
    repeat: int = 3,
    extra: tuple = (),
    exit_status: int = 0,
    keep: Path | None = None,
    timeout: float | None = None,
) -> tuple[float, float, str]:
    """Median wall seconds, peak RSS (MB, largest of the repeats) of the CLI on ``csv`` (a wide CSV
    read with ``--id id``, or the input arguments themselves), and how busy the machine was
    besides: the load average and the cores used by other processes. The process must exit with
    ``exit_status`` (2: a refusal). ``keep``: where to copy the last run's results.json.
    ``timeout``: seconds after which a run is killed and :class:`subprocess.TimeoutExpired`
    raised."""
    inputs = (str(csv), "--id", "id") if isinstance(csv, Path) else csv
    times, peak, others = [], 0.0, []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            cmd = [
                sys.executable,
                "-m",
                "compreport",
                "report",
                *inputs,
                "--metric",
                metrics,
                "-B",
                str(B),
                "--format",
                "json",
                "-o",
                out + "/o",
                "-q",
                *extra,
            ]
            b0, t = busy_seconds(), time.perf_counter()
            child = subprocess.Popen(
                cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if exit_status else None
            )
            timer = threading.Timer(timeout, child.kill) if timeout else None
            if timer:
                timer.start()
            _, status, usage = os.wait4(child.pid, 0)  # this child's own peak, not all children's
            wall, b1 = time.perf_counter() - t, busy_seconds()
            if timer:
                timer.cancel()
                if os.WIFSIGNALED(status) and wall >= timeout:
                    raise subprocess.TimeoutExpired(cmd, timeout)
            times.append(wall)
            if b0 is not None and b1 is not None:
                others.append(max(0.0, (b1 - b0 - usage.ru_utime - usage.ru_stime) / wall))
            child.returncode = os.waitstatus_to_exitcode(status)
            if child.returncode != exit_status:
                raise subprocess.CalledProcessError(child.returncode, cmd)
            if keep is not None:
                shutil.copyfile(Path(out) / "o" / "results.json", keep)
        peak = max(peak, usage.ru_maxrss / 1024)
    busy = load() + (f", other processes {np.median(others):.1f} cores" if others else "")
    return float(np.median(times)), peak, busy


def statistics_only(csv: Path, metrics: str, B: int = 10000) -> tuple[float, str]:
    """Seconds of the analysis in-process (inputs loaded), and how busy the machine was besides."""
    comp = load_inputs([str(csv)], Options(id="id", metrics=metrics.split(","))).competitions[0]
    b0, c0, t = busy_seconds(), time.process_time(), time.perf_counter()
    analyze_competition(comp, Settings(bootstrap=B), progress=False)
    wall, c1, b1 = time.perf_counter() - t, time.process_time(), busy_seconds()
    busy = load()
    if b0 is not None and b1 is not None:
        busy += f", other processes {max(0.0, (b1 - b0 - (c1 - c0)) / wall):.1f} cores"
    return wall, busy


def engine_of(csv: Path, metrics: str, B: int = 10000) -> dict:
    """The ``engine`` record of results.json for ``csv`` (one extra run of the process)."""
    import json

    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "compreport",
                "report",
                str(csv),
                "--id",
                "id",
                "--metric",
                metrics,
                "-B",
                str(B),
                "--format",
                "json",
                "-o",
                out + "/o",
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return json.loads((Path(out) / "o" / "results.json").read_text())["competitions"][0][
            "engine"
        ]


#: Issue 12 item 1: (name, n, m, classes, metrics, target seconds, target MB) at B = 10,000.
ISSUE12 = [
    ("Emoji-like", 50_000, 48, 20, "macro_f1", 30, 1536),
    ("1,000,000 items", 1_000_000, 10, 3, "accuracy,macro_f1", 15, 2048),
    ("EXIST-like", 4368, 31, 2, "accuracy,macro_f1", 2.5, None),
]


def issue12(tmp: Path, repeat: int) -> None:
    """Whole process, ``--format json``, B = 10,000 fixed (``--refine off``: the targets were set for a
    fixed B; ``--refinement`` measures refinement), against the targets of issue 12 item 1."""
    print("\nissue 12 item 1 (whole process, --format json, B = 10000, --refine off):")
    for name, n, m, k, metrics, secs, mb in ISSUE12:
        path = dataset(tmp, f"i12-{n}-{m}-{k}", n, m, k)
        wall, peak, busy = process(path, metrics, repeat=repeat, extra=("--refine", "off"))
        eng = engine_of(path, metrics)
        ok = wall <= secs and (mb is None or peak <= mb)
        print(
            f"{name}: n={n} m={m} {k} classes, {metrics}: {wall:.2f} s, peak {peak:.0f} MB ({busy}); "
            f"engine {eng['resampling']}/{eng.get('statistics')}, {eng['patterns']} patterns; target <= {secs} s"
            + (f", <= {mb} MB" if mb else "")
            + f": {'met' if ok else 'MISSED'}",
            flush=True,
        )


def refinement(tmp: Path, repeat: int) -> None:
    """Issue 12 item 2: the whole process with refinement on (the default) and off, B = 10,000, and the
    resamples refinement reached per metric."""
    import json

    print("\nrefinement (whole process, --format json, B = 10000):")
    for name, n, m, k, metrics, _, _ in (ISSUE12[0], ISSUE12[2]):
        path = dataset(tmp, f"r-{n}-{m}-{k}", n, m, k)
        for flag in ("off", "on"):
            wall, peak, busy = process(path, metrics, repeat=repeat, extra=("--refine", flag))
            with tempfile.TemporaryDirectory() as out:
                subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "compreport",
                        "report",
                        str(path),
                        "--id",
                        "id",
                        "--metric",
                        metrics,
                        "--refine",
                        flag,
                        "--format",
                        "json",
                        "-q",
                        "-o",
                        out + "/o",
                    ],
                    check=True,
                    stderr=subprocess.DEVNULL,
                )
                comp = json.loads((Path(out) / "o" / "results.json").read_text())["competitions"][0]
            info = "; ".join(
                f"{ma['name']}: {ma['verdicts']['resamples']} resamples, "
                f"{len({s['group'] for s in ma['scores']})} groups, "
                f"{sum(1 for c in ma['pairs'] if c['settled'] is False)} unsettled"
                for ma in comp["metrics"]
            )
            print(
                f"{name} --refine {flag}: {wall:.2f} s, peak {peak:.0f} MB ({busy}); {info}",
                flush=True,
            )


def demo_run(
    out: Path, args: tuple = (), command: tuple = ("demo",)
) -> tuple[float, float, float, str]:
    """``compreport demo -o out -q *args`` (or another ``command``): wall seconds, CPU seconds (user +
    system, of the process and every process it started: workers, latexmk, pdflatex), peak resident MB
    of the largest process, and how busy the machine was besides."""
    cmd = [sys.executable, "-m", "compreport", *command, "-o", str(out), "-q", *args]
    b0, t = busy_seconds(), time.perf_counter()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # Linux: includes its waited-for descendants
    wall, b1 = time.perf_counter() - t, busy_seconds()
    if os.waitstatus_to_exitcode(status):
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), cmd)
    cpu = usage.ru_utime + usage.ru_stime
    busy = load() + (
        f", other processes {max(0.0, (b1 - b0 - cpu) / wall):.1f} cores" if b0 is not None else ""
    )
    return wall, cpu, usage.ru_maxrss / 1024, busy


def render(tmp: Path, repeat: int) -> None:
    """The demo with every format (default --jobs, and --jobs 1) against the demo with ``--format
    json``; target (issue 29 item 10, set from WeasyPrint's measured floor): <= 20 s wall and <= 6x
    the CPU of the json run. Checks that --jobs 1 and the default write the same bytes."""
    print(f"\nrendering (compreport demo, B = 10000; median of {repeat}):")
    cases = (
        ("json", "--format json", ("--format", "json")),
        ("jobs1", "every format, --jobs 1", ("--jobs", "1")),
        ("default", "every format, default --jobs", ()),
    )
    rows = {}
    for key, name, args in cases:
        runs = [demo_run(tmp / f"{key}-{i}", args) for i in range(repeat)]
        wall, cpu, peak = (float(np.median([r[k] for r in runs])) for k in range(3))
        rows[key] = (wall, cpu)
        print(
            f"{name}: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB ({runs[-1][3]})",
            flush=True,
        )

    def files(root: Path) -> dict:
        return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    one, many = files(tmp / "jobs1-0"), files(tmp / "default-0")
    differ = sorted(str(k) for k in one.keys() | many.keys() if one.get(k) != many.get(k))
    print(
        f"--jobs 1 and default: {len(one)} files, {'identical' if not differ else f'{len(differ)} differ: {differ[:5]}'}"
    )
    wall, cpu = rows["default"]
    print(
        f"target <= 20 s wall and <= 6x the json CPU: {wall:.1f} s, {cpu / rows['json'][1]:.1f}x "
        f"({'met' if wall <= 20 and cpu <= 6 * rows['json'][1] else 'MISSED'})"
    )
    floors(rows["json"][1])
    # issue 15 item 4: 300 systems (n = 500, binary, accuracy + macro-F1, B = 200), every format
    path = dataset(tmp, "many-300", 500, 300, 2)
    wall, cpu, peak, busy = demo_run(
        tmp / "many",
        ("--id", "id", "--metric", "accuracy,macro_f1", "-B", "200"),
        command=("report", str(path)),
    )
    print(
        f"300 systems, every format: {wall:.1f} s wall, {cpu:.1f} s CPU, peak {peak:.0f} MB ({busy}); "
        f"target <= 120 s and <= 2 GB: {'met' if wall <= 120 and peak <= 2048 else 'MISSED'}",
        flush=True,
    )


def floors(json_cpu: float) -> None:
    """Issue 15: what each renderer of the demo costs alone (CPU seconds, one process, ``--jobs 1``,
    latexmk's included), and what the PDF documents cost with every figure replaced by an empty box
    60 mm high: about the floor of WeasyPrint's text and table layout. Compared with the rendering budget
    the target leaves (6x the json run's CPU, less that run)."""
    import resource
    import warnings

    from markupsafe import Markup

    import compreport as cr
    from compreport.report.latex import appendix
    from compreport.report.pages import html, pdf
    from compreport.resources import demo_workshop_dir

    def cpu() -> float:
        s, c = (
            resource.getrusage(resource.RUSAGE_SELF),
            resource.getrusage(resource.RUSAGE_CHILDREN),
        )
        return s.ru_utime + s.ru_stime + c.ru_utime + c.ru_stime

    with warnings.catch_warnings(), tempfile.TemporaryDirectory() as d:
        warnings.simplefilter("ignore")
        out, a = Path(d), cr.analyze(cr.load(str(demo_workshop_dir())), seed=0)
        r = cr.Report(a)
        spent = {}
        t = cpu()
        r.gallery.render(out, ("pdf", "svg"), svg=True, jobs=1)
        spent["figures (PDF + SVG)"], t = cpu() - t, cpu()
        appendix.write_latex(a, out, r.latex_options, compile_pdf=False, figures=r.gallery.pdfs)
        spent["LaTeX tables"], t = cpu() - t, cpu()
        subprocess.run(
            ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "appendix.tex"],
            cwd=out,
            capture_output=True,
        )
        spent["latexmk"], t = cpu() - t, cpu()
        html.write_html(a, out, r.format, r.gallery)
        spent["HTML"], t = cpu() - t, cpu()
        pdf.write_pdf(a, out / "pdf", r.format, r.gallery, jobs=1)
        spent["PDF documents"] = cpu() - t
        inline = html.svg_markup
        html.svg_markup = (
            lambda svg, prefix, for_pdf=False: (  # measurement only: figures as empty boxes
                Markup('<div style="height:60mm"></div>')
                if for_pdf and svg
                else inline(svg, prefix, for_pdf)
            )
        )
        try:
            t = cpu()
            pdf.write_pdf(a, out / "bare", r.format, r.gallery, jobs=1)
            bare = cpu() - t
        finally:
            html.svg_markup = inline
    print(
        "renderers alone, CPU s: "
        + ", ".join(f"{k} {v:.1f}" for k, v in spent.items())
        + f" (without any figure: {bare:.1f}); all {sum(spent.values()):.1f}; the target leaves "
        f"{5 * json_cpu:.1f} s for all rendering ({load()})",
        flush=True,
    )


def spread_dataset(
    tmp: Path, n: int = 500, m: int = 150, low: float = 0.41, high: float = 0.86
) -> Path:
    """Issue 26's large task: n binary items, m systems whose accuracies are spread evenly from
    ``low`` to ``high``, errors correlated through a shared item difficulty."""
    from scipy.stats import norm

    rng = np.random.default_rng(26)
    gold = rng.integers(0, 2, n)
    difficulty = rng.normal(size=n)
    # P(skill - difficulty + noise > 0) = accuracy, with difficulty and noise N(0, 1) each
    skill = norm.ppf(np.linspace(low, high, m)) * np.sqrt(2)
    correct = (skill[:, None] - difficulty[None, :] + rng.normal(size=(m, n))) > 0
    path = tmp / f"spread-{n}-{m}.csv"
    wide_frame(gold, np.where(correct, gold[None, :], 1 - gold[None, :])).to_csv(path, index=False)
    return path


def close_dataset(
    tmp: Path, n: int = 50_000, m: int = 48, k: int = 20, low: float = 0.15, high: float = 0.40
) -> Path:
    """Issue 36's Emoji-like case with close systems: n items of k classes, m systems whose
    accuracies are spread evenly from ``low`` to ``high``, errors correlated through a shared item
    difficulty (as :func:`spread_dataset`), each wrong answer a uniformly random wrong class."""
    from scipy.stats import norm

    rng = np.random.default_rng(36)
    gold = rng.integers(0, k, n)
    difficulty = rng.normal(size=n)
    skill = norm.ppf(np.linspace(low, high, m)) * np.sqrt(2)
    correct = (skill[:, None] - difficulty[None, :] + rng.normal(size=(m, n))) > 0
    wrong = (gold[None, :] + rng.integers(1, k, (m, n))) % k
    path = tmp / f"close-{n}-{m}-{k}.csv"
    wide_frame(gold, np.where(correct, gold[None, :], wrong)).to_csv(path, index=False)
    return path


#: SemEval-2018 Task 12 (ARCT) as its organizers published it (docs/real-data.md).
ARCT = Path("/work/shared/reference/semeval2018-task12-arct")
#: Seconds after which a run of :func:`verdicts` is killed and reported as not finished.
VERDICTS_CAP = 900


def verdict_changes(default: dict, refined: dict) -> list[dict]:
    """Per metric, how the verdicts (``pairs``) of the default results.json ``default`` differ
    from those of ``refined`` (``--refine on``). A pair whose ``settled`` is not false is decided
    (an untested pair is ``null`` both ways)."""
    rows = []
    for d, r in zip(
        default["competitions"][0]["metrics"], refined["competitions"][0]["metrics"], strict=True
    ):
        after = {frozenset((c["a"], c["b"])): c for c in r["pairs"]}
        row = {"metric": d["name"], "pairs": len(d["pairs"]), "flipped": []}
        row |= dict.fromkeys(("to_sig", "to_not", "still", "unsettled_by_refining"), 0)
        for c in d["pairs"]:
            c2 = after[frozenset((c["a"], c["b"]))]
            decided, decided2 = c["settled"] is not False, c2["settled"] is not False
            if decided and decided2:
                if c["significant"] != c2["significant"]:
                    row["flipped"].append((c["a"], c["b"], c["p_adjusted"], c2["p_adjusted"]))
            elif decided2:
                row["to_sig" if c2["significant"] else "to_not"] += 1
            elif decided:
                row["unsettled_by_refining"] += 1
            else:
                row["still"] += 1
        row["undecided"] = (d["verdicts"]["undecided"], r["verdicts"]["undecided"])
        row["groups"] = tuple(len({s["group"] for s in ma["scores"]}) for ma in (d, r))
        row["resamples"] = r["verdicts"]["resamples"]
        rows.append(row)
    return rows


def verdicts(tmp: Path, repeat: int) -> None:
    """Issue 36 item 1: the whole process (``--format json``, B = 10,000) with the defaults,
    ``--refine off`` and ``--refine on``: time, peak memory, the ratio default / ``--refine off``
    (target <= 1.5), and the verdicts refinement would have changed. The defaults' results.json
    must be byte for byte ``--refine off``'s. ``--refine on`` runs once; a run past
    :data:`VERDICTS_CAP` seconds is reported as not finished."""
    import json

    cases = [
        ("150 systems (n = 500, binary, acc. 0.41-0.86)", lambda: spread_dataset(tmp), "accuracy"),
        (
            "Emoji-like (n = 50,000, m = 48, 20 classes)",
            lambda: dataset(tmp, "v-emoji", 50_000, 48, 20),
            "macro_f1",
        ),
        (
            "Emoji-like, close (n = 50,000, m = 48, 20 classes, acc. 0.15-0.40)",
            lambda: close_dataset(tmp),
            "macro_f1",
        ),
        (
            "EXIST-like (n = 4,368, m = 31, binary)",
            lambda: dataset(tmp, "v-exist", 4368, 31, 2),
            "accuracy,macro_f1",
        ),
    ]
    if ARCT.is_dir():
        arct = (str(ARCT / "gold" / "truth.txt"), "--runs", str(ARCT / "submissions"))
        arct += ("--names", str(ARCT / "metadata-public.xml"))
        cases.append(("SemEval-2018 ARCT (n = 444, 22 systems)", lambda: arct, "accuracy"))
    else:
        print(f"(ARCT left out: {ARCT} not found)")
    print("\nissue 36 (whole process, --format json, B = 10000; defaults, --refine off, on):")
    table = []
    for name, make, metrics in cases:
        inputs, results = make(), {}
        runs = {}
        for how, extra, times in (
            ("default", (), repeat),
            ("off", ("--refine", "off"), repeat),
            ("on", ("--refine", "on"), 1),
        ):
            keep = tmp / f"results-{how}.json"
            try:
                runs[how] = process(
                    inputs, metrics, repeat=times, extra=extra, keep=keep, timeout=VERDICTS_CAP
                )
            except subprocess.TimeoutExpired:
                runs[how] = None
                print(f"{name}, {how}: not finished in {VERDICTS_CAP} s ({load()})", flush=True)
                continue
            results[how] = keep.read_bytes()
            wall, peak, busy = runs[how]
            print(f"{name}, {how}: {wall:.2f} s, peak {peak:.0f} MB ({busy})", flush=True)
        same = results.get("default") == results.get("off") if "off" in results else None
        ratio = runs["default"][0] / runs["off"][0] if runs["default"] and runs["off"] else None
        changes = (
            verdict_changes(json.loads(results["default"]), json.loads(results["on"]))
            if "default" in results and "on" in results
            else []
        )
        for row in changes:
            for a, b, p, p2 in row["flipped"]:
                print(f"  FLIPPED {row['metric']}: {a} vs {b}, p {p} -> {p2} (settled both ways)")
        table.append((name, metrics, runs, ratio, same, changes))
    print(
        "\ncase [metrics] | default s | --refine off s | --refine on s | default / off (target "
        "<= 1.5) | results.json default vs off | per metric: pairs; undecided default -> on; "
        "settled flips; undecided -> significant / not significant / still undecided; distinct "
        "groups default -> on; resamples on"
    )
    for name, metrics, runs, ratio, same, changes in table:
        secs = [f"{r[0]:.2f}" if r else "not finished" for r in runs.values()]
        target = "n/a" if ratio is None else f"{ratio:.2f} {'met' if ratio <= 1.5 else 'MISSED'}"
        same_text = {True: "identical", False: "DIFFERENT", None: "n/a"}[same]
        verdict = "; ".join(map(change_text, changes)) or "--refine on not finished"
        print(f"{name} [{metrics}] | {' | '.join(secs)} | {target} | {same_text} | {verdict}")
    print(f"({load()})", flush=True)


def change_text(c: dict) -> str:
    """One metric's row of :func:`verdict_changes`, in the order of the table's heading."""
    lost = c["unsettled_by_refining"]
    return (
        f"{c['metric']}: {c['pairs']}; {c['undecided'][0]} -> {c['undecided'][1]}; "
        f"{len(c['flipped'])}; {c['to_sig']} / {c['to_not']} / {c['still']}"
        + (f" (and {lost} settled by default, undecided after refining)" if lost else "")
        + f"; {c['groups'][0]} -> {c['groups'][1]}; {c['resamples']}"
    )


def scale(tmp: Path, repeat: int) -> None:
    """Issue 30: 2,000 runs of 30 binary items, accuracy, ``--format json -B 200 --refine off``
    (target: done in <= 60 s under 6 GiB, or refused at once), and the most systems analysed at
    once (:data:`compreport.stats.memory.MAX_PAIRS` pairs: 447 systems)."""
    from compreport.stats.memory import MAX_PAIRS

    most = int((1 + (1 + 8 * MAX_PAIRS) ** 0.5) / 2)
    print("\nissue 30 (whole process, 30 binary items, accuracy, json, -B 200, --refine off):")
    extra = ("--refine", "off")
    for m, status in ((2000, 2), (most, 0), (300, 0)):
        path = dataset(tmp, f"scale-{m}", 30, m, 2)
        wall, peak, busy = process(
            path, "accuracy", B=200, repeat=repeat, extra=extra, exit_status=status
        )
        what = "refused (exit 2)" if status else "analysed"
        ok = wall <= 60 and peak <= 6 * 1024
        print(
            f"m={m} ({m * (m - 1) // 2:,} pairs): {what} in {wall:.2f} s, "
            f"peak {peak:.0f} MB ({busy}); target <= 60 s, <= 6 GiB: {'met' if ok else 'MISSED'}",
            flush=True,
        )


def dataset(tmp: Path, name: str, n: int, m: int, k: int) -> Path:
    path = tmp / f"{name}.csv"
    g, p = make_labels(n, m, k, seed=1)
    if k == 5:  # REST-MEX-like polarity 1..5
        g, p = g + 1, p + 1
    wide_frame(g, p).to_csv(path, index=False)
    return path


def compstats_macro_f1(csv: Path, B: int = 10000) -> tuple[float, str]:
    """Seconds of a CompStats macro-F1 analysis (data already in memory), and how busy the machine was.

    ``CompStats.metrics.macro_f1`` itself only draws the resampling indices: the bootstrap
    statistics are computed lazily, on first use of ``statistic_samples``. So the analysis timed
    here is CompStats' usual one: the macro-F1 of every system on every resample, their CIs, and
    the differences from the best system with their p-values (fewer comparisons than ours, which
    are all pairs).
    """
    import pandas as pd
    from CompStats import metrics as cm

    df = pd.read_csv(csv)
    y = df["y"].to_numpy()
    systems = {c: df[c].to_numpy() for c in df.columns if c not in ("id", "y")}
    b0, c0, t = busy_seconds(), time.process_time(), time.perf_counter()
    perf = cm.macro_f1(y, num_samples=B, n_jobs=1, use_tqdm=False, **systems)
    samples = perf.statistic_samples  # the B x m bootstrap statistics
    assert all(len(v) == B for v in samples.calls.values()) and len(samples.calls) == len(systems)
    perf.ci
    perf.difference().p_value()
    wall, c1, b1 = time.perf_counter() - t, time.process_time(), busy_seconds()
    busy = load()
    if b0 is not None and b1 is not None:
        busy += f", other processes {max(0.0, (b1 - b0 - (c1 - c0)) / wall):.1f} cores"
    return wall, busy


def clusters(repeat: int) -> None:
    """The cluster bootstrap's engine (issue 12 item 3) against the item bootstrap: 50,000 items,
    10 systems, 3 classes, accuracy + macro-F1, B = 4,000, CPU of ``resampling.run`` alone (median)."""
    import statistics

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from conftest import make_competition, prepare
    from synth import make_labels

    from compreport.stats import resampling
    from compreport.inputs.clusters import Clusters

    gold, preds = make_labels(50_000, 10, 3)
    comp = make_competition(gold, preds, metrics=["accuracy", "macro_f1"], cid="c")
    prepared = [prepare(comp, "accuracy"), prepare(comp, "macro_f1")]
    print(
        "\ncluster bootstrap (engine only, 50,000 items, 10 systems, 3 classes, accuracy+macro_f1, B=4000, CPU):"
    )
    for label, kw in (
        ("items", {"mode": "items"}),
        ("5,000 clusters of 10 items", {"clusters": Clusters.from_labels(np.arange(50_000) // 10)}),
        ("50,000 clusters of 1 item", {"clusters": Clusters.from_labels(np.arange(50_000))}),
    ):
        times = []
        for _ in range(repeat):
            t = time.process_time()
            resampling.run(prepared, comp.n, comp.m, B=4000, seed=0, key=1, progress=False, **kw)
            times.append(time.process_time() - t)
        print(f"{label}: {statistics.median(times):.2f} s ({load()})", flush=True)


def dask_vs_pool(tmp: Path, repeat: int) -> None:
    """Issue 28: ``--scheduler local`` (a dask LocalCluster of ``--jobs`` workers, started by the
    process) against the local pool of as many forked workers: a workshop of 100 generated
    competitions (2,000 items, 10 systems, 3 classes, accuracy + macro-F1, B = 2,000) and one
    competition of 1,000,000 items (5 systems, 3 classes, macro-F1, B = 1,000, its blocks of
    replicates as the tasks). Whole-process wall time (median) and whether results.json is the same
    byte for byte."""
    import statistics

    jobs = str(len(os.sched_getaffinity(0)))
    cases = []
    paths = [dataset(tmp, f"c{i:03d}", 2000, 10, 3) for i in range(100)]
    cases.append(("workshop of 100 competitions", paths, "accuracy,macro_f1", 2000))
    cases.append(("1,000,000 items", [dataset(tmp, "big", 1_000_000, 5, 3)], "macro_f1", 1000))
    print(f"\ndask LocalCluster vs the local pool (whole process, --jobs {jobs}, json, -q):")
    for case, (label, inputs, metrics, B) in enumerate(cases):
        walls, results = {}, {}
        for how, extra in (("pool", []), ("dask", ["--scheduler", "local"])):
            times = []
            for k in range(repeat):
                out = tmp / f"out-{case}-{how}-{k}"
                cmd = [sys.executable, "-m", "compreport", "report", *map(str, inputs)]
                cmd += ["--id", "id", "--metric", metrics, "-B", str(B), "--format", "json"]
                cmd += ["-o", str(out), "-q", "--jobs", jobs, *extra]
                t = time.perf_counter()
                subprocess.run(cmd, check=True)
                times.append(time.perf_counter() - t)
                results[how] = (out / "results.json").read_bytes()
            walls[how] = statistics.median(times)
        same = "identical" if results["pool"] == results["dask"] else "DIFFERENT"
        print(
            f"{label}, {metrics}, B={B}: pool {walls['pool']:.1f} s, dask {walls['dask']:.1f} s "
            f"({walls['dask'] / walls['pool']:.2f}x); results.json {same} ({load()})",
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--compstats", action="store_true")
    ap.add_argument("--big", action="store_true", help="also 1,000,000 items x 5 systems")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each process timing (median)")
    ap.add_argument("--issue12", action="store_true", help="only the targets of issue 12 item 1")
    ap.add_argument(
        "--refinement", action="store_true", help="only refinement on/off (issue 12 item 2)"
    )
    ap.add_argument(
        "--render", action="store_true", help="only the demo with every format (issue 15 item 1)"
    )
    ap.add_argument(
        "--clusters",
        action="store_true",
        help="only the cluster bootstrap's engine (issue 12 item 3)",
    )
    ap.add_argument(
        "--verdicts",
        action="store_true",
        help="only the defaults against --refine off and on (issue 36 item 1)",
    )
    ap.add_argument(
        "--scale", action="store_true", help="only 2,000 runs of 30 items and 447 (issue 30)"
    )
    ap.add_argument(
        "--dask",
        action="store_true",
        help="only --scheduler local against the local pool (issue 28; the `dask` extra)",
    )
    args = ap.parse_args()
    r = args.repeat
    print(
        f"machine: {platform.processor() or platform.machine()}, {platform.python_version()}, "
        f"{__import__('os').cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if args.issue12:
            issue12(tmp, r)
            return
        if args.refinement:
            refinement(tmp, r)
            return
        if args.render:
            render(tmp, r)
            return
        if args.clusters:
            clusters(r)
            return
        if args.verdicts:
            verdicts(tmp, r)
            return
        if args.scale:
            scale(tmp, r)
            return
        if args.dask:
            dask_vs_pool(tmp, r)
            return
        exist = dataset(tmp, "exist", 4368, 31, 2)
        wall, peak, busy = process(exist, "accuracy,macro_f1", repeat=r)
        stats, stats_busy = statistics_only(exist, "accuracy,macro_f1")
        print(
            f"EXIST-like n=4368 m=31 binary, accuracy+macro_f1, B=10000: process {wall:.2f} s, "
            f"peak {peak:.0f} MB ({busy}); statistics {stats:.2f} s ({stats_busy})",
            flush=True,
        )
        restmex = dataset(tmp, "restmex", 12938, 27, 5)
        wall, peak, busy = process(restmex, "macro_f1,mae", repeat=r)
        print(
            f"REST-MEX-like n=12938 m=27 5 classes, macro_f1+mae: process {wall:.2f} s, peak {peak:.0f} MB "
            f"({busy})",
            flush=True,
        )
        if args.big:
            big = dataset(tmp, "big", 1_000_000, 5, 3)
            wall, peak, busy = process(big, "macro_f1", repeat=r)
            print(
                f"1,000,000 items x 5 systems x 3 classes, macro_f1: process {wall:.2f} s, peak {peak:.0f} MB "
                f"({busy})",
                flush=True,
            )
        print("\nscaling (statistics only, accuracy+macro_f1, binary):")
        print("    n     m      B   seconds")
        for n, m, B in [
            (1000, 31, 10000),
            (4368, 31, 10000),
            (20000, 31, 10000),
            (4368, 10, 10000),
            (4368, 60, 10000),
            (4368, 31, 1000),
            (4368, 31, 50000),
        ]:
            path = dataset(tmp, f"s{n}-{m}", n, m, 2)
            stats, busy = statistics_only(path, "accuracy,macro_f1", B)
            print(f"{n:6d} {m:4d} {B:7d}   {stats:.2f}   ({busy})", flush=True)
        if args.compstats:
            cs, cs_load = compstats_macro_f1(exist)
            ours, _, busy = process(exist, "macro_f1", repeat=max(r, 5))
            ratio = cs / ours
            print(
                f"\nCompStats 0.1.15 macro_f1 (n_jobs=1), EXIST-like, B=10000: {cs:.1f} s ({cs_load}); "
                f"compreport whole process, macro_f1: {ours:.2f} s (median of {max(r, 5)}; {busy}); "
                f"ratio {ratio:.0f}x ({'meets' if ratio >= 200 else 'MISSES'} the >= 200x target)"
            )


if __name__ == "__main__":
    main()
