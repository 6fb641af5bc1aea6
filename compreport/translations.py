"""The translation table: every English text of a report (the key, exactly as the code writes
it, ``{placeholders}`` included) and its Spanish. :func:`compreport.lang.tr` reads it;
``tests/test_spanish.py`` checks that every text the code and templates pass to ``tr`` is here, with
the same placeholders.

Terms used throughout: system = sistema, run = ejecución, team = equipo, winner = ganador, best =
mejor, score = puntuación, rank = posición, leaderboard = clasificación, baseline = sistema de
referencia, confidence interval = intervalo de confianza (IC), resample = remuestra, p-value = valor
p, correction = corrección, significance group = grupo de significación, tie = empate, item = ítem,
test set = conjunto de prueba, competitiveness = competitividad.
"""

from __future__ import annotations

ES: dict[str, str] = {
}
