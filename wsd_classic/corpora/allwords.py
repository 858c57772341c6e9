"""All-words corpora as sentences of words and the targets to disambiguate in them.

SemCor (training) and Raganato-format datasets (evaluation) come to this one form, so the same
preprocessing, features and systems serve both. A target's lexelt is ``lemma.pos`` with WordNet's
part-of-speech letters (``bank.n``, ``take_place.v``; adjective satellites count as ``a``), the
lemma spelt as in sense keys (lower case, words joined by ``_``), so training and test targets
meet by lexelt.
"""
from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import chain

from wsd_classic import wordnet
from wsd_classic.corpora.raganato import iter_raganato
from wsd_classic.corpora.semcor import PARTS, read_semcor
from wsd_classic.errors import WsdError
from wsd_classic.pos import KEY_POS, POS_NAMES, UNIVERSAL_POS
from wsd_classic.wordnet import morphy, wordnet_senses

# The parts of speech to look a lemma up under after its own (``_pos_preference``).
_POS_NEIGHBOURS = {"n": "nvar", "v": "vnar", "a": "arnv", "r": "ranv"}
# Tags outside the universal four that still name a WordNet part of speech (two-letter keys are
# Penn Treebank tag prefixes: NN, NNS, NNP, VBD, JJR, RBS, ...).
_OTHER_TAGS = {"PROPN": "n", "PRT": "r", "NN": "n", "VB": "v", "JJ": "a", "RB": "r"}
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u2018": "'", "`": "'", "\u00b4": "'",
                              "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-"})
MAX_RETAGGED_SHOWN = 3


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
            known = [key for key in keys if wordnet.knows_key(key)]
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

    A target's candidates are the WordNet 3.0 senses of its lemma for its part of speech, the
    lemma found under the first of its ``_spellings`` (and then their base forms) that WordNet
    has. A target tagged with none of ``UNIVERSAL_POS``, or whose lemma WordNet lacks for its
    tag, takes the senses of another part of speech WordNet has it under (``_pos_preference``),
    and one warning line on stderr sums those targets up. Raises ``WsdError`` for a target
    WordNet has no sense for in any of these ways: it has no candidate to choose.
    """
    sentences, targets, retagged = [], [], []
    for sentence in iter_raganato(path):
        index = len(sentences)
        sentences.append(Sentence(sentence.id, sentence.document_id,
                                  tuple(token.text for token in sentence.tokens)))
        for position, token in enumerate(sentence.tokens):
            if token.instance_id is None:
                continue
            entry = _wordnet_entry(token.lemma, token.pos)
            if entry is None:
                raise WsdError(f"instance {token.instance_id}: WordNet 3.0 has no "
                               f"{_described(token.lemma, token.pos)}, nor any other part of "
                               "speech, spelling or base form of it, so no sense to choose from",
                               path, token.line)
            lemma, pos = entry
            if UNIVERSAL_POS.get(token.pos) != pos:
                retagged.append(f"{token.instance_id} ({token.lemma!r} {token.pos} -> "
                                f"{POS_NAMES[pos]})")
            targets.append(Target(token.instance_id, lemma, pos, index, position))
    if retagged:
        shown = ", ".join(retagged[:MAX_RETAGGED_SHOWN])
        more = f" and {len(retagged) - MAX_RETAGGED_SHOWN} more" \
            if len(retagged) > MAX_RETAGGED_SHOWN else ""
        print(f"warning: {os.fspath(path)}: {len(retagged)} instance(s) take the senses of "
              f"another part of speech, their tag being none of {', '.join(UNIVERSAL_POS)} or "
              f"one WordNet 3.0 lacks their lemma under: {shown}{more}", file=sys.stderr)
    return AllWordsCorpus(str(path), sentences, targets)


def _wordnet_entry(lemma: str, tag: str) -> tuple[str, str] | None:
    """``(lemma, pos)`` as WordNet spells them for a corpus lemma and tag, None if WordNet has no
    sense for it: the lemma under the preferred part of speech, then under the next."""
    for pos in _pos_preference(tag):
        form = wordnet_lemma(lemma, pos)
        if form is not None:
            return form, pos
    return None


@functools.lru_cache(maxsize=1 << 16)
def wordnet_lemma(lemma: str, pos: str) -> str | None:
    """The lemma as WordNet spells it as a ``pos`` (``n``, ``v``, ``a``, ``r``), None if WordNet
    has no sense of it as one: every spelling, then their base forms."""
    spellings = _spellings(lemma)
    for form in chain(spellings, (morphy(spelling, pos) for spelling in spellings)):
        # WordNet matches case-insensitively, and sense keys spell lemmas in lower case.
        if form is not None and wordnet_senses(form, pos):
            return form.lower()
    return None


def _spellings(lemma: str) -> tuple[str, ...]:
    """The spellings of a corpus lemma to look up in WordNet, most faithful first.

    Lower case with words joined by ``_`` as WordNet writes them; then the word separators
    ``-`` and ``_`` traded for one another or dropped (``e_mail``, ``email``); then a split
    clitic rejoined (``valentine_'s_day``) and a missing abbreviation dot (``dr``). A multiword
    lemma stays whole: a component word is a different word, not a spelling of it.
    """
    joined = "_".join(lemma.translate(_TYPOGRAPHIC).lower().split())
    separators = (joined, re.sub("[-_]", "_", joined), re.sub("[-_]", "-", joined),
                  joined.replace("-", ""), re.sub("[-_]", "", joined))
    marks = (variant for spelling in separators
             for variant in (spelling.replace("_'", "'"), spelling + "."))
    return tuple(dict.fromkeys(spelling for spelling in (*separators, *marks) if spelling))


def _pos_preference(tag: str) -> str:
    """WordNet's parts of speech in the order to look a lemma up under for a corpus tag.

    The tag's own first; for a tag that is none of ``UNIVERSAL_POS``, the part of speech it
    names in other spellings (``noun``, Penn's ``NNS``, ``PROPN``), nouns when it names none.
    The others follow in the order corpora confuse them: nouns with verbs, adjectives with
    adverbs, nouns with adjectives (``english``).
    """
    upper = tag.upper()
    return _POS_NEIGHBOURS[UNIVERSAL_POS.get(upper) or _OTHER_TAGS.get(upper)
                           or _OTHER_TAGS.get(upper[:2], "n")]


def _described(lemma: str, tag: str) -> str:
    """``noun 'qwzx'``, or ``'qwzx' tagged 'X'`` for a tag outside ``UNIVERSAL_POS``."""
    pos = UNIVERSAL_POS.get(tag)
    return f"{POS_NAMES[pos]} {lemma!r}" if pos else f"{lemma!r} tagged {tag!r}"
