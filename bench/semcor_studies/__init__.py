"""``bench/semcor.py``'s studies on SemCor, one module each; ``held_out`` holds what they share:
the sets of held-out SemCor files, training on the others, and scoring on them and on the
development set."""
