"""spaCy analyses of all-words corpora on their own tokenization, and each target's context.

Each corpus sentence becomes a spaCy ``Doc`` built from its words, one sentence per ``Doc``, so
every corpus token stays one token and the parser cannot split the sentence. A multiword unit
(SemCor's ``took_place``, the datasets' ``took place``) is given to the tagger and parser as its
words, then merged back into one token (spaCy's retokenizer: the tag and dependency of its
syntactic root) whose lemma joins the words' lemmas with ``_``; both spellings thus give the same
analysis. The analyses are cached per corpus like the lexical sample's (``preprocess.cache``).

A target's context is its sentence plus ``context_sentences`` neighbours on each side within its
document: the bag of words reads all of it, the local features only the target's sentence. The
targets of one sentence share one ``ProcessedInstance``'s tuples and differ in ``target``.
"""
from __future__ import annotations

import hashlib
import itertools
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from tqdm import tqdm

from wsd_classic import workers
from wsd_classic.corpora.model import Instance
from wsd_classic.preprocess import cache, pipeline
from wsd_classic.preprocess.document import ProcessedInstance
from wsd_classic.corpora.allwords import AllWordsCorpus, Sentence, Target

# Bump when the analysis of a sentence changes (what ``_analyse`` records), so stale caches go.
ANALYSIS_VERSION = 1
# Sentences run through spaCy in a single process below this count: starting workers costs more.
PARALLEL_MIN_SENTENCES = 2000
# Sentences spaCy's components see at a time, one batch per piece of a worker's work.
BATCH_SENTENCES = 256


def word_parts(word: str) -> list[str]:
    """The words of a corpus token: ``took_place`` and ``took place`` -> ``["took", "place"]``."""
    return word.replace("_", " ").split() or [word]


def analyse(corpus: AllWordsCorpus, jobs: int = 1, progress: bool | None = None,
            description: str = "spaCy") -> list[ProcessedInstance]:
    """One analysis per corpus sentence (``target`` 0, ``lexelt`` empty), from the cache if there."""
    return cache.cached(_cache_key(corpus.sentences), len(corpus.sentences),
                        lambda: _analyse(corpus.sentences, jobs, progress, description))


def _cache_key(sentences: Sequence[Sentence]) -> str:
    digest = hashlib.sha256(f"{cache.FORMAT_VERSION}\n{pipeline.model_signature()}\n"
                            f"all-words sentences {ANALYSIS_VERSION}\n".encode())
    for sentence in sentences:
        digest.update(json.dumps([sentence.id, sentence.words]).encode())
    return digest.hexdigest()


def _spacy_doc(vocab, words: Sequence[str]):
    from spacy.tokens import Doc

    parts = [part for word in words for part in word_parts(word)]
    starts = [True] + [False] * (len(parts) - 1) if parts else None
    return Doc(vocab, words=parts, sent_starts=starts)


def _analyse(sentences: Sequence[Sentence], jobs: int, progress: bool | None,
             description: str) -> Iterator[ProcessedInstance]:
    if progress is None:
        progress = sys.stderr.isatty()
    processes = max(1, jobs) if len(sentences) >= PARALLEL_MIN_SENTENCES else 1
    if processes > 1:  # loaded before the workers fork, which then share it
        pipeline.load_spacy()
    batches = [sentences[start:start + BATCH_SENTENCES]
               for start in range(0, len(sentences), BATCH_SENTENCES)]
    with tqdm(total=len(sentences), desc=description, unit="sent", disable=not progress,
              file=sys.stderr) as bar:
        for analyses in workers.in_workers(_analyse_batch, batches, processes):
            bar.update(len(analyses))
            yield from analyses


def _analyse_batch(sentences: Sequence[Sentence]) -> list[ProcessedInstance]:
    """One batch of sentences through spaCy and merged back (``_merged_analysis``). A worker
    sends back these compact analyses, not the ``Doc``s that spaCy's own ``n_process`` would
    serialize for this process to read back and merge."""
    nlp = pipeline.load_spacy()
    docs = nlp.pipe((_spacy_doc(nlp.vocab, sentence.words) for sentence in sentences),
                    batch_size=BATCH_SENTENCES)
    return [_merged_analysis(sentence, doc) for sentence, doc in zip(sentences, docs)]


def _merged_analysis(sentence: Sentence, doc) -> ProcessedInstance:
    """``doc`` with each multiword corpus token merged back, as a ``ProcessedInstance``."""
    with doc.retokenize() as retokenizer:
        start = 0
        for word in sentence.words:
            width = len(word_parts(word))
            if width > 1:
                span = doc[start:start + width]
                retokenizer.merge(span, attrs={"LEMMA": "_".join(t.lemma_ for t in span)})
            start += width
    if not len(doc):
        return ProcessedInstance(sentence.id, "", (), (), (), (), (), (), (), 0)
    first = Instance(sentence.id, "", doc.text, (0, len(doc[0].text)))
    return pipeline.to_processed(first, doc)


def contexts(corpus: AllWordsCorpus, analyses: Sequence[ProcessedInstance],
             context_sentences: int, selected: Callable[[Target], bool] | None = None
             ) -> Iterator[ProcessedInstance]:
    """The analysed context of every target (of ``selected`` ones if given), in corpus order."""
    for index, targets in itertools.groupby(corpus.targets, key=lambda target: target.sentence):
        chosen = [target for target in targets if selected is None or selected(target)]
        if not chosen:
            continue
        window, offset = _window(corpus, analyses, index, context_sentences)
        for target in chosen:
            yield replace(window, id=target.id, lexelt=target.lexelt,
                          target=offset + target.token)


def _window(corpus: AllWordsCorpus, analyses: Sequence[ProcessedInstance], index: int,
            context_sentences: int) -> tuple[ProcessedInstance, int]:
    """Sentence ``index`` with its neighbours in the same document, and its first token's index."""
    document = corpus.sentences[index].document
    first = index
    while (first > 0 and index - first < context_sentences
           and corpus.sentences[first - 1].document == document):
        first -= 1
    last = index
    while (last + 1 < len(analyses) and last - index < context_sentences
           and corpus.sentences[last + 1].document == document):
        last += 1
    if first == last:
        return analyses[index], 0
    words, lemmas, tags, numbers, heads, deps, stops = [], [], [], [], [], [], []
    offset = 0
    for number, part in enumerate(analyses[first:last + 1]):
        if first + number == index:
            offset = len(words)
        heads += [head + len(words) for head in part.heads]
        words += part.words
        lemmas += part.lemmas
        tags += part.tags
        numbers += [number] * len(part)
        deps += part.deps
        stops += part.stops
    window = ProcessedInstance(analyses[index].id, "", tuple(words), tuple(lemmas), tuple(tags),
                               tuple(numbers), tuple(heads), tuple(deps), tuple(stops), 0)
    return window, offset
