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

    # the table model (model.py): column headers, cells, the competitiveness legend
    "Rank": "Posición",
    "System": "Sistema",
    "CI low": "IC inf.",
    "CI high": "IC sup.",
    "CI": "IC",
    "Group": "Grupo",
    "Marks": "Notas",
    "Score": "Puntuación",
    "Boot. mean": "Media bootstrap",
    "SE": "EE",
    "Difference": "Diferencia",
    "Excludes 0": "Excluye el 0",
    "MC SE": "EE de MC",
    "p (verdict)": "p (veredicto)",
    "Significant": "Significativo",
    "Settled": "Estable",
    "System A": "Sistema A",
    "System B": "Sistema B",
    "Diff.": "Dif.",
    "Class": "Clase",
    "Precision": "Precisión",
    "Recall": "Cobertura",
    "Support": "Soporte",
    "yes": "sí",
    "Name": "Nombre",
    "Description": "Descripción",
    "Test data size": "Tamaño del conjunto de prueba",
    "Number of participants or runs": "Número de participantes o de ejecuciones",
    "Ties w/ win.": "Emp. c/ gan.",
    "Possible ties with the winner, with corrections none / Bonferroni / Holm / BH over the m − 1 comparisons "
    "with the winner": "Posibles empates con el ganador, con las correcciones ninguna / Bonferroni / Holm / BH "
                       "sobre las m − 1 comparaciones con el ganador",
    "Poss. compars.": "Compar. pos.",
    "Total possible comparisons, m(m-1)/2": "Total de comparaciones posibles, m(m-1)/2",
    "none/Bonf.": "ninguna/Bonf.",
    "Ties between competitors, with no correction / Bonferroni":
        "Empates entre competidores, sin corrección / con corrección de Bonferroni",
    "Ties between competitors, with Holm / Benjamini-Hochberg correction":
        "Empates entre competidores, con corrección de Holm / de Benjamini-Hochberg",
    "|win.-med.|": "|gan.-med.|",
    "Performance difference between the winner and the competitor in the middle of the table":
        "Diferencia de rendimiento entre el ganador y el competidor situado en la mitad de la tabla",
    "Coefficient of variation of competitors' performance, CV = 100 s/mean (%)":
        "Coeficiente de variación del rendimiento de los competidores, CV = 100 s/media (%)",
    "Possible percentage improvement, e.g. for F1: 100 (1 - F1 of the winner)":
        "Mejora porcentual posible, p. ej., para F1: 100 (1 - F1 del ganador)",

}
