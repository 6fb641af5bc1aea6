"""Spanish of the team letters' and e-mails' standing sentences (:mod:`compreport.report.standing`):
the team's rank among teams, the winner, how many runs a run is significantly better than, the
page of the letter. Run = envío."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

ES: Mapping[str, str] = MappingProxyType(
    {
        # compreport/report/standing.py
        "your best run, page {k} of {n}": "su mejor envío, página {k} de {n}",
        "your {nth}-best run, page {k} of {n}": "su {nth} mejor envío, página {k} de {n}",
        "Your best run, {system}": "Su mejor envío, {system}",
        "Your {nth}-best run, {system}": "Su {nth} mejor envío, {system}",
        "Your team, {team}, is the only team.": "Su equipo, {team}, es el único equipo.",
        "Your team, {team}, ranks {nth} of the {n} teams, each team ranked by its best run.": (
            "Su equipo, {team}, ocupa el {nth} puesto de los {n} equipos, cada equipo según su "
            "mejor envío."
        ),
        "Your team, {team}, ranks {nth} of the {n} teams, each team ranked by its best run, "
        "tied exactly with {others}.": (
            "Su equipo, {team}, ocupa el {nth} puesto de los {n} equipos, cada equipo según su "
            "mejor envío, empatado exactamente con {others}."
        ),
        "{run} (team {team})": "{run} (equipo {team})",
        "Your team won: your run {run} has the best {metric}, {score}, tied exactly with {others}.": (
            "Su equipo ganó: su envío {run} tiene el mejor valor de {metric}, {score}, empatado "
            "exactamente con {others}."
        ),
        "Your team won: your run {run} has the best {metric}, {score}.": (
            "Su equipo ganó: su envío {run} tiene el mejor valor de {metric}, {score}."
        ),
        "The winners, tied exactly with the best {metric}, {score}, are {runs}.": (
            "Los ganadores, empatados exactamente con el mejor valor de {metric}, {score}, son {runs}."
        ),
        "The winner is {run}, with the best {metric}, {score}.": (
            "El ganador es {run}, con el mejor valor de {metric}, {score}."
        ),
        "The winner is {run}, of team {team}, with the best {metric}, {score}.": (
            "El ganador es {run}, del equipo {team}, con el mejor valor de {metric}, {score}."
        ),
        "{system} was not compared with the {n} other runs ({why}), so this report gives no count "
        "of the runs it beats.": (
            "{system} no se comparó con los otros {n} envíos ({why}), así que este informe no cuenta "
            "a cuántos supera."
        ),
        "{system} has no settled verdict against the {n} other runs, so this report gives no count "
        "of the runs it beats.": (
            "{system} no tiene ningún veredicto firme frente a los otros {n} envíos, así que este "
            "informe no cuenta a cuántos supera."
        ),
        "{system} is significantly better than {better} of the {n} other runs compared with it and "
        "significantly worse than {worse} of them, at α = {alpha}.": (
            "{system} es significativamente mejor que {better} de los otros {n} envíos comparados con "
            "él y significativamente peor que {worse} de ellos, con α = {alpha}."
        ),
        "{system} is significantly better than {better} of the {n} other runs and significantly "
        "worse than {worse} of them, at α = {alpha}.": (
            "{system} es significativamente mejor que {better} de los otros {n} envíos y "
            "significativamente peor que {worse} de ellos, con α = {alpha}."
        ),
        "Of these comparisons, {k} are undecided: their p-values are within the Monte-Carlo error "
        "of α, so they count neither way.": (
            "De estas comparaciones, {k} están sin decidir: sus valores p están dentro del error de "
            "Monte Carlo de α, así que no cuentan en ningún sentido."
        ),
        "Of these comparisons, 1 is undecided: its p-value is within the Monte-Carlo error of α, so "
        "it counts neither way.": (
            "De estas comparaciones, 1 está sin decidir: su valor p está dentro del error de Monte "
            "Carlo de α, así que no cuenta en ningún sentido."
        ),
        "{k} of the other runs were not compared with it ({why}).": (
            "{k} de los otros envíos no se compararon con él ({why})."
        ),
        "1 of the other runs was not compared with it ({why}).": (
            "1 de los otros envíos no se comparó con él ({why})."
        ),
        # templates/html/team.html
        "Where your team stands": "Dónde queda su equipo",
        "Leaderboard excerpt": "Extracto de la tabla de resultados",
        "Systems not significantly different from {system} at &alpha; = {alpha}{mark}.": (
            "Sistemas que no son significativamente diferentes de {system} con &alpha; = {alpha}{mark}."
        ),
        "Each pair is judged on its own, so this relation is not transitive: a system listed here "
        "may be tied with the winner even where {system} is significantly worse than the winner, "
        "and two systems listed here may differ significantly from each other.": (
            "Cada par se juzga por separado, así que esta relación no es transitiva: un sistema de "
            "esta lista puede empatar con el ganador aunque {system} sea significativamente peor que "
            "el ganador, y dos sistemas de esta lista pueden diferir significativamente entre sí."
        ),
        # compreport/report/pages/emails.py
        "{system} (baseline)": "{system} (línea base)",
        "<- your run": "<- su envío",
        "Leaderboard excerpt ({metric}, {level} CI):": (
            "Extracto de la tabla de resultados ({metric}, IC al {level}):"
        ),
        "Your run {system} ranked first of the {m} competing runs of {competition} with the best "
        "{metric}.": (
            "Su envío {system} quedó en primer lugar entre los {m} envíos que compiten en {competition}, con el "
            "mejor valor de {metric}."
        ),
        "Your run {system} ranked first of the {m} competing runs of {competition} with the best "
        "{metric}, tied exactly with {others}.": (
            "Su envío {system} quedó en primer lugar entre los {m} envíos que compiten en {competition}, con el "
            "mejor valor de {metric}, empatado exactamente con {others}."
        ),
        "{competition}: ranked by {metric} ({direction}); {level} bootstrap intervals from "
        "{resamples} resamples; verdicts: {rule}, α = {alpha}.": (
            "{competition}: ranking por {metric} ({direction}); intervalos bootstrap al {level} "
            "a partir de {resamples} réplicas; veredictos: {rule}, α = {alpha}."
        ),
        "{run}: rank {rank}; {metric} = {score} ({level} CI {ci}).": (
            "{run}: posición {rank}; {metric} = {score} (IC al {level} {ci})."
        ),
    }
)
