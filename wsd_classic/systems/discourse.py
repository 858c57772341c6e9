"""One sense per discourse (Gale, Church & Yarowsky 1992): the targets of one lemma and part of
speech in one document mostly share a sense, so each target's sense distribution is pulled
towards the mean of the others':

    p'(s | t) = (1 - w) p(s | t) + w mean_{u != t} p(s | u)

over the targets t, u of one lexelt in one document, ``w`` the task's discourse weight for the
system (``Task.discourse_weights``, chosen on held-out SemCor files: bench/semcor.py
--tune-discourse). A target alone in its document keeps its distribution. Written here: no
library applies it to a classifier's distributions.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence

Distribution = Mapping[str, float] | Iterable[tuple[str, float]]


def pulled_together(distributions: Sequence[Distribution], units: Sequence[Hashable],
                    weight: float) -> list[dict[str, float] | None]:
    """For each distribution (``{sense: weight}`` or ``(sense, weight)`` pairs), its mixture
    with the mean of the others of the same unit (a ``(document, lexelt)``), or None where
    nothing changes: the target is alone in its unit, or ``weight`` is 0."""
    pulled: list[dict[str, float] | None] = [None] * len(distributions)
    if weight == 0:
        return pulled
    members: dict[Hashable, list[int]] = defaultdict(list)
    for index, unit in enumerate(units):
        members[unit].append(index)
    for indices in members.values():
        if len(indices) < 2:
            continue
        owns = {index: dict(distributions[index]) for index in indices}
        totals: dict[str, float] = defaultdict(float)
        for own in owns.values():
            for sense, probability in own.items():
                totals[sense] += probability
        others = len(indices) - 1
        for index, own in owns.items():
            pulled[index] = {
                sense: (1 - weight) * own.get(sense, 0.0)
                + weight * (total - own.get(sense, 0.0)) / others
                for sense, total in totals.items()}
    return pulled
