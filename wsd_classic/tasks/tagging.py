"""The ``bin/tag`` job: tag plain text, a SENSEVAL lexical-sample file or a Raganato all-words file.

Plain text streams through spaCy with the ``wsd_classic`` component (``spacy_component``) at the
end of the pipeline, in batches of ``BATCH_CHARS`` characters or what the input held when it
paused (``text_input``); every target it marks becomes a ``TaggedTarget``, written as it comes in
one of the formats below, in document order. Memory stays bounded whatever the input's size:
a batch at a time, and the model's estimators kept up to a budget (``modelstore.LazyModels``).
A SENSEVAL XML file and a Raganato file go through the same Tagger (``tasks.tagger``) as the
component, under the model's featurizer.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path
from typing import Callable, Iterable, Iterator

from spacy.attrs import IS_SPACE
from spacy.language import Language
from spacy.tokens import Doc, Token
from tqdm import tqdm

from wsd_classic import modelstore, wordnet
from wsd_classic.answers.senseval import answer_line
from wsd_classic.corpora.lexsample import read_lexical_sample
from wsd_classic.preprocess.pipeline import load_spacy, pipe
from wsd_classic.tasks import catalogue
from wsd_classic.tasks.tagger import Tagger, tag_raganato
from wsd_classic.tasks.text_input import (STDIN_NAME, TextBlock, check_readable, input_size,
                                          read_blocks)

TEXT_FORMATS = ("text", "jsonl", "senseval")
RAGANATO_FORMATS = ("key", "jsonl")
# Senses shown per target in the ``text`` format.
TEXT_SENSES = 3
TARGET_MARKS = ("[[", "]]")
# Blocks per spaCy batch: at most 8 x 5,000 characters keeps the peak near 400 MB on a 10 MB
# one-line file (32 x 20,000 took 2.4 GB), at the same speed.
SPACY_BATCH = 8
# Characters of the blocks tagged together (one batch of ``spacy_component.WsdTagger.pipe``,
# one prediction per lexelt it holds): about 50,000 tokens of English text, under the
# component's ``BATCH_TOKENS``.
BATCH_CHARS = 250_000


@dataclass
class TaggedTarget:
    """One target of the input and its sense distribution (offsets in characters, 0-based)."""

    document: str
    number: int
    line: int
    sentence: int
    start: int
    end: int
    text: str
    lexelt: str
    senses: list[tuple[str, float]]
    particles: list[tuple[int, int, str]]
    sentence_start: int
    sentence_text: str
    evidence: list[tuple[str, float]] | None = None


@dataclass
class TagCounts:
    """What a run went through, for its summary line."""

    documents: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    tokens: int = 0
    targets: int = 0
    #: safe id -> original id, by kind, of the ids a SENSEVAL file's answers could not hold
    renamed_ids: dict[str, dict[str, str]] = field(default_factory=dict)


def default_task(models_root: Path) -> str:
    """The task ``bin/tag`` uses without ``--task``: the first all-words task whose models are
    installed (every word of the text is then a target), else the first lexical sample."""
    for name in (*catalogue.of_kind(catalogue.ALL_WORDS), *catalogue.of_kind(
            catalogue.LEXICAL_SAMPLE)):
        if any(Path(models_root, name).glob(f"*/{modelstore.FILENAME}")):
            return name
    return catalogue.of_kind(catalogue.LEXICAL_SAMPLE)[0]


def tagging_pipeline(task: str, system: str, models_root: Path, explain: bool = False) -> Language:
    """A fresh spaCy pipeline ending in the ``wsd_classic`` component.

    Fresh, not ``load_spacy()``'s shared one: that one preprocesses training and test contexts and
    must not carry the component.
    """
    nlp = load_spacy.__wrapped__()
    nlp.add_pipe("wsd_classic", config={"task": task, "system": system,
                                        "models_dir": str(models_root), "explain": explain})
    return nlp


def tag_text(nlp: Language, sources: list[str], counts: TagCounts, jobs: int = 1,
             progress: bool | None = None,
             on_pause: Callable[[], None] | None = None) -> Iterator[TaggedTarget]:
    """Every target of the files (``-``: standard input), in input order, as it is tagged."""
    return tag_sources(sources, counts, lambda blocks: tag_blocks(nlp, blocks, jobs), progress,
                       on_pause)


def tag_sources(sources: list[str], counts: TagCounts,
                tagger: Callable[[Iterable[TextBlock]], Iterable[TaggedBlock]],
                progress: bool | None = None,
                on_pause: Callable[[], None] | None = None) -> Iterator[TaggedTarget]:
    """Every target of the files, numbered per document, from ``tagger``'s results for their
    blocks (``tag_blocks`` here, or the same on other machines: ``tasks.distributed``).
    ``on_pause`` is called once the targets of a block after which the input paused have been
    taken (``bin/tag`` flushes its output there)."""
    check_readable(sources)
    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(total=input_size(sources), desc="tag", unit="B", unit_scale=True,
               disable=not progress, file=sys.stderr)
    blocks = chain.from_iterable(read_blocks(source, on_bytes=bar.update) for source in sources)
    try:
        yield from number_by_document(tagger(blocks), counts, on_pause)
    finally:
        bar.close()
    names = [STDIN_NAME if source == "-" else source for source in sources]
    counts.empty.extend(name for name in names if name not in counts.documents)


@dataclass
class TaggedBlock:
    """The targets of one block, their sentences and numbers counted from 1 within the block;
    ``pause``: the input paused after the block (``TextBlock.pause``)."""

    document: str
    tokens: int
    sentences: int
    targets: list[TaggedTarget]
    pause: bool = False


def tag_blocks(nlp: Language, blocks: Iterable[TextBlock], jobs: int = 1) -> Iterator[TaggedBlock]:
    """Each block tagged, in order, through spaCy batches of ``SPACY_BATCH`` blocks: on one
    process, a batch of ``BATCH_CHARS`` characters at a time, or fewer where the input paused;
    on ``jobs`` processes, in spaCy's own batches (its workers start once)."""
    if jobs > 1:
        yield from _tagged_blocks(nlp, blocks, jobs)
        return
    for batch in _batches(blocks):
        yield from _tagged_blocks(nlp, batch, jobs)


