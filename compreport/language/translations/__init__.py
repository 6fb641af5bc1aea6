"""The translation table: every English text of a report (the key, exactly as the code writes
it, ``{placeholders}`` included) and its Spanish. :func:`compreport.language.tr` reads it;
``tests/test_spanish.py`` checks that every text the code and templates pass to ``tr`` is here, with
the same placeholders.

Terms used throughout: system = sistema, run = ejecución, team = equipo, winner = ganador, best =
mejor, score = puntuación, rank = posición, leaderboard = clasificación, baseline = línea base
(never "referencia": gold = referencia), confidence interval = intervalo de confianza (IC),
resample = réplica (bootstrap; "remuestreo" is the act), "{level} {method} confidence intervals" =
"intervalos de confianza al {level} por el método {method}" (percentile = percentil; a facts line's
"percentile intervals" = "intervalos de percentiles"), standard error (SE) = error estándar (EE),
p-value = valor p, correction = corrección, significance group = grupo de significación, tie =
empate, item = ítem, test set = conjunto de prueba, competitiveness = competitividad, significant =
significativo, "cannot be told apart from" = "no se distingue de", higher/lower is better =
mayor/menor es mejor, tied with best = empata con el mejor, undecided = sin decidir, "A and B"
(authors) = "A y B". A language named in English is a lowercase noun (Spanish = español).
Spanish typography: decimal numbers keep the point unless the report asks for a comma; whole
numbers go through :func:`compreport.language.count`; quotes « » are not used (the English “ ” stay).
"""

from __future__ import annotations

from compreport.language.translations import letters, pages, tables, words

#: English text -> Spanish: the three parts, one per kind of output (no text in two of them: a test).
ES: dict[str, str] = {**words.ES, **pages.ES, **tables.ES, **letters.ES}
