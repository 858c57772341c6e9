"""AmbiStory (SemEval-2026 Task 5): rate 1-5 how plausible a meaning of a homonym is in a story.

The classic way, in three steps:

1. **Meaning to synset** (``meanings``): ``judged_meaning`` is a WordNet 3.0 definition, which
   names a synset of the homonym.
2. **Features** (``features``) of each sample against the other meaning rated in the same story:
   the SemCor svm's sense distribution with the story as one all-words document (``stories``),
   similarities with the meanings' glosses in TF-IDF (``text``) and in three word spaces
   (``spaces``), WordNet relatedness (``relatedness``), the meanings' frequencies, and a
   which-meaning classifier (``support``) that is measured but not read.
3. **A regressor** (``rater``, scikit-learn conventions) fitted on train to the mean rating,
   chosen by cross-validation on train with folds by homonym (``selection``) among a few models
   and three ways of making integers of its output; dev is a check that chooses nothing, and
   the test labels are never read. ``ablation`` measures each feature group, ``ceiling`` what
   bounds the rater, ``jobs`` runs ``bin/train`` and ``bin/evaluate``.

The benchmark's entry points are re-exported here for ``cli`` and ``report``.
"""
from wsd_classic.benchmarks.ambistory.jobs import BENCHMARK, evaluate_job, train_job

__all__ = ["BENCHMARK", "evaluate_job", "train_job"]
