"""Spanish of the table model (headers, legend), the LaTeX tables and appendix, and Markdown
(model.py, templates/latex, latex*.py, appendix.py, markdown.py, exports.py)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ES: Mapping[str, str] = MappingProxyType(
    {
        # the table model (model.py): column headers, cells, the competitiveness legend
        "Rank": "Posición",
        "Rank set": "Posiciones",
        r" Column Rank set: the ranks a system may truly have, at {level}\% confidence jointly for all systems.": r" Columna Posiciones: las posiciones que un sistema puede ocupar realmente, con una confianza del {level}\% conjuntamente para todos los sistemas.",
        "System": "Sistema",
        "CI low": "IC inf.",
        "CI high": "IC sup.",
        "CI": "IC",
        "Group": "Grupo",
        "Marks": "Marcas",
        "Score": "Puntuación",
        "Boot. mean": "Media bootstrap",
        "SE": "EE",
        "Difference": "Diferencia",
        "Excludes 0": "Excluye el 0",
        "MC SE": "EE de MC",
        "p (verdict)": "p (veredicto)",
        "Significant": "Significativo",
        "Team": "Equipo",
        "Best run": "Mejor envío",
        "Runs": "Envíos",
        "Settled": "Firme",
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
        "Number of participants or runs": "Número de participantes o de envíos",
        "Ties w/ win.": "Emp. c/ gan.",
        "Possible ties with the winner, with corrections none / Bonferroni / Holm / BH / max-T (max-T under the bootstrap "
        "test only) over the report's family, on the winner's comparisons with the other competitors": "Posibles empates con el ganador, con las correcciones ninguna / Bonferroni / Holm / BH / max-T (max-T solo "
        "con la prueba bootstrap) sobre la familia del informe, en las comparaciones del ganador con los demás "
        "competidores",
        "Poss. compars.": "Compar. pos.",
        "Total possible comparisons, m(m-1)/2": "Total de comparaciones posibles, m(m-1)/2",
        "none/Bonf.": "ninguna/Bonf.",
        "Ties between competitors, with no correction / Bonferroni": "Empates entre competidores, sin corrección / con corrección de Bonferroni",
        "Ties between competitors, with Holm / Benjamini-Hochberg correction": "Empates entre competidores, con corrección de Holm / de Benjamini-Hochberg",
        "|win.-med.|": "|gan.-med.|",
        "Performance difference between the winner and the competitor in the middle of the table": "Diferencia de rendimiento entre el ganador y el competidor situado en la mitad de la tabla",
        "Coefficient of variation of competitors' performance, CV = 100 s/mean (%)": "Coeficiente de variación del rendimiento de los competidores, CV = 100 s/media (en %)",
        "Possible percentage improvement, e.g. for F1: 100 (1 - F1 of the winner)": "Mejora porcentual posible, p. ej., para F1: 100 (1 - F1 del ganador)",
        "Resampled by cluster: {n} items in {unit}.": "Remuestreo por conglomerados: {n} instancias en {unit}.",
        # LaTeX: headers (templates/latex), caption pieces and the legend's mathematics (latex_words.py)
        "LCI": "LI",  # límite inferior; the captions say so
        "UCI": "LS",
        "Mean": "Media",
        "Challenge": "Reto",
        "Task": "Tarea",
        "Language": "Idioma",
        "Metric": "Métrica",
        "Baselines provided by the organizers are set in italics.": "Las líneas base aportadas por la organización aparecen en cursiva.",
        "No table of {what}: {reason}.": "Sin tabla de {what}: {reason}.",
        r"Possible ties with the winner, with corrections none / Bonferroni / Holm / BH / max-$T$ (max-$T$ under the "
        r"bootstrap test only) over the report's family, on the winner's comparisons with the other competitors": r"Posibles empates con el ganador, con las correcciones ninguna / Bonferroni / Holm / BH / max-$T$ (max-$T$ "
        r"solo con la prueba bootstrap) sobre la familia del informe, en las comparaciones del ganador con los demás "
        r"competidores",
        r"Total possible comparisons, $m(m-1)/2$": r"Total de comparaciones posibles, $m(m-1)/2$",
        r"Coefficient of variation of competitors' performance, $\mathit{{CV}} = 100\,s/\bar{{x}}$, in \%": r"Coeficiente de variación del rendimiento de los competidores, $\mathit{{CV}} = 100\,s/\bar{{x}}$, en \%",
        r"Possible percentage improvement, e.g.\ for {f1}: $100\,(1 - \mbox{{{f1} of the winner}})$": r"Mejora porcentual posible, p.~ej., para {f1}: $100\,(1 - \mbox{{{f1} del ganador}})$",
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
        "samples-averaged F$_1$ score": "F$_1$ promediada por instancia",
        "Hamming loss": "pérdida de Hamming",
        "subset accuracy": "exactitud de conjunto",
        r"Cohen's $\kappa$": r"$\kappa$ de Cohen",
        r"quadratic-weighted $\kappa$": r"$\kappa$ con ponderación cuadrática",
        "balanced accuracy": "exactitud equilibrada",
        "log loss": "pérdida logarítmica",
        "Brier score": "puntuación de Brier",
        "span F$_1$ score": "F$_1$ de menciones",
        "span precision": "precisión de menciones",
        "span recall": "cobertura de menciones",
        "span F$_1$ score (overlap)": "F$_1$ de menciones (solapamiento)",
        "span precision (overlap)": "precisión de menciones (solapamiento)",
        "span recall (overlap)": "cobertura de menciones (solapamiento)",
        "relation F$_1$ score": "F$_1$ de relaciones",
        "relation precision": "precisión de relaciones",
        "relation recall": "cobertura de relaciones",
        "Hamming": "Hamming",
        "Subset acc.": "Exact. conj.",
        "Bal. acc.": "Exact. equil.",
        "Log loss": "Pérd. log.",
        "Span F$_1$": "F$_1$ menc.",
        "Span P": "P menc.",
        "Span R": "R menc.",
        "Span F$_1$ (ov.)": "F$_1$ menc. (sol.)",
        "Span P (ov.)": "P menc. (sol.)",
        "Span R (ov.)": "R menc. (sol.)",
        "Rel. F$_1$": "F$_1$ rel.",
        "Rel. P": "P rel.",
        "Rel. R": "R rel.",
        # LaTeX captions (latex.py, latex_pairwise.py)
        "Leaderboard of {competition}": "Resultados de {competition}",
        ", ranked by {metric} ({direction}; best values in bold).": ", ordenados por {metric} ({direction}; los mejores valores, en negrita).",
        r" CI: the {level}\% {method} bootstrap confidence interval of {metric}.": r" IC: intervalo de confianza bootstrap al {level}\% de {metric}, por el método {method}.",
        " Systems sharing a letter in column Group are not significantly different ({rule}, {alpha}).": " Los sistemas que comparten una letra en la columna Grupo no difieren significativamente ({rule}, {alpha}).",
        " Marks: {marks}": " Marcas: {marks}",
        "{mark}, not significantly different from the best": "{mark}, sin diferencia significativa con el mejor",
        "{mark}, a verdict within the Monte-Carlo error of its $p$-values": "{mark}, veredicto dentro del error de Monte Carlo de sus valores $p$",
        "{mark}, significantly better than the baseline": "{mark}, significativamente mejor que la línea base",
        "{mark}, items without a prediction, scored as wrong answers": "{mark}, instancias sin predicción, contadas como respuestas erróneas",
        " Systems are numbered by position ({key}).": " Los sistemas se numeran por su posición ({key}).",
        " Systems are numbered by rank ({key}).": " Los sistemas se numeran por su posición ({key}).",
        " {title}: systems are numbered by position ({key}).": " {title}: los sistemas se numeran por su posición ({key}).",
        " Systems: {key}": " Sistemas: {key}",
        "Ordered bootstrap confidence intervals for {competition}{unit}": "Intervalos de confianza bootstrap ordenados de {competition}{unit}",
        " (resampling {unit})": " (remuestreando {unit})",
        r": bootstrap mean and {level}\% {method} confidence interval (LCI, UCI) from {resamples} resamples, best first.": r": media bootstrap e intervalo de confianza al {level}\% por el método {method} (límites inferior LI y superior LS) a partir "
        r"de {resamples} réplicas, de mejor a peor.",
        "Information summary: the rows of the competitiveness tables.": "Resumen de la información: las filas de las tablas de competitividad.",
        "competitiveness summary": "resumen de competitividad",
        "no competition": "ninguna competición",
        "Competitiveness of the competitions": "Competitividad de las competiciones",
        ", as defined by {cite}. Rows: {rows}. A tie is a pair not significantly different at {alpha} with the {test}, "
        "corrected over {family} (with the winner) or {ties} (between competitors). The {correction} count of ties "
        "with the winner holds this report's verdicts ({rule}; an undecided one counted by its estimated $p$-value); "
        "the ties between competitors are not verdicts.": ", según la definición de {cite}. Filas: {rows}. Un empate es un par "
        "sin diferencia significativa con {alpha} y la {test}, con corrección sobre {family} (con el ganador) o sobre "
        "{ties} (entre competidores). El recuento {correction} de empates con el ganador recoge los veredictos de este "
        "informe ({rule}; uno sin decidir, contado por su valor $p$ estimado); los empates entre competidores no son "
        "veredictos.",
        "{n}: test items; {m}: competitors; {tw}: ties with the winner, with no correction / Bonferroni / Holm / BH / "
        "max-$T$; {pc}: $m(m-1)/2$; {nb}, {hb}: ties between competitors with those corrections; {wm}: the winner's "
        "score minus that of the competitor in the middle; CV: coefficient of variation of the scores, in \\%; PPI: "
        "possible percentage improvement on the winner": "{n}: tamaño del conjunto de prueba; {m}: competidores; {tw}: "
        "empates con el ganador, sin corrección / Bonferroni / Holm / BH / max-$T$; {pc}: $m(m-1)/2$; {nb}, {hb}: "
        "empates entre competidores con esas correcciones; {wm}: la puntuación del ganador menos la del competidor "
        "central; CV: coeficiente de variación de las puntuaciones, en \\%; PPI: posible mejora porcentual sobre el "
        "ganador",
        "Per-class scores of {system}": "Puntuaciones por clase de {system}",
        ", the best system of {competition} by {metric}, on the full test set (field {field}): precision of the items it "
        "labels with the class, recall of the class's gold items, their F$_1$, and the class's gold items (support); 0 "
        "where undefined. Point estimates, without intervals.": ", el mejor sistema de {competition} según {metric}, en el conjunto de prueba completo (campo {field}): "
        "precisión de las instancias que etiqueta con la clase, cobertura de las instancias de la clase en la anotación de "
        "referencia, su F$_1$ y las instancias de la clase en la anotación de referencia (soporte); 0 donde no está "
        "definida. Estimaciones puntuales, sin intervalos.",
        "Teams of {competition} ranked by their best run": "Equipos de {competition} ordenados por su mejor envío",
        " under {metric} ({direction}): rank among the teams, the team's best run and its score, and the team's number "
        "of runs. Baselines are in no team.": " según {metric} ({direction}): posición entre los equipos, el mejor envío "
        "del equipo y su puntuación, y el número de envíos del equipo. Las líneas base no pertenecen a ningún equipo.",
        r" CI: the {level}\% {method} bootstrap confidence interval of that score.": r" IC: intervalo de confianza bootstrap al {level}\% de esa puntuación, por el método {method}.",
        " Group: the run's significance group in the leaderboard; runs sharing a letter are not significantly different "
        "({rule}, {alpha}).": " Grupo: el grupo de significación del envío en la tabla de resultados; los envíos que "
        "comparten una letra no difieren significativamente ({rule}, {alpha}).",
        r" Column Rank set: the ranks a team may truly have, at {level}\% confidence jointly for all teams.": r" Columna Posiciones: las posiciones que un equipo puede ocupar realmente, con una confianza del {level}\% conjuntamente para todos los equipos.",
        "Differences of {metric} from the best system of {competition}": "Diferencias en {metric} respecto al mejor sistema de {competition}",
        r", {best} (positive: the best is better), with {level}\% {method} bootstrap confidence intervals (not corrected "
        r"for multiple comparisons). Sig.: significantly different from the best, "
        r"decided by $p$ ({rule}, {alpha}).": r", {best} (diferencia positiva: el mejor es superior), con intervalos de confianza bootstrap al {level}\% "
        r"por el método {method} (sin corrección por comparaciones múltiples). Sig.: "
        r"diferencia significativa con el mejor, decidida por $p$ ({rule}, {alpha}).",
        " $p$ from {draws}, Monte-Carlo standard error at most {se}": " Valores $p$ a partir de {draws}, con un error estándar de Monte Carlo de {se} como máximo",
        " $p$ from {draws}, Monte-Carlo standard error at most below {se}": " Valores $p$ a partir de {draws}, con un error estándar de Monte Carlo inferior a {se}",
        "; {n} verdict undecided (within that error: drawing more could settle it)": "; {n} veredicto sin decidir (dentro de ese error: extraer más podría decidirlo)",
        "; {n} verdicts undecided (within that error: drawing more could settle them)": "; {n} veredictos sin decidir (dentro de ese error: extraer más podría decidirlos)",
        " (of the max-T adjusted $p$-values, which decide)": " (de los valores $p$ ajustados por max-T, que deciden)",
        " (of the raw $p$-values, before the correction)": " (de los valores $p$ sin corregir, antes de la corrección)",
        "No significance mark: without resamples there are no $p$-values": "Ninguna marca de significación: sin réplicas no hay valores $p$",
        "No significance mark can occur: with {draws} the smallest corrected $p$-value is {p} ({rule})": "No puede darse ninguna marca de significación: con {draws} el menor valor $p$ corregido es "
        "{p} ({rule})",
        "Marks: {marks} ({rule})": "Marcas: {marks} ({rule})",
        "pairwise differences of {competition}": "diferencias por pares de {competition}",
        "pairwise p-values of {competition}": "valores p por pares de {competition}",
        "a single system": "un único sistema",
        "Differences of {metric} (column $-$ row) for {competition}": "Diferencias en {metric} (columna $-$ fila) de {competition}",
        "{head}{part}; systems are numbered by rank ({key}). {marks}.": "{head}{part}; los sistemas se numeran por su posición ({key}). {marks}.",
        "{head}{part}; columns are numbered by rank ({key}). {marks}.": "{head}{part}; las columnas se numeran por la posición de su sistema ({key}). {marks}.",
        "Estimated $p$-values of the {metric} differences (A $-$ B, positive: A is better) for {competition}": "Valores $p$ estimados de las diferencias en {metric} (A $-$ B; positiva: A es mejor) de {competition}",
        ", without adjustment, with Bonferroni, Holm and Benjamini--Hochberg (BH) adjustments and with the max-$T$ "
        "step-down over {family} ({test}). Verdicts of this report: {rule}, {alpha}.": ", sin ajuste, con los ajustes de Bonferroni, Holm y Benjamini--Hochberg (BH) y con el procedimiento "
        "max-$T$ descendente sobre {family} ({test}). Veredictos de este informe: {rule}, {alpha}.",
        ", without adjustment and with Bonferroni, Holm and Benjamini--Hochberg (BH) adjustments over {family} ({test}"
        "). Verdicts of this report: {rule}, {alpha}.": ", sin ajuste y con los ajustes de Bonferroni, Holm y Benjamini--Hochberg (BH) sobre {family} ("
        "{test}). Veredictos de este informe: {rule}, {alpha}.",
        # the appendix document (appendix.py)
        "Methods": "Métodos",
        "Competitiveness across competitions": "Competitividad entre competiciones",
        "{n} test items{where}, {m} systems.": "{n} instancias de prueba{where}, {m} sistemas.",
        " in {unit}, resampled by cluster": " en {unit}, remuestreadas por conglomerados",
        "Figures": "Figuras",
        "Ordered bootstrap confidence intervals of {metric} for {task}": "Intervalos de confianza bootstrap ordenados ({metric}) de {task}",
    }
)
