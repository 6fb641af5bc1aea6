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
    # headings, table of contents, facts lines
    "Methods": "Métodos",
    "References": "Referencias",
    "Provenance": "Procedencia",
    "Notes": "Notas",
    "Competitions": "Competiciones",
    "Competition": "Competición",
    "Competitiveness": "Competitividad",
    "Competitions compared": "Comparación de las competiciones",
    "{n} competition": "{n} competición",
    "{n} competitions": "{n} competiciones",
    "B = {b} paired bootstrap resamples": "B = {b} remuestras bootstrap pareadas",
    "seed {seed}": "semilla {seed}",
    "baseline": "referencia",
    "{level} percentile intervals": "intervalos percentil al {level}",
    "percentile intervals": "intervalos percentil",
    "{level} bca intervals": "intervalos BCa al {level}",
    "bca intervals": "intervalos BCa",
    "{level} normal intervals": "intervalos normales al {level}",
    "normal intervals": "intervalos normales",
    "bootstrap test": "prueba bootstrap",
    "randomization test": "prueba de aleatorización",
    # overview page (index.html); texts with markup keep their tags and entities
    "Challenge &middot; task &middot; language": "Reto &middot; tarea &middot; idioma",
    "Challenge": "Reto",
    "Task": "Tarea",
    "Language": "Idioma",
    "Systems": "Sistemas",
    "Metric": "Métrica",
    "Best system": "Mejor sistema",
    "<span class=\"label\">Competitions</span> with the size of their test set (n), the number of systems (baselines "
    "included), the ranking metric and its best system. Each name links to the competition's full report.":
        "<span class=\"label\">Competiciones</span> con el tamaño de su conjunto de prueba (n), el número de sistemas "
        "(incluidos los sistemas de referencia), la métrica de ordenación y su mejor sistema. Cada nombre enlaza con el "
        "informe completo de la competición.",
    "Columns grouped by challenge, task and language as in Nava-Muñoz et al. (Tables 7–11); each language links to "
    "its competition's report. Ties count pairs whose corrected p &ge; &alpha; = {alpha}, under each of the four "
    "corrections: ties with the winner over the m &minus; 1 comparisons with the winner, ties between competitors "
    "over {ties} (the verdicts of the competition reports use the {rule} alone). Differences 3 decimals; CV and PPI "
    "in percent.":
        "Columnas agrupadas por reto, tarea e idioma como en Nava-Muñoz et al. (tablas 7–11); cada idioma enlaza con "
        "el informe de su competición. Los empates cuentan los pares cuyo p corregido es &ge; &alpha; = {alpha}, con "
        "cada una de las cuatro correcciones: empates con el ganador, sobre las m &minus; 1 comparaciones con el "
        "ganador; empates entre competidores, sobre {ties} (los veredictos de los informes de cada competición "
        "aplican solo esta regla: {rule}). Diferencias con 3 decimales; CV y PPI en porcentaje.",
    "<span class=\"label\">Competitiveness</span> of each competition's ranking metric":
        "<span class=\"label\">Competitividad</span> de la métrica de ordenación de cada competición",
    "(part {i} of {n})": "(parte {i} de {n})",
    "PPI of {names} is the winner's distance to the metric's ideal value 0, in the metric's units, not a percentage.":
        "El PPI de {names} es la distancia del ganador al valor ideal 0 de la métrica, en las unidades de la métrica, "
        "no un porcentaje.",
    "<span class=\"label\">Legend</span> of the competitiveness tables (Nava-Muñoz et al., Table 6).":
        "<span class=\"label\">Leyenda</span> de las tablas de competitividad (Nava-Muñoz et al., tabla 6).",
    "Competitiveness of each competition's ranking metric: coefficient of variation, |winner &minus; median|, "
    "possible percentage improvement and the share of pairs tied without correction.":
        "Competitividad de la métrica de ordenación de cada competición: coeficiente de variación, |ganador &minus; "
        "mediana|, mejora porcentual posible y proporción de pares empatados sin corrección.",
    "Generated by compreport {version}. {missing} marks an undefined value (e.g. the CV of a metric whose mean is 0).":
        "Generado por compreport {version}. {missing} indica un valor no definido (p. ej., el CV de una métrica cuya "
        "media es 0).",
    # competition page (competition.html)
    # methods and provenance (_macros.html, html.py)
    "Rerunning compreport with these settings on the same input files gives the same numbers.":
        "Volver a ejecutar compreport con esta configuración sobre los mismos archivos de entrada da los mismos "
        "números.",
    "Input files.": "Archivos de entrada.",
    "File": "Archivo",
    "compreport version": "Versión de compreport",
    "Seed": "Semilla",
    "Bootstrap replicates B": "Réplicas bootstrap B",
    "alpha": "alfa",
    "Confidence level": "Nivel de confianza",
    "CI method": "Método del IC",
    "Test": "Prueba",
    "Correction family": "Familia de la corrección",
    "Correction": "Corrección",
    "Rule of every verdict": "Regla de todos los veredictos",
    "Engine: {key}": "Motor: {key}",
    # team sheets (team.html, team.py)

    # --- LaTeX tables and appendix, the table model, Markdown (templates/latex, latex*.py, appendix.py,
    #     model.py, markdown.py) ---

}
