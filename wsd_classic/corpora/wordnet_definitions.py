"""WordNet's definitions as sense-tagged training targets for the all-words systems.

A synset's definition (``"sloping land (especially the slope beside a body of water)"``) says
what its sense is about, but does not use the lemma, so each becomes the sentence
``<lemma> : <definition>`` whose first word, the lemma (SemCor's spelling, ``take_place``), is
the target tagged with the lemma's key for the synset. The separator is a colon rather than a
verb such as ``means`` because the words around the target are then the same for every sense
and every part of speech: collocations, the POS window and syntax learn nothing false from them
(``bank means ...`` would make a verb's lemma a noun subject), while the bag of words, the
``emb`` and ``gloss`` groups read the definition. Every WordNet sense of the lexelt is read,
those SemCor never tagged included.
"""
from __future__ import annotations

from collections.abc import Iterable

from wsd_classic import wordnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target
from wsd_classic.corpora.wordnet_examples import WORD
from wsd_classic.wordnet import wordnet_senses

SOURCE = "WordNet 3.0 definitions"
DOCUMENT = "wordnet-definitions"
SEPARATOR = ":"


def read_wordnet_definitions(lexelts: Iterable[str]) -> AllWordsCorpus:
    """A corpus of one ``<lemma> : <definition>`` sentence per WordNet sense of each lexelt
    (``lemma.pos``), the lemma its target."""
    sentences: list[Sentence] = []
    targets: list[Target] = []
    for lexelt in sorted(set(lexelts)):
        lemma, pos = lexelt.rsplit(".", 1)
        for key in wordnet_senses(lemma, pos):
            definition = wordnet.gloss(key)
            if not definition:
                continue
            sentences.append(Sentence(f"{DOCUMENT}.s{len(sentences):06d}", DOCUMENT,
                                      (lemma, SEPARATOR, *WORD.findall(definition))))
            targets.append(Target(f"{DOCUMENT}.t{len(targets):06d}", lemma, pos,
                                  len(sentences) - 1, 0, (key,)))
    return AllWordsCorpus(SOURCE, sentences, targets)
