"""All-words corpora as sentences of words and the targets to disambiguate in them.

SemCor (training) and Raganato-format datasets (evaluation) come to this one form, so the same
preprocessing, features and systems serve both. A target's lexelt is ``lemma.pos`` with WordNet's
part-of-speech letters (``bank.n``, ``take_place.v``; adjective satellites count as ``a``), the
lemma spelt as in sense keys (lower case, words joined by ``_``), so training and test targets
meet by lexelt.
"""
from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass

from wsd_classic import wordnet
from wsd_classic.corpora.raganato import iter_raganato
from wsd_classic.corpora.semcor import PARTS, read_semcor
from wsd_classic.errors import WsdError
from wsd_classic.systems.first_sense import base_form, wordnet_senses

# The synset-type digit of a sense key (``jury%1:14:00::``) and of WordNet's POS letter.
KEY_POS = {"1": "n", "2": "v", "3": "a", "4": "r", "5": "a"}
UNIVERSAL_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


@dataclass(frozen=True)
class Sentence:
    """A sentence as the corpus tokenizes it: one word per corpus token (``took_place`` is one)."""

    id: str
    document: str
    words: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """A word to disambiguate: ``sentence`` indexes the corpus's sentences, ``token`` its words.

    ``keys`` are the gold sense keys (training data only).
    """

    id: str
    lemma: str
    pos: str
    sentence: int
    token: int
    keys: tuple[str, ...] = ()

    @property
    def lexelt(self) -> str:
        return f"{self.lemma}.{self.pos}"


@dataclass
class AllWordsCorpus:
    """``targets`` in corpus order (by sentence, then token); ``unknown_keys`` counts the gold
    keys left out because WordNet 3.0 does not have them."""

    source: str
    sentences: list[Sentence]
    targets: list[Target]
    unknown_keys: int = 0

    def sentence_text(self, index: int) -> str:
        return " ".join(self.sentences[index].words)


def key_lexelt(key: str) -> tuple[str, str]:
    """``(lemma, pos)`` of a sense key: ``take_place%2:30:00::`` -> ``("take_place", "v")``."""
    lemma, _, lexical_id = key.partition("%")
    return lemma, KEY_POS[lexical_id[0]]


def read_semcor_corpus(root: str | os.PathLike, parts: Iterable[str] = PARTS) -> AllWordsCorpus:
    """SemCor's sentences and its sense-tagged words as training targets.

    Keys are lower-cased as WordNet spells them; keys WordNet 3.0 lacks (SemCor's ``wnsn=0``
    senses of WordNet 1.6) are left out and counted. A word tagged with several senses keeps
    those of the lemma and part of speech of its first known key.
    """
    sentences, targets, unknown = [], [], 0
    for sentence in read_semcor(root, parts):
        index = len(sentences)
        sentence_id = f"{sentence.part}/{sentence.document}.s{sentence.number}"
        sentences.append(Sentence(sentence_id, f"{sentence.part}/{sentence.document}",
                                  tuple(token.text for token in sentence.tokens)))
        for position, token in enumerate(sentence.tokens):
            keys = [key.lower() for key in token.sense_keys]
            known = [key for key in keys if wordnet.lemma_of_key(key) is not None]
            unknown += len(keys) - len(known)
            if not known:
                continue
            lemma, pos = key_lexelt(known[0])
            targets.append(Target(
                f"{sentence_id}.t{position}", lemma, pos, index, position,
                tuple(dict.fromkeys(key for key in known if key_lexelt(key) == (lemma, pos)))))
    return AllWordsCorpus(str(root), sentences, targets, unknown)


def read_raganato_corpus(path: str | os.PathLike) -> AllWordsCorpus:
    """The sentences and ``<instance>`` targets of a Raganato-format ``*.data.xml`` file.

    Raises ``WsdError`` for a target whose part of speech is not one WordNet has, or whose lemma
    (nor its base form) WordNet 3.0 does not have for that part of speech: such a target has no
    candidate sense to choose.
    """
    sentences, targets = [], []
    for sentence in iter_raganato(path):
        index = len(sentences)
        sentences.append(Sentence(sentence.id, sentence.document_id,
                                  tuple(token.text for token in sentence.tokens)))
        for position, token in enumerate(sentence.tokens):
            if token.instance_id is None:
                continue
            pos = UNIVERSAL_POS.get(token.pos)
            if pos is None:
                raise WsdError(f"instance {token.instance_id}: part of speech {token.pos!r} is "
                               f"none of {', '.join(UNIVERSAL_POS)}", path)
            lemma = _wordnet_lemma(token.lemma, pos)
            if lemma is None:
                raise WsdError(f"instance {token.instance_id}: WordNet 3.0 has no "
                               f"{token.pos.lower()} {token.lemma!r}, so no sense to choose from",
                               path)
            targets.append(Target(token.instance_id, lemma, pos, index, position))
    return AllWordsCorpus(str(path), sentences, targets)


def _wordnet_lemma(lemma: str, pos: str) -> str | None:
    """``lemma`` as WordNet spells it, or its base form when only that is in WordNet."""
    spelt = "_".join(lemma.lower().split())
    if wordnet_senses(spelt, pos):
        return spelt
    base = base_form(spelt, pos)
    return base if base is not None and wordnet_senses(base, pos) else None
