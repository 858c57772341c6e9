#!/usr/bin/env python3
"""Benchmark the all-words systems trained on SemCor: time, memory, tagging speed, F1.

Trains every system on SemCor 3.0 (``tasks.allwords``, as ``bin/train --task semcor`` does),
tags each evaluation dataset with each system and scores it with Raganato et al.'s scorer.
Peak memory is the maximum resident set size (``resource.getrusage``) of this process and of
its finished child processes (spaCy and joblib workers). The preprocessing cache starts empty
(a temporary directory) unless ``--warm-cache`` is given, so the timings include spaCy.
Writes bench/results/semcor.json.

    python -m bench semcor [--systems mfs,wn1,svm,dlist] [--datasets senseval2,senseval3,semeval2007]
                           [--jobs 2] [--data-dir DIR] [--warm-cache] [--out FILE]
                           [--models-dir DIR]

``--tune-context 0,1,2`` instead compares numbers of neighbouring sentences in the bag of words
for svm: its accuracy on held-out SemCor files (every 5th file, trained on the others) and its F1
on the development set semeval2007 (trained on all of SemCor); the test sets are never read. It
writes bench/results/semcor_context.json. ``--tune-svm C=1,3,10`` does the same for one of the
svm's parameters, the others as registered (bench/results/semcor_svm_C.json), or with
``--svm-system combo`` for combo's svm member (semcor_combo_svm_C.json); ``--folds 5``
averages its held-out accuracy over the five disjoint sets of every 5th file.
``--tune-examples [svm|dlist]`` compares the system trained without and with WordNet's examples
(bench/results/semcor_svm_examples.json); ``--tune-example-lexelts [svm|combo]`` with the
examples of the lexelts training tags with two senses or more against those of every polysemous
lexelt (bench/results/semcor_<system>_example_lexelts.json). ``--tune-emb
exponential:10:1:0,...`` does it for svm's embedding features, each setting
``STRATEGY:WINDOW:SCALE:CONTEXT_SENTENCES[:GLOSS]`` (GLOSS: the scale of the context's cosines
with the candidates' gloss embeddings, 0 by default) on the task's word vectors, or on those of
``--sources glove-6b-50d`` (installed pretrained sources and/or the self-trained vectors of
``bench/self_vectors.py``, e.g. ``self,glove-6b-50d``, these with ``--vectors epochs=20``: word2vec
settings changed) (bench/results/semcor_emb.json,
one row added per setting). ``--tune-scale gloss=1,4`` (or ``emb=...``) does it for the scale of one
real-valued group, the corpus analysed once and the group's values rescaled
(bench/results/semcor_<group>_scale.json).

``--tune-combo`` compares svm, combo and combo answering unseen senses from their gloss evidence
the same way (bench/results/semcor_combo.json); ``--tune-combo-unseen`` compares the two
combos on the lexelts where they differ only (a candidate no training instance shows), as a
difference in right answers (bench/results/semcor_combo_unseen.json); ``--tune-prior`` counts,
where svm answers its training sense distribution, the right answers of that distribution with
and without WordNet's examples counted (bench/results/semcor_svm_prior.json).
``--tune-discourse 0,0.1,0.2`` does it for the weight of one sense per discourse of
``--discourse-system`` (default svm): trained once per training set, its distributions pulled
together at every weight, overall and per part of speech, and the rule that gives each part of
speech its best weight scored too (bench/results/semcor_<system>_discourse.json).
``--tune-combo-mixture 1,10,inf`` compares combo's registered mixture defaults with defaults
pooled over SemCor's held-out evidence, per shrinkage: the members are stacked once per training
set and only the combiner refitted (bench/results/semcor_combo_mixture.json); with ``--combo-pools
linear,geometric`` each pool other than the registered one is fitted too, from its own pooled
defaults (``combination.POOLS``).

``--mfs-back-offs`` scores ``mfs`` with each back-off for lemmas SemCor never tagged (WordNet's
first sense, WordNet's database order, alphabetical sense keys) on every dataset beside the
published MFS: it explains the published baseline, and chooses nothing
(bench/results/semcor_mfs.json).

``--unseen-senses [--unseen-share 0.15] [--unseen-seed 0]`` simulates senses unseen in training
on held-out SemCor files and scores svm and the sense ranker on them
(``semcor_studies/unseen_senses.py``, bench/results/semcor_unseen_senses.json; other shares and
seeds in semcor_unseen_senses_<share>_<seed>.json).

``--tune-hybrid [--hybrid-tables DIR]`` scores the svm and ``ppr`` mixed
(``semcor_studies/hybrid.py``): the svm's and ppr's distributions on held-out SemCor files, on
the unseen-senses study's removal and on semeval2007 are computed once and kept in DIR, every
candidate mixture is scored from them, and docs/choices.md's rule chooses
(bench/results/semcor_hybrid.json). ``--score-hybrid --models-dir DIR`` then scores the svm and
the registered hybrid of DIR (``bin/train --task semcor --systems svm,hybrid``) once on ALL,
ALL without semeval2007 and each set (bench/results/semcor_hybrid_evaluate.json).
``--tune-hybrid-forms`` scores the hybrid's further forms on the same svm tables (other walks,
the svm's beliefs as the walk's restart, the unseen-sense mixture, a stacked model;
``semcor_studies/hybrid_forms.py``, bench/results/semcor_hybrid_forms.json).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from bench.semcor_studies.benchmark import benchmark, summary
from bench.semcor_studies.combo import tune_combo, tune_combo_unseen
from bench.semcor_studies.combo_mixture import tune_combo_mixture
from bench.semcor_studies.context import tune_context
from bench.semcor_studies.discourse import tune_discourse
from bench.semcor_studies.embeddings import tune_embeddings
from bench.semcor_studies.examples import tune_example_lexelts, tune_examples
from bench.semcor_studies.held_out import HELD_OUT_EVERY, RESULTS, TASK
from bench.semcor_studies.hybrid import score_hybrid, tune_hybrid
from bench.semcor_studies.hybrid_forms import tune_hybrid_forms
from bench.semcor_studies.mfs import mfs_back_offs
from bench.semcor_studies.prior import tune_prior
from bench.semcor_studies.scale import tune_scale
from bench.semcor_studies.svm_parameter import tune_svm
from bench.semcor_studies.unseen_senses import SEED as UNSEEN_SEED, SHARE as UNSEEN_SHARE
from bench.semcor_studies.unseen_senses import unseen_senses
from wsd_classic import tuned

# The studies whose outcome is a registered value: the setting and the value in their results.
REGISTERED = {
    tune_combo_mixture: ("combo", lambda result: {
        name: result["parameters"][name]
        for name in ("pool", "default_params", "shrinkage", "top_sense_map")}),
    unseen_senses: ("rank", lambda result: result["registered"]),
    tune_hybrid: ("hybrid", lambda result: result["registered"]),
    tune_hybrid_forms: ("hybrid", lambda result: result["registered"] or sys.exit(
        f"the chosen form, {result['chosen']}, is not one the hybrid runs: not registered"))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--systems", default=",".join(TASK.systems))
    parser.add_argument("--datasets", default="senseval2,senseval3,semeval2007")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--data-dir", type=Path)
    parser.add_argument("--warm-cache", action="store_true",
                        help="use the usual preprocessing cache (default: start empty)")
    parser.add_argument("--tune-context", metavar="SIZES",
                        help="instead: svm's development F1 per context size, e.g. 0,1,2")
    parser.add_argument("--tune-svm", metavar="PARAMETER=VALUES",
                        help="instead: svm's held-out and development scores per value of one "
                             "parameter, e.g. C=1,3,10")
    parser.add_argument("--svm-system", default="svm", choices=("svm", "combo"),
                        help="with --tune-svm: the system whose svm is tuned (combo: its svm "
                             "member)")
    parser.add_argument("--tune-examples", nargs="?", const="svm", choices=("svm", "dlist"),
                        metavar="SYSTEM",
                        help="instead: the held-out and development scores of SYSTEM (default "
                             "svm) without and with WordNet's examples in training")
    parser.add_argument("--tune-example-lexelts", nargs="?", const="svm",
                        choices=("svm", "combo"), metavar="SYSTEM",
                        help="instead: the held-out and development scores of SYSTEM (default "
                             "svm) with WordNet's examples for the lexelts training tags with "
                             "two senses or more and for every polysemous lexelt")
    parser.add_argument("--tune-emb", metavar="STRATEGY:WINDOW:SCALE:SENTENCES[:GLOSS],...",
                        help="instead: svm's held-out and development scores per embedding "
                             "rule and context size (and scale of the gloss embeddings' "
                             "cosines), e.g. exponential:10:1:0 or exponential:10:1:0:1")
    parser.add_argument("--vectors", default="", metavar="NAME=VALUE,...",
                        help="with --tune-emb and the self source: word2vec settings changed "
                             "from bench/self_vectors.py's, e.g. epochs=20 or sg=1")
    parser.add_argument("--sources", default="", metavar="SOURCE,...",
                        help="with --tune-emb: the embedding's sources (default: the task's), "
                             "e.g. glove-6b-50d or self,glove-6b-50d")
    parser.add_argument("--tune-scale", metavar="GROUP=SCALES",
                        help="instead: svm's held-out and development scores per scale of the "
                             "emb or gloss group, e.g. gloss=1,2,4")
    parser.add_argument("--tune-combo", action="store_true",
                        help="instead: svm beside combo (and combo answering unseen senses), "
                             "held-out and development scores")
    parser.add_argument("--tune-prior", action="store_true",
                        help="instead: where svm answers its training distribution, that "
                             "distribution with and without WordNet's examples counted")
    parser.add_argument("--tune-combo-unseen", action="store_true",
                        help="instead: combo without and with answering unseen senses, trained "
                             "and scored on the lexelts where they differ")
    parser.add_argument("--tune-combo-mixture", metavar="SHRINKAGES",
                        help="instead: combo's registered mixture defaults against defaults "
                             "pooled over SemCor, per shrinkage, e.g. 1,10,inf")
    parser.add_argument("--combo-pools", default="",
                        help="with --tune-combo-mixture: the other pools to fit from their own "
                             "pooled defaults, e.g. geometric")
    parser.add_argument("--tune-discourse", metavar="WEIGHTS",
                        help="instead: --discourse-system's held-out and development scores per "
                             "weight of one sense per discourse, e.g. 0,0.1,0.2")
    parser.add_argument("--discourse-system", default="svm", choices=("svm", "dlist", "combo"))
    parser.add_argument("--folds", type=int, default=1, choices=range(1, HELD_OUT_EVERY + 1),
                        metavar=f"1..{HELD_OUT_EVERY}",
                        help="with --tune-svm, --tune-examples, --tune-example-lexelts, "
                             "--tune-emb, --tune-scale, --tune-combo or --tune-discourse: "
                             "average held-out accuracy over this many disjoint sets of "
                             "held-out files (default 1)")
    parser.add_argument("--out", type=Path,
                        help="the benchmark's results file (default bench/results/semcor.json)")
    parser.add_argument("--models-dir", type=Path,
                        help="the benchmark's models directory, kept for bin/evaluate's answer "
                             "files (default: a temporary one)")
    parser.add_argument("--mfs-back-offs", action="store_true",
                        help="instead: mfs's F1 per back-off for lemmas SemCor never tagged")
    parser.add_argument("--unseen-senses", action="store_true",
                        help="instead: senses unseen in training simulated on held-out SemCor "
                             "files; svm and the sense ranker on the removed senses, rare "
                             "senses and all")
    parser.add_argument("--unseen-share", type=float, default=UNSEEN_SHARE,
                        help="with --unseen-senses: the share of senses removed from training")
    parser.add_argument("--unseen-seed", type=int, default=UNSEEN_SEED)
    parser.add_argument("--tune-hybrid", action="store_true",
                        help="instead: the svm and ppr mixed, each candidate form and value "
                             "on held-out SemCor files, the unseen-senses removal and "
                             "semeval2007; the rule of docs/choices.md chooses")
    parser.add_argument("--tune-hybrid-forms", action="store_true",
                        help="instead: the hybrid's further forms on --tune-hybrid's tables "
                             "(docs/choices.md, 'The hybrid, further forms')")
    parser.add_argument("--score-hybrid", action="store_true",
                        help="instead: the svm and the hybrid of --models-dir scored once on "
                             "ALL and its sets")
    parser.add_argument("--hybrid-tables", type=Path,
                        help="with --tune-hybrid(-forms): where the svm's and ppr's "
                             "distributions are kept (default: the cache's bench/hybrid)")
    parser.add_argument("--register", action="store_true",
                        help="with --tune-combo-mixture, --unseen-senses or --tune-hybrid(-forms): "
                             "store "
                             "the values the study chose in wsd_classic/tuned/semcor.json")
    args = parser.parse_args()
    RESULTS.mkdir(parents=True, exist_ok=True)
    studies = [(args.tune_context, tune_context, "semcor_context.json"),
               (args.tune_svm, tune_svm,
                f"semcor_{'' if args.svm_system == 'svm' else 'combo_'}svm_"
                f"{args.tune_svm.partition('=')[0]}.json" if args.tune_svm else None),
               (args.tune_examples, tune_examples,
                f"semcor_{args.tune_examples}_examples.json"),
               (args.tune_example_lexelts, tune_example_lexelts,
                f"semcor_{args.tune_example_lexelts}_example_lexelts.json"),
               (args.tune_scale, tune_scale,
                f"semcor_{args.tune_scale.partition('=')[0]}_scale.json"
                if args.tune_scale else None),
               (args.tune_combo, tune_combo, "semcor_combo.json"),
               (args.tune_discourse, tune_discourse,
                f"semcor_{args.discourse_system}_discourse.json"),
               (args.tune_combo_unseen, tune_combo_unseen, "semcor_combo_unseen.json"),
               (args.tune_prior, tune_prior, "semcor_svm_prior.json"),
               (args.tune_combo_mixture, tune_combo_mixture, "semcor_combo_mixture.json"),
               (args.mfs_back_offs, mfs_back_offs, "semcor_mfs.json"),
               (args.unseen_senses, unseen_senses,
                "semcor_unseen_senses.json" if (args.unseen_share, args.unseen_seed) == (
                    UNSEEN_SHARE, UNSEEN_SEED)
                else f"semcor_unseen_senses_{args.unseen_share:g}_{args.unseen_seed}.json"),
               (args.tune_hybrid, tune_hybrid, "semcor_hybrid.json"),
               (args.tune_hybrid_forms, tune_hybrid_forms, "semcor_hybrid_forms.json"),
               (args.score_hybrid, score_hybrid, "semcor_hybrid_evaluate.json"),
               (args.tune_emb, tune_embeddings, "semcor_emb.json")]
    chosen = next(((study, name) for wanted, study, name in studies if wanted), None)
    if args.register and (chosen is None or chosen[0] not in REGISTERED):
        parser.error("--register goes with --tune-combo-mixture, --unseen-senses or "
                     "--tune-hybrid")
    if chosen:
        result, target = chosen[0](args), RESULTS / chosen[1]
        print(json.dumps(result, indent=2))
    else:
        result, target = benchmark(args), args.out or RESULTS / "semcor.json"
        print(summary(result))
    partial = target.with_name(target.name + ".partial")
    partial.write_text(json.dumps(result, indent=2) + "\n")
    partial.replace(target)
    print(f"written to {target}")
    if args.register:
        setting, chosen_value = REGISTERED[chosen[0]]
        written = tuned.register(TASK.name, setting, chosen_value(result),
                                 " ".join(["python -m bench semcor", *sys.argv[1:]]), target)
        print(f"registered {setting} in {written}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
