"""The translation table: every English text of a report (the key, exactly as the code writes
it, ``{placeholders}`` included) and its Spanish. :func:`compreport.language.tr` reads it;
``tests/test_spanish.py`` checks that every text the code and templates pass to ``tr`` is here, with
the same placeholders.

Terms used throughout, as a native organizer writes an IberLEF overview (SEPLN's *Procesamiento
del Lenguaje Natural*): system = sistema, run = envío (masculine: "el mejor envío", "el ganador",
"quedó en primer lugar"; never "ejecución"), team = equipo, winner = ganador, runner-up = sistema en
segundo lugar, best = mejor, score = puntuación, rank = posición, leaderboard = tabla de resultados
(a heading, a caption's "Resultados de ..."), ranking order = ranking ("posición en el ranking";
never "clasificación", which a classification task reads as the task), baseline = línea base
(never "referencia": gold = referencia), test item = instancia de prueba (never "ítem"), confidence
interval = intervalo de confianza (IC), resample = réplica (bootstrap; "remuestreo" is the act, never
"remuestra"), "{level} {method} confidence intervals" = "intervalos de confianza al {level} por el
método {method}" (percentile = percentil; a facts line's "percentile intervals" = "intervalos de
percentiles"), standard error (SE) = error estándar (EE), p-value = valor p, correction =
corrección, max-T step-down = max-T descendente (the rule: "corrección max-T descendente sobre
..."; "the max-T step-down procedure" = "el procedimiento max-T descendente"), significance group =
grupo de significación, tie = empate, test set = conjunto de prueba, competitiveness =
competitividad, significant = significativo, "cannot be told apart from" = "no se distingue de",
higher/lower is better = mayor/menor es mejor, tied with best = empatado con el mejor, verdict =
veredicto, settled = firme ("un veredicto que no es firme"; never "resuelto"), undecided = sin
decidir, "A and B" (authors) = "A y B". A language named in English is a lowercase noun (Spanish =
español). Colours name what the figures draw (:mod:`compreport.report.figures.style`): verde,
naranja (vermillion), rosa (reddish purple), gris.
Spanish typography: numbers keep the decimal point unless the report asks for a comma
(``--decimal-comma``, :func:`compreport.language.decimal_comma`), then an interval's bounds are
separated by a semicolon (``[0,625; 0,748]``); whole numbers go through
:func:`compreport.language.count`; quotes « » are not used (the English “ ” stay).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from compreport.language.translations import letters, pages, tables, words

#: English text -> Spanish: the three parts, one per kind of output (no text in two of them: a test).
ES: Mapping[str, str] = MappingProxyType({**words.ES, **pages.ES, **tables.ES, **letters.ES})
