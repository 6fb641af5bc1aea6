"""The size of the two tests under the null hypothesis: how often each rejects at alpha = 0.05 when
two systems are equally good.

    python benchmarks/size.py [DATASETS]     # default 1000 (about a minute)

Each data set: n = 300 binary items, two systems that are each right with probability 0.7,
independently; B = 1000, no correction, no refinement. Prints the rejection rate of the paired
bootstrap test (one-sided in the direction of the observed difference, as Berg-Kirkpatrick et al.
define it: about 2 alpha), of the approximate randomization test (two-sided: about alpha), and how
often the 95% percentile interval of the difference excludes 0.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd

import compreport as cr


def main(datasets: int = 1000) -> None:
    rng = np.random.default_rng(12345)
    n, alpha = 300, 0.05
    rejected = {"bootstrap": 0, "randomization": 0}
    excludes = 0
    for k in range(datasets):
        gold = rng.integers(0, 2, n)
        runs = {name: np.where(rng.random(n) < 0.7, gold, 1 - gold) for name in ("A", "B")}
        data = cr.from_frame(pd.DataFrame({"id": range(n), "gold": gold, **runs}), gold="gold", id="id",
                             metrics=["accuracy"])
        for test in rejected:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                a = cr.analyze(data, bootstrap=1000, seed=k, alpha=alpha, test=test, correction="none",
                               refine=False, progress=False)
            pair = a.pairs().iloc[0]
            rejected[test] += bool(pair["p_raw"] < alpha)
            if test == "bootstrap":
                excludes += bool(pair["excludes_zero"])
    print(f"{datasets} null data sets (n = {n}, B = 1000, alpha = {alpha}):")
    for test, r in rejected.items():
        print(f"  {test:13s} test rejects {100 * r / datasets:.1f} %")
    print(f"  95% interval of the difference excludes 0: {100 * excludes / datasets:.1f} %")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
