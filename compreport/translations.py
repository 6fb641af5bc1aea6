"""The translation table: every English text of a report (the key, exactly as the code writes
it, ``{placeholders}`` included) and its Spanish. :func:`compreport.lang.tr` reads it;
``tests/test_spanish.py`` checks that every text the code and templates pass to ``tr`` is here, with
the same placeholders.

Terms used throughout: system = sistema, run = ejecución, team = equipo, winner = ganador, best =
mejor, score = puntuación, rank = posición, leaderboard = clasificación, baseline = línea base
(never "referencia": gold = referencia), confidence interval = intervalo de confianza (IC), resample
= remuestra, p-value = valor p, correction = corrección, significance group = grupo de
significación, tie = empate, item = ítem, test set = conjunto de prueba, competitiveness =
competitividad, significant = significativo, "cannot be told apart from" = "no se distingue de",
higher/lower is better = mayor/menor es mejor, tied with best = empata con el mejor, unsettled = no
resuelto.
Spanish typography: decimal numbers keep the point unless the report asks for a comma; whole
numbers go through :func:`compreport.lang.count`; quotes « » are not used (the English “ ” stay).
"""

from __future__ import annotations

ES: dict[str, str] = {
    # --- prose, vocabulary, metric names, figures, emails, terminal (prose.py, vocabulary.py, ...) ---
    "{correction} correction over {family}": "corrección de {correction} sobre {family}",
    "none": "ninguna",
    "no correction for multiple comparisons": "ausencia de corrección por comparaciones múltiples",
    "the Bonferroni correction": "la corrección de Bonferroni",
    "the Holm correction": "la corrección de Holm",
    "the Benjamini–Hochberg correction": "la corrección de Benjamini–Hochberg",
    "percentile": "percentil",
    "bias-corrected and accelerated (BCa)": "corregidos por sesgo y acelerados (BCa)",
    "normal": "normal",
    "normal-approximation (estimate ± z·SE)": "de aproximación normal (estimación ± z·EE)",
    "paired bootstrap": "bootstrap pareado",
    "the paired bootstrap test": "la prueba bootstrap pareada",
    "approximate randomization": "aleatorización aproximada",
    "an approximate randomization test": "una prueba de aleatorización aproximada",
    "all pairs": "todos los pares",
    "all pairs of systems": "todos los pares de sistemas",
    "per row": "por fila",
    "each row (each system against those ranked below it)": "cada fila (cada sistema frente a los que le siguen en la clasificación)",
    "vs. the best": "frente al mejor",
    "the comparisons with the best (other pairs are not tested)": "las comparaciones con el mejor (los demás pares no se contrastan)",
    "the m − 1 comparisons with the best": "las m − 1 comparaciones con el mejor",
    "accuracy": "exactitud",
    "weighted F1": "F1 ponderada",
    "precision": "precisión",
    "recall": "exhaustividad",
    "macro-precision": "macro-precisión",
    "macro-recall": "macro-exhaustividad",
    "Pearson's r": "r de Pearson",
    "Spearman's ρ": "ρ de Spearman",
    "relevant label": "etiqueta relevante",
    "positive class": "clase positiva",
    " of {field}": " de {field}",
    " over {n} classes": " sobre {n} clases",
    " over {labels}": " sobre {labels}",
    "{percent}%": "{percent}\u00a0%",
    "Unsettled: after {resamples} resamples this verdict is still within the Monte-Carlo error of its p-values, so more resamples could change it.":
        "No resuelto: tras {resamples} remuestras, este veredicto sigue dentro del error de Monte Carlo de sus valores p; más remuestras podrían cambiarlo.",
    "at α = {alpha} ({rule})": "con α = {alpha} ({rule})",
    "{subject} cannot be told apart from {other} {at}.": "{subject} no se distingue de {other} {at}.",
    "Too few resamples for {metric}: with {resamples} resamples no p-value can fall below 1/({resamples} + 1), so the {rule} ({tested} comparisons) can never reject at α = {alpha}; every system shares one group and ties with the best whatever the data. Use B = {need} or more.":
        "Demasiado pocas remuestras para {metric}: con {resamples} remuestras ningún valor p puede quedar por debajo de 1/({resamples} + 1), así que la {rule} ({tested} comparaciones) nunca puede rechazar con α = {alpha}; todos los sistemas comparten un grupo y empatan con el mejor, sean cuales sean los datos. Use B = {need} o más.",
    "The table of differences from the best corrects over only the m − 1 comparisons with the winner ({correction}: p = {p}); the verdict above, like the significance groups, uses the {rule}.":
        "La tabla de diferencias con el mejor corrige solo sobre las m − 1 comparaciones con el ganador ({correction}: p = {p}); el veredicto anterior, como los grupos de significación, usa la {rule}.",
    "Scores with their {level} bootstrap confidence intervals, best first.":
        "Puntuaciones con sus intervalos de confianza bootstrap al {level}, de mejor a peor.",
    "Differences from the best with their {level} confidence intervals, not corrected for multiple comparisons (positive: the best is better); green intervals exclude 0.":
        "Diferencias con el mejor y sus intervalos de confianza al {level}, sin corregir por comparaciones múltiples (positiva: el mejor es mejor); los intervalos verdes excluyen el 0.",
    "Bootstrap distribution of the difference between the best system and the runner-up; the p-value counts the replicates at or beyond twice the observed difference.":
        "Distribución bootstrap de la diferencia entre el mejor sistema y el segundo; el valor p cuenta las réplicas que alcanzan o superan el doble de la diferencia observada.",
    "Bootstrap distribution of the difference between the best system and the runner-up; the p-value in the title is the approximate randomization test's.":
        "Distribución bootstrap de la diferencia entre el mejor sistema y el segundo; el valor p del título es el de la prueba de aleatorización aproximada.",
    "All metrics side by side.": "Todas las métricas, una junto a otra.",
    "Confusion matrix of the best system on the full test set: rows are gold classes, columns predicted labels, each row shaded by its share of the gold class.":
        "Matriz de confusión del mejor sistema en todo el conjunto de prueba: las filas son las clases de referencia y las columnas las etiquetas predichas; cada fila se sombrea según su proporción de la clase de referencia.",
    "Every pair of systems, in rank order, shaded by the significance mark of its corrected p-value (the rule of this report's verdicts); white: a pair the family does not test.":
        "Todos los pares de sistemas, por orden de clasificación, sombreados según la marca de significación de su valor p corregido (la regla de los veredictos de este informe); en blanco, los pares que la familia no contrasta.",
    "{workshop}: statistical analysis of the results": "{workshop}: análisis estadístico de los resultados",
    "Statistical analysis of the competition results": "Análisis estadístico de los resultados de la competición",
    "higher is better": "mayor es mejor",
    "lower is better": "menor es mejor",
    "{clusters} clusters given by column “{column}”": "{clusters} conglomerados dados por la columna “{column}”",
    "{competition}: {items} items in {unit}": "{competition}: {items} ítems en {unit}",
    "Where items form clusters ({which}), a resample draws the clusters with replacement and every item of a drawn cluster comes with it, the cluster bootstrap ":
        "Cuando los ítems forman conglomerados ({which}), cada remuestra extrae los conglomerados con reemplazo y con cada conglomerado extraído vienen todos sus ítems: el bootstrap por conglomerados ",
    ": intervals, differences and p-values all resample clusters, the jackknife of BCa leaves out one cluster, and a randomization round swaps the predictions of whole clusters. ":
        ": intervalos, diferencias y valores p remuestrean conglomerados, el jackknife de BCa omite un conglomerado cada vez y cada ronda de aleatorización intercambia las predicciones de conglomerados enteros. ",
    "Scores are reported with {level} {ci} confidence intervals ": "Las puntuaciones se presentan con intervalos de confianza {ci} al {level} ",
    " from {resamples} paired bootstrap resamples of the test items (seed {seed}); every system and metric is scored on the same resamples. ":
        " obtenidos de {resamples} remuestras bootstrap pareadas de los ítems de prueba (semilla {seed}); todos los sistemas y métricas se evalúan sobre las mismas remuestras. ",
    "Tables report p-values raw and with Bonferroni ": "Las tablas dan los valores p sin ajustar y con los ajustes de Bonferroni ",
    " and Benjamini–Hochberg ": " y Benjamini–Hochberg ",
    " adjustments: differences from the best over the m − 1 comparisons with the best, pairwise p-values over {family}. Every verdict of this report — significantly different or not, the systems that cannot be told apart from the best, and the significance groups (systems sharing a letter are not significantly different at α = {alpha}; a compact letter display ":
        ": las diferencias con el mejor sobre las m − 1 comparaciones con el mejor, los valores p por pares sobre {family}. Todos los veredictos de este informe —significativamente distinto o no, los sistemas que no se distinguen del mejor y los grupos de significación (los sistemas que comparten una letra no son significativamente distintos con α = {alpha}; una representación compacta por letras ",
    ") — uses the ": ")— usan la ",
    ". The competitiveness summary counts ties as the paper does, under each of the four corrections: with the winner over the m − 1 comparisons with the winner, between competitors over {family}. ":
        ". El resumen de competitividad cuenta los empates como el artículo, con cada una de las cuatro correcciones: con el ganador sobre las m − 1 comparaciones con el ganador; entre competidores sobre {family}. ",
    "The best system is chosen on the same test set it is compared on.": "El mejor sistema se elige sobre el mismo conjunto de prueba en que se compara.",
    "Each p-value is reported with its Monte-Carlo standard error; a verdict is settled when the correction gives it for every p-value of its family at both ends of its Clopper–Pearson bounds (jointly at risk {risk}) ":
        "Cada valor p se da con su error estándar de Monte Carlo; un veredicto queda resuelto cuando la corrección lo da para todos los valores p de su familia en ambos extremos de sus cotas de Clopper–Pearson (con riesgo conjunto {risk}) ",
    "The random streams are keyed by the seed and the competition's id, so a renamed competition draws other resamples. ":
        "Las secuencias aleatorias dependen de la semilla y del identificador de la competición, de modo que una competición renombrada extrae otras remuestras. ",
    "Scores carry {level} {ci} confidence intervals ": "Las puntuaciones llevan intervalos de confianza {ci} al {level} ",
    " from {resamples} paired bootstrap resamples of the test items (seed {seed}); p-values come from {test} ":
        " obtenidos de {resamples} remuestras bootstrap pareadas de los ítems de prueba (semilla {seed}); los valores p proceden de {test} ",
    "Every verdict on this page, and the significance groups (systems sharing a letter are not significantly different at α = {alpha} ":
        "Todos los veredictos de esta página y los grupos de significación (los sistemas que comparten una letra no son significativamente distintos con α = {alpha} ",
    "), uses the ": ") usan la ",
    "No test decides this comparison {at}.": "Ninguna prueba decide esta comparación {at}.",
    "The winner": "El ganador",
    "p-values come from an approximate randomization test with {rounds} rounds, swapping each item's two predictions with probability 1/2 ":
        "Los valores p proceden de una prueba de aleatorización aproximada con {rounds} rondas, que intercambia las dos predicciones de cada ítem con probabilidad 1/2 ",
    " as in MUC ": " como en MUC ",
    ", with ": ", con ",
    "p-values follow the paired bootstrap test ": "Los valores p siguen la prueba bootstrap pareada ",
    ", counting resamples whose difference reaches twice the observed one, with ": ", que cuenta las remuestras cuya diferencia alcanza el doble de la observada, con ",
    "Baselines compete like the participants. ": "Las líneas base compiten como los participantes. ",
    "Baselines are compared and grouped with the participants but do not compete: the best system, the comparisons with it and the competitiveness figures consider participants only. ":
        "Las líneas base se comparan y agrupan con los participantes, pero no compiten: el mejor sistema, las comparaciones con él y las cifras de competitividad solo consideran a los participantes. ",
    "While some verdict of a competition is unsettled and more resamples may settle it, its p-values are re-estimated from twice as many resamples, up to {most} (intervals stay on the first {resamples}); a verdict still unsettled is marked as such. ":
        "Mientras algún veredicto de una competición no esté resuelto y más remuestras puedan resolverlo, sus valores p se vuelven a estimar con el doble de remuestras, hasta {most} (los intervalos se quedan con las {resamples} primeras); un veredicto aún no resuelto se marca como tal. ",
    "{subject} is significantly better than {other} {at}.": "{subject} es significativamente mejor que {other} {at}.",
    "{subject} is significantly better {at}.": "{subject} es significativamente mejor {at}.",
    "best": "mejor",
    "unsettled": "no resuelto",
    "baseline": "línea base",
    "{n} missing": "{n} sin predicción",
    "the winner": "el ganador",
    "tied with best": "empata con el mejor",
    "Competitiveness of the competitions (primary metric)": "Competitividad de las competiciones (métrica principal)",
    "spread of the scores": "dispersión de las puntuaciones",
    "metric units": "unidades de la métrica",
    "room to the ideal score": "margen hasta la puntuación ideal",
    "ties (% of pairs)": "empates (% de pares)",
    "p ≥ α, unadjusted": "p ≥ α, sin ajustar",
    "; lower {metric} is better": "; menor {metric} es mejor",
    "{value} (off scale)": "{value} (fuera de escala)",
    "system: score and {level} CI": "sistema: puntuación e IC al {level}",
    "baseline: score and {level} CI": "línea base: puntuación e IC al {level}",
    "predicted label": "etiqueta predicha",
    "gold class": "clase de referencia",
    "rank": "posición",
    "pairs of systems by {metric}: significance of the difference": "pares de sistemas por {metric}: significación de la diferencia",
    "corrected p-value (the report's rule)": "valor p corregido (la regla del informe)",
    "confusion matrix of {system}\n(the best by {metric})": "matriz de confusión de {system}\n(el mejor por {metric})",
    "{metric} with {level} bootstrap CI ({direction})": "{metric} con IC bootstrap al {level} ({direction})",
    "difference in {metric} from the best, {level} bootstrap CI (positive: the best is better{note})":
        "diferencia en {metric} con el mejor, IC bootstrap al {level} (positiva: el mejor es mejor{note})",
    "difference in {metric} (positive: {a} better{note})": "diferencia en {metric} (positiva: {a} es mejor{note})",
    "replicates": "réplicas",
    " (randomization test)": " (prueba de aleatorización)",
    "ordered bootstrap confidence intervals of {metric}": "intervalos de confianza bootstrap ordenados de {metric}",
    "differences in {metric} from the best, {best}": "diferencias en {metric} con el mejor, {best}",
    "bootstrap replicates (B = {b})": "réplicas bootstrap (B = {b})",
    "bootstrap distribution of the difference in {metric}": "distribución bootstrap de la diferencia en {metric}",
    "primary, ": "principal, ",
    "score, {level} CI": "puntuación, IC al {level}",
    "every metric (systems in the order of {metric})": "todas las métricas (sistemas en el orden de {metric})",
    "{level} CI contains 0": "el IC al {level} contiene el 0",
    "{level} CI excludes 0": "el IC al {level} excluye el 0",
    "region counted in the p-value": "región que cuenta el valor p",
    "raw p-value(x) = {p}": "valor p sin ajustar(x) = {p}",
    "Dear {team} team,": "Estimado equipo {team}:",
    "these are the results of your runs in {event}. The attached PDF (one per competition) has a page per run with the details and the method.":
        "Estos son los resultados de sus ejecuciones en {event}. El PDF adjunto (uno por competición) tiene una página por ejecución con los detalles y el método.",
    "{competition} - ranked by {metric} ({direction}); {level} bootstrap intervals from {resamples} resamples; verdicts: {rule}, alpha = {alpha}.":
        "{competition} - clasificación por {metric} ({direction}); intervalos bootstrap al {level} a partir de {resamples} remuestras; veredictos: {rule}, alfa = {alpha}.",
    "- {system}: rank {rank} of {m}, {metric} = {score} ({level} CI {ci}), group {group}.":
        "- {system}: posición {rank} de {m}, {metric} = {score} (IC al {level} {ci}), grupo {group}.",
    "Best regards,": "Un cordial saludo,",
    "The organizers": "La organización",
    "(Prepared with compreport {version}, seed {seed}.)": "(Preparado con compreport {version}, semilla {seed}.)",
    "{event}: results of {team}": "{event}: resultados de {team}",

    # --- HTML pages and PDF team sheets (templates/html, html.py, team.py, pdf.py) ---
    # headings, table of contents, facts lines
    "Workshop overview": "Resumen del taller",
    "Contents": "Índice",
    "Leaderboard": "Clasificación",
    "Confidence intervals": "Intervalos de confianza",
    "Differences from the best": "Diferencias con el mejor",
    "Pairs of systems": "Pares de sistemas",
    "Pairwise differences": "Diferencias por pares",
    "Pairwise p-values": "Valores p por pares",
    "Per-class scores of the best system": "Puntuaciones por clase del mejor sistema",
    "All metrics": "Todas las métricas",
    "Methods": "Métodos",
    "Method": "Método",
    "References": "Referencias",
    "Provenance": "Procedencia",
    "Notes": "Notas",
    "Competitions": "Competiciones",
    "Competition": "Competición",
    "Competitiveness": "Competitividad",
    "Competitions compared": "Comparación de las competiciones",
    "Other metrics": "Otras métricas",
    "ranking metric": "métrica de ordenación",
    "Ranking metric": "Métrica de ordenación",
    "(ranking)": "(ordena la clasificación)",
    "metrics: {metrics}": "métricas: {metrics}",
    "{n} competition": "{n} competición",
    "{n} competitions": "{n} competiciones",
    "B = {b} paired bootstrap resamples": "B = {b} remuestras bootstrap pareadas",
    "seed {seed}": "semilla {seed}",
    "n = {n} test items": "n = {n} ítems de prueba",
    "n = {n} test items in {unit}, resampled by cluster": "n = {n} ítems de prueba en {unit}, remuestreados por clúster",
    "n = {n} items": "n = {n} ítems",
    "n = {n} items in {unit}, resampled by cluster": "n = {n} ítems en {unit}, remuestreados por clúster",
    "m = {m} systems": "m = {m} sistemas",
    "{k} baseline": "{k} línea base",
    "{k} baselines": "{k} líneas base",
    "{level} percentile intervals": "intervalos percentil al {level}",
    "percentile intervals": "intervalos percentil",
    "{level} bca intervals": "intervalos BCa al {level}",
    "bca intervals": "intervalos BCa",
    "{level} normal intervals": "intervalos normales al {level}",
    "normal intervals": "intervalos normales",
    "bootstrap test": "prueba bootstrap",
    "randomization test": "prueba de aleatorización",
    "{level} CI": "IC al {level}",
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
        "(incluidas las líneas base), la métrica de ordenación y su mejor sistema. Cada nombre enlaza con el "
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
    "<span class=\"label\">Leaderboard</span> ranked by {metric} ({direction}). Scores on the full test set with the "
    "{level} bootstrap confidence interval of {metric}; the best value of each metric in bold.":
        "<span class=\"label\">Clasificación</span> ordenada por {metric} ({direction}). Puntuaciones sobre el conjunto "
        "de prueba completo, con el intervalo de confianza bootstrap al {level} de {metric}; en negrita, el mejor "
        "valor de cada métrica.",
    "Systems sharing a group letter are not significantly different at &alpha; = {alpha} ({rule}).":
        "Los sistemas que comparten una letra de grupo no son significativamente diferentes con &alpha; = {alpha} "
        "({rule}).",
    "Baselines (italics, tagged) are ranked with the systems and count among the m systems.":
        "Las líneas base (en cursiva y etiquetadas) se clasifican junto con los sistemas y cuentan entre los "
        "m sistemas.",
    "Marks: <em>tied with best</em>, not significantly different from the best under the same rule; "
    "<em>unsettled</em>, that verdict is within the Monte-Carlo error of its p-values (more resamples could change it).":
        "Marcas: <em>empata con el mejor</em>, no significativamente diferente del mejor con la misma regla; "
        "<em>no resuelto</em>, ese veredicto está dentro del error de Monte Carlo de sus valores p (más remuestras "
        "podrían cambiarlo).",
    "Best system: {system}.": "Mejor sistema: {system}.",
    "<span class=\"label\">Ordered bootstrap confidence intervals</span> of {metric} ({level}, {method}): score on the "
    "full test set (the best in bold), mean and standard deviation (SE) of the bootstrap distribution, interval; "
    "groups as in the leaderboard ({rule}).":
        "<span class=\"label\">Intervalos de confianza bootstrap ordenados</span> de {metric} ({level}, {method}): "
        "puntuación sobre el conjunto de prueba completo (la mejor, en negrita), media y desviación típica (SE) de la "
        "distribución bootstrap, e intervalo; grupos como en la clasificación ({rule}).",
    "<span class=\"label\">Differences from the best</span> ({best} &minus; system, oriented so that positive means "
    "the best is better) with uncorrected {level} confidence intervals; intervals that exclude 0 in bold. p-values "
    "raw and corrected over the m &minus; 1 comparisons with the best. Significant: the verdict of this report, "
    "decided by p (verdict) under the {rule} (&alpha; = {alpha}); the intervals are not corrected for multiple "
    "comparisons.":
        "<span class=\"label\">Diferencias con el mejor</span> ({best} &minus; sistema, orientadas de modo que un "
        "valor positivo indica ventaja del mejor) con intervalos de confianza al {level} sin corregir; en negrita, "
        "los intervalos que excluyen el 0. Valores p sin corregir y corregidos sobre las m &minus; 1 comparaciones "
        "con el mejor. Significativa: el veredicto de este informe, decidido por p (veredicto) con la {rule} "
        "(&alpha; = {alpha}); los intervalos no están corregidos por comparaciones múltiples.",
    "MC SE: the Monte-Carlo standard error of p; Settled: the verdict holds for every p-value of its family within "
    "its Monte-Carlo error (otherwise more resamples could change it; the leaderboard marks such verdicts "
    "<em>unsettled</em>).":
        "SE MC: el error estándar de Monte Carlo de p; Firme: el veredicto se mantiene para todo valor p de su "
        "familia dentro de su error de Monte Carlo (si no, más remuestras podrían cambiarlo; la clasificación marca "
        "esos veredictos como <em>no resuelto</em>).",
    "With m = {m} systems the {pairs} pairs are shown as a heat map, shaded by the p-value behind this report's "
    "verdicts ({rule}); every pair with its difference, interval, raw and corrected p-values and verdict is in {link}.":
        "Con m = {m} sistemas, los {pairs} pares se muestran como un mapa de calor, sombreado según el valor p en que "
        "se basan los veredictos de este informe ({rule}); cada par, con su diferencia, su intervalo, sus valores p "
        "sin corregir y corregidos y su veredicto, está en {link}.",
    "Cell (row, column): difference column &minus; row, oriented so that positive means the column system (ranked "
    "higher) is better, marked and shaded by the p-value behind this report's verdicts ({rule}):":
        "Celda (fila, columna): diferencia columna &minus; fila, orientada de modo que un valor positivo indica que el "
        "sistema de la columna (mejor clasificado) es mejor, marcada y sombreada según el valor p en que se basan "
        "los veredictos de este informe ({rule}):",
    "Columns are numbered by position in the ranking; the number precedes each row's system, and column 1 is "
    "{system}.":
        "Las columnas se numeran por su posición en la clasificación; el número precede al sistema de cada fila, y "
        "la columna 1 es {system}.",
    "<span class=\"label\">Pairwise differences of {metric}</span>":
        "<span class=\"label\">Diferencias por pares de {metric}</span>",
    "(columns {first}–{last})": "(columnas {first}–{last})",
    "<span class=\"label\">p-values of all pairs</span> (difference = first &minus; second, oriented so that positive "
    "means the first is better), raw and with Bonferroni, Holm and Benjamini–Hochberg corrections over {family}. "
    "Significant: the verdict of this report ({rule}, &alpha; = {alpha}).":
        "<span class=\"label\">Valores p de todos los pares</span> (diferencia = primero &minus; segundo, orientada de "
        "modo que un valor positivo indica que el primero es mejor), sin corregir y con las correcciones de "
        "Bonferroni, Holm y Benjamini–Hochberg sobre {family}. Significativa: el veredicto de este informe ({rule}, "
        "&alpha; = {alpha}).",
    "<span class=\"label\">Per-class scores</span> of {system}, the best by {metric}, on the full test set ({field}): "
    "precision of the items it labels with the class, recall of the class's gold items, their F<sub>1</sub>, and the "
    "number of gold items (support); 0 where undefined. Point estimates, without intervals.":
        "<span class=\"label\">Puntuaciones por clase</span> de {system}, el mejor según {metric}, sobre el conjunto "
        "de prueba completo ({field}): precisión de los ítems que etiqueta con la clase, exhaustividad sobre los "
        "ítems de la clase en la referencia, su F<sub>1</sub> y el número de ítems de la referencia (soporte); 0 "
        "donde no está definida. Estimaciones puntuales, sin intervalos.",
    "Generated by compreport {version}. Numbers: scores and intervals {decimals} decimals, differences "
    "{diff_decimals}, p-values {p_decimals}; {missing} marks an undefined value.":
        "Generado por compreport {version}. Números: puntuaciones e intervalos con {decimals} decimales, diferencias "
        "con {diff_decimals}, valores p con {p_decimals}; {missing} indica un valor no definido.",
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
    "team {team}": "equipo {team}",
    "run {i} of {n}": "ejecución {i} de {n}",
    "Score": "Puntuación",
    "Rank": "Posición",
    "{level} CI {ci}": "IC al {level} {ci}",
    "{rank} of {m} systems (baselines included)": "{rank} de {m} sistemas (incluidas las líneas base)",
    "{rank} of {m}": "{rank} de {m}",
    "Significance group": "Grupo de significación",
    "Test set": "Conjunto de prueba",
    "Winner": "Ganador",
    "Difference to the winner": "Diferencia con el ganador",
    "{system} is the winner: the only system of this competition.":
        "{system} es el ganador: el único sistema de esta competición.",
    "{system} is the winner: the best {metric} of the {m} systems.":
        "{system} es el ganador: el mejor valor de {metric} de los {m} sistemas.",
    "{system} is the winner: the best {metric} of the {m} systems, tied exactly with {others}.":
        "{system} es el ganador: el mejor valor de {metric} de los {m} sistemas, empatado exactamente con {others}.",
    "Gap to the runner-up, {system}: {diff}": "Distancia al segundo clasificado, {system}: {diff}",
    "{level} CI {ci}, not corrected for multiple comparisons; positive means the winner is better":
        "IC al {level} {ci}, sin corregir por comparaciones múltiples; un valor positivo indica ventaja del ganador",
    "p = {p} (raw, Monte-Carlo SE {se})": "p = {p} (sin corregir; error estándar de Monte Carlo {se})",
    "Every system has the best score.": "Todos los sistemas tienen la mejor puntuación.",
    "There is no other system to compare with.": "No hay ningún otro sistema con el que compararlo.",
    "Winner: {best} ({score}). Difference winner &minus; {system}: {diff}":
        "Ganador: {best} ({score}). Diferencia ganador &minus; {system}: {diff}",
    "the runner-up": "quien ocupa la segunda posición",
    "Cannot be told apart from": "No se distingue de",
    "Systems not significantly different from {system} at &alpha; = {alpha} ({rule}); they share a significance-group "
    "letter with it.":
        "Sistemas que no son significativamente diferentes de {system} con &alpha; = {alpha} ({rule}); comparten con "
        "él una letra de grupo de significación.",
    "{k} of the {others} other systems.": "{k} de los otros {others} sistemas.",
    "The {shown} nearest in rank: {systems}; {more} more in {file}.":
        "Los {shown} más próximos en la clasificación: {systems}; {more} más en {file}.",
    "Significantly different from it: {systems}.": "Significativamente diferentes de él: {systems}.",
    "None: every other system is significantly different from it ({rule}).":
        "Ninguno: todos los demás sistemas son significativamente diferentes de él ({rule}).",
    "None among the systems compared with it.": "Ninguno entre los sistemas comparados con él.",
    "There are no other systems.": "No hay otros sistemas.",
    "Not compared with {system} ({why}): {n} systems.": "Sin comparar con {system} ({why}): {n} sistemas.",
    "Not compared with {system} ({why}): {systems}.": "Sin comparar con {system} ({why}): {systems}.",
    "its score is undefined": "su puntuación no está definida",
    "only the comparisons with the winner are tested": "solo se contrastan las comparaciones con el ganador",
    "their scores are undefined": "sus puntuaciones no están definidas",
    "competition id {id}": "identificador de competición {id}",

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
        "Coeficiente de variación del rendimiento de los competidores, CV = 100 s/media (en %)",
    "Possible percentage improvement, e.g. for F1: 100 (1 - F1 of the winner)":
        "Mejora porcentual posible, p. ej., para F1: 100 (1 - F1 del ganador)",
    "Resampled by cluster: {n} items in {unit}.": "Remuestreo por conglomerados: {n} ítems en {unit}.",

    # LaTeX: headers (templates/latex), caption pieces and the legend's mathematics (latex_words.py)
    "LCI": "LI",  # límite inferior; the captions say so
    "UCI": "LS",
    "Mean": "Media",
    "Challenge": "Reto",
    "Task": "Tarea",
    "Language": "Idioma",
    "Metric": "Métrica",
    "Baselines provided by the organizers are set in italics.":
        "Los sistemas de referencia aportados por la organización aparecen en cursiva.",
    "No table of {what}: {reason}.": "Sin tabla de {what}: {reason}.",
    r"Possible ties with the winner, with corrections none / Bonferroni / Holm / BH over the $m-1$ comparisons with "
    r"the winner": r"Posibles empates con el ganador, con las correcciones ninguna / Bonferroni / Holm / BH sobre las "
                   r"$m-1$ comparaciones con el ganador",
    r"Total possible comparisons, $m(m-1)/2$": r"Total de comparaciones posibles, $m(m-1)/2$",
    r"Coefficient of variation of competitors' performance, $\mathit{{CV}} = 100\,s/\bar{{x}}$ (\%)":
        r"Coeficiente de variación del rendimiento de los competidores, $\mathit{{CV}} = 100\,s/\bar{{x}}$ (en \%)",
    r"Possible percentage improvement, e.g.\ for {f1}: $100\,(1 - \mbox{{{f1} of the winner}})$":
        r"Mejora porcentual posible, p.~ej., para {f1}: $100\,(1 - \mbox{{{f1} del ganador}})$",
    "randomization": "de aleatorización",  # "la prueba {test}": la prueba bootstrap, la prueba de aleatorización
    " (part {k} of {n})": " (parte {k} de {n})",
    "{head} (continued from Table~{ref}, part {k} of {n}).": "{head} (continuación de la tabla~{ref}, parte {k} de {n}).",
    "F$_1$ score": "F$_1$",
    "macro-averaged F$_1$ score": "F$_1$ macropromediada",
    "micro-averaged F$_1$ score": "F$_1$ micropromediada",
    "weighted F$_1$ score": "F$_1$ ponderada",
    "macro-averaged precision": "precisión macropromediada",
    "macro-averaged recall": "cobertura macropromediada",
    "Pearson's $r$": "$r$ de Pearson",
    r"Spearman's $\rho$": r"$\rho$ de Spearman",
    "Acc.": "Exact.",

    # LaTeX captions (latex.py, latex_pairwise.py)
    "Leaderboard of {competition}": "Clasificación de {competition}",
    ", ranked by {metric} ({direction}; best values in bold). Systems sharing a letter in column Group are not "
    "significantly different ({rule}, {alpha}).":
        ", ordenada por {metric} ({direction}; los mejores valores, en negrita). Los sistemas que comparten una letra "
        "en la columna Grupo no difieren significativamente ({rule}, {alpha}).",
    " Systems are numbered by position ({key}).": " Los sistemas se numeran por su posición ({key}).",
    " Systems are numbered by rank ({key}).": " Los sistemas se numeran por su posición ({key}).",
    " {title}: systems are numbered by position ({key}).": " {title}: los sistemas se numeran por su posición ({key}).",
    " Systems: {key}": " Sistemas: {key}",
    "Ordered bootstrap confidence intervals for {competition}{unit}":
        "Intervalos de confianza bootstrap ordenados de {competition}{unit}",
    " (resampling {unit})": " (remuestreando {unit})",
    r": bootstrap mean and {level}\% {method} confidence interval (LCI, UCI) from {resamples} resamples, best first.":
        r": media bootstrap e intervalo de confianza {method} al {level}\% (límites inferior LI y superior LS) a partir "
        r"de {resamples} remuestras, de mejor a peor.",
    "Information summary: the rows of the competitiveness tables.":
        "Resumen de la información: las filas de las tablas de competitividad.",
    "competitiveness summary": "resumen de competitividad",
    "no competition": "ninguna competición",
    "Competitiveness of the competitions{part}; rows as in Table~{ref}. Ties counted at {alpha} with the {test} test; "
    "ties with the winner corrected over the $m-1$ comparisons with the winner, ties between competitors over {ties}.":
        "Competitividad de las competiciones{part}; filas como en la tabla~{ref}. Empates contados con {alpha} y la "
        "prueba {test}; los empates con el ganador, corregidos sobre las $m-1$ comparaciones con el ganador; los "
        "empates entre competidores, sobre {ties}.",
    "Per-class scores of {system}": "Puntuaciones por clase de {system}",
    ", the best system of {competition} by {metric}, on the full test set (field {field}): precision of the items it "
    "labels with the class, recall of the class's gold items, their F$_1$, and the class's gold items (support); 0 "
    "where undefined. Point estimates, without intervals.":
        ", el mejor sistema de {competition} según {metric}, en el conjunto de prueba completo (campo {field}): "
        "precisión de los ítems que etiqueta con la clase, cobertura de los ítems de la clase en la anotación de "
        "referencia, su F$_1$ y los ítems de la clase en la anotación de referencia (soporte); 0 donde no está "
        "definida. Estimaciones puntuales, sin intervalos.",
    "Differences of {metric} from the best system of {competition}":
        "Diferencias en {metric} respecto al mejor sistema de {competition}",
    r", {best} (positive: the best is better), with {level}\% {method} bootstrap confidence intervals (not corrected "
    r"for multiple comparisons); Excl.~0: the interval excludes zero. Sig.: significantly different from the best, "
    r"decided by $p$ ({rule}, {alpha}).":
        r", {best} (diferencia positiva: el mejor es superior), con intervalos de confianza bootstrap {method} al "
        r"{level}\% (sin corrección por comparaciones múltiples); Excl.~0: el intervalo excluye el cero. Sig.: "
        r"diferencia significativa con el mejor, decidida por $p$ ({rule}, {alpha}).",
    " $p$ from {resamples} resamples, Monte-Carlo standard error at most {se}":
        " $p$ a partir de {resamples} remuestras, con un error estándar de Monte Carlo de {se} como máximo",
    " $p$ from {resamples} resamples, Monte-Carlo standard error at most below {se}":
        " $p$ a partir de {resamples} remuestras, con un error estándar de Monte Carlo inferior a {se}",
    "; {n} verdict unsettled (within that error: more resamples could change it)":
        "; {n} veredicto inestable (dentro de ese error: más remuestras podrían cambiarlo)",
    "; {n} verdicts unsettled (within that error: more resamples could change them)":
        "; {n} veredictos inestables (dentro de ese error: más remuestras podrían cambiarlos)",
    "No significance mark can occur with {resamples} resamples (the smallest $p$-value is $1/(B+1)$)":
        "Con {resamples} remuestras no puede darse ninguna marca de significación (el menor valor $p$ es $1/(B+1)$)",
    "Marks: {marks} ({rule})": "Marcas: {marks} ({rule})",
    "pairwise differences of {competition}": "diferencias por pares de {competition}",
    "pairwise p-values of {competition}": "valores p por pares de {competition}",
    "a single system": "un único sistema",
    "Differences of {metric} (column $-$ row) for {competition}":
        "Diferencias en {metric} (columna $-$ fila) de {competition}",
    "{head}{part}; systems are numbered by rank ({key}). {marks}.":
        "{head}{part}; los sistemas se numeran por su posición ({key}). {marks}.",
    "{head}{part}; columns are numbered by rank ({key}). {marks}.":
        "{head}{part}; las columnas se numeran por la posición de su sistema ({key}). {marks}.",
    "Estimated $p$-values of the {metric} differences (A $-$ B, positive: A is better) for {competition}":
        "Valores $p$ estimados de las diferencias en {metric} (A $-$ B; positiva: A es mejor) de {competition}",
    ", without adjustment and with Bonferroni, Holm and Benjamini--Hochberg (BH) adjustments over {family} ({test} "
    "test). Verdicts of this report: {rule}, {alpha}.":
        ", sin ajuste y con los ajustes de Bonferroni, Holm y Benjamini--Hochberg (BH) sobre {family} (prueba "
        "{test}). Veredictos de este informe: {rule}, {alpha}.",

    # the appendix document (appendix.py)
    "Methods": "Métodos",
    "Competitiveness across competitions": "Competitividad entre competiciones",
    "{n} test items{where}, {m} systems.": "{n} ítems de prueba{where}, {m} sistemas.",
    " in {unit}, resampled by cluster": " en {unit}, remuestreados por conglomerados",
    "Figures": "Figuras",
    "Ordered bootstrap confidence intervals of {metric} for {task}":
        "Intervalos de confianza bootstrap ordenados ({metric}) de {task}",

}
