"""The works the methods text cites: BibTeX entries, author-year citations, one-line references."""

from __future__ import annotations

import re
from types import MappingProxyType

from compreport.language import tr

#: BibTeX key -> (short author-year citation, BibTeX entry). ``references.bib`` holds the entries
#: as they stand here, byte for byte, so an entry with a line over 100 columns keeps it (E501 is
#: silenced at the end of that entry).
REFERENCES = MappingProxyType(
    {
        "efron1993": (
            "Efron and Tibshirani, 1993",
            """@book{efron1993,
  author = {Efron, Bradley and Tibshirani, Robert J.},
  title = {An Introduction to the Bootstrap},
  publisher = {Chapman and Hall},
  address = {New York},
  year = {1993}
}""",
        ),
        "efron1987": (
            "Efron, 1987",
            """@article{efron1987,
  author = {Efron, Bradley},
  title = {Better Bootstrap Confidence Intervals},
  journal = {Journal of the American Statistical Association},
  volume = {82},
  number = {397},
  pages = {171--185},
  year = {1987}
}""",
        ),
        "bergkirkpatrick2012": (
            "Berg-Kirkpatrick et al., 2012",
            """@inproceedings{bergkirkpatrick2012,
  author = {Berg-Kirkpatrick, Taylor and Burkett, David and Klein, Dan},
  title = {An Empirical Investigation of Statistical Significance in {NLP}},
  booktitle = {Proceedings of the 2012 Joint Conference on Empirical Methods in Natural Language Processing
               and Computational Natural Language Learning},
  pages = {995--1005},
  year = {2012}
}""",  # noqa: E501
        ),
        "noreen1989": (
            "Noreen, 1989",
            """@book{noreen1989,
  author = {Noreen, Eric W.},
  title = {Computer-Intensive Methods for Testing Hypotheses: An Introduction},
  publisher = {Wiley},
  address = {New York},
  year = {1989}
}""",
        ),
        "chinchor1992": (
            "Chinchor, 1992",
            """@inproceedings{chinchor1992,
  author = {Chinchor, Nancy},
  title = {The Statistical Significance of the {MUC-4} Results},
  booktitle = {Fourth Message Understanding Conference ({MUC-4})},
  pages = {30--50},
  year = {1992}
}""",
        ),
        "phipson2010": (
            "Phipson and Smyth, 2010",
            """@article{phipson2010,
  author = {Phipson, Belinda and Smyth, Gordon K.},
  title = {Permutation {P}-values Should Never Be Zero: Calculating Exact {P}-values When Permutations
           Are Randomly Drawn},
  journal = {Statistical Applications in Genetics and Molecular Biology},
  volume = {9},
  number = {1},
  year = {2010}
}""",  # noqa: E501
        ),
        "davison1997": (
            "Davison and Hinkley, 1997",
            """@book{davison1997,
  author = {Davison, Anthony C. and Hinkley, David V.},
  title = {Bootstrap Methods and their Application},
  publisher = {Cambridge University Press},
  address = {Cambridge},
  year = {1997}
}""",
        ),
        "gandy2014": (
            "Gandy and Hahn, 2014",
            """@article{gandy2014,
  author = {Gandy, Axel and Hahn, Georg},
  title = {{MMCTest} -- A Safe Algorithm for Implementing Multiple {M}onte {C}arlo Tests},
  journal = {Scandinavian Journal of Statistics},
  volume = {41},
  number = {4},
  pages = {1083--1101},
  year = {2014}
}""",
        ),
        "holm1979": (
            "Holm, 1979",
            """@article{holm1979,
  author = {Holm, Sture},
  title = {A Simple Sequentially Rejective Multiple Test Procedure},
  journal = {Scandinavian Journal of Statistics},
  volume = {6},
  number = {2},
  pages = {65--70},
  year = {1979}
}""",
        ),
        "romano2005": (
            "Romano and Wolf, 2005",
            """@article{romano2005,
  author = {Romano, Joseph P. and Wolf, Michael},
  title = {Exact and Approximate Stepdown Methods for Multiple Hypothesis Testing},
  journal = {Journal of the American Statistical Association},
  volume = {100},
  number = {469},
  pages = {94--108},
  year = {2005}
}""",
        ),
        "mogstad2024": (
            "Mogstad et al., 2024",
            """@article{mogstad2024,
  author = {Mogstad, Magne and Romano, Joseph P. and Shaikh, Azeem M. and Wilhelm, Daniel},
  title = {Inference for Ranks with Applications to Mobility across Neighbourhoods and Academic
           Achievement across Countries},
  journal = {The Review of Economic Studies},
  volume = {91},
  number = {1},
  pages = {476--518},
  year = {2024},
  doi = {10.1093/restud/rdad006}
}""",
        ),
        "westfall1993": (
            "Westfall and Young, 1993",
            """@book{westfall1993,
  author = {Westfall, Peter H. and Young, S. Stanley},
  title = {Resampling-Based Multiple Testing: Examples and Methods for p-Value Adjustment},
  publisher = {Wiley},
  address = {New York},
  year = {1993}
}""",
        ),
        "benjamini1995": (
            "Benjamini and Hochberg, 1995",
            """@article{benjamini1995,
  author = {Benjamini, Yoav and Hochberg, Yosef},
  title = {Controlling the False Discovery Rate: A Practical and Powerful Approach to Multiple Testing},
  journal = {Journal of the Royal Statistical Society. Series B},
  volume = {57},
  number = {1},
  pages = {289--300},
  year = {1995}
}""",  # noqa: E501
        ),
        "dunn1961": (
            "Dunn, 1961",
            """@article{dunn1961,
  author = {Dunn, Olive Jean},
  title = {Multiple Comparisons Among Means},
  journal = {Journal of the American Statistical Association},
  volume = {56},
  number = {293},
  pages = {52--64},
  year = {1961}
}""",
        ),
        "piepho2004": (
            "Piepho, 2004",
            """@article{piepho2004,
  author = {Piepho, Hans-Peter},
  title = {An Algorithm for a Letter-Based Representation of All-Pairwise Comparisons},
  journal = {Journal of Computational and Graphical Statistics},
  volume = {13},
  number = {2},
  pages = {456--466},
  year = {2004}
}""",
        ),
        "navamunoz2024": (
            "Nava-Muñoz et al., 2024",
            """@misc{navamunoz2024,
  author = {Nava-Muñoz, Sergio and Graff, Mario and Escalante, Hugo Jair},
  title = {Analysis of Systems' Performance in Natural Language Processing Competitions},
  year = {2024},
  eprint = {2403.04693},
  archivePrefix = {arXiv},
  primaryClass = {cs.LG},
  howpublished = {arXiv preprint arXiv:2403.04693},
  note = {Submitted to Pattern Recognition Letters}
}""",
        ),
        "amigo2022": (
            "Amigó and Delgado, 2022",
            """@inproceedings{amigo2022,
  author = {Amigó, Enrique and Delgado, Agustín},
  title = {Evaluating Extreme Hierarchical Multi-label Classification},
  booktitle = {Proceedings of the 60th Annual Meeting of the Association for Computational Linguistics},
  pages = {5809--5819},
  year = {2022}
}""",  # noqa: E501
        ),
        "cohen1960": (
            "Cohen, 1960",
            """@article{cohen1960,
  author = {Cohen, Jacob},
  title = {A Coefficient of Agreement for Nominal Scales},
  journal = {Educational and Psychological Measurement},
  volume = {20},
  number = {1},
  pages = {37--46},
  year = {1960}
}""",
        ),
        "cohen1968": (
            "Cohen, 1968",
            """@article{cohen1968,
  author = {Cohen, Jacob},
  title = {Weighted Kappa: Nominal Scale Agreement Provision for Scaled Disagreement or Partial Credit},
  journal = {Psychological Bulletin},
  volume = {70},
  number = {4},
  pages = {213--220},
  year = {1968}
}""",  # noqa: E501
        ),
        "matthews1975": (
            "Matthews, 1975",
            """@article{matthews1975,
  author = {Matthews, Brian W.},
  title = {Comparison of the Predicted and Observed Secondary Structure of {T4} Phage Lysozyme},
  journal = {Biochimica et Biophysica Acta},
  volume = {405},
  number = {2},
  pages = {442--451},
  year = {1975}
}""",
        ),
        "tjongkimsang2003": (
            "Tjong Kim Sang and De Meulder, 2003",
            """@inproceedings{tjongkimsang2003,
  author = {Tjong Kim Sang, Erik F. and De Meulder, Fien},
  title = {Introduction to the {CoNLL}-2003 Shared Task: Language-Independent Named Entity Recognition},
  booktitle = {Proceedings of the Seventh Conference on Natural Language Learning},
  pages = {142--147},
  year = {2003}
}""",  # noqa: E501
        ),
    }
)