def _batches(blocks: Iterable[TextBlock]) -> Iterator[list[TextBlock]]:
    batch, characters = [], 0
    for block in blocks:
        batch.append(block)
        characters += len(block.text)
        if block.pause or characters >= BATCH_CHARS:
            yield batch
            batch, characters = [], 0
    if batch:
        yield batch


def _tagged_blocks(nlp: Language, blocks: Iterable[TextBlock], jobs: int) -> Iterator[TaggedBlock]:
    docs = pipe(nlp, ((block.text, block) for block in blocks), as_tuples=True,
                batch_size=SPACY_BATCH, n_process=jobs)
    for doc, block in docs:
        sentence, targets = 0, []
        for span in doc.sents:
            text = span.text  # spaCy joins the tokens' texts on each call
            if text.isspace():
                continue
            sentence += 1
            for token in span:
                if token._.wsd_senses is not None:
                    targets.append(_tagged(token, span.start_char, text, block,
                                           len(targets) + 1, sentence))
        yield TaggedBlock(block.document, len(doc) - int(doc.to_array(IS_SPACE).sum()), sentence,
                          targets, block.pause)


def number_by_document(tagged: Iterable[TaggedBlock], counts: TagCounts,
                       on_pause: Callable[[], None] | None = None) -> Iterator[TaggedTarget]:
    """The blocks' targets with sentences and numbers counted from the start of their document
    (a run of blocks with the same name); ``on_pause`` after a block the input paused after."""
    document, sentences, number = None, 0, 0
    for block in tagged:
        if block.document != document:
            document, sentences, number = block.document, 0, 0
            counts.documents.append(document)
        counts.tokens += block.tokens
        for target in block.targets:
            target.sentence += sentences
            target.number += number
            counts.targets += 1
            yield target
        sentences += block.sentences
        number += len(block.targets)
        if block.pause and on_pause is not None:
            on_pause()


def _tagged(token: Token, sentence_start: int, sentence_text: str, block: TextBlock,
            number: int, sentence: int) -> TaggedTarget:
    doc: Doc = token.doc
    extension = token._  # a new object at every ``token._``
    particles = [doc[index] for index in extension.wsd_particles]
    return TaggedTarget(
        document=block.document, number=number,
        line=block.line + block.text.count("\n", 0, token.idx), sentence=sentence,
        start=block.offset + token.idx, end=block.offset + token.idx + len(token.text),
        text=token.text, lexelt=extension.wsd_lexelt, senses=extension.wsd_senses,
        particles=[(block.offset + p.idx, block.offset + p.idx + len(p.text), p.text)
                   for p in particles],
        sentence_start=block.offset + sentence_start, sentence_text=sentence_text,
        evidence=extension.wsd_evidence)


