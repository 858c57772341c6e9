"""The judged meanings as WordNet 3.0 synsets, and what a meaning's text is compared with.

``judged_meaning`` is a WordNet 3.0 definition: it names the synset of the homonym whose
definition it is (``meaning_synset``); a definition no synset of the homonym has exactly gets the
synset whose definition shares the most words with it.
"""
from __future__ import annotations

import functools
from collections import defaultdict

from wsd_classic import wordnet
from wsd_classic.benchmarks.ambistory.text import content_words, stems


def _normalised(text: str) -> str:
    """A definition as compared: case, spacing, final dot and WordNet's `quotes' aside."""
    text = text.lower().replace("`", "'").replace(";", " ; ")
    return " ".join(text.split()).strip(" .")


@functools.lru_cache(maxsize=1)
def _synsets_by_definition() -> dict[str, list]:
    index: dict[str, list] = defaultdict(list)
    for synset in wordnet.wordnet().all_synsets():
        index[_normalised(synset.definition())].append(synset)
    return index


@functools.lru_cache(maxsize=None)
def homonym_synsets(homonym: str) -> tuple:
    """The homonym's synsets, all parts of speech, in WordNet's order."""
    return tuple(wordnet.wordnet().synsets("_".join(homonym.lower().split())))


@functools.lru_cache(maxsize=None)
def meaning_synset(homonym: str, definition: str):
    """``(synset, how)``: ``how`` is ``exact`` (one synset of the homonym has this definition),
    ``first of several`` (several have it: the first in WordNet's order), ``another word's``
    (none has it, but a synset of another word has: the dataset names a relative of that word,
    ``foundational`` for ``foundation``; the first such synset), ``closest`` (no synset has it:
    the homonym's whose definition shares most content words with it) or ``none`` (nothing
    matches and the homonym has no synset)."""
    synsets = homonym_synsets(homonym)
    wanted = _normalised(definition)
    exact = [synset for synset in synsets if _normalised(synset.definition()) == wanted]
    if exact:
        return exact[0], "exact" if len(exact) == 1 else "first of several"
    elsewhere = _synsets_by_definition().get(wanted)
    if elsewhere:
        return elsewhere[0], "another word's"
    if not synsets:
        return None, "none"
    words = content_words(definition)

    def overlap(synset) -> float:
        other = content_words(synset.definition())
        return len(words & other) / max(1, len(words | other))

    return max(synsets, key=overlap), "closest"


def target_lemma(homonym: str, synset) -> tuple[str, str]:
    """The lemma (as WordNet spells it) and part of speech of the homonym in ``synset``."""
    pos = "a" if synset.pos() == "s" else synset.pos()
    spelt = "_".join(homonym.lower().split())
    forms = {spelt, *(wordnet.wordnet()._morphy(spelt, synset.pos()) or ())}
    for lemma in synset.lemmas():
        if lemma.name().lower() in forms:
            return lemma.name().lower(), pos
    return synset.lemmas()[0].name().lower(), pos


def related_synsets(synset) -> list:
    """The synsets one WordNet relation away, derivational relations of its lemmas included."""
    relations = ("hypernyms", "instance_hypernyms", "hyponyms", "instance_hyponyms",
                 "member_holonyms", "part_holonyms", "substance_holonyms", "member_meronyms",
                 "part_meronyms", "substance_meronyms", "similar_tos", "also_sees", "attributes",
                 "entailments", "causes", "verb_groups", "topic_domains", "usage_domains")
    related = {other for relation in relations for other in getattr(synset, relation)()}
    related |= {form.synset() for lemma in synset.lemmas()
                for form in lemma.derivationally_related_forms()}
    # In name order: NLTK keeps a synset's pointers in sets, whose order changes with Python's
    # per-process hash salt, and so would the sums over the related synsets' words.
    return sorted(related, key=lambda other: other.name())


def signatures(synset, example_sentence: str) -> dict[str, list[str]]:
    """The stems each similarity feature compares a story with."""
    if synset is None:
        return {"definition": [], "examples": stems(example_sentence), "related": []}
    names = " ".join(lemma.name().replace("_", " ") for lemma in synset.lemmas())
    related = " ".join(
        f"{' '.join(lemma.name().replace('_', ' ') for lemma in other.lemmas())} "
        f"{other.definition()}" for other in related_synsets(synset))
    return {"definition": stems(f"{names} {synset.definition()}"),
            "examples": stems(" ".join([*synset.examples(), example_sentence])),
            "related": stems(related)}
