"""Spanish of the HTML pages and PDF team sheets (templates/html, html.py, team.py)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ES: Mapping[str, str] = MappingProxyType(
    {
        # headings, table of contents, facts lines
        "Workshop overview": "Resumen del taller",
        "Contents": "Índice",
        "Leaderboard": "Tabla de resultados",
        "Confidence intervals": "Intervalos de confianza",
        "Differences from the best": "Diferencias con el mejor",
        "Pairs of systems": "Pares de sistemas",
        "Pairwise differences": "Diferencias por pares",
        "Per-class scores of the best system": "Puntuaciones por clase del mejor sistema",
        "All metrics": "Todas las métricas",
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
        "(ranking)": "(métrica de ordenación)",
        "metrics: {metrics}": "métricas: {metrics}",
        "{n} competition": "{n} competición",
        "{n} competitions": "{n} competiciones",
        "B = {b} paired bootstrap resamples": "B = {b} réplicas bootstrap pareadas",
        "seed {seed}": "semilla {seed}",
        "n = {n} test items": "n = {n} instancias de prueba",
        "n = {n} test items in {unit}, resampled by cluster": "n = {n} instancias de prueba en {unit}, remuestreadas por conglomerados",
        "n = {n} items": "n = {n} instancias",
        "n = {n} items in {unit}, resampled by cluster": "n = {n} instancias en {unit}, remuestreadas por conglomerados",
        "m = {m} systems": "m = {m} sistemas",
        "{k} baseline": "{k} línea base",
        "{k} baselines": "{k} líneas base",
        "{level} percentile intervals": "intervalos de percentiles al {level}",
        "percentile intervals": "intervalos de percentiles",
        "{level} BCa intervals": "intervalos BCa al {level}",
        "BCa intervals": "intervalos BCa",
        "{level} normal intervals": "intervalos normales al {level}",
        "normal intervals": "intervalos normales",
        "{level} CI": "IC al {level}",
        # overview page (index.html); texts with markup keep their tags and entities
        "Challenge &middot; task &middot; language": "Reto &middot; tarea &middot; idioma",
        "Systems": "Sistemas",
        "Best system": "Mejor sistema",
        '<span class="label">Competitions</span> with the size of their test set (n), the number of systems (baselines '
        "included), the ranking metric and its best system. Each name links to the competition's full report.": '<span class="label">Competiciones</span> con el tamaño de su conjunto de prueba (n), el número de sistemas '
        "(incluidas las líneas base), la métrica de ordenación y su mejor sistema. Cada nombre enlaza con el "
        "informe completo de la competición.",
        "Columns grouped by challenge, task and language as in Nava-Muñoz et al. (2024, Tables 7–11); each language "
        "links to its competition's report. A tie is a pair not significantly different at &alpha; = {alpha} with the "
        "{test}, corrected over {family} (with the winner) or {ties} (between competitors). The {correction} count of "
        "ties with the winner holds this report's verdicts ({rule}; an undecided one counted by its estimated p-value); "
        "the ties between competitors are not verdicts. {which} Differences 3 decimals; CV and PPI in percent unless "
        "noted.": "Columnas agrupadas por reto, tarea e idioma como en Nava-Muñoz et al. (2024, tablas 7–11); cada "
        "idioma enlaza con el informe de su competición. Un empate es un par sin diferencia significativa con &alpha; = "
        "{alpha} y la {test}, con corrección sobre {family} (con el ganador) o sobre {ties} (entre competidores). El "
        "recuento {correction} de empates con el ganador recoge los veredictos de este informe ({rule}; uno sin decidir, "
        "contado por su valor p estimado); los empates entre competidores no son veredictos. {which} Diferencias con 3 "
        "decimales; CV y PPI en porcentaje salvo que se indique.",
        '<span class="label">Competitiveness</span> of each competition\'s ranking metric': '<span class="label">Competitividad</span> de la métrica de ordenación de cada competición',
        "(part {i} of {n})": "(parte {i} de {n})",
        "Resamples draw the {unit}.": "Las réplicas extraen los {unit}.",
        "PPI of {names} is the winner's distance to the metric's ideal value, in the metric's units, not a percentage.": "El PPI de {names} es la distancia del ganador al valor ideal de la métrica, en las unidades de la métrica, "
        "no un porcentaje.",
        "{name} ({metric}, ideal {ideal})": "{name} ({metric}, ideal {ideal})",
        '<span class="label">Legend</span> of the competitiveness tables (Nava-Muñoz et al., Table 6).': '<span class="label">Leyenda</span> de las tablas de competitividad (Nava-Muñoz et al., tabla 6).',
        "Competitiveness of each competition's ranking metric: coefficient of variation, |winner &minus; median|, "
        "possible percentage improvement and the share of pairs tied without correction.": "Competitividad de la métrica de ordenación de cada competición: coeficiente de variación, |ganador &minus; "
        "mediana|, mejora porcentual posible y proporción de pares empatados sin corrección.",
        "Generated by compreport {version}. {missing} marks an undefined value (e.g. the CV of a metric whose mean is 0).": "Generado por compreport {version}. {missing} indica un valor no definido (p. ej., el CV de una métrica cuya "
        "media es 0).",
        # competition page (competition.html)
        '<span class="label">Leaderboard</span> ranked by {metric} ({direction}). Scores on the full test set with the '
        "{level} bootstrap confidence interval of {metric}; the best value of each metric in bold.": '<span class="label">Tabla de resultados</span> ordenada por {metric} ({direction}). Puntuaciones sobre el conjunto '
        "de prueba completo, con el intervalo de confianza bootstrap al {level} de {metric}; en negrita, el mejor "
        "valor de cada métrica.",
        "Systems sharing a group letter are not significantly different at &alpha; = {alpha} ({rule}).": "Los sistemas que comparten una letra de grupo no son significativamente diferentes con &alpha; = {alpha} "
        "({rule}).",
        "Baselines (italics, tagged) are ranked with the systems and count among the m systems.": "Las líneas base (en cursiva y etiquetadas) figuran en el ranking junto con los sistemas y cuentan entre los "
        "m sistemas.",
        "Marks: <em>tied with best</em>, not significantly different from the best under the same rule; "
        "<em>undecided</em>, that verdict is within the Monte-Carlo error of its p-values, so it is neither a tie nor a difference (more resamples could settle it); "
        "<em>N undecided</em>, as many of its verdicts against other systems are undecided (the pairwise table or heat map shows which).": "Marcas: <em>empatado con el mejor</em>, no significativamente diferente del mejor con la misma regla; "
        "<em>sin decidir</em>, ese veredicto está dentro del error de Monte Carlo de sus valores p, así que no es ni un empate ni una diferencia "
        "(más réplicas podrían decidirlo); <em>N sin decidir</em>, tantos de sus veredictos frente a otros sistemas están sin decidir (la tabla de pares o el mapa de calor muestra cuáles).",
        "Best system: {system}.": "Mejor sistema: {system}.",
        "Show every column": "Mostrar todas las columnas",
        "A range such as f–j stands for every letter from f to j.": "Un intervalo como f–j representa todas las letras de la f a la j.",
        '<span class="label">Ordered bootstrap confidence intervals</span> of {metric} ({level}, {method}): score on the '
        "full test set (the best in bold), mean and standard deviation (SE) of the bootstrap distribution, interval; "
        "groups as in the leaderboard ({rule}).": '<span class="label">Intervalos de confianza bootstrap ordenados</span> de {metric} ({level}, {method}): '
        "puntuación sobre el conjunto de prueba completo (la mejor, en negrita), media y error estándar (EE) de la "
        "distribución bootstrap, e intervalo; grupos como en la tabla de resultados ({rule}).",
        '<span class="label">Differences from the best</span> ({best} &minus; system, oriented so that positive means '
        "the best is better) with uncorrected {level} confidence intervals; intervals that exclude 0 in bold. "
        "Significant: the verdict of this report, decided by p (verdict) under the {rule} (&alpha; = {alpha}); the "
        "intervals are not corrected for multiple comparisons. The raw p-values, the other corrections and the "
        "Monte-Carlo errors of every pair are in {link}.": '<span class="label">Diferencias con el mejor</span> ({best} '
        "&minus; sistema, orientadas de modo que un valor positivo indica ventaja del mejor) con intervalos de "
        "confianza al {level} sin corregir; en negrita, los intervalos que excluyen el 0. Significativo: el veredicto "
        "de este informe, decidido por p (veredicto) con la {rule} (&alpha; = {alpha}); los intervalos no están "
        "corregidos por comparaciones múltiples. Los valores p sin corregir, las demás correcciones y los errores de "
        "Monte Carlo de cada par están en {link}.",
        '<span class="label">Teams</span> ranked by their best run under {metric}; rank among the {k} teams, the best '
        "run's score, group and marks as in the leaderboard below. Baselines are in no team.": '<span class="label">Equipos</span> '
        "ordenados por su mejor envío según {metric}; posición entre los {k} equipos y puntuación, grupo y marcas "
        "del mejor envío como en la tabla de resultados que sigue. Las líneas base no pertenecen a ningún equipo.",
        "With m = {m} systems the {pairs} pairs are shown as a heat map, shaded by the p-value behind this report's "
        "verdicts ({rule}); every pair with its difference, interval, raw and corrected p-values and verdict is in {link}.": "Con m = {m} sistemas, los {pairs} pares se muestran como un mapa de calor, sombreado según el valor p en que "
        "se basan los veredictos de este informe ({rule}); cada par, con su diferencia, su intervalo, sus valores p "
        "sin corregir y corregidos y su veredicto, está en {link}.",
        "Cell (row, column): difference column &minus; row, oriented so that positive means the column system (ranked "
        "higher) is better, marked and shaded by the p-value behind this report's verdicts ({rule}):": "Celda (fila, columna): diferencia columna &minus; fila, orientada de modo que un valor positivo indica que el "
        "sistema de la columna (mejor posicionado en el ranking) es mejor, marcada y sombreada según el valor p en que se basan "
        "los veredictos de este informe ({rule}):",
        "Columns are numbered by position in the ranking; the number precedes each row's system, and column 1 is "
        "{system}.": "Las columnas se numeran por su posición en el ranking; el número precede al sistema de cada fila, y "
        "la columna 1 es {system}.",
        '<span class="label">Pairwise differences of {metric}</span>': '<span class="label">Diferencias por pares de {metric}</span>',
        "(columns {first}–{last})": "(columnas {first}–{last})",
        '<span class="label">Per-class scores</span> of {system}, the best by {metric}, on the full test set ({field}): '
        "precision of the items it labels with the class, recall of the class's gold items, their F<sub>1</sub>, and the "
        "number of gold items (support); 0 where undefined. Point estimates, without intervals.": '<span class="label">Puntuaciones por clase</span> de {system}, el mejor según {metric}, sobre el conjunto '
        "de prueba completo ({field}): precisión de las instancias que etiqueta con la clase, cobertura de las "
        "instancias de la clase en la referencia, su F<sub>1</sub> y el número de instancias de la referencia (soporte); 0 "
        "cuando la medida no está definida. Estimaciones puntuales, sin intervalos.",
        "Generated by compreport {version}. Numbers: scores and intervals {decimals} decimals, differences "
        "{diff_decimals}, p-values {p_decimals}; {missing} marks an undefined value.": "Generado por compreport {version}. Números: puntuaciones e intervalos con {decimals} decimales, diferencias "
        "con {diff_decimals}, valores p con {p_decimals}; {missing} indica un valor no definido.",
        # methods and provenance (_macros.html, html.py)
        "Rerunning compreport with these settings on the same input files gives the same numbers.": "Volver a ejecutar compreport con esta configuración sobre los mismos archivos de entrada da los mismos "
        "números.",
        "Input files.": "Archivos de entrada.",
        "File": "Archivo",
        "compreport version": "Versión de compreport",
        "Seed": "Semilla",
        "Bootstrap replicates B": "Réplicas bootstrap B",
        "alpha": "α",
        "Confidence level": "Nivel de confianza",
        "CI method": "Método del IC",
        "Test": "Prueba",
        "Correction family": "Familia de la corrección",
        "Correction": "Corrección",
        "Rule of every verdict": "Regla de todos los veredictos",
        "Engine: {key}": "Motor: {key}",
        # team sheets (team.html, team.py)
        "team {team}": "equipo {team}",
        "{level} CI {ci}": "IC al {level} {ci}",
        "{rank} of {m}": "{rank} de {m}",
        "Test set": "Conjunto de prueba",
        "Winner": "Ganador",
        "Difference to the winner": "Diferencia con el ganador",
        "Baselines do not compete; scored higher: {baselines}.": "Las líneas base no compiten; puntuaron más alto: {baselines}.",
        "Gap to the runner-up, {system}: {diff}": "Distancia al segundo lugar, {system}: {diff}",
        "{level} CI {ci}, not corrected for multiple comparisons; positive means the winner is better": "IC al {level} {ci}, sin corregir por comparaciones múltiples; un valor positivo indica ventaja del ganador",
        "from {draws}": "de {draws}",
        "Every system has the best score.": "Todos los sistemas tienen la mejor puntuación.",
        "There is no other competing system to compare with.": "No hay ningún otro sistema que compita con el que compararlo.",
        "Winner: {best} ({score}). Difference winner &minus; {system}: {diff}": "Ganador: {best} ({score}). Diferencia ganador &minus; {system}: {diff}",
        "the runner-up": "el sistema en segundo lugar",
        "Cannot be told apart from": "No se distingue de",
        "{k} of the {others} other systems.": "{k} de los otros {others} sistemas.",
        "The {shown} nearest in rank: {systems}; {more} more in {file}.": "Los {shown} más próximos en el ranking: {systems}; {more} más en {file}.",
        "Significantly different from it: {systems}.": "Significativamente diferentes de él: {systems}.",
        "None among the systems compared with it.": "Ninguno entre los sistemas comparados con él.",
        "There are no other systems.": "No hay otros sistemas.",
        "Not compared with {system} ({why}): {n} systems.": "Sin comparar con {system} ({why}): {n} sistemas.",
        "Not compared with {system} ({why}): {systems}.": "Sin comparar con {system} ({why}): {systems}.",
        "its score is undefined": "su puntuación no está definida",
        "only the comparisons with the winner are tested": "solo se contrastan las comparaciones con el ganador",
        "their scores are undefined": "sus puntuaciones no están definidas",
        "with B = 0 no resamples were drawn, so no pair is tested": "con B = 0 no se extrajeron réplicas, así que no se contrasta ningún par",
        "competition id {id}": "identificador de competición {id}",
        # team letters: ranks among teams and runs, verdicts in plain words, the one footnote
        "Workshop": "Taller",
        "{team}: rank {rank} of {n} teams, each ranked by its best run": "{team}: posición {rank} de {n} equipos, cada uno según su mejor envío",
        "Rank of the run": "Posición del envío",
        "Rank set: the ranks a system may truly have, at {level} confidence jointly for all systems (one-sided max-T step-down over all ordered pairs; Mogstad et al., 2024).": "Posiciones: las posiciones que un sistema puede ocupar realmente, con una confianza del {level} conjuntamente para todos los sistemas (procedimiento max-T descendente unilateral sobre todos los pares ordenados; Mogstad et al., 2024).",
        "rank {low}–{high} at {level} confidence, jointly for all systems": "posición {low}–{high} con una confianza del {level}, conjuntamente para todos los sistemas",
        "rank {low} at {level} confidence, jointly for all systems": "posición {low} con una confianza del {level}, conjuntamente para todos los sistemas",
        "{rank} of {m} runs": "{rank} de {m} envíos",
        "{rank} of {m} systems: {runs} runs and 1 baseline": "{rank} de {m} sistemas: {runs} envíos y 1 línea base",
        "{rank} of {m} systems: {runs} runs and {b} baselines": "{rank} de {m} sistemas: {runs} envíos y {b} líneas base",
        "Your run {system}": "Su envío {system}",
        "{system} is the winner: the only competing run of this competition.": "{system} es el ganador: el único envío que compite en esta competición.",
        "{system} is the winner: it ranked first of the {m} competing runs with the best {metric}.": "{system} es el ganador: quedó en primer lugar entre los {m} envíos que compiten, con el mejor valor de {metric}.",
        "{system} is the winner: it ranked first of the {m} competing runs with the best {metric}, tied exactly with {others}.": "{system} es el ganador: quedó en primer lugar entre los {m} envíos que compiten, con el mejor valor de {metric}, empatado exactamente con {others}.",
        "{system} is significantly worse than the winner, {other}, at α = {alpha}.": "{system} es significativamente peor que el ganador, {other}, con α = {alpha}.",
        "{system} cannot be told apart from the winner, {other}, at α = {alpha}.": "{system} no se distingue del ganador, {other}, con α = {alpha}.",
        "{system} was not tested against the winner, {other}.": "{system} no se contrastó con el ganador, {other}.",
        "{system} is significantly better than the runner-up, {other}, at α = {alpha}.": "{system} es significativamente mejor que el sistema en segundo lugar, {other}, con α = {alpha}.",
        "{system} cannot be told apart from the runner-up, {other}, at α = {alpha}.": "{system} no se distingue del sistema en segundo lugar, {other}, con α = {alpha}.",
        "{system} was not tested against the runner-up, {other}.": "{system} no se contrastó con el sistema en segundo lugar, {other}.",
        "{p} corrected": "{p} corregido",
        "{p} (raw)": "{p} (sin corregir)",
        "None: every other system is significantly different from it{mark}.": "Ninguno: todos los demás sistemas son significativamente diferentes de él{mark}.",
        "Method:": "Método:",
        "Full size": "A tamaño completo",
    }
)
