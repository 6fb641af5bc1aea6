"""The methods paragraph, generated from the settings, and the works it cites.

:func:`paragraph` returns a list of segments — plain strings and :class:`Cite` markers —
so each renderer escapes the text for its format and renders citations its own way
(LaTeX ``\\cite{key}``, HTML "(Author, year)"). The wording lives here once.
"""

from __future__ import annotations

from .. import vocabulary as vocab

from dataclasses import dataclass

from ..settings import Settings


@dataclass(frozen=True)
class Cite:
    key: str


#: BibTeX key -> (short author-year citation, BibTeX entry).
REFERENCES = {
    "efron1993": ("Efron and Tibshirani, 1993", """@book{efron1993,
  author = {Efron, Bradley and Tibshirani, Robert J.},
  title = {An Introduction to the Bootstrap},
  publisher = {Chapman and Hall},
  address = {New York},
  year = {1993}
}"""),
    "efron1987": ("Efron, 1987", """@article{efron1987,
  author = {Efron, Bradley},
  title = {Better Bootstrap Confidence Intervals},
  journal = {Journal of the American Statistical Association},
  volume = {82},
  number = {397},
  pages = {171--185},
  year = {1987}
}"""),
    "bergkirkpatrick2012": ("Berg-Kirkpatrick et al., 2012", """@inproceedings{bergkirkpatrick2012,
  author = {Berg-Kirkpatrick, Taylor and Burkett, David and Klein, Dan},
  title = {An Empirical Investigation of Statistical Significance in {NLP}},
  booktitle = {Proceedings of the 2012 Joint Conference on Empirical Methods in Natural Language Processing
               and Computational Natural Language Learning},
  pages = {995--1005},
  year = {2012}
}"""),
    "noreen1989": ("Noreen, 1989", """@book{noreen1989,
  author = {Noreen, Eric W.},
  title = {Computer-Intensive Methods for Testing Hypotheses: An Introduction},
  publisher = {Wiley},
  address = {New York},
  year = {1989}
}"""),
    "chinchor1992": ("Chinchor, 1992", """@inproceedings{chinchor1992,
  author = {Chinchor, Nancy},
  title = {The Statistical Significance of the {MUC-4} Results},
  booktitle = {Fourth Message Understanding Conference ({MUC-4})},
  pages = {30--50},
  year = {1992}
}"""),
    "phipson2010": ("Phipson and Smyth, 2010", """@article{phipson2010,
  author = {Phipson, Belinda and Smyth, Gordon K.},
  title = {Permutation {P}-values Should Never Be Zero: Calculating Exact {P}-values When Permutations
           Are Randomly Drawn},
  journal = {Statistical Applications in Genetics and Molecular Biology},
  volume = {9},
  number = {1},
  year = {2010}
}"""),
    "holm1979": ("Holm, 1979", """@article{holm1979,
  author = {Holm, Sture},
  title = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics},
  volume = {6},
  number = {2},
  pages = {65--70},
  year = {1979}
}"""),
    "benjamini1995": ("Benjamini and Hochberg, 1995", """@article{benjamini1995,
  author = {Benjamini, Yoav and Hochberg, Yosef},
  title = {Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing},
  journal = {Journal of the Royal Statistical Society. Series B},
  volume = {57},
  number = {1},
  pages = {289--300},
  year = {1995}
}"""),
    "dunn1961": ("Dunn, 1961", """@article{dunn1961,
  author = {Dunn, Olive Jean},
  title = {Multiple Comparisons Among Means},
  journal = {Journal of the American Statistical Association},
  volume = {56},
  number = {293},
  pages = {52--64},
  year = {1961}
}"""),
    "piepho2004": ("Piepho, 2004", """@article{piepho2004,
  author = {Piepho, Hans-Peter},
  title = {An Algorithm for a Letter-Based Representation of All-Pairwise Comparisons},
  journal = {Journal of Computational and Graphical Statistics},
  volume = {13},
  number = {2},
  pages = {456--466},
  year = {2004}
}"""),
}

_CI_WORDS = {"percentile": ("percentile", "efron1993"), "bca": ("bias-corrected and accelerated (BCa)", "efron1987"),
             "normal": ("normal-approximation (estimate ± z·SE)", "efron1993")}
_CORRECTION_CITE = {"bonferroni": "dunn1961", "holm": "holm1979", "bh": "benjamini1995"}
_FAMILY_WORDS = {"all-pairs": "over all pairs of systems",
                 "per-row": "within each row (each system against those ranked below it)",
                 "vs-best": "only over the comparisons with the best (the other pairs are not tested)"}


def paragraph(settings: Settings) -> list[str | Cite]:
    """The methods paragraph as segments (text and :class:`Cite`), worded from ``settings``."""
    level = f"{100 * (1 - settings.alpha):g}%"
    ci_name, ci_cite = _CI_WORDS[settings.ci_method]
    out: list[str | Cite] = [
        f"Scores are reported with {level} {ci_name} confidence intervals ", Cite(ci_cite),
        f" from {settings.bootstrap:,} paired bootstrap resamples of the test items (seed {settings.seed}); "
        "every system and metric is scored on the same resamples. "]
    if settings.test == "randomization":
        out += [f"p-values come from an approximate randomization test with {settings.bootstrap:,} rounds, "
                f"swapping each item's two predictions with probability 1/2 ", Cite("noreen1989"), " as in MUC ",
                Cite("chinchor1992"), ", with p = (c + 1)/(R + 1) ", Cite("phipson2010"), ". "]
    else:
        out += ["p-values follow the paired bootstrap test ", Cite("bergkirkpatrick2012"),
                ", counting resamples whose difference reaches twice the observed one, with p = (c + 1)/(B + 1) ",
                Cite("phipson2010"), ". "]
    out += ["Differences from the best are corrected over the m − 1 comparisons with the best; pairwise "
            f"p-values are corrected {_FAMILY_WORDS.get(settings.family, settings.family)} with Bonferroni ",
            Cite("dunn1961"), ", Holm ", Cite("holm1979"), " and Benjamini–Hochberg ", Cite("benjamini1995"),
            " adjustments. "]
    if settings.correction == "none":
        out += [f"Significance groups (systems sharing a letter are not significantly different at α = "
                f"{settings.alpha:g}) use uncorrected p-values ", Cite("piepho2004"), ". "]
    else:
        out += [f"Significance groups (systems sharing a letter are not significantly different at α = "
                f"{settings.alpha:g}) use the {vocab.CORRECTIONS[settings.correction].label} correction ",
                Cite(_CORRECTION_CITE[settings.correction]), " and a compact letter display ", Cite("piepho2004"),
                ". "]
    out += ["The best system is chosen on the same test set it is compared on."]
    return out


def cited(segments: list[str | Cite]) -> list[str]:
    """BibTeX keys cited in ``segments``, first appearance order, no repeats."""
    return list(dict.fromkeys(s.key for s in segments if isinstance(s, Cite)))


def plain(segments: list[str | Cite]) -> str:
    """The paragraph as plain text with author-year citations in parentheses."""
    return "".join(s if isinstance(s, str) else f"({REFERENCES[s.key][0]})" for s in segments)


def bibtex(keys: list[str]) -> str:
    """BibTeX entries of ``keys``, in order."""
    return "\n\n".join(REFERENCES[k][1] for k in keys) + "\n"
