"""Memory a run would need, and the check that refuses a run that would not fit (one error line).

Available memory is Linux's ``MemAvailable`` (or ``os.sysconf``), capped by a cgroup v2 limit and
by what ``ulimit -v`` leaves; where none can be read, nothing is checked.
"""

from __future__ import annotations

import os

from compreport.errors import InputError, option

#: Largest number of index cells (rows * n) drawn at once; bounds memory to ~64 MB per block.
_BLOCK_CELLS = 1 << 23


def block_rows(n: int) -> int:
    """Replicates per block: a function of ``n`` only, so results never depend on chunking."""
    return max(1, min(256, _BLOCK_CELLS // max(n, 1)))


def available_memory() -> int | None:
    """Bytes of memory available now: ``MemAvailable`` of /proc/meminfo (else the free pages of
    ``os.sysconf``), capped by a cgroup v2 limit and by the address space ``ulimit -v`` leaves; None
    where neither can be read (no check then)."""
    avail = None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    avail = int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    if avail is None:
        try:
            avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            return None
    try:
        with open("/sys/fs/cgroup/memory.max", encoding="ascii") as fh:
            limit = fh.read().strip()
        if limit != "max":
            with open("/sys/fs/cgroup/memory.current", encoding="ascii") as fh:
                avail = min(avail, int(limit) - int(fh.read()))
    except (OSError, ValueError):
        pass
    return min(avail, _address_space_left())


def _address_space_left() -> int:
    """Bytes the process may still map under ``ulimit -v`` (``RLIMIT_AS``, common on clusters):
    the soft limit less the current virtual size; unbounded where there is no limit or it cannot
    be read."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY:
            return 1 << 62
        with open("/proc/self/status", encoding="ascii") as fh:
            size = next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))
        return max(0, soft - size)
    except (ImportError, OSError, ValueError, StopIteration):
        return 1 << 62


def _size(nbytes: float) -> str:
    """``300 KiB``, ``512 MiB``, ``22.4 GiB``, ``1,234.5 GiB``, ``4.5e+15 GiB``."""
    gib = nbytes / (1 << 30)
    if gib < 1:
        return f"{nbytes / (1 << 20):.0f} MiB" if nbytes >= 1 << 20 else f"{nbytes / 1024:.0f} KiB"
    return f"{gib:,.1f} GiB" if gib < 1e6 else f"{gib:.1e} GiB"


def check_memory(parts: dict[str, int], what: str, hint: str) -> None:
    """Refuse work whose arrays would not fit in the memory available now.

    Parameters
    ----------
    parts : dict of str to int
        Estimated bytes of each large array (or group of arrays) alive at the peak, by description.
    what : str
        The work, for the message (``competition 'x': the bootstrap with -B 1000000000``).
    hint : str
        What to change, for the message.

    Raises
    ------
    InputError
        ``WHAT would need about 44.7 GiB of memory (largest part: ...), more than the 21.9 GiB
        available; HINT`` when the sum exceeds :func:`available_memory`.
    """
    need = sum(parts.values())
    avail = available_memory()
    if avail is None or need <= avail:
        return
    biggest = max(parts, key=parts.__getitem__)
    raise InputError(
        f"{what} would need about {_size(need)} of memory (largest part: {biggest}, "
        f"{_size(parts[biggest])}), more than the {_size(max(avail, 0))} available; {hint}"
    )


def comparison_bytes(B: int, m: int) -> int:
    """Peak bytes of the analysis of one metric after the bootstrap, for B replicates of m systems.

    The larger of the replicate differences of up to 256 pairs at a time plus their sorted copy
    and comparisons, and a copy of the (B, m) replicates.
    """
    pairs = min(256, max(1, m * (m - 1) // 2))
    return 8 * B * max(3 * pairs, 2 * m)


#: Most pairs of systems one competition may have: every family compares, corrects and stores every
#: pair (the max-T step-down runs over all of them, the group letters read them, results.json lists
#: them), at about :data:`PAIR_BYTES` of memory and :data:`PAIR_SECONDS` each.
MAX_PAIRS = 100_000

#: Peak bytes per pair: its Comparison objects, their results.json dict and text (measured).
PAIR_BYTES = 3_000

#: Seconds per pair on one core of a 2-core machine, -B 200, the JSON format only (measured).
PAIR_SECONDS = 0.0006


def check_pairs(competitions: list[tuple[str, int]]) -> None:
    """Refuse, before any work, a competition with more than :data:`MAX_PAIRS` pairs of systems.

    Parameters
    ----------
    competitions : list of (str, int)
        Each competition's id and number of systems.

    Raises
    ------
    InputError
        Naming the competition, its systems and pairs, the memory and time they would take, and
        the largest number of systems that fits.

    Examples
    --------
    >>> check_pairs([("small", 447)])
    >>> check_pairs([("big", 2000)])
    Traceback (most recent call last):
    ...
    compreport.errors.InputError: competition 'big': 2,000 systems make 1,999,000 pairs, ...
    """
    most = int((1 + (1 + 8 * MAX_PAIRS) ** 0.5) / 2)
    for cid, m in competitions:
        pairs = m * (m - 1) // 2
        if pairs > MAX_PAIRS:
            minutes = pairs * PAIR_SECONDS / 60
            raise InputError(
                f"competition {cid!r}: {m:,} systems make {pairs:,} pairs, more than the "
                f"{MAX_PAIRS:,} analysed at once: every family (all-pairs, "
                f"per-row, vs-best) compares, corrects and stores every pair, which would take "
                f"about {_size(pairs * PAIR_BYTES)} of memory and {minutes:,.0f} minutes; "
                f"analyse at most {most:,} systems at once (leave runs out with "
                f"{option('exclude', 'GLOB')} or a names file's exclude column, or split them "
                f"into several competitions)"
            )


def check_replicates_memory(competitions: list[tuple[str, int, int]], B: int) -> None:
    """Refuse a ``B`` whose replicates would not fit in memory, before any work.

    Every competition's replicates (B x systems x metrics floats) are kept for the report, and
    the analysis of one metric needs :func:`comparison_bytes` on top.

    Parameters
    ----------
    competitions : list of (str, int, int)
        Each competition's id, number of systems and number of metrics.
    B : int
        Replicates.

    Raises
    ------
    InputError
        When they would not fit (:func:`check_memory`).
    """
    if not B or not competitions:
        return
    parts = {
        f"replicates of competition {cid!r} "
        f"({k} metric(s) x {m} systems x {B} replicates x 8 bytes)": 8 * B * m * k
        for cid, m, k in competitions
    }
    parts["copies of one metric's replicates in its analysis"] = max(
        comparison_bytes(B, m) for _, m, _ in competitions
    )
    check_memory(parts, f"{option('bootstrap', B)}", f"use a smaller {option('bootstrap')}")


def memory_parts(
    n: int,
    m: int,
    B: int,
    metrics: int,
    generic: int,
    patterns: int,
    width: int,
    jackknife: bool,
    randomization: bool,
    *,
    dense: int | None = None,
    cells: int = 0,
) -> dict[str, int]:
    """Estimated bytes of the large arrays of one bootstrap run and the analysis that follows.

    A block of :func:`block_rows` replicates is worked on at a time
    (:func:`compreport.stats.resampling.run`).

    Parameters
    ----------
    n, m, B : int
        Items, systems and replicates.
    metrics, generic : int
        Metrics, and how many of them are evaluated per resample (not decomposable).
    patterns, width : int
        Distinct items and the columns of their stacked statistics (decomposable metrics).
    jackknife, randomization : bool
        Whether the run also computes leave-one-out scores, or randomization rounds.
    dense : int, optional
        Columns kept as a (patterns, dense) matrix (default: all ``width`` of them).
    cells : int
        Nonzeros of cell incidence serving the other columns
        (:class:`~compreport.stats.summing.Summer`; default 0).

    Returns
    -------
    dict of str to int
        Bytes by part, each described for the memory error (:func:`check_memory`).
    """
    rows = min(block_rows(n), max(B, 1))
    parts = {
        f"replicates ({metrics} metric(s) x {m} systems x {B} replicates x 8 bytes)": 8
        * B
        * m
        * metrics,
        "copies of one metric's replicates in its analysis": comparison_bytes(B, m),
    }
    dense = width if dense is None else dense
    if width:
        kept = width if jackknife else dense
        if kept:
            parts[f"per-item statistics ({patterns} distinct items x {kept} columns x 8 bytes)"] = (
                8 * patterns * kept * (2 if jackknife else 1)
            )
        if cells:
            parts[f"cell incidence ({cells} nonzeros x 12 bytes)"] = 12 * cells
        parts["one block of replicates"] = 8 * rows * (2 * n + patterns + 2 * width)
        if randomization:
            parts[f"randomization rounds ({B} x {width} columns x 8 bytes)"] = 8 * B * width
    if generic:
        parts["one block of resampled items"] = 8 * rows * n
        if jackknife:
            parts["leave-one-out scores"] = 8 * n * m * generic
    return parts
