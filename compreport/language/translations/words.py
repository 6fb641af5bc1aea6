"""Spanish of the words every renderer shares: the methods paragraph, verdict sentences, marks,
vocabulary terms, metric names, figure titles and labels, emails (prose.py, vocabulary.py,
metricnames.py, figures, emails.py)."""

from __future__ import annotations

ES: dict[str, str] = {
    "{correction} correction over {family}": "corrección de {correction} sobre {family}",
    "none": "ninguna",
    "no correction for multiple comparisons": "ausencia de corrección por comparaciones múltiples",
    "uncorrected p-values, with no correction for multiple comparisons":
        "ausencia de corrección por comparaciones múltiples",
    "the Bonferroni correction": "la corrección de Bonferroni",
    "the Holm correction": "la corrección de Holm",
    "the Benjamini–Hochberg correction": "la corrección de Benjamini–Hochberg",
    "percentile": "percentil",
    "bias-corrected and accelerated (BCa)": "corregidos por sesgo y acelerados (BCa)",
    "normal": "normal",
    "normal-approximation (estimate ± z·SE)": "de aproximación normal (estimación ± z·EE)",
    "paired bootstrap": "bootstrap pareado",
    "the null-shifted paired bootstrap test": "la prueba bootstrap pareada desplazada a la hipótesis nula",
    "Berg-Kirkpatrick bootstrap": "bootstrap de Berg-Kirkpatrick",
    "the paired bootstrap test of Berg-Kirkpatrick et al.": "la prueba bootstrap pareada de Berg-Kirkpatrick et al.",
    "one-sided bootstrap test": "prueba bootstrap unilateral",
    "max-T step-down": "max-T escalonado",
    "not tested": "no contrastado",
    "1 verdict unsettled": "1 veredicto no resuelto",
    "{n} verdicts unsettled": "{n} veredictos no resueltos",
    "Bootstrap distribution of the difference between the best system and the runner-up; the two-sided p-value counts the replicates at least as far from the observed difference as the observed difference is from 0.":
        "Distribución bootstrap de la diferencia entre el mejor sistema y el segundo; el valor p bilateral cuenta las réplicas que se alejan de la diferencia observada al menos tanto como esta se aleja de 0.",
    "Bootstrap distribution of the difference between the best system and the runner-up; the one-sided p-value counts the replicates at or beyond twice the observed difference.":
        "Distribución bootstrap de la diferencia entre el mejor sistema y el segundo; el valor p unilateral cuenta las réplicas iguales o superiores al doble de la diferencia observada.",
    "Every verdict of this report, whether two systems differ significantly and which cannot be told apart from the best, uses the ":
        "Todos los veredictos de este informe, si dos sistemas difieren significativamente y cuáles no se distinguen del mejor, usan la ",
    "The competitiveness summary counts ties as the paper does, among competitors and under each correction: with the winner on the winner's comparisons with the other competitors, as the verdicts read them; between competitors over {family}, which can differ from the verdicts. ":
        "El resumen de competitividad cuenta los empates como el artículo, entre competidores y con cada corrección: con el ganador, en las comparaciones del ganador con los demás competidores, como las leen los veredictos; entre competidores, sobre {family}, lo que puede diferir de los veredictos. ",
    "Each p-value is reported with its Monte-Carlo standard error; a verdict is settled when the correction gives it for every p-value of its family at both ends of its Clopper–Pearson bounds (jointly at risk {risk}, divided among the comparisons and the times they are classified) ":
        "Cada valor p se da con su error estándar de Monte Carlo; un veredicto está resuelto cuando la corrección lo da para todos los valores p de su familia en ambos extremos de sus cotas de Clopper–Pearson (con riesgo conjunto {risk}, repartido entre las comparaciones y las veces que se clasifican) ",
    "Tables report p-values raw, with Bonferroni ": "Las tablas dan los valores p sin corregir, con los ajustes de Bonferroni ",
    " adjustments, and with the max-T step-down ": ", y con el procedimiento escalonado max-T ",
    ", all over {family}. The max-T step-down divides each difference by its bootstrap standard error and compares it with the resampled maximum, over the comparisons not yet rejected, of the differences shifted to the null and divided likewise; over its family it controls the family-wise error rate at α (asymptotically) whichever systems are truly equal, and its p-values need no resamples beyond those of an ordinary p-value. ":
        ", todos sobre {family}. El procedimiento escalonado max-T divide cada diferencia por su error estándar bootstrap y la compara con el máximo remuestreado, sobre las comparaciones aún no rechazadas, de las diferencias desplazadas a la hipótesis nula y divididas igual; sobre su familia controla la tasa de error por familia en α (asintóticamente) sean cuales sean los sistemas realmente iguales, y sus valores p no necesitan más remuestras que un valor p ordinario. ",
    " adjustments over {family}. ": " sobre {family}. ",
    "The best is chosen on the same test set, so the comparisons with it are corrected over all pairs: a correction over those comparisons alone would not hold the family-wise error rate. ":
        "El mejor se elige en el mismo conjunto de prueba, así que las comparaciones con él se corrigen sobre todos los pares: una corrección solo sobre esas comparaciones no mantendría la tasa de error por familia. ",
    "The Benjamini–Hochberg correction bounds the expected share of false discoveries, not the chance of any. ":
        "La corrección de Benjamini–Hochberg acota la proporción esperada de falsos descubrimientos, no la probabilidad de alguno. ",
    "While some verdict of a competition is unsettled, twice as many resamples are drawn, up to {most}, and counted into the max-T and raw p-values from the first unsettled comparison on (each difference keeps the standard error of the first {resamples}, and the intervals stay on them); a verdict still unsettled is counted as such. ":
        "Mientras algún veredicto de una competición no esté resuelto, se extraen el doble de remuestras, hasta {most}, y se suman a los valores p de max-T y sin corregir desde la primera comparación no resuelta (cada diferencia conserva el error estándar de las primeras {resamples}, y los intervalos se quedan en ellas); un veredicto aún no resuelto se cuenta como tal. ",
    "p-values come from the two-sided paired bootstrap test with the resampled differences shifted to the null ":
        "Los valores p provienen de la prueba bootstrap pareada bilateral, con las diferencias remuestreadas desplazadas a la hipótesis nula ",
    ": c counts the resamples whose difference departs from the observed one by at least the observed one's absolute value, and ":
        ": c cuenta las remuestras cuya diferencia se aleja de la observada al menos el valor absoluto de esta, y ",
    "Corrected within each row, the verdicts bound no family-wise error rate over the report: with many rows, equal systems are called different more often than α. ":
        "Corregidos dentro de cada fila, los veredictos no acotan ninguna tasa de error por familia en el informe: con muchas filas, sistemas iguales se declaran distintos más a menudo que α. ",
    ", on one-sided p-values in the direction the data chose, whose two-sided level is {level}":
        ", sobre valores p unilaterales en la dirección que eligieron los datos, cuyo nivel bilateral es {level}",
    "the max-T step-down procedure": "el procedimiento escalonado max-T",
    "each row (each system against those ranked below it), which bounds no family-wise error rate":
        "cada fila (cada sistema frente a los que le siguen en la clasificación), que no acota ninguna tasa de "
        "error por familia",
    "all pairs of systems, read on the comparisons with the best, other pairs untested":
        "todos los pares de sistemas, leídos en las comparaciones con el mejor, sin contrastar los demás pares",
    "approximate randomization": "aleatorización aproximada",
    "an approximate randomization test": "una prueba de aleatorización aproximada",
    "all pairs": "todos los pares",
    "all pairs of systems": "todos los pares de sistemas",
    "all pairs of competitors": "todos los pares de competidores",
    "each row (each competitor against those ranked below it)":
        "cada fila (cada competidor frente a los que le siguen en la clasificación)",
    "per row": "por fila",
    "vs. the best": "frente al mejor",
    "the comparisons of the best with the other competitors": "las comparaciones del mejor con los demás competidores",
    "accuracy": "exactitud",
    "weighted F1": "F1 ponderada",
    "precision": "precisión",
    "recall": "cobertura",
    "macro-precision": "macro-precisión",
    "macro-recall": "macro-cobertura",
    "Pearson's r": "r de Pearson",
    "Spearman's ρ": "ρ de Spearman",
    "relevant label": "etiqueta relevante",
    "positive class": "clase positiva",
    " of {field}": " de {field}",
    " over {n} classes": " sobre {n} clases",
    " over {labels}": " sobre {labels}",
    "{percent}%": "{percent}\u00a0%",
    "Unsettled: after {draws} this verdict is still within the Monte-Carlo error of its p-values, so drawing more could change it.":
        "No resuelto: tras {draws}, este veredicto sigue dentro del error de Monte Carlo de sus valores p; extraer más podría cambiarlo.",
    "{n} rounds": "{n} rondas",
    "No resamples were drawn (B = 0), so there are no confidence intervals, p-values, verdicts or significance groups. ":
        "No se extrajo ninguna remuestra (B = 0), así que no hay intervalos de confianza, valores p, veredictos ni grupos de significación. ",
    "Baselines are ranked with the participants but do not compete: the best system and the competitiveness figures consider participants only. ":
        "Las líneas base se clasifican con los participantes, pero no compiten: el mejor sistema y las cifras de competitividad solo consideran a los participantes. ",
    "{n} resamples": "{n} remuestras",
    "at α = {alpha} ({rule})": "con α = {alpha} ({rule})",
    "{subject} cannot be told apart from {other} {at}.": "{subject} no se distingue de {other} {at}.",
    "Too few resamples for {metric}: with {resamples} no p-value can fall below 1/({n} + 1), so the {rule} ({tested} comparisons tested) can never reject at α = {alpha}; every system shares one group and ties with the best whatever the data. Use B = {need} or more.":
        "Demasiado pocas remuestras para {metric}: con {resamples} ningún valor p puede quedar por debajo de 1/({n} + 1), así que la {rule} ({tested} comparaciones contrastadas) nunca puede rechazar con α = {alpha}; todos los sistemas comparten un grupo y empatan con el mejor, sean cuales sean los datos. Use B = {need} o más.",
    "Scores with their {level} bootstrap confidence intervals, best first.":
        "Puntuaciones con sus intervalos de confianza bootstrap al {level}, de mejor a peor.",
    "Differences from the best with their {level} confidence intervals, not corrected for multiple comparisons (positive: the best is better); green intervals exclude 0, which is not the verdict (see the table; rule: {rule}).":
        "Diferencias con el mejor y sus intervalos de confianza al {level}, sin corregir por comparaciones múltiples (positiva: ventaja del mejor); los intervalos verdes excluyen el 0, lo que no es el veredicto (véase la tabla; regla: {rule}).",
    "Under the reports' rule ({rule}) the ties with the winner in its correction's column are their verdicts; the ties between competitors are not, since the reports test only the comparisons with the best.":
        "Con la regla de los informes ({rule}), los empates con el ganador en la columna de su corrección son sus veredictos; los empates entre competidores no lo son, pues los informes solo contrastan las comparaciones con el mejor.",
    "The ties with the winner in the column of the reports' correction are their verdicts; the ties between competitors are not (rule: {rule}, baselines included), and can count other ties.":
        "Los empates con el ganador en la columna de la corrección de los informes son sus veredictos; los empates entre competidores no lo son (regla: {rule}, líneas base incluidas), y pueden contar otros empates.",
    "Bootstrap distribution of the difference between the best system and the runner-up; the p-value in the title is the approximate randomization test's.":
        "Distribución bootstrap de la diferencia entre el mejor sistema y el segundo; el valor p del título es el de la prueba de aleatorización aproximada.",
    "All metrics side by side.": "Todas las métricas, una junto a otra.",
    "Confusion matrix of the best system on the full test set: rows are gold classes, columns predicted labels, each row shaded by its share of the gold class.":
        "Matriz de confusión del mejor sistema en todo el conjunto de prueba: las filas son las clases de referencia y las columnas las etiquetas predichas; cada fila se sombrea según su proporción de la clase de referencia.",
    "Every pair of systems, in rank order, shaded by the significance mark of its corrected p-value (the rule of this report's verdicts); white: a pair the family does not test.":
        "Todos los pares de sistemas, por orden de clasificación, sombreados según la marca de significación de su valor p corregido (la regla de los veredictos de este informe); en blanco, los pares que la familia no contrasta.",
    "{workshop}: statistical analysis of the results": "{workshop}: análisis estadístico de los resultados",
    "Statistical analysis of the competition results": "Análisis estadístico de los resultados de la competición",
    "higher is better": "cuanto mayor, mejor",
    "lower is better": "cuanto menor, mejor",
    "{clusters} clusters given by column “{column}”": "{clusters} conglomerados dados por la columna “{column}”",
    "{competition}: {items} items in {unit}": "{competition}: {items} ítems en {unit}",
    "Where items form clusters ({which}), a resample draws the clusters with replacement and every item of a drawn cluster comes with it, the cluster bootstrap ":
        "Cuando los ítems forman conglomerados ({which}), cada remuestra extrae los conglomerados con reemplazo y con cada conglomerado extraído vienen todos sus ítems: el bootstrap por conglomerados ",
    ": intervals, differences and p-values all resample clusters. ":
        ": intervalos, diferencias y valores p remuestrean conglomerados. ",
    ": intervals, differences and p-values all resample clusters, and the jackknife of BCa leaves out one cluster at a time. ":
        ": intervalos, diferencias y valores p remuestrean conglomerados, y el jackknife de BCa omite un conglomerado cada vez. ",
    ": intervals and differences resample clusters. ": ": intervalos y diferencias remuestrean conglomerados. ",
    ": intervals and differences resample clusters, and the jackknife of BCa leaves out one cluster at a time. ":
        ": intervalos y diferencias remuestrean conglomerados, y el jackknife de BCa omite un conglomerado cada vez. ",
    "of the test items": "de los ítems de prueba",
    "of the clusters of test items": "de los conglomerados de ítems de prueba",
    "of the test items or, where they form clusters, of the clusters":
        "de los ítems de prueba o, donde forman conglomerados, de los conglomerados",
    "swapping each item's two predictions with probability 1/2 ":
        "que intercambia las dos predicciones de cada ítem con probabilidad 1/2 ",
    "swapping the two predictions of all the items of each cluster together, with probability 1/2 ":
        "que intercambia a la vez las dos predicciones de todos los ítems de cada conglomerado, con probabilidad 1/2 ",
    "swapping with probability 1/2 the two predictions of each item or, where items form clusters, those of all the items of each cluster together ":
        "que intercambia con probabilidad 1/2 las dos predicciones de cada ítem o, donde los ítems forman conglomerados, las de todos los ítems de cada conglomerado a la vez ",
    "While some verdict of a competition is unsettled and more rounds may settle it, its p-values are re-estimated from twice as many rounds, up to {most} (intervals stay on the first {resamples} resamples); a verdict still unsettled is marked as such. ":
        "Mientras algún veredicto de una competición no esté resuelto y más rondas puedan resolverlo, sus valores p se vuelven a estimar con el doble de rondas, hasta {most} (los intervalos se quedan con las {resamples} primeras remuestras); un veredicto aún no resuelto se marca como tal. ",
    "Scores are reported with {level} {ci} confidence intervals ": "Las puntuaciones se presentan con intervalos de confianza {ci} al {level} ",
    " from {resamples} paired bootstrap resamples {drawn} (seed {seed}); every system and metric is scored on the same resamples. ":
        " obtenidos de {resamples} remuestras bootstrap pareadas {drawn} (semilla {seed}); todos los sistemas y métricas se evalúan sobre las mismas remuestras. ",
    "Tables report p-values raw and with Bonferroni ": "Las tablas dan los valores p sin ajustar y con los ajustes de Bonferroni ",
    " and Benjamini–Hochberg ": " y Benjamini–Hochberg ",
    ", and so do the significance groups, a compact letter display ":
        ", igual que los grupos de significación, una representación compacta por letras ",
    ": systems sharing a letter are not significantly different at α = {alpha}. ":
        ": los sistemas que comparten una letra no son significativamente distintos con α = {alpha}. ",
    "The best system is chosen on the same test set it is compared on.": "El mejor sistema se elige sobre el mismo conjunto de prueba en que se compara.",
    "The random streams are keyed by the seed and the competition's id, so a renamed competition draws other resamples. ":
        "Las secuencias aleatorias dependen de la semilla y del identificador de la competición, de modo que una competición renombrada extrae otras remuestras. ",
    "Scores carry {level} {ci} confidence intervals ": "Las puntuaciones llevan intervalos de confianza {ci} al {level} ",
    " from {resamples} paired bootstrap resamples {drawn} (seed {seed}); p-values come from {test} ":
        " obtenidos de {resamples} remuestras bootstrap pareadas {drawn} (semilla {seed}); los valores p proceden de {test} ",
    "Every verdict on this page uses the ": "Todos los veredictos de esta página usan la ",
    "No test decides this comparison {at}.": "Ninguna prueba decide esta comparación {at}.",
    "The winner": "El ganador",
    "p-values come from an approximate randomization test with {rounds} rounds, {swapping}":
        "Los valores p proceden de una prueba de aleatorización aproximada con {rounds} rondas, {swapping}",
    " as in MUC ": " como en MUC ",
    ", R being the rounds behind each p-value: {rounds}, or more where the p-values were re-estimated (below). ":
        ", siendo R las rondas en que se basa cada valor p: {rounds}, o más donde los valores p se volvieron a estimar (véase más abajo). ",
    ", R being the resamples behind each p-value: {resamples}, or more where the p-values were re-estimated (below). ":
        ", siendo R las remuestras en que se basa cada valor p: {resamples}, o más donde los valores p se volvieron a estimar (véase más abajo). ",
    ", {sides}, counting the rounds whose difference reaches the observed one in absolute value, with ":
        ", {sides}, que cuenta las rondas cuya diferencia alcanza la observada en valor absoluto, con ",
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
    "|win − med|": "|gan. − med.|",
    "room to the ideal score": "margen hasta la puntuación ideal",
    "ties (% of pairs)": "empates (% de pares)",
    "p ≥ α, unadjusted": "p ≥ α, sin ajustar",
    "; lower {metric} is better": "; cuanto menor {metric}, mejor",
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
        "diferencia en {metric} con el mejor, IC bootstrap al {level} (positiva: ventaja del mejor{note})",
    "difference in {metric} (positive: {a} better{note})": "diferencia en {metric} (positiva: {a} es mejor{note})",
    "replicates": "réplicas",
    "bootstrap test": "prueba bootstrap",
    "randomization test": "prueba de aleatorización",
    "ordered bootstrap confidence intervals of {metric}": "intervalos de confianza bootstrap ordenados de {metric}",
    "differences in {metric} from the best, {best}": "diferencias en {metric} con el mejor, {best}",
    "bootstrap replicates (B = {b})": "réplicas bootstrap (B = {b})",
    "first {b} of {resamples} replicates": "primeras {b} de {resamples} réplicas",
    "bootstrap distribution of the difference in {metric}": "distribución bootstrap de la diferencia en {metric}",
    "primary, ": "principal, ",
    "score, {level} CI": "puntuación, IC al {level}",
    "every metric (systems in the order of {metric})": "todas las métricas (sistemas en el orden de {metric})",
    "{level} CI contains 0": "el IC al {level} contiene el 0",
    "{level} CI excludes 0": "el IC al {level} excluye el 0",
    "region counted in the p-value": "región contada en el valor p",
    "raw p-value(x)": "valor p(x) sin corregir",
    " and ": " y ",
    "Dear {team} team,": "Estimado equipo {team}:",
    "these are the results of your runs in {event}. The attached PDF (one per competition) has a page per run with the details and the method.":
        "Estos son los resultados de sus ejecuciones en {event}. El PDF adjunto (uno por competición) tiene una página por ejecución con los detalles y el método.",
    "{competition} - ranked by {metric} ({direction}); {level} bootstrap intervals from {resamples} resamples; verdicts: {rule}, alpha = {alpha}.":
        "{competition} - clasificación por {metric} ({direction}); intervalos bootstrap al {level} a partir de {resamples} remuestras; veredictos: {rule}, α = {alpha}.",
    "- {system}: rank {rank} of {m}, {metric} = {score} ({level} CI {ci}), group {group}.":
        "- {system}: posición {rank} de {m}, {metric} = {score} (IC al {level} {ci}), grupo {group}.",
    "Best regards,": "Un cordial saludo,",
    "The organizers": "La organización",
    "(Prepared with compreport {version}, seed {seed}.)": "(Preparado con compreport {version}, semilla {seed}.)",
    "{event}: results of {team}": "{event}: resultados de {team}",
    "one-sided, in the direction of the observed difference": "unilateral, en la dirección de la diferencia observada",
    "two-sided": "bilateral",
    " (from {draws})": " (de {draws})",
    "As defined there the test is one-sided, in the direction of the observed difference: read as a test of whether "
    "two systems differ, its p-value is about half the two-sided one, so at α = {alpha} it rejects about as often "
    "as a two-sided test at {double} (the randomization test is two-sided). ":
        "Tal como allí se define, la prueba es unilateral, en la dirección de la diferencia observada: leída como "
        "prueba de si dos sistemas difieren, su valor p es aproximadamente la mitad del bilateral, de modo que con "
        "α = {alpha} rechaza aproximadamente tan a menudo como una prueba bilateral con {double} (la prueba de "
        "aleatorización es bilateral). ",
    # the terminal's leaderboards (compreport report, Report.to_text)
    "{competition}: {metric}, {ci}; groups and marks: {rule}, alpha = {alpha}":
        "{competition}: {metric}, {ci}; grupos y marcas: {rule}, alfa = {alpha}",
    "no resamples": "sin remuestras",
    "; resampled by cluster, {unit}": "; remuestreo por conglomerados, {unit}",
    "warning: {alert}": "aviso: {alert}",
}
