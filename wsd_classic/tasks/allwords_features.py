"""The features of an all-words corpus's targets: each target a lexical-sample instance of its
lexelt (``lemma.pos``), featurized in the context the featurizer's rule gives it. Training
(``tasks.allwords``) and tagging (``tasks.tagger``) both read them through here.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable

from wsd_classic.corpora.allwords import AllWordsCorpus, Target
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.features.featurizer import Featurizer
from wsd_classic.preprocess import sentences
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.tasks.engine import FeaturizedCorpus


def as_lexical_sample(corpus: AllWordsCorpus, targets: Iterable[Target]) -> LexicalSample:
    """``targets`` as lexical-sample instances, one lexelt per ``lemma.pos`` (sorted).

    An instance's text is its sentence (one string per sentence, shared) and its head the
    target word's character span there.
    """
    texts: dict[int, tuple[str, list[int]]] = {}
    by_lexelt: dict[str, list[Instance]] = defaultdict(list)
    for target in targets:
        if target.sentence not in texts:
            words = corpus.sentences[target.sentence].words
            starts = [0]
            for word in words[:-1]:
                starts.append(starts[-1] + len(word) + 1)
            texts[target.sentence] = (" ".join(words), starts)
        text, starts = texts[target.sentence]
        start = starts[target.token]
        head = (start, start + len(corpus.sentences[target.sentence].words[target.token]))
        by_lexelt[target.lexelt].append(Instance(
            target.id, target.lexelt, text, head, answers=target.keys,
            docsrc=corpus.sentences[target.sentence].document))
    return LexicalSample([Lexelt(item, instances) for item, instances in sorted(by_lexelt.items())],
                         corpus.source)


def featurize(corpus: AllWordsCorpus, sample: LexicalSample, featurizer: Featurizer,
              needs_features: Callable[[Target], bool], jobs: int = 1,
              progress: bool | None = None, description: str = "spaCy",
              analyses: list[ProcessedInstance] | None = None) -> FeaturizedCorpus:
    """Features of the targets ``needs_features`` selects, each in the context ``featurizer``'s
    rule gives it; the others get none. ``analyses``: the corpus's (``sentences.analyse``),
    made here when None and needed."""
    no_features = {group: () for group in featurizer.groups}
    table = {instance.id: no_features for instance in sample.instances()}

    def selected(target: Target) -> bool:
        return target.id in table and needs_features(target)

    if not any(map(selected, corpus.targets)):
        return FeaturizedCorpus(sample, table, featurizer)
    if analyses is None:
        analyses = sentences.analyse(corpus, jobs, progress, description)
    docs = sentences.contexts(corpus, analyses, featurizer.context.sentences or 0, selected)
    table.update(featurizer.table(docs, jobs, progress))
    return FeaturizedCorpus(sample, table, featurizer)
