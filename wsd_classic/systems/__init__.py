"""The five systems, by the names the command line and the model files use."""
from __future__ import annotations

from wsd_classic.errors import WsdError
from wsd_classic.systems.base import SenseClassifier
from wsd_classic.systems.commonest import Commonest
from wsd_classic.systems.dlist import DecisionList
from wsd_classic.systems.lesk import Lesk
from wsd_classic.systems.svm import LinearSVM

# name -> (estimator class, constructor parameters). The parameters were chosen by
# cross-validation on the SENSEVAL-2 training data only (bench/tune.py; see README).
SYSTEMS: dict[str, tuple[type[SenseClassifier], dict]] = {
    "commonest": (Commonest, {}),
    "lesk": (Lesk, {"use_corpus": False}),
    "lesk-corpus": (Lesk, {"use_corpus": True}),
    "dlist": (DecisionList, {"alpha": 4.0, "min_count": 2}),
    "svm": (LinearSVM, {"C": 10.0}),
}
# Systems that read WordNet glosses: skipped on corpora whose sense ids are not WordNet keys.
NEEDS_WORDNET_KEYS = frozenset({"lesk", "lesk-corpus"})


def check_systems(names) -> list[str]:
    names = list(names)
    unknown = [name for name in names if name not in SYSTEMS]
    if unknown:
        raise WsdError(f"unknown system {', '.join(unknown)}; known: {', '.join(SYSTEMS)}")
    return names


def make(name: str, **overrides) -> SenseClassifier:
    estimator, params = SYSTEMS[check_systems([name])[0]]
    return estimator(**{**params, **overrides})
