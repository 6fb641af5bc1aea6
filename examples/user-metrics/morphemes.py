"""Morpheme F-measure for a segmentation task (as in SIGMORPHON 2022 Part 1), in both forms.

Gold and runs give one segmentation per item, morphemes separated by " @@" (``un @@break @@able``;
a sentence is several words, each segmented so). Per item, the morphemes a run got right are the
multiset intersection of its morphemes and the gold's; the score is the F-measure of the counts
summed over the items: precision = right / predicted, recall = right / gold, F = 2PR / (P + R)
= 2 right / (predicted + gold), 0 when both are 0.

compreport report gold.tsv --runs 'runs/*.tsv' --metric morphemes.py:morpheme_f -o out
"""

from collections import Counter

import numpy as np


def morphemes(segmentation):
    """The morphemes of a segmentation: ``"un @@break @@able"`` -> ``["un", "break", "able"]``; a
    missing prediction (``""``, with --missing wrong) has none."""
    return str(segmentation).replace("@@", " ").split()


# --- statistics form: per-item counts, summed by the bootstrap ---------------------------------


def morpheme_counts(gold, pred):
    """Per item: morphemes right, predicted and in gold (an (n, 3) array of one system)."""
    out = np.zeros((len(gold), 3))
    for i, (g, p) in enumerate(zip(gold, pred)):
        g, p = Counter(morphemes(g)), Counter(morphemes(p))
        out[i] = sum((g & p).values()), sum(p.values()), sum(g.values())
    return out


def morpheme_f(sums):
    """Morpheme F-measure from the summed counts (right, predicted, gold)."""
    right, predicted, gold = sums[..., 0], sums[..., 1], sums[..., 2]
    total = predicted + gold
    return np.divide(2 * right, total, out=np.zeros_like(total), where=total > 0)


morpheme_f.stats = morpheme_counts  # the per-item statistics: what makes this the fast form
morpheme_f.vectorized = True  # it scores sums of shape (..., 3) at once (sums[..., j])
morpheme_f.display_name = "morpheme F"  # shown in tables and captions instead of the path
morpheme_f.higher_is_better = True
morpheme_f.ideal = 1.0


# --- label form: the same measure, recomputed from the labels on every resample ------------------


def morpheme_f_labels(y_true, y_pred):
    """Morpheme F-measure of one system on the items given (slow: called on every resample)."""
    right = predicted = gold = 0
    for g, p in zip(y_true, y_pred):
        g, p = Counter(morphemes(g)), Counter(morphemes(p))
        right += sum((g & p).values())
        predicted += sum(p.values())
        gold += sum(g.values())
    return 2 * right / (predicted + gold) if predicted + gold else 0.0


morpheme_f_labels.display_name = "morpheme F"
morpheme_f_labels.ideal = 1.0
