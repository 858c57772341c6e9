"""What the report says: the sections, tables and figures built from the scored results."""
from __future__ import annotations

from wsd_classic.report import allwords, figures
from wsd_classic.report.calibration import BINS
from wsd_classic.report.document import Document, Figure, Section, Table
from wsd_classic.scoring.learning_curve import FILENAME as CURVE_FILENAME
from wsd_classic.report.lexsample import POS_NAMES, LexicalSampleResults, Score
from wsd_classic.report.references import RAGANATO_2017, RAGANATO_SOURCE, SENSEVAL2_LS
from wsd_classic.scoring.statistics import (BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, Interval,
                                            McNemar)

OURS = "this run"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def with_interval(value: float | None, interval: Interval | None = None) -> str:
    """``66.3 [65.0, 67.7]``: a fraction and its interval, in %."""
    if value is None or interval is None:
        return percent(value)
    return f"{percent(value)} [{percent(interval.low)}, {percent(interval.high)}]"


def recall_with_interval(score: Score | None) -> str:
    return "-" if score is None else with_interval(score.recall, score.interval)


def p_value(value: float) -> str:
    return "< 0.001" if value < 0.001 else f"{value:.3f}"


def lexical_sample_document(results: LexicalSampleResults) -> Document:
    return Document(f"Word sense disambiguation: {results.task}", tuple(section for section in (
        _about(results), _comparison(results), _by_pos(results), _significance(results),
        _calibration(results), _lexelts(results), _learning_curve(results)) if section))


def _about(results: LexicalSampleResults) -> Section:
    coarse = (f"coarse grain groups senses by the sensemap {results.sensemap_path}"
              if results.sensemap_path else "no sensemap was given, so there is no coarse grain")
    return Section("How these figures were computed", (
        f"Answers read from {results.task_dir}, scored against the key {results.key_path} with "
        f"scorer2's rules (the same as bin/score); {coarse}. Our rows score each system's top "
        "sense (<system>.top.ans). P is precision and R recall, in %; the two differ only when "
        "some instances got no answer.",
        f"The 95% confidence intervals are percentile bootstrap intervals of the recall: "
        f"{BOOTSTRAP_RESAMPLES} resamples of the test instances with seed {BOOTSTRAP_SEED}.",
        "Calibration figures (ECE, log-loss, Brier) are computed on the weighted sense "
        "distributions (<system>.ans) at fine grain; the Calibration section defines them.",
    ))


def _comparison(results: LexicalSampleResults) -> Section:
    coarse = "coarse" in results.grains
    header = ("System", "Fine P", "Fine R [95% CI]",
              *(("Coarse P", "Coarse R [95% CI]") if coarse else ()),
              "ECE", "Log-loss", "Brier", "Source")
    rows = []
    for system in results.systems:
        fine, coarse_score = system.score("fine"), system.score("coarse")
        calibration = system.calibration
        rows.append((fine.recall, False, (
            system.name, percent(fine.precision), recall_with_interval(fine),
            *((percent(coarse_score.precision), recall_with_interval(coarse_score))
              if coarse else ()),
            *((f"{calibration.ece:.3f}", f"{calibration.log_loss:.3f}",
               f"{calibration.brier:.3f}") if calibration else ("-", "-", "-")),
            OURS)))
    if results.published:
        for reference in SENSEVAL2_LS:
            rows.append((reference.fine / 100, True, (
                reference.name, "-", f"{reference.fine:.1f}",
                *(("-", f"{reference.coarse:.1f}" if reference.coarse else "-") if coarse
                  else ()), "-", "-", "-", reference.source)))
    rows.sort(key=lambda row: -row[0])
    blocks = [Table("Our systems (top sense) beside published results, by fine-grained recall",
                    header, tuple(row for *_, row in rows),
                    published=frozenset(n for n, (_, published, _) in enumerate(rows) if published),
                    text_columns=frozenset({0, len(header) - 1}))]
    if results.published:
        blocks.append("Published rows (in italics) give fine-grained recall as their sources "
                      "report it; they attempted every instance.")
    return Section("Comparison", tuple(blocks))


