"""The translation table: every English text of a report (the key, exactly as the code writes
it, ``{placeholders}`` included) and its Spanish. :func:`compreport.lang.tr` reads it;
``tests/test_spanish.py`` checks that every text the code and templates pass to ``tr`` is here, with
the same placeholders.

Terms used throughout: system = sistema, run = ejecución, team = equipo, winner = ganador, best =
mejor, score = puntuación, rank = posición, leaderboard = clasificación, baseline = sistema de
referencia, confidence interval = intervalo de confianza (IC), resample = remuestra, p-value = valor
p, correction = corrección, significance group = grupo de significación, tie = empate, item = ítem,
test set = conjunto de prueba, competitiveness = competitividad, significant = significativo,
"cannot be told apart from" = "no se distingue de", higher/lower is better = mayor/menor es mejor.
Spanish typography: decimal numbers keep the point unless the report asks for a comma; whole
numbers go through :func:`compreport.lang.count`; quotes « » are not used (the English “ ” stay).
"""

from __future__ import annotations

ES: dict[str, str] = {
    # --- prose, vocabulary, metric names, figures, emails, terminal (prose.py, vocabulary.py, ...) ---

    # --- HTML pages and PDF team sheets (templates/html, html.py, team.py, pdf.py) ---

    # --- LaTeX tables and appendix, the table model, Markdown (templates/latex, latex*.py, appendix.py,
    #     model.py, markdown.py) ---

}
