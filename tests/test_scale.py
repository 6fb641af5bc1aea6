"""Many systems: the work stays polynomial in the number of systems, or is refused at once."""

import re

import numpy as np

from compreport.stats import letters as cld
from tests.test_letter_display import _columns, _redundant, _represents


def test_letters_of_exponentially_many_maximal_groups():
    """80 systems where only the systems of 40 disjoint pairs differ: the maximal groups of
    mutually non-different systems number 2**40, which insert-and-absorb cannot enumerate. The
    display is built greedily instead, and is still exact (two systems share a letter iff they do
    not differ), ordered by the ranking and without a redundant letter."""
    m = 80
    different = np.zeros((m, m), dtype=bool)
    for k in range(0, m, 2):
        different[k, k + 1] = different[k + 1, k] = True
    assert cld._maximal_groups(different) is None
    groups = cld.letters(list(range(m)), different)
    cols = _columns(groups, m)
    assert _represents(cols, different)
    assert _redundant(cols, different) == []
    assert groups[0].startswith("a")
    first_seen = list(dict.fromkeys(re.findall(r"[a-zA-Z]\d*", "".join(groups.values()))))
    names = [cld.ALPHABET[k % 52] + (str(k // 52) if k >= 52 else "") for k in range(99)]
    assert first_seen == names[: len(first_seen)]
    assert cld.letters(list(range(m)), different.copy()) == groups


def test_letters_of_few_maximal_groups_are_insert_and_absorb():
    """The twin: a leaderboard-like pattern of 150 systems has few maximal groups, which
    insert-and-absorb enumerates; the greedy cover is not used."""
    score = np.sort(np.random.default_rng(7).random(150))[::-1]
    different = np.abs(score[:, None] - score[None, :]) > 0.2
    assert cld._maximal_groups(different) is not None
    groups = cld.letters(list(range(150)), different)
    cols = _columns(groups, 150)
    assert _represents(cols, different)
    assert _redundant(cols, different) == []