def jsonl_line(target: TaggedTarget) -> str:
    record = {"doc": target.document, "line": target.line, "sentence": target.sentence,
              "start": target.start, "end": target.end, "text": target.text,
              "lexelt": target.lexelt,
              "senses": [{"key": key, "weight": weight, "gloss": wordnet.gloss(key)}
                         for key, weight in target.senses]}
    if target.particles:
        record["particles"] = [{"start": start, "end": end, "text": text}
                               for start, end, text in target.particles]
    if target.evidence is not None:
        record["evidence"] = [{"feature": name, "score": score} for name, score in target.evidence]
    return json.dumps(record, ensure_ascii=False)


def senseval_line(target: TaggedTarget) -> str:
    """``lexelt doc.N sense/weight ...``; with evidence, it follows as a ``!!`` comment."""
    document = re.sub(r"\s|!", "_", target.document)
    line = answer_line(target.lexelt, f"{document}.{target.number}", target.senses)
    if target.evidence is not None:
        line += " !! " + _evidence_text(target.evidence)
    return line


def text_lines(target: TaggedTarget) -> list[str]:
    """For people: where, the sentence with the target marked, the best senses with glosses."""
    marked = target.sentence_text
    spans = sorted([(target.start, target.end)] + [(s, e) for s, e, _ in target.particles],
                   reverse=True)
    for start, end in spans:
        start, end = start - target.sentence_start, end - target.sentence_start
        marked = f"{marked[:start]}{TARGET_MARKS[0]}{marked[start:end]}{TARGET_MARKS[1]}{marked[end:]}"
    lines = [f"{target.document}:{target.line}: {' '.join(marked.split())}"]
    for key, weight in target.senses[:TEXT_SENSES]:
        lines.append(f"    {target.lexelt:<14} {weight:6.3f}  {key:<24} {wordnet.gloss(key) or '-'}")
    if target.evidence is not None:
        lines.append(f"    evidence: {_evidence_text(target.evidence)}")
    return lines


def _evidence_text(evidence: list[tuple[str, float]]) -> str:
    if not evidence:
        return "none (no feature decided: the training distribution answered)"
    return ", ".join(f"{name} ({score:+.2f})" for name, score in evidence)


def format_targets(targets: Iterable[TaggedTarget], output_format: str) -> Iterator[str]:
    """Output lines (without newlines) of ``targets`` in ``output_format``."""
    for target in targets:
        if output_format == "jsonl":
            yield jsonl_line(target)
        elif output_format == "senseval":
            yield senseval_line(target)
        else:
            yield from text_lines(target)


def tag_senseval_file(path: Path, task: str, system: str, models_root: Path, jobs: int,
                      counts: TagCounts) -> Iterator[str]:
    """Answer lines for the instances of a SENSEVAL lexical-sample file the model has lexelts for."""
    tagger = Tagger.load(system, models_root, task)
    sample = read_lexical_sample(path)
    counts.renamed_ids = sample.renamed_ids
    counts.documents.append(str(path))
    for lexelt, instance, weights in tagger.tag_sample(sample, jobs,
                                                       f"spaCy ({Path(path).name})"):
        counts.targets += 1
        yield answer_line(lexelt, instance, weights)
    if counts.targets == 0:
        counts.empty.append(str(path))


def tag_raganato_file(path: Path, task: str, system: str, models_root: Path, output_format: str,
                      jobs: int, counts: TagCounts) -> Iterator[str]:
    """Lines for the instances of a Raganato all-words file."""
    counts.documents.append(str(path))
    for result in tag_raganato(path, system, models_root, jobs=jobs, task=catalogue.get(task)):
        counts.targets += 1
        if output_format == "key":
            yield f"{result.instance_id} {result.key}"
        else:
            yield json.dumps({"instance": result.instance_id, "key": result.key,
                              "rank": result.rank,
                              "senses": [{"key": key, "weight": weight}
                                         for key, weight in result.senses]}, ensure_ascii=False)
