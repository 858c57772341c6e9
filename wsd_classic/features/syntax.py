"""Syntactic relations of the target, after Lee & Ng (2002), read off the dependency parse.

For every target: its head word, the head's tag, the relation and the head's side; the voice of
the verb involved; the nearest dependent on each side with its tag; every dependent as
``relation=lemma``; and the particles of a phrasal verb.
"""
from __future__ import annotations

from wsd_classic.preprocess.document import ProcessedInstance

PASSIVE_RELATIONS = {"auxpass", "nsubjpass", "csubjpass"}


def _voice(doc: ProcessedInstance, verb: int) -> str:
    passive = any(doc.heads[i] == verb and doc.deps[i] in PASSIVE_RELATIONS
                  for i in doc.sentence_range(verb) if i != verb)
    return "passive" if passive else "active"


def syntactic_relations(doc: ProcessedInstance) -> list[str]:
    target = doc.target
    features = []
    head = doc.heads[target]
    if head != target:
        features += [f"syn:head={doc.lemmas[head]}", f"syn:headpos={doc.tags[head]}",
                     f"syn:rel={doc.deps[target]}",
                     f"syn:headside={'left' if head < target else 'right'}"]
        if doc.tags[head].startswith("VB"):
            features.append(f"syn:headvoice={_voice(doc, head)}")
    else:
        features.append("syn:rel=ROOT")
    if doc.tags[target].startswith("VB"):
        features.append(f"syn:voice={_voice(doc, target)}")
    dependents = [i for i in doc.target_sentence if i != target and doc.heads[i] == target]
    left = [i for i in dependents if i < target]
    right = [i for i in dependents if i > target]
    if left:
        features += [f"syn:left={doc.lemmas[left[-1]]}", f"syn:leftpos={doc.tags[left[-1]]}"]
    if right:
        features += [f"syn:right={doc.lemmas[right[0]]}", f"syn:rightpos={doc.tags[right[0]]}"]
    features += [f"syn:{doc.deps[i]}={doc.lemmas[i]}" for i in dependents]
    features += [f"syn:sat={doc.lemmas[i]}" for i in doc.sats]
    return features
