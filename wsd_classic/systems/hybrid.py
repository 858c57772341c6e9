"""The ``hybrid`` system: the supervised svm's sense distribution and ``ppr``'s mixed per target.

The svm knows the senses SemCor showed it; the knowledge graph's walk (``ppr``) scores every
WordNet candidate, the senses SemCor never tagged included. For a target with the svm's
distribution p_svm over its candidates (WordNet's first sense where it has no model of the
lemma) and ppr's p_ppr:

    p = (1 - w) p_svm + w p_ppr^a / sum(p_ppr^a)

``a`` sharpens ppr's distributions, which are flatter than the svm's; ppr's weight ``w``
depends on the target's part of speech, on how often SemCor tagged its lemma (below
``scarce_below`` instances, ``scarce_weight``) and on the svm's confidence (the svm alone
where its best sense has probability ``gate`` or more). With ``unseen_only``, ppr moves mass
only to the candidates the svm gives none (``unseen_mixed``). The mixture's form and values are
chosen on held-out SemCor files and the unseen-senses simulation (``python -m bench semcor
--tune-hybrid``; docs/choices.md, "The hybrid").
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.knowledge.supervised_restart import SupervisedRestartWalk
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank
from wsd_classic.systems.svm import CALIBRATION_FOLDS, LinearSVM
from wsd_classic.wordnet import wordnet_senses

POS_LETTERS = ("n", "v", "a", "r")


@dataclass(frozen=True)
class Mixture:
    """ppr's weight by part of speech (``weights``, WordNet's letters), the power ``power`` its
    distribution is raised to, the weight ``scarce_weight`` for lemmas SemCor tagged fewer than
    ``scarce_below`` times (0: no such rule), and the svm's confidence ``gate`` at and above
    which ppr has no weight (None: no gate); ``unseen_only``: ppr's mass goes only to the
    candidates the svm gives none (``unseen_mixed``), else to all (``mixed``)."""

    weights: Mapping[str, float] = field(default_factory=lambda: dict.fromkeys(POS_LETTERS, 0.0))
    power: float = 1.0
    scarce_below: int = 0
    scarce_weight: float = 1.0
    gate: float | None = None
    unseen_only: bool = False

    @classmethod
    def uniform(cls, weight: float, **rest) -> "Mixture":
        """One weight for every part of speech."""
        return cls(dict.fromkeys(POS_LETTERS, weight), **rest)

    def ppr_weights(self, pos: np.ndarray, support: np.ndarray,
                    svm_best: np.ndarray) -> np.ndarray:
        """ppr's weight for each target: its part of speech's letter, its lemma's SemCor
        training instances, and the svm's probability of its best sense."""
        weights = np.array([self.weights[letter] for letter in pos], dtype=float)
        if self.scarce_below:
            weights = np.where(support < self.scarce_below, self.scarce_weight, weights)
        if self.gate is not None:
            weights = np.where(svm_best >= self.gate, 0.0, weights)
        return weights

    def mix(self, svm: np.ndarray, ppr: np.ndarray, pos: np.ndarray,
            support: np.ndarray) -> np.ndarray:
        """Rows of the svm's and ppr's distributions (one per target, zero-padded alike) mixed
        with each target's ppr weight (``ppr_weights``: its part of speech ``pos`` and lemma
        ``support``)."""
        weights = self.ppr_weights(pos, support, svm.max(axis=1))
        combine = unseen_mixed if self.unseen_only else mixed
        return combine(svm, ppr, weights, self.power)


def sharpened(distributions: np.ndarray, power: float) -> np.ndarray:
    """Each row raised to ``power`` and renormalised (zeros stay zero), in log space so that
    small probabilities do not underflow."""
    with np.errstate(divide="ignore"):
        logs = power * np.log(distributions)
    logs -= logs.max(axis=1, keepdims=True)
    weights = np.exp(logs)
    return weights / weights.sum(axis=1, keepdims=True)


def mixed(svm: np.ndarray, ppr: np.ndarray, ppr_weights: np.ndarray,
          power: float) -> np.ndarray:
    """Rows of the svm's and ppr's distributions over the same candidates (one row per target,
    zero-padded alike), mixed with ppr's weight of each row after sharpening ppr by ``power``."""
    weight = ppr_weights[:, None]
    return (1.0 - weight) * svm + weight * sharpened(ppr, power)


def unseen_mixed(svm: np.ndarray, ppr: np.ndarray, ppr_weights: np.ndarray,
                 power: float) -> np.ndarray:
    """The svm's distributions with ppr's sharpened mass on the candidates the svm gives none
    (the senses its training never showed) moved to them at each row's weight w: with
    q = p_ppr^a renormalised and m its mass there, (1 - w m) p_svm + w q on those candidates.
    A row whose candidates the svm all weighs stays the svm's."""
    weight = ppr_weights[:, None]
    sharp = sharpened(ppr, power)
    unseen = np.where(svm > 0, 0.0, sharp)
    mass = unseen.sum(axis=1, keepdims=True)
    return (1.0 - weight * mass) * svm + weight * unseen


