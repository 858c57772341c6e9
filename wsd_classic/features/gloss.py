"""Gloss evidence: how close the context is to each candidate sense's WordNet signature.

A supervised Lesk feature: for every WordNet 3.0 sense of the target's lexelt (its lemma and part
of speech, and, for a phrasal verb, of the lemma joined to its particles: ``call_for``), a
signature of stems from the sense's synset (words, definition, examples) and from the words and
definitions of the synsets its ``RELATED`` pointers reach, the target's own words left out.
Each signature is a tf-idf vector, the idf taken over the lexelt's candidates (a stem every
candidate shares tells none apart), of unit length; the context's distinct content stems form a
0/1 vector of unit length, and the feature ``gloss=<sense key>`` is their cosine times
``SCALE``. Senses the training data never shows get a value too, which is the evidence counting
cannot give them.

The svm adds these values unscaled beside its unit-length binary rows, so ``SCALE`` sets how
much they weigh; it and ``RELATED`` were chosen by cross-validation on the SENSEVAL-2 training
data (``bench/tune_gloss.py``, ``bench/results/tune_gloss.json``). Signatures are read from
WordNet's data files directly (``wordnet.synset_at``) and cached per lexelt: tagging meets the
same lexelts again and again.
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from wsd_classic import tuned, wordnet
from wsd_classic.features.text import STOP_WORDS, stem
from wsd_classic.features.weighted import Weighted
from wsd_classic.preprocess.document import ProcessedInstance

PREFIX = "gloss="
# The related synsets' pointers (wninput(5WN) symbols) and the group's scale: CV on SENSEVAL-2
# training, in ``wsd_classic/tuned/features.json``.
RELATED = tuned.value("features", "gloss")["related"]
SCALE = tuned.value("features", "gloss")["scale"]
WORD = re.compile(r"[a-z][a-z'-]*")
SIGNATURE_CACHE = 1 << 14  # lexelts: more than SemCor's polysemous ones (11,568)
# Senses: one lexelt's, read three times in a row (its signatures, then each source's gloss
# embeddings), with room to spare.
SIGNATURE_WORDS_CACHE = 1 << 10


def text_stems(text: str) -> list[str]:
    """Stems of the words of ``text`` that are not stop words (WordNet's ``_`` joins words)."""
    return [stem(word) for word in text_words(text)]


def text_words(text: str) -> list[str]:
    """The words of ``text`` that are not stop words, lower-cased (WordNet's ``_`` joins
    words)."""
    return [word for word in WORD.findall(text.lower().replace("_", " "))
            if word not in STOP_WORDS]


# Senses: the gloss group's signatures and the emb group's gloss embeddings both read every
# candidate's, each the first time tagging meets its lexelt.
@functools.lru_cache(maxsize=1 << 16)
def signature_text(key: str, related: tuple[str, ...] = RELATED) -> str:
    """A sense's signature: its synset's words, definition and examples, and the words and
    definitions of the synsets its ``related`` pointers reach (empty for a key WordNet 3.0
    lacks)."""
    location = wordnet.synset_location(key)
    if location is None:
        return ""
    synset = wordnet.synset_at(*location)
    texts = [*synset.words, synset.definition, *synset.examples]
    for symbol, pos, offset in synset.pointers:
        if symbol in related:
            neighbour = wordnet.synset_at(pos, offset)
            texts += [*neighbour.words, neighbour.definition]
    return " ".join(texts)


@functools.lru_cache(maxsize=SIGNATURE_WORDS_CACHE)
def signature_words(key: str, related: tuple[str, ...] = RELATED) -> tuple[str, ...]:
    """The words of a sense's signature that are not stop words (``text_words``): a lexelt's
    signatures and each source's gloss embeddings read them in turn."""
    return tuple(text_words(signature_text(key, related)))


def sense_text(key: str, related: tuple[str, ...]) -> list[str]:
    """The stems of a sense's signature."""
    return [stem(word) for word in signature_words(key, related)]


@dataclass(frozen=True)
class Signatures:
    """The candidates of a lexelt: feature ``names`` (one per sense key, in WordNet's order), the
    stems' ``columns`` and the unit-length tf-idf signatures (senses x stems)."""

    keys: tuple[str, ...]
    names: tuple[str, ...]
    columns: dict[str, int]
    vectors: np.ndarray

    def similarities(self, stems: set[str]) -> np.ndarray:
        """The cosine of each signature with the 0/1 vector of ``stems``, summed in sorted order:
        a set's order follows Python's per-process string hash, and a sum's last bits follow
        its order."""
        found = [self.columns[item] for item in sorted(stems) if item in self.columns]
        if not found:
            return np.zeros(len(self.keys))
        return self.vectors[:, found].sum(axis=1) / np.sqrt(len(stems))


def candidate_keys(lexelt: str, particles: Sequence[str] = ()) -> tuple[str, ...]:
    """The WordNet 3.0 senses of ``lemma.pos`` (and of the lemma joined to its particles)."""
    lemma, _, pos = lexelt.rpartition(".")
    if pos not in wordnet.DATA_FILES or not lemma:
        return ()
    lemmas = [lemma, *(f"{lemma}_{particle}" for particle in particles)]
    if len(particles) > 1:
        lemmas.append("_".join([lemma, *particles]))
    return tuple(dict.fromkeys(key for name in lemmas for key in wordnet.wordnet_senses(name, pos)))


@functools.lru_cache(maxsize=SIGNATURE_CACHE)
def signatures(lexelt: str, particles: tuple[str, ...] = (),
               related: tuple[str, ...] = RELATED) -> Signatures | None:
    """The signatures of the lexelt's candidates; None when WordNet 3.0 has no sense for it."""
    keys = candidate_keys(lexelt, particles)
    if not keys:
        return None
    # The target's own words are in most signatures and never in its context.
    own = set(text_stems(" ".join([lexelt.rpartition(".")[0], *particles])))
    counts = [Counter(item for item in sense_text(key, related) if item not in own)
              for key in keys]
    columns = {item: column for column, item in enumerate(sorted(set().union(*counts)))}
    vectors = np.zeros((len(keys), len(columns)))
    for row, count in enumerate(counts):
        vectors[row, [columns[item] for item in count]] = list(count.values())
    document_frequency = (vectors > 0).sum(axis=0)
    vectors *= np.log1p(len(keys) / np.maximum(document_frequency, 1))
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors /= np.where(norms > 0, norms, 1)
    return Signatures(keys, tuple(PREFIX + key for key in keys), columns, vectors)


def context_stems(doc: ProcessedInstance) -> set[str]:
    return {stem(lemma.lower()) for lemma in doc.content_lemmas}


def target_particles(doc: ProcessedInstance) -> tuple[str, ...]:
    return tuple(doc.lemmas[index].lower() for index in doc.sats)


def similarities(doc: ProcessedInstance, related: tuple[str, ...] = RELATED):
    """``(Signatures, cosines)`` of the instance's candidates, or None when it has none."""
    table = signatures(doc.lexelt, target_particles(doc), related)
    if table is None:
        return None
    return table, table.similarities(context_stems(doc))


def gloss_evidence(doc: ProcessedInstance) -> list[Weighted]:
    """One ``Weighted`` block, ``gloss=<sense key>`` per candidate (none without candidates)."""
    found = similarities(doc)
    if found is None:
        return []
    table, values = found
    return [Weighted(table.names, SCALE * values)]