#: The tool's own BibTeX key (:func:`tool_bibtex`); the repository URL is a placeholder until the
#: project has a public home (as in CITATION.cff).
TOOL_KEY = "compreport"
TOOL_URL = "https://github.com/compreport/compreport"


def tool_bibtex() -> str:
    """The BibTeX entry of compreport itself, at the running version (CITATION.cff says the same).

    >>> print(tool_bibtex())  # doctest: +ELLIPSIS
    @software{compreport,
      author = {{The compreport developers}},
      title = {compreport: Paired-Bootstrap Analysis and Reports for {NLP} Shared Tasks},
      version = {...},
      ...
    """
    from compreport._version import __version__

    return f"""@software{{{TOOL_KEY},
  author = {{{{The compreport developers}}}},
  title = {{compreport: Paired-Bootstrap Analysis and Reports for {{NLP}} Shared Tasks}},
  version = {{{__version__}}},
  url = {{{TOOL_URL}}},
  license = {{MIT}}
}}"""


def citation() -> str:
    """What ``compreport --citation`` prints: the BibTeX of the tool, of the method paper
    (``navamunoz2024``), and of every work the methods paragraph of a report made with the default
    settings cites (:func:`compreport.report.prose.paragraph`: the bootstrap, the max-T
    correction of Westfall & Young and Romano & Wolf, the rank sets of Mogstad et al., ...), each
    entry once, from :data:`REFERENCES`.

    >>> text = citation()
    >>> [line.split("{")[1].rstrip(",") for line in text.splitlines() if line.startswith("@")][:3]
    ['compreport', 'navamunoz2024', 'efron1993']
    >>> "@book{westfall1993," in text and "@article{mogstad2024," in text
    True
    """
    from compreport.report import prose
    from compreport.settings import Settings

    keys = list(dict.fromkeys(["navamunoz2024", *prose.cited(prose.paragraph(Settings()))]))
    return tool_bibtex() + "\n\n" + bibtex(keys)


