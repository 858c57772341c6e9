"""SENSEVAL's scorer2, reimplemented: fine-, coarse- and mixed-grained precision and recall.

The rules, as scorer2 (S. Cotton, UPenn) applies them:

* Answers are matched to key instances by instance id alone, because the SENSEVAL-2 key gives the
  bare lemma (``art``) where answer files give the lexelt (``art.n``).
* Weights: if any tag of an answer has no ``/weight``, every tag weighs 1; if the weights then
  sum above 1 they are divided by their sum. A sum below 1 is kept: the rest of the instance
  counts as not attempted. Sums within ``SUM_TOLERANCE`` of 1 count as exactly 1, so that weights
  written with a few decimals are not treated as partly unattempted.
* Each answer tag earns its weight times its credit, capped at 1 per tag; the instance's score is
  capped at 1 too. A tag's credit is the number of gold tags it matches (so at most 1 once
  capped); under mixed grain it is the sum of its partial credits, capped the same way.
* Coarse grain replaces every key and answer tag by its group (``SenseMap.top``) and merges the
  duplicates that arise, summing answer weights. Mixed grain gives full credit when a gold tag is
  the answer tag or subsumes it, and ``1 / (N1 * N2 * ...)`` when the answer tag subsumes a gold
  tag, the Ns being the counts on the gold tag's sensemap line up to the answer tag.
* ``U`` and ``P`` are ordinary tags. Minimal scoring drops key instances with several gold tags
  (counted after coarse merging, as scorer2 does).
* Only the first answer for an instance counts; later ones, and answers for instances the key
  does not have, are reported and ignored.

Two deliberate differences from the C program: repeated key tags count once (the C program
would count ``a a`` as two tags under ``-m``), and zero denominators give 0.0 instead of NaN.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from wsd_classic.answers.senseval import Answer
from wsd_classic.corpora.keys import KeyEntry
from wsd_classic.corpora.sensemap import SenseMap
from wsd_classic.errors import WsdError
from wsd_classic.scoring import ratio, report_ignored

GRAINS = ("fine", "coarse", "mixed")
SUM_TOLERANCE = 1e-9


@dataclass(frozen=True)
class Scorer2Result:
    """The figures scorer2 prints, and the per-instance values they are sums of.

    ``instance_scores`` and ``instance_attempted`` hold every key instance in scope (0.0 when it
    got no answer), so that bootstrap intervals and per-group figures can be computed from them
    without rescoring.
    """

    grain: str
    minimal: bool
    instance_scores: dict[str, float]
    instance_attempted: dict[str, float]
    answered: int
    ignored: tuple[str, ...] = ()

    @property
    def instances(self) -> int:
        """Key instances in scope (after minimal filtering and any subset)."""
        return len(self.instance_scores)

    @property
    def score_sum(self) -> float:
        """scorer2's "correct": the sum of the instance scores."""
        return math.fsum(self.instance_scores.values())

    @property
    def attempted_sum(self) -> float:
        """scorer2's "attempted": the sum of the answers' total weights."""
        return math.fsum(self.instance_attempted.values())

    @property
    def precision(self) -> float:
        return ratio(self.score_sum, self.attempted_sum)

    @property
    def recall(self) -> float:
        return ratio(self.score_sum, self.instances)

    @property
    def attempted(self) -> float:
        """The attempted fraction of the instances (scorer2 prints it as a percentage)."""
        return ratio(self.attempted_sum, self.instances)


def score(key: Mapping[str, KeyEntry], answers: Iterable[Answer], *, grain: str = "fine",
          sensemap: SenseMap | None = None, minimal: bool = False,
          include: Callable[[KeyEntry], bool] | None = None, quiet: bool = False) -> Scorer2Result:
    """Score ``answers`` against ``key`` the way scorer2 does.

    ``include`` restricts scoring to the key entries it accepts (one lexelt, one part of speech,
    ...); answers for the other key instances are then skipped silently. Ignored answers
    (unknown instance, second answer) are listed in the result and, unless ``quiet``, reported
    on stderr.
    """
    if grain not in GRAINS:
        raise WsdError(f"unknown grain {grain!r}: expected one of {', '.join(GRAINS)}")
    if grain != "fine" and sensemap is None:
        raise WsdError(f"{grain}-grained scoring needs a sensemap")
    gold = {}
    for instance, entry in key.items():
        tags = _at_grain(entry.tags, grain, sensemap)
        if (minimal and len(tags) > 1) or (include is not None and not include(entry)):
            continue
        gold[instance] = tags
    scores = dict.fromkeys(gold, 0.0)
    attempted = dict.fromkeys(gold, 0.0)
    seen: set[str] = set()
    ignored = []
    for answer in answers:
        instance = answer.instance
        if instance not in key:
            ignored.append(f"line {answer.line}: no instance {instance} in the key")
            continue
        if instance in seen:
            ignored.append(f"line {answer.line}: second answer for {instance}")
            continue
        seen.add(instance)
        if instance in gold:  # a key instance out of scope is not scored
            weights, attempted[instance] = _weights(answer, grain, sensemap)
            scores[instance] = min(1.0, sum(weight * _credit(tag, gold[instance], grain, sensemap)
                                            for tag, weight in weights.items()))
    if not quiet:
        report_ignored(ignored)
    return Scorer2Result(grain, minimal, scores, attempted, len(seen & gold.keys()),
                         tuple(ignored))


def _at_grain(tags: Iterable[str], grain: str, sensemap: SenseMap | None) -> tuple[str, ...]:
    """Tags as compared at ``grain``: coarse groups (merged) under coarse grain, else unchanged."""
    if grain == "coarse":
        return tuple(dict.fromkeys(sensemap.top(tag) for tag in tags))
    return tuple(tags)


def _weights(answer: Answer, grain: str,
             sensemap: SenseMap | None) -> tuple[dict[str, float], float]:
    """The answer's tags at ``grain`` with their normalised weights, and their total."""
    if any(weight is None for _, weight in answer.senses):
        raw = [(sense, 1.0) for sense, _ in answer.senses]
    else:
        raw = list(answer.senses)
    total = math.fsum(weight for _, weight in raw)
    if total > 1.0 - SUM_TOLERANCE:
        raw = [(sense, weight / total) for sense, weight in raw]
        total = 1.0
    merged: dict[str, float] = {}
    for sense, weight in raw:
        # ``_at_grain`` of the one tag, inline: this runs for every sense of every answer
        tag = sensemap.top(sense) if grain == "coarse" else sense
        merged[tag] = merged.get(tag, 0.0) + weight
    return merged, total


def _credit(tag: str, gold: tuple[str, ...], grain: str, sensemap: SenseMap | None) -> float:
    """How much of one answer tag's weight it earns against the instance's gold tags."""
    if grain != "mixed":
        return 1.0 if tag in gold else 0.0
    return min(1.0, sum(_mixed_credit(tag, gold_tag, sensemap) for gold_tag in gold))


def _mixed_credit(tag: str, gold_tag: str, sensemap: SenseMap) -> float:
    """Full credit if the gold tag is or subsumes ``tag``; ``1/(N1*...)`` if ``tag`` subsumes it."""
    if tag == gold_tag or gold_tag in sensemap.ancestors(tag):
        return 1.0
    ancestors = sensemap.ancestors(gold_tag)
    if tag in ancestors:
        return 1.0 / math.prod(sensemap.counts(gold_tag)[:ancestors.index(tag) + 1])
    return 0.0