class HybridSVM(LinearSVM):
    """The hybrid's per-lexelt estimator: the svm itself (its parameters and its fit, or the
    svm fitted on the same rows earlier in the run: ``member_systems``), carrying the
    mixture's values and ppr's walk as parameters so that its model file holds them all;
    ``HybridScorer`` mixes at tagging. ``support_``: the lexelt's SemCor instances, which its
    rows cannot tell from WordNet's examples: training sets it (``with_support``)."""

    member_systems = ("svm",)
    state_fields = (*LinearSVM.state_fields, "support")

    def __init__(self, C: float = 10.0, calibrate: bool = True, random_state: int = 0,
                 min_instances: int = 0, tol: float = 1e-4,
                 calibration_folds: int = CALIBRATION_FOLDS,
                 ppr_weights: tuple[float, ...] = (0.0,) * len(POS_LETTERS), power: float = 1.0,
                 scarce_below: int = 0, scarce_weight: float = 1.0, gate: float | None = None,
                 walk: dict | None = None, unseen_only: bool = False,
                 supervised_restart: bool = False):
        super().__init__(C, calibrate, random_state, min_instances, tol, calibration_folds)
        self.ppr_weights = ppr_weights
        self.power = power
        self.scarce_below = scarce_below
        self.scarce_weight = scarce_weight
        self.gate = gate
        self.walk = walk
        self.unseen_only = unseen_only
        self.supervised_restart = supervised_restart

    def svm_params(self) -> dict:
        own = LinearSVM._get_param_names()
        return {name: value for name, value in self.get_params().items() if name in own}

    def mixture(self) -> Mixture:
        return mixture_of(self.get_params())

    def fit(self, X, y, sample_weight=None, fitted_members: dict | None = None):
        """The svm fitted on these rows with this estimator's svm parameters: taken from
        ``fitted_members`` when it is there, else fitted."""
        svm = (fitted_members or {}).get("svm")
        if not (isinstance(svm, LinearSVM) and svm.get_params() == self.svm_params()):
            svm = LinearSVM(**self.svm_params()).fit(X, y, sample_weight=sample_weight)
        self.__dict__.update({name: value for name, value in vars(svm).items()
                              if name.endswith("_")})
        return self.with_support(0.0)

    def with_support(self, instances: float) -> "HybridSVM":
        self.support_ = float(instances)
        return self


def mixture_of(params: Mapping) -> Mixture:
    """The ``Mixture`` a hybrid's parameters hold."""
    return Mixture(dict(zip(POS_LETTERS, params.get("ppr_weights") or (0.0,) * 4)),
                   params.get("power", 1.0), params.get("scarce_below", 0),
                   params.get("scarce_weight", 1.0), params.get("gate"),
                   params.get("unseen_only", False))


class HybridScorer:
    """The hybrid's context scorer: ppr's walk over its knowledge graph, and the mixture of its
    distributions with the svm's (``mixed_distributions``). With ``supervised_restart`` the
    walk restarts at each context word's senses by the svm's beliefs about that word
    (``knowledge.supervised_restart``) rather than by WordNet's tag counts."""

    def __init__(self, ppr: PersonalisedPageRank, mixture: Mixture,
                 supervised_restart: bool = False):
        self.ppr = ppr
        self.mixture = mixture
        self.supervised_restart = supervised_restart

    @property
    def graph(self):
        return self.ppr.graph

    @classmethod
    def built(cls, params: Mapping, data_dir: str | os.PathLike | None = None
              ) -> "HybridScorer":
        return cls(PersonalisedPageRank.built(params.get("walk") or {}, data_dir),
                   mixture_of(params), params.get("supervised_restart", False))

    @classmethod
    def from_resources(cls, params: Mapping, arrays: Mapping[str, np.ndarray]
                       ) -> "HybridScorer":
        return cls(PersonalisedPageRank.from_resources(params.get("walk") or {}, arrays),
                   mixture_of(params), params.get("supervised_restart", False))

    def resources(self) -> dict[str, np.ndarray]:
        return self.ppr.resources()

    def distributions(self, corpus: AllWordsCorpus, targets: Sequence[Target] | None = None,
                      jobs: int = 1, progress: bool | None = None,
                      beliefs: Mapping[str, Mapping[str, float] | None] | None = None
                      ) -> dict[str, dict[str, float]]:
        """ppr's distributions (``PersonalisedPageRank.distributions``); with
        ``supervised_restart`` and the svm's ``beliefs`` (by target id), every target's from
        the walk restarting by them."""
        if self.supervised_restart and beliefs is not None:
            walker = SupervisedRestartWalk(self.graph, self.ppr.walker.settings, [beliefs])
            return walker.distribution_sets(corpus, jobs, progress)[0]
        return self.ppr.distributions(corpus, targets, jobs, progress)

    def mixed_distributions(self, targets: Sequence[Target],
                            svm: Mapping[str, Mapping[str, float] | None],
                            ppr: Mapping[str, Mapping[str, float]],
                            support: Mapping[str, float]) -> dict[str, dict[str, float]]:
        """Each target's mixture over its WordNet candidates (``mixed``) of the svm's weights
        (None or missing: no model of its lemma, so WordNet's first sense) and ppr's, by
        target id; ``support``: the svm's training weight of each lexelt it has a model of."""
        if not targets:
            return {}
        keys = [wordnet_senses(target.lemma, target.pos) for target in targets]
        svm_rows, ppr_rows = (np.zeros((len(targets), max(map(len, keys)))) for _ in range(2))
        for number, (target, candidates) in enumerate(zip(targets, keys)):
            own = svm.get(target.id) or {}
            weights = np.array([own.get(key, 0.0) for key in candidates])
            if weights.sum() > 0:
                svm_rows[number, :len(candidates)] = weights / weights.sum()
            else:
                svm_rows[number, 0] = 1.0
            ppr_rows[number, :len(candidates)] = [ppr[target.id][key] for key in candidates]
        rows = self.mixture.mix(svm_rows, ppr_rows, np.array([target.pos for target in targets]),
                                np.array([support.get(target.lexelt, 0.0) for target in targets]))
        return {target.id: dict(zip(candidates, row[:len(candidates)].tolist()))
                for target, candidates, row in zip(targets, keys, rows)}