def _by_pos(results: LexicalSampleResults) -> Section | None:
    groups = results.pos_instances()
    if not groups:
        return None
    coarse = "coarse" in results.grains
    rows = []
    for system in results.systems:
        for pos, instances in groups.items():
            rows.append((system.name, POS_NAMES[pos], str(len(instances)),
                         recall_with_interval(system.score("fine", instances)),
                         *((recall_with_interval(system.score("coarse", instances)),)
                           if coarse else ())))
    header = ("System", "Part of speech", "Instances", "Fine R [95% CI]",
              *(("Coarse R [95% CI]",) if coarse else ()))
    return Section("By part of speech", (
        "The part of speech is the suffix of the lexelt the answers name (art.n).",
        Table("Recall (%) of the top sense by part of speech", header, tuple(rows),
              text_columns=frozenset({0, 1}))))


def _significance(results: LexicalSampleResults) -> Section | None:
    comparisons = results.comparisons()
    if not comparisons:
        return None
    best = results.best.name

    def cells(test: McNemar | None) -> tuple[str, ...]:
        if test is None:
            return ()
        return str(test.only_first), str(test.only_second), p_value(test.p_value)

    header = ("Other system", *(f"{grain}: {label}" for grain in results.grains for label in (
        f"only {best} right", "only other right", "p")))
    rows = tuple((comparison.other, *cells(comparison.fine), *cells(comparison.coarse))
                 for comparison in comparisons)
    return Section(f"Significance: {best} against the others", (
        f"McNemar's exact test of {best}, our best system by fine-grained recall, against each "
        "other system on the same test instances: an instance counts as right when its top sense "
        "scores 1, and under the null hypothesis each instance that exactly one system gets right "
        "is equally likely to favour either (two-sided binomial test on those instances).",
        Table(f"McNemar's test, {best} against each other system", header, rows)))


def _calibration(results: LexicalSampleResults) -> Section:
    calibrated = [(system.name, system.calibration) for system in results.systems
                  if system.calibration is not None]
    definitions = (
        "Each system's weighted answers (<system>.ans) read as a probability distribution over "
        "senses (weights normalised to sum to 1), at fine grain. The top sense is the heaviest "
        "one and is right if it is any of the instance's gold tags. ECE (expected calibration "
        f"error) is the instance-weighted mean gap between accuracy and mean confidence of the "
        f"top sense over {BINS} equal-width confidence bins. Log-loss is the mean of -ln(p), p "
        "being the probability on the gold tags together (clipped at 1e-15). Brier is the "
        "multi-class Brier score with the gold tags merged into one class: (1 - p)^2 plus the "
        "squares of the other senses' probabilities (0 is perfect, 2 the worst). Instances "
        "without an answer are left out.")
    if not calibrated:
        return Section("Calibration", (definitions, "No weighted answer files (<system>.ans) "
                                                    f"in {results.task_dir}: nothing to show."))
    rows = tuple((name, str(result.instances), percent(result.accuracy),
                  percent(result.mean_confidence), f"{result.ece:.3f}", f"{result.log_loss:.3f}",
                  f"{result.brier:.3f}") for name, result in calibrated)
    return Section("Calibration", (
        definitions,
        Table("Calibration of the weighted distributions",
              ("System", "Instances", "Accuracy (%)", "Mean confidence (%)", "ECE", "Log-loss",
               "Brier"), rows),
        Figure("reliability", f"Reliability diagrams: accuracy of the top sense per confidence "
                              f"bin ({BINS} equal-width bins); the dashed diagonal is perfect "
                              "calibration.", figures.reliability(calibrated))))


