"""The one system registry: every system by the name the command line and the model files use.

A system is an estimator fitted per lexelt (scikit-learn conventions, ``systems.base``) with its
registered parameters, and the back-off that answers a target whose lemma it never saw: a
distribution over the target's candidates, in WordNet's order. ``wn1`` fits nothing: its answer
is the back-off. Tasks override parameters (``tasks.catalogue``); a model file records the
system's name and the parameters it was fitted with, so loading needs no hint.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from wsd_classic import tuned
from wsd_classic.errors import WsdError
from wsd_classic.systems.base import SenseClassifier
from wsd_classic.systems.combination import Combination
from wsd_classic.systems.commonest import Commonest
from wsd_classic.systems.dlist import DecisionList
from wsd_classic.systems.first_sense import database_first_sense, first_sense
from wsd_classic.systems.hybrid import HybridScorer, HybridSVM
from wsd_classic.systems.lesk import Lesk
from wsd_classic.systems.personalised_pagerank import PersonalisedPageRank
from wsd_classic.systems.sense_ranking import SenseRanker
from wsd_classic.systems.svm import LinearSVM

BackOff = Callable[[Sequence[str]], dict[str, float]]


@dataclass(frozen=True)
class System:
    """``estimator`` (None: nothing to fit per lexelt) made with ``params``; ``back_off`` for
    unseen lemmas; ``needs_wordnet_keys``: it reads WordNet glosses, so corpora with other sense
    ids skip it; ``scorer``: a context scorer (``ppr``) that answers every target of an
    all-words corpus at once from its context, with no estimator."""

    name: str
    estimator: type[SenseClassifier] | None
    params: dict = field(default_factory=dict)
    back_off: BackOff = first_sense
    needs_wordnet_keys: bool = False
    scorer: type[PersonalisedPageRank] | type[HybridScorer] | None = None

    @property
    def has_model_file(self) -> bool:
        """Whether it tags from a model file ``bin/train`` writes (all but ``wn1``)."""
        return self.estimator is not None or self.scorer is not None

    @property
    def feature_groups(self) -> tuple[str, ...]:
        return self.estimator.feature_groups if self.estimator else ()

    def make(self, **overrides) -> SenseClassifier:
        """The estimator with these parameters; a system made of others (``member_systems``) is
        handed its members' registered parameters too, when it takes them (``member_defaults``:
        the hybrid's svm parameters are its own)."""
        if self.estimator is None:
            raise WsdError(f"the {self.name} system has nothing to fit")
        params = {**self.params, **overrides}
        if "member_defaults" in self.estimator._get_param_names():
            params.setdefault("member_defaults", {
                name: get(name).params for name in self.estimator.member_systems})
        return self.estimator(**params)


# Parameters: 5-fold CV on SENSEVAL-2 training, registered in ``wsd_classic/tuned/systems.json``
# with their evidence; tasks override them where their own studies chose otherwise.
SYSTEMS: dict[str, System] = {system.name: system for system in (
    System("commonest", Commonest),
    # The published SemCor MFS baseline knows SemCor's counts only, so its back-off for a lemma
    # SemCor never tagged uses no frequency (docs/choices.md)
    System("mfs", Commonest, back_off=database_first_sense),
    System("wn1", None),
    System("lesk", Lesk, {"use_corpus": False}, needs_wordnet_keys=True),
    System("lesk-corpus", Lesk, {"use_corpus": True}, needs_wordnet_keys=True),
    System("dlist", DecisionList, tuned.value("systems", "dlist")),
    System("svm", LinearSVM, tuned.value("systems", "svm")),
    System("combo", Combination, tuned.value("systems", "combo")),
    # Without coefficients the ranker answers as its svm member; tasks give the coefficients
    # their own held-out data chose (tasks.catalogue).
    System("rank", SenseRanker, needs_wordnet_keys=True),
    # Knowledge-based: personalised PageRank word by word over WordNet and SyntagNet; its
    # settings are the all-words task's (tasks.catalogue)
    System("ppr", None, needs_wordnet_keys=True, scorer=PersonalisedPageRank),
    # The svm and ppr mixed per target: the svm's models and ppr's graph in one model file; the
    # mixture is the all-words task's (tasks.catalogue)
    System("hybrid", HybridSVM, needs_wordnet_keys=True, scorer=HybridScorer),
)}


def check_systems(names: Iterable[str], known: Iterable[str] | None = None,
                  task: str | None = None) -> list[str]:
    """``names`` if each is a registered system (and one of ``known``, task ``task``'s)."""
    names = list(names)
    known = list(SYSTEMS if known is None else known)
    unknown = [name for name in names if name not in known]
    if unknown:
        where = f" for task {task}" if task else ""
        raise WsdError(f"unknown system {', '.join(unknown)}{where}; known: {', '.join(known)}")
    return names


def reads_walks(params: Mapping) -> bool:
    """Whether a system made with ``params`` reads ppr's walks over a lexical sample's contexts
    (combo's ``ppr`` component): the ``ppr`` group, which whoever featurizes its contexts fills
    from the walk its model keeps (``tasks.engine.add_walk_evidence``)."""
    return bool(params.get("ppr"))


def get(name: str) -> System:
    return SYSTEMS[check_systems([name])[0]]


def make(name: str, **overrides) -> SenseClassifier:
    return get(name).make(**overrides)
