"""The figures ``bin/train`` records for a lexical sample: fine, coarse and per part of speech."""
from __future__ import annotations

from pathlib import Path

from wsd_classic.answers.senseval import read_answers
from wsd_classic.corpora.keys import read_key
from wsd_classic.corpora.sensemap import read_sensemap
from wsd_classic.pos import POS_NAMES
from wsd_classic.scoring import scorer2

def figures(result: scorer2.Scorer2Result) -> dict:
    return {"precision": result.precision, "recall": result.recall,
            "attempted": result.attempted, "instances": result.instances,
            "answered": result.answered}


def lexsample_scores(key_path: Path, top_answers: Path, sensemap_path: Path | None = None,
                     weighted_answers: Path | None = None) -> dict:
    """``{"fine", "coarse" (with a sensemap), "by_pos", "weighted": {"fine", "coarse"}}``.

    The part of speech of an instance is the suffix of the lexelt its answer names (``art.n``):
    key files give only the bare lemma.
    """
    key = read_key(key_path)
    sensemap = read_sensemap(sensemap_path) if sensemap_path else None
    grains = ("fine", "coarse") if sensemap is not None else ("fine",)

    def at_grains(answers) -> dict:
        return {grain: figures(scorer2.score(key, answers, grain=grain, sensemap=sensemap,
                                             quiet=True)) for grain in grains}

    top = read_answers(top_answers)
    result = at_grains(top)
    pos_of = {answer.instance: _pos(answer.lexelt) for answer in top}
    result["by_pos"] = {
        pos: figures(scorer2.score(key, top, include=lambda entry, pos=pos:
                                   pos_of.get(entry.instance) == pos, quiet=True))
        for pos in sorted({pos for pos in pos_of.values() if pos})}
    if weighted_answers is not None:
        result["weighted"] = at_grains(read_answers(weighted_answers))
    return result


def _pos(lexelt: str) -> str | None:
    """The WordNet part of speech a lexelt's suffix names (``art.n``), None for another one."""
    suffix = lexelt.rpartition(".")[2]
    return suffix if suffix in POS_NAMES else None
