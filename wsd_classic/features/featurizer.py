"""The one featurizer: settings in (a context rule and feature groups), feature rows out.

Every path to a classifier goes through it: training contexts, ``--senseval`` and ``--raganato``
files, plain text and the spaCy component. Its settings are stored in each model's header and a
tagger rebuilds it from there (``from_settings``), so a model is always applied with the context
rule it was trained with.
"""
from __future__ import annotations

import bisect
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from wsd_classic.errors import WsdError
from wsd_classic.features import ALL_GROUPS, EXTRACTORS, check_groups
from wsd_classic.preprocess.document import ProcessedInstance

# The shape of SENSEVAL-2's lexical-sample contexts: the target's sentence and the sentences
# before it, about 100 words before the target (median).
GIVEN_TOKENS_BEFORE = 120


@dataclass(frozen=True)
class ContextRule:
    """The tokens around a target that context-wide features (bag of words) read.

    ``sentences`` None: the context a lexical-sample instance comes with; in running text, which
    gives none, the target's sentence and the whole sentences before it that start within
    ``tokens_before`` tokens of it (what SENSEVAL-2's contexts hold). ``sentences`` n: the
    target's sentence and up to n sentences on each side within its document.
    Collocations, parts of speech and syntax stay within the target's sentence under every rule.
    """

    sentences: int | None = None
    tokens_before: int = GIVEN_TOKENS_BEFORE

    def span(self, token):
        """The context of the target ``token`` in its spaCy ``Doc``, as a ``Span``."""
        sentences = list(token.doc.sents)
        starts = [sentence.start for sentence in sentences]
        return self.window(sentences, sentence_index(starts, token.i), token.i)

    def window(self, sentences: Sequence, index: int, target: int):
        """The context of the token ``target`` of sentence ``index`` of a doc's ``sentences``
        (its ``Span``s, in order): a ``Span`` of whole sentences."""
        first = last = index
        if self.sentences is None:
            while first > 0 and target - sentences[first - 1].start <= self.tokens_before:
                first -= 1
        else:
            first = max(0, index - self.sentences)
            last = min(len(sentences) - 1, index + self.sentences)
        return sentences[index].doc[sentences[first].start:sentences[last].end]


def sentence_index(starts: Sequence[int], token: int) -> int:
    """Which of a doc's sentences, given by their first tokens' indices, holds token ``token``."""
    return bisect.bisect_right(starts, token) - 1


class Featurizer:
    """Feature names of processed contexts, by group (``features.EXTRACTORS``)."""

    def __init__(self, context: ContextRule = ContextRule(), groups: Sequence[str] = ALL_GROUPS):
        self.context = context
        self.groups = check_groups(groups)

    def settings(self) -> dict:
        return {"context": asdict(self.context), "groups": list(self.groups)}

    @classmethod
    def from_settings(cls, settings: dict) -> "Featurizer":
        try:
            return cls(ContextRule(**settings["context"]), settings["groups"])
        except (KeyError, TypeError) as error:
            raise WsdError(f"unreadable featurizer settings {settings!r} ({error}): retrain")

    def by_group(self, doc: ProcessedInstance, interned: bool = False) -> dict[str, list[str]]:
        """``{group: names}``; ``interned`` for a corpus's table, where the same few hundred
        thousand names recur across hundreds of thousands of targets."""
        if interned:
            return {group: [sys.intern(name) if isinstance(name, str) else name
                            for name in EXTRACTORS[group](doc)]
                    for group in self.groups}
        return {group: EXTRACTORS[group](doc) for group in self.groups}

    def table(self, docs: Iterable[ProcessedInstance]) -> dict[str, dict[str, list[str]]]:
        return {doc.id: self.by_group(doc, interned=True) for doc in docs}


def row(features: dict[str, list[str]], groups: Sequence[str]) -> list[str]:
    """The names of ``groups`` in group order, without repeats."""
    return list(dict.fromkeys(name for group in groups for name in features[group]))
