"""Benchmarks that set the classic systems beside LLMs: ``sensebench`` (baseline key files for
Raganato's ALL and sets in its format) and ``ambistory`` (SemEval-2026 Task 5 plausibility
ratings)."""
