"""Published results printed beside ours, each with its source.

SENSEVAL-2 English lexical sample, fine-grained recall (all instances attempted by these
systems, so recall equals precision).
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    name: str
    fine: float
    source: str
    coarse: float | None = None


SENSEVAL2_LS = (
    Reference("Commonest (official baseline)", 47.6,
              "Kilgarriff 2001, English lexical sample task description, SENSEVAL-2 workshop"),
    Reference("Lesk-corpus (official baseline)", 51.2,
              "Kilgarriff 2001; Edmonds & Cotton 2001, SENSEVAL-2: Overview"),
    Reference("JHU (best SENSEVAL-2 system)", 64.2,
              "Yarowsky et al. 2001, The Johns Hopkins SENSEVAL-2 system descriptions"),
    Reference("IMS (Zhong & Ng 2010)", 65.3,
              "Zhong & Ng 2010, It Makes Sense, ACL demos"),
    Reference("Lee & Ng 2002, SVM", 65.4,
              "Lee & Ng 2002, An empirical evaluation of knowledge sources..., EMNLP"),
    Reference("Florian & Yarowsky 2002, combination", 66.5,
              "Florian & Yarowsky 2002, Modeling consensus, EMNLP"),
)

# Raganato, Camacho-Collados & Navigli 2017 (EACL), F1 on the all-words datasets.
RAGANATO_2017 = {
    "MFS": {"senseval2": 65.6, "senseval3": 66.0, "semeval2007": 54.5, "ALL": 64.8},
    "WN 1st sense": {"senseval2": 66.8, "senseval3": 66.2, "semeval2007": 55.2, "ALL": 65.2},
    "IMS": {"senseval2": 70.9, "senseval3": 69.3, "semeval2007": 61.3, "ALL": 68.4},
    "IMS+emb": {"ALL": 69.1},
}
RAGANATO_SOURCE = ("Raganato, Camacho-Collados & Navigli 2017, Word Sense Disambiguation: "
                   "A Unified Evaluation Framework and Empirical Comparison, EACL")