def bibtex(keys: list[str]) -> str:
    """BibTeX entries of ``keys``, in order."""
    return "\n\n".join(REFERENCES[k][1] for k in keys) + "\n"


def short(key: str) -> str:
    """Author-year citation of ``key`` (``Holm, 1979``; ``Phipson y Smyth, 2010`` in Spanish)."""
    return REFERENCES[key][0].replace(" and ", tr(" and "))


def _bib_fields(entry: str) -> dict[str, str]:
    """Fields of one BibTeX entry (balanced braces), with inner braces dropped and spaces
    collapsed."""
    fields = {}
    for m in re.finditer(r"(\w+)\s*=\s*\{", entry):
        depth, i = 1, m.end()
        while i < len(entry) and depth:
            depth += {"{": 1, "}": -1}.get(entry[i], 0)
            i += 1
        value = entry[m.end() : i - 1].replace("{", "").replace("}", "")
        fields[m.group(1).lower()] = re.sub(r"\s+", " ", value).strip().replace("--", "\u2013")
    return fields


def authors(key: str) -> str:
    """The authors of ``key``, first names first, joined in the report's language (``Bradley
    Efron and Robert J. Tibshirani``; ``Bradley Efron y Robert J. Tibshirani`` in Spanish; three
    or more: ``A, B, and C``, ``A, B y C``).

    Examples
    --------
    >>> from compreport.language import language
    >>> with language("es"):
    ...     authors("bergkirkpatrick2012")
    'Taylor Berg-Kirkpatrick, David Burkett y Dan Klein'
    """
    names = [
        " ".join(reversed([p.strip() for p in name.split(",", 1)]))
        for name in _bib_fields(REFERENCES[key][1]).get("author", "").split(" and ")
    ]
    if len(names) <= 2:
        return tr(" and ").join(names)
    return ", ".join(names[:-1]) + tr(", and ") + names[-1]


