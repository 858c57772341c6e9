"""SemCor's instances of a sense's other words as training targets of a lexelt (Leacock et al.
1998, Mihalcea & Moldovan 1999: instances of sense relatives).

A SemCor word tagged with synset S for lemma B is an instance of S in context; where another
lemma A also has a sense in S, the same occurrence, re-tagged with A's key for S, is evidence for
that sense of A. Per lexelt and sense, at most ``cap`` such instances are taken, fewer by the
instances SemCor already has of the sense for the lexelt itself, so that they go to the senses
a lemma has few or none of; they are spread evenly over the corpus. A lexelt whose SemCor
instances show one sense thus meets others and gets a classifier.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from wsd_classic import wordnet
from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.wordnet import wordnet_senses

SOURCE = "SemCor 3.0 instances of sense relatives"
PREFIX = "sense-relatives"


@dataclass(frozen=True)
class RelativesRule:
    """At most ``cap`` relatives' instances per lexelt and sense (less its own SemCor
    instances of the sense), each of training weight ``weight``, for the lexelts with at least
    ``least_instances`` training instances of their own (0: every lexelt)."""

    cap: int = 5
    weight: float = 1.0
    least_instances: int = 0


def read_sense_relatives(corpus: AllWordsCorpus, lexelts: Iterable[str],
                         cap: int) -> AllWordsCorpus:
    """The instances of the senses of ``lexelts`` with two WordNet senses or more that
    ``corpus`` tags on other lemmas, as targets of those lexelts (sharing ``corpus``'s
    sentences, so its analyses serve them), sorted by lexelt and key."""
    own: dict[str, Counter] = defaultdict(Counter)
    for target in corpus.targets:
        own[target.lexelt].update(target.keys)
    senses_at = defaultdict(list)  # a synset's (pos, offset): the lexelts' keys in it
    for lexelt in sorted(set(lexelts)):
        keys = wordnet_senses(*lexelt.rsplit(".", 1))
        if len(keys) < 2:  # a monosemous lemma has nothing to learn
            continue
        for key in keys:
            senses_at[wordnet.synset_location(key)].append((lexelt, key))
    occurrences = defaultdict(list)  # (lexelt, key): the corpus's targets of the key's synset
    for target in corpus.targets:
        if len(target.keys) != 1:  # an ambiguous tag is no clear instance of one synset
            continue
        for lexelt, key in senses_at.get(wordnet.synset_location(target.keys[0]), ()):
            if lexelt != target.lexelt:
                occurrences[lexelt, key].append(target)
    targets = []
    for (lexelt, key), found in sorted(occurrences.items()):
        wanted = min(len(found), cap - own[lexelt][key])
        lemma, pos = lexelt.rsplit(".", 1)
        for index in range(max(wanted, 0)):
            relative = found[index * len(found) // wanted]
            targets.append(Target(f"{PREFIX}.t{len(targets):06d}", lemma, pos,
                                  relative.sentence, relative.token, (key,)))
    return AllWordsCorpus(SOURCE, corpus.sentences, targets)
