"""Size and power of every test and correction, by simulation: the README's table.

    python benchmarks/size.py [--sets N] [--quick]      # about 6 minutes on 2 cores
    python benchmarks/size.py --vs-baseline [--sets N]  # only the baseline family: about 1 minute
    python benchmarks/size.py --small [--sets N] [-B B]  # small samples and few clusters

Under the null, m systems are equally good: each is right with probability 0.7 on n = 500 binary
items, their errors correlated through a shared item difficulty (as real runs of one task are).
The family-wise error rate (FWER) is how often a procedure calls at least one pair significantly
different at alpha = 0.05: over all pairs (``all-pairs``), and over the comparisons of the
observed best with the others (``vs-best``; the best is chosen on the same data). Power: two
systems of accuracy 0.80 and 0.70, and 0.75 and 0.70 (n = 500), how often the pair is called
different; and in a family, ten systems, one of accuracy 0.78 and nine of 0.70: the share of the
nine true differences found, over all pairs. Each rate comes with its Monte-Carlo standard error
sqrt(r (1 - r) / N) over N data sets (for the share: the standard deviation over data sets / √N).

Each data set is analysed once per test (B = 2,000 resamples, refinement off, seed = data set);
every correction is read from the same analysis: the stored p-values of every pair (raw,
Bonferroni, Holm, BH and max-T over all pairs). ``vs-best (m-1)`` is the correction over the m − 1
comparisons with the best alone, which compreport no longer uses: it shows why; ``per-row`` the
correction within each row (``--family per-row``), which bounds no family-wise error rate.

The baseline family (``--family vs-baseline``): ten participants and one named baseline, all of
accuracy 0.70 under the null; the FWER is how often some participant-baseline comparison is called
significant. Power: the baseline at 0.70 and ten participants 2 to 3 points better (accuracies
0.72, ..., 0.73, n = 500), or all 5 points better (0.75); the share of the ten participants found
to beat the baseline, and how often at least one is, under ``vs-baseline`` and under ``all-pairs`` (the answer the default
family gives to the same question, read from its verdicts), on the same data sets and resamples.

``--small`` (issue 36 item 7) measures the defaults (all pairs; max-T under ``--test bootstrap``,
Holm under ``--test randomization``; refinement off) where the table above is silent, five equal
systems in every cell: accuracy at n = 50, 100 and 200; macro-F1 over three classes, one of them
3 % of the items, at n = 50 and 100; Pearson's r with heavy-tailed (Student t, 3 degrees of
freedom) prediction noise at n = 100; and ``--cluster-col`` with 20, 50 and 100 clusters of 20
items whose items share a cluster effect and a system-by-cluster effect (each system is better on
some clusters than on others, so items of a cluster are correlated and the differences too). A
verdict counts as a rejection only when it is significant and settled (``significant is True``;
an undecided verdict is no rejection); ``p < alpha`` counts the verdicts the adjusted p-values
give when undecided ones are read as they fall.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from compreport import from_frame
from compreport.settings import Settings
from compreport.stats import multitest
from compreport.stats.analysis import analyze_competition

ALPHA = 0.05
TESTS = ("bootstrap", "berg-kirkpatrick", "randomization")
CORRECTIONS = ("none", "bonferroni", "holm", "bh", "maxt")
FIELD = {
    "none": "p_value",
    "bonferroni": "p_bonferroni",
    "holm": "p_holm",
    "bh": "p_bh",
    "maxt": "p_maxt",
}


def correct(rng: np.random.Generator, n: int, accuracies) -> np.ndarray:
    """Whether each system is right on each item (m, n): system s with probability
    accuracies[s], errors correlated through a shared item difficulty."""
    from scipy.stats import norm

    difficulty = rng.normal(size=n)
    skill = norm.ppf(np.asarray(accuracies)) * np.sqrt(
        2
    )  # P(skill - difficulty + noise > 0) = accuracy
    return (skill[:, None] - difficulty[None, :] + rng.normal(size=(len(accuracies), n))) > 0


def systems(rng: np.random.Generator, n: int, accuracies) -> tuple[np.ndarray, np.ndarray]:
    """Gold (n,) binary labels and predictions (m, n), system s right with probability
    accuracies[s], errors correlated through a shared item difficulty."""
    gold = rng.integers(0, 2, n)
    right = correct(rng, n, accuracies)
    return gold, np.where(right, gold[None, :], 1 - gold[None, :])


def competition(
    gold: np.ndarray, preds: np.ndarray, metric: str = "accuracy", clusters=None, baselines=()
):
    import pandas as pd

    frame = pd.DataFrame(
        {"id": np.arange(len(gold)), "gold": gold} | {f"S{s:02d}": p for s, p in enumerate(preds)}
    )
    if clusters is not None:
        frame["cluster"] = clusters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return from_frame(
            frame,
            gold="gold",
            id="id",
            metrics=[metric],
            cluster=None if clusters is None else "cluster",
            baselines=baselines,
        ).competitions[0]


SHARES = (0.57, 0.40, 0.03)  # the classes of the macro-F1 cells: one of 3 %


def classes(rng: np.random.Generator, n: int, m: int, accuracy: float = 0.7):
    """Gold (n,) over three classes, the last 3 % of the items (at least one), and predictions
    (m, n) of m equal systems, right with probability ``accuracy`` through a shared item
    difficulty; a wrong prediction picks another class in proportion to its share."""
    small = max(1, round(SHARES[2] * n))
    big = round(SHARES[0] / (SHARES[0] + SHARES[1]) * (n - small))
    gold = rng.permutation(np.repeat([0, 1, 2], [big, n - small - big, small]))
    right = correct(rng, n, [accuracy] * m)
    preds = np.empty((m, n), dtype=int)
    for s in range(m):
        wrong = np.array(SHARES)[None, :].repeat(n, 0)
        wrong[np.arange(n), gold] = 0
        wrong /= wrong.sum(1, keepdims=True)
        other = (rng.random(n)[:, None] > np.cumsum(wrong, 1)).sum(1)
        preds[s] = np.where(right[s], gold, other)
    return gold, preds


def numeric(rng: np.random.Generator, n: int, m: int):
    """Gold (n,) standard normal values and predictions (m, n) of m equal systems: gold plus a
    shared item error N(0, 0.5^2) plus each system's own error, 0.5 x Student t with 3 degrees
    of freedom (heavy tails: Pearson's r is driven by a few items)."""
    gold = rng.normal(size=n)
    shared = 0.5 * rng.normal(size=n)
    return gold, gold[None, :] + shared[None, :] + 0.5 * rng.standard_t(3, size=(m, n))


def clustered(rng: np.random.Generator, groups: int, size: int, m: int, accuracy: float = 0.7):
    """Gold (G x size,) binary labels, predictions (m, G x size) and the cluster of each item:
    system s is right on item i of cluster g when skill - d_i - c_g + a_sg + e_si > 0, with the
    item difficulty d_i ~ N(0, 1), the cluster difficulty c_g ~ N(0, 0.5^2) shared by all, the
    system's own cluster effect a_sg ~ N(0, 0.5^2) shared by the cluster's items, and noise
    e_si ~ N(0, 1); skill gives every system the same accuracy."""
    from scipy.stats import norm

    n = groups * size
    cluster = np.repeat(np.arange(groups), size)
    gold = rng.integers(0, 2, n)
    latent = (
        -rng.normal(size=n)[None, :]
        - 0.5 * rng.normal(size=groups)[cluster][None, :]
        + 0.5 * rng.normal(size=(m, groups))[:, cluster]
        + rng.normal(size=(m, n))
    )
    skill = norm.ppf(accuracy) * np.sqrt(1 + 0.25 + 0.25 + 1)
    right = skill + latent > 0
    preds = np.where(right, gold[None, :], 1 - gold[None, :])
    return gold, preds, np.array([f"c{g}" for g in cluster])


def rejections(ma) -> dict[str, bool]:
    """Whether each (family, correction) rejects some pair of the metric analysis ``ma``."""
    out = {}
    best_row = [c for c in ma.pairs if ma.best in (c.a, c.b)]
    for corr in CORRECTIONS:
        p_all = np.array([getattr(c, FIELD[corr]) for c in ma.pairs])
        p_best = np.array([getattr(c, FIELD[corr]) for c in best_row])
        if np.isnan(p_all).all():
            continue
        out["all-pairs", corr] = bool(multitest.rejects(p_all, ALPHA).any())
        out["vs-best", corr] = bool(multitest.rejects(p_best, ALPHA).any())
    raw_best = np.array([c.p_value for c in best_row])
    raw = np.array([c.p_value for c in ma.pairs])
    rows = np.array([c.a for c in ma.pairs])
    for corr in ("bonferroni", "holm"):
        out["vs-best (m-1)", corr] = bool(
            multitest.rejects(multitest.correct(raw_best)[corr], ALPHA).any()
        )
        out["per-row", corr] = bool(
            multitest.rejects(multitest.correct_within(raw, rows)[corr], ALPHA).any()
        )
    return out


def found_share(ma) -> dict[str, float]:
    """Per correction, the share of the pairs of system S00 with the others called different (over
    all pairs)."""
    row = [c for c in ma.pairs if "S00" in (c.a, c.b)]
    out = {}
    for corr in CORRECTIONS:
        p = np.array([getattr(c, FIELD[corr]) for c in row])
        if not np.isnan(p).all():
            out[corr] = float(multitest.rejects(p, ALPHA).mean())
    return out


def run(m: int, sets: int, accuracies=None, B: int = 2000, measure=rejections) -> dict[tuple, list]:
    rng = np.random.default_rng(1000 + m)
    acc = [0.7] * m if accuracies is None else accuracies
    found: dict[tuple, list[bool]] = {}
    for k in range(sets):
        comp = competition(*systems(rng, 500, acc))
        for test in TESTS:
            settings = Settings(bootstrap=B, seed=k, test=test, refine=False, alpha=ALPHA)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                # item draws: the same bootstrap distribution as the engine's default for few patterns,
                # about 4 times faster at this size
                ma = analyze_competition(comp, settings, progress=False, mode="items").primary
            for key, hit in measure(ma).items():
                found.setdefault((test, *(key if isinstance(key, tuple) else (key,))), []).append(
                    hit
                )
    return found


#: The baseline family's simulation: ten participants S00-S09 and the baseline S10.
BASELINE = "S10"
PARTICIPANTS = 10


def baseline_calls(ma) -> dict[str, tuple[float, bool]]:
    """Per correction, the share of the participants called significantly better than the
    baseline (the stored verdicts' rule for the report's correction, ``BaselineVerdict.beats``;
    the same pairs' corrected p-values for the others) and whether any comparison with the
    baseline is called significant in either direction."""
    rows = {(c.a, c.b): c for c in ma.pairs if BASELINE in (c.a, c.b)}
    out = {}
    for corr in CORRECTIONS:
        better, anyone = [], False
        for c in rows.values():
            sig = bool(multitest.rejects(getattr(c, FIELD[corr]), ALPHA))
            anyone |= sig
            better.append(sig and (c.a != BASELINE) == (c.diff > 0))
        if not all(np.isnan(getattr(c, FIELD[corr])) for c in rows.values()):
            out[corr] = (float(np.mean(better)), anyone)
    if ma.verdicts["correction"] in out:  # the stored verdicts agree with the p-values read here
        stored = float(np.mean([bool(v.beats) for v in ma.vs_baselines]))
        assert stored == out[ma.verdicts["correction"]][0], (stored, out)
    return out


def run_baseline(sets: int, accuracies, B: int = 2000) -> dict[tuple, list]:
    """``(family, correction, "share"|"any")`` -> per data set, under ``vs-baseline`` and
    ``all-pairs`` (bootstrap test, max-T deciding; every correction read from the same analysis)."""
    rng = np.random.default_rng(2000 + len(accuracies))
    found: dict[tuple, list] = {}
    for k in range(sets):
        comp = competition(*systems(rng, 500, accuracies), baselines=[BASELINE])
        for family in ("vs-baseline", "all-pairs"):
            settings = Settings(bootstrap=B, seed=k, refine=False, alpha=ALPHA, family=family)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ma = analyze_competition(comp, settings, progress=False, mode="items").primary
            for corr, (share_better, anyone) in baseline_calls(ma).items():
                found.setdefault((family, corr, "share"), []).append(share_better)
                found.setdefault((family, corr, "any"), []).append(anyone)
    return found


def baseline_tables(sets: int) -> None:
    """Print the baseline family's FWER (``sets`` null data sets) and power (``2 sets // 3`` data
    sets at each of two differences)."""
    null = run_baseline(sets, [0.7] * (PARTICIPANTS + 1))
    close = run_baseline(2 * sets // 3, list(np.linspace(0.72, 0.73, PARTICIPANTS)) + [0.7])
    far = run_baseline(2 * sets // 3, [0.75] * PARTICIPANTS + [0.7])
    print(
        f"Baseline family: FWER (%) under the null, 10 participants and 1 baseline, all at 0.70, "
        f"n = 500, B = 2000, alpha = {ALPHA}, {sets} data sets; power (%): share of the ten "
        f"participants found better than the baseline, and how often some is, with the "
        f"participants 2-3 points better (0.72-0.73 vs 0.70) or 5 points better (0.75 vs 0.70), "
        f"{2 * sets // 3} data sets each"
    )
    print()
    print(
        "| family | correction | FWER | share, +2-3 points | some, +2-3 points | share, +5 points "
        "| some, +5 points |"
    )
    print("|---|---|---|---|---|---|---|")
    for family in ("vs-baseline", "all-pairs"):
        for corr in CORRECTIONS:
            if (family, corr, "any") in null:
                print(
                    f"| {family} | {corr} | {rate(null[family, corr, 'any'])} | "
                    f"{share(close[family, corr, 'share'])} | {rate(close[family, corr, 'any'])} | "
                    f"{share(far[family, corr, 'share'])} | {rate(far[family, corr, 'any'])} |"
                )


def rate(hits: list) -> str:
    r = float(np.mean(hits))
    return f"{100 * r:.1f} ± {100 * np.sqrt(r * (1 - r) / len(hits)):.1f}"


def share(values: list) -> str:
    v = np.asarray(values, dtype=float)
    return f"{100 * v.mean():.1f} ± {100 * v.std(ddof=1) / np.sqrt(len(v)):.1f}"


#: The --small cells: name, items, and a function of (rng, m) giving (gold, predictions[, clusters])
#: and the metric.
SMALL_CELLS = {
    "accuracy, n = 50": lambda rng, m: (*systems(rng, 50, [0.7] * m), "accuracy"),
    "accuracy, n = 100": lambda rng, m: (*systems(rng, 100, [0.7] * m), "accuracy"),
    "accuracy, n = 200": lambda rng, m: (*systems(rng, 200, [0.7] * m), "accuracy"),
    "macro-F1, 3 % class, n = 50": lambda rng, m: (*classes(rng, 50, m), "macro_f1"),
    "macro-F1, 3 % class, n = 100": lambda rng, m: (*classes(rng, 100, m), "macro_f1"),
    "Pearson, t3 noise, n = 100": lambda rng, m: (*numeric(rng, 100, m), "pearson"),
    "20 clusters of 20": lambda rng, m: (*clustered(rng, 20, 20, m), "accuracy"),
    "50 clusters of 20": lambda rng, m: (*clustered(rng, 50, 20, m), "accuracy"),
    "100 clusters of 20": lambda rng, m: (*clustered(rng, 100, 20, m), "accuracy"),
}
SMALL_TESTS = ("bootstrap", "randomization")


def run_small(cell: str, sets: int, B: int, m: int = 5) -> dict[str, dict[str, list]]:
    """Per test, whether each null data set of ``cell`` gave a significant (settled) verdict
    (``sig``), an adjusted p-value below alpha (``p``), and its undecided verdicts (``undecided``),
    under the defaults but B."""
    rng = np.random.default_rng(2000 + list(SMALL_CELLS).index(cell))
    out = {t: {"sig": [], "p": [], "undecided": []} for t in SMALL_TESTS}
    for k in range(sets):
        *data, metric = SMALL_CELLS[cell](rng, m)
        comp = competition(data[0], data[1], metric, data[2] if len(data) > 2 else None)
        for test in SMALL_TESTS:
            settings = Settings(bootstrap=B, seed=k, test=test, refine=False, alpha=ALPHA)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ma = analyze_competition(comp, settings, progress=False).primary
            out[test]["sig"].append(any(c.significant is True for c in ma.pairs))
            out[test]["p"].append(bool(np.nanmin([c.p_adjusted for c in ma.pairs]) < ALPHA))
            out[test]["undecided"].append(sum(c.significant is None for c in ma.pairs))
    return out


def main_small(sets: int, B: int, cells: list[str]) -> None:
    import platform

    print(
        f"Family-wise error rate (%) under the null, 5 equal systems, all pairs, the default "
        f"correction of each test (max-T under bootstrap, Holm under randomization), alpha = "
        f"{ALPHA}, B = {B}, refinement off; {sets} data sets per cell; ± one Monte-Carlo SE; "
        f"{platform.machine()}, {time.strftime('%Y-%m-%d')}"
    )
    print()
    print("| case | test | FWER (significant) | p < alpha | undecided per set | s |")
    print("|---|---|---|---|---|---|")
    for cell in cells:
        t0 = time.process_time()
        out = run_small(cell, sets, B)
        spent = time.process_time() - t0
        for test in SMALL_TESTS:
            r = out[test]
            print(
                f"| {cell} | {test} | {rate(r['sig'])} | {rate(r['p'])} | "
                f"{np.mean(r['undecided']):.2f} | {spent:.0f} |",
                flush=True,
            )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument(
        "--sets", type=int, default=600, help="null data sets at m = 2 (fewer at larger m)"
    )
    ap.add_argument("--quick", action="store_true", help="100 sets at m = 2, fewer elsewhere")
    ap.add_argument(
        "--vs-baseline",
        action="store_true",
        help="only the baseline family's rows (--sets null data sets, 2/3 as many for power)",
    )
    ap.add_argument(
        "--small", action="store_true", help="small samples and few clusters (issue 36 item 7)"
    )
    ap.add_argument("-B", type=int, default=2000, help="resamples per analysis (--small)")
    ap.add_argument(
        "--cell", action="append", choices=list(SMALL_CELLS), help="--small: only these cells"
    )
    args = ap.parse_args()
    if args.small:
        main_small(args.sets, args.B, args.cell or list(SMALL_CELLS))
        return
    base = 100 if args.quick else args.sets
    if args.vs_baseline:
        t0 = time.perf_counter()
        baseline_tables(base)
        print(f"\n({time.perf_counter() - t0:.0f} s)")
        return
    plan = [(2, base), (5, base // 2), (10, base // 3), (48, base // 6)]
    t0 = time.perf_counter()
    tables = {m: run(m, sets) for m, sets in plan}
    power = run(2, base // 2, accuracies=[0.8, 0.7])
    small = run(2, base // 2, accuracies=[0.75, 0.7])
    family = run(10, base // 3, accuracies=[0.78] + [0.7] * 9, measure=found_share)
    print(
        f"Family-wise error rate (%) under the null, alpha = {ALPHA}, n = 500, B = 2000; "
        f"± one Monte-Carlo SE; data sets: " + ", ".join(f"{s} at m = {m}" for m, s in plan)
    )
    print()
    print("| test | family | correction | " + " | ".join(f"m = {m}" for m, _ in plan) + " |")
    print("|---|---|---|" + "---|" * len(plan))
    keys = sorted(
        {k for t in tables.values() for k in t}, key=lambda k: (TESTS.index(k[0]), k[1], k[2])
    )
    for key in keys:
        cells = [rate(tables[m][key]) if key in tables[m] else "–" for m, _ in plan]
        print(f"| {key[0]} | {key[1]} | {key[2]} | " + " | ".join(cells) + " |")
    print()
    print(
        f"Power (%), n = 500: two systems ({base // 2} data sets each), and the share of nine true differences "
        f"found among ten systems ({base // 3} data sets)"
    )
    print()
    print("| test | correction | 0.80 vs 0.70 | 0.75 vs 0.70 | 0.78 vs nine at 0.70 |")
    print("|---|---|---|---|---|")
    for key in sorted(power, key=lambda k: (TESTS.index(k[0]), k[2])):
        if key[1] == "all-pairs":
            print(
                f"| {key[0]} | {key[2]} | {rate(power[key])} | {rate(small[key])} | "
                f"{share(family[key[0], key[2]]) if (key[0], key[2]) in family else '–'} |"
            )
    print()
    baseline_tables(base)
    print(f"\n({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