def _lexelts(results: LexicalSampleResults) -> Section:
    best = results.best
    rows, points = [], []
    for lexelt in results.lexelts:
        accuracy = {system.name: system.recall(list(lexelt.instances))
                    for system in results.systems}
        points.append(figures.LexeltPoint(lexelt.name, lexelt.pos, accuracy[best.name],
                                          lexelt.training_senses, lexelt.training_instances))
        rows.append((lexelt.name, str(len(lexelt.instances)),
                     "-" if lexelt.training_instances is None else str(lexelt.training_instances),
                     "-" if lexelt.training_senses is None else str(lexelt.training_senses),
                     *(percent(accuracy[system.name]) for system in results.systems)))
    blocks: list = []
    if results.training_note:
        blocks.append(results.training_note)
    else:
        blocks.append(Figure("lexelts", f"Fine-grained accuracy of {best.name} per lexelt against "
                                        "the number of senses seen in its training data and its "
                                        "number of training instances.",
                             figures.lexelt_accuracy(best.name, points)))
    blocks.append(Table("Fine-grained recall (%) of the top sense per lexelt",
                        ("Lexelt", "Test instances", "Training instances", "Senses in training",
                         *(system.name for system in results.systems)), tuple(rows)))
    return Section("Per lexelt", tuple(blocks))


def _learning_curve(results: LexicalSampleResults) -> Section:
    curve = results.learning_curve
    if curve is None:
        return Section("Learning curve", (
            f"No learning curve: {results.task_dir / CURVE_FILENAME} does not exist. Make one "
            f"with bin/train (the same training options) --learning-curve.",))
    fractions = sorted({point.fraction for point in curve.points})
    sizes = {point.fraction: point.training_instances for point in curve.points}
    rows = []
    for system in curve.systems():
        recall = {point.fraction: point.fine for point in curve.of(system)}
        rows.append((system, *(percent(recall.get(fraction)) for fraction in fractions)))
    header = ("System", *(f"{100 * fraction:g}% ({sizes[fraction]})" for fraction in fractions))
    return Section("Learning curve", (
        f"Each system trained on nested shares of the training data, stratified by sense within "
        f"each lexelt (seed {curve.seed}), and scored on the whole test set.",
        Figure("learning-curve", "Fine-grained accuracy of the top sense against the share of "
                                 "the training data used.", figures.learning_curve(curve)),
        Table("Fine-grained recall (%) by share of the training data (training instances)",
              header, tuple(rows))))


def all_words_document(results: allwords.AllWordsResults) -> Document:
    rows, published = [], set()
    for dataset, scores in results.by_dataset.items():
        for score in scores:
            rows.append((dataset, score.system, percent(score.precision), percent(score.recall),
                         with_interval(score.f1, score.interval), OURS))
        for name, by_dataset in RAGANATO_2017.items():
            # Dataset names are matched case-insensitively: "ALL" and "all" are one dataset.
            value = next((f1 for key, f1 in by_dataset.items() if key.lower() == dataset.lower()),
                         None)
            if value is not None:
                published.add(len(rows))
                rows.append((dataset, name, "-", "-", f"{value:.1f}", RAGANATO_SOURCE))
    tests = [(dataset, results.by_dataset[dataset][0].system, other, *cells)
             for dataset in results.by_dataset
             for other, test in results.comparisons(dataset)
             for cells in [(str(test.only_first), str(test.only_second), p_value(test.p_value))]]
    sections = [
        Section("How these figures were computed", (
            f"Figures of {results.source} (written by bin/evaluate with Raganato et al.'s "
            "scorer), in %, rescored per instance from the answer files <system>.<dataset>.key "
            "where the dataset's gold key is registered. The 95% confidence intervals are "
            f"percentile bootstrap intervals of F1: {BOOTSTRAP_RESAMPLES} resamples of the "
            f"dataset's instances with seed {BOOTSTRAP_SEED}.", *results.notes)),
        Section("Comparison", (
            Table("P/R/F1 per evaluation dataset, beside published F1",
                  ("Dataset", "System", "P", "R", "F1 [95% CI]", "Source"), tuple(rows),
                  published=frozenset(published), text_columns=frozenset({0, 1, 5})),))]
    if tests:
        sections.append(Section("Significance", (
            "McNemar's exact test of the best system on each dataset (by F1) against each other "
            "one: an instance counts as right when its prediction earns full credit.",
            Table("McNemar's test per dataset", ("Dataset", "Best", "Other", "only best right",
                                                 "only other right", "p"), tuple(tests),
                  text_columns=frozenset({0, 1, 2})))))
    return Document("Word sense disambiguation: all-words (SemCor-trained)", tuple(sections))