def _venue(f: dict[str, str], volume_sep: str = ", ") -> str:
    """Journal or proceedings with volume, number and pages, else publisher and address, else how
    it is published (an arXiv preprint)."""
    venue = f.get("journal") or f.get("booktitle") or ""
    if f.get("volume"):
        venue += f", {f['volume']}" + (f"({f['number']})" if f.get("number") else "")
    if f.get("pages"):
        venue += f"{volume_sep if f.get('volume') else ', '}{f['pages']}"
    if not venue:
        venue = ", ".join(x for x in (f.get("publisher"), f.get("address")) if x)
    return (venue or f.get("howpublished", "")).rstrip(".")


def reference_parts(key: str) -> tuple[str, str]:
    """A one-line reference from :data:`REFERENCES` in two parts: the authors (:func:`authors`,
    in the report's language) with the year, and the work as published (title and venue, in the
    work's language).

    >>> reference_parts("holm1979")
    ('Sture Holm (1979).', 'A Simple Sequentially Rejective Multiple Test Procedure. Scandinavian Journal of Statistics, 6(2), 65–70.')
    """  # noqa: E501
    f = _bib_fields(REFERENCES[key][1])
    venue = _venue(f)
    work = f"{f.get('title', '')}." + (f" {venue}." if venue else "")
    return f"{authors(key)} ({f.get('year', '')}).", work


def reference_text(key: str) -> str:
    """A one-line reference (:func:`reference_parts`): authors, year, title and venue."""
    return " ".join(reference_parts(key))


def thebibliography(keys: list[str]) -> str:
    """The LaTeX bibliography of ``keys`` (natbib's author-year ``\\bibitem`` labels), sorted by
    first author and year as plainnat sorts, with the authors joined in the report's language: the
    appendix's References (``references.bib`` holds the same works for a paper's own style).

    Examples
    --------
    >>> print(thebibliography(["holm1979"]))
    \\begin{thebibliography}{1}
    \\bibitem[Holm(1979)]{holm1979}
    Sture Holm.
    \\newblock A Simple Sequentially Rejective Multiple Test Procedure.
    \\newblock \\emph{Scandinavian Journal of Statistics}, 6(2):65–70, 1979.
    \\end{thebibliography}
    """
    from compreport.report.latex.tex import escape as tex_escape

    def escape(text: str) -> str:  # as the methods paragraph: a plain hyphen and apostrophe
        return tex_escape(text).replace("-{}", "-").replace("\\textquotesingle{}", "'")

    def order(k: str) -> tuple:  # plainnat: the authors' last names, then the year
        f = _bib_fields(REFERENCES[k][1])
        last = [n.split(",")[0].strip().lower() for n in f.get("author", "").split(" and ")]
        return last, f.get("year", "")

    lines = [f"\\begin{{thebibliography}}{{{len(keys)}}}"]
    for key in sorted(keys, key=order):
        f = _bib_fields(REFERENCES[key][1])
        who = escape(short(key).rsplit(", ", 1)[0]).replace(" et al.", " et~al.")
        venue = _venue(f, volume_sep=":")
        if f.get("journal") or f.get("booktitle"):
            head, _, rest = venue.partition(", ")
            venue = f"\\emph{{{escape(head)}}}" + (f", {escape(rest)}" if rest else "")
        else:
            venue = escape(venue)
        lines += [
            f"\\bibitem[{who}({f.get('year', '')})]{{{key}}}",
            f"{escape(authors(key))}.",
            f"\\newblock {escape(f.get('title', ''))}.",
            f"\\newblock {venue + ', ' if venue else ''}{f.get('year', '')}.",
        ]
    return "\n".join(lines + ["\\end{thebibliography}"])
