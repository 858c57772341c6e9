"""``bin/train --learning-curve``: fractions, nested stratified subsamples, the JSON it writes."""
import random
from collections import Counter

import pytest

from conftest import FIXTURES, assert_one_line_error
from wsd_classic.corpora.model import Instance, Lexelt, LexicalSample
from wsd_classic.errors import WsdError
from wsd_classic.scoring.learning_curve import read_learning_curve
from wsd_classic.tasks.learning_curve import nested_order, nested_subsamples, parse_fractions


def _sample() -> LexicalSample:
    """Lexelt x: 60 of sense a, 30 of b, 10 of c; lexelt y: 3 instances, 1 without a tag."""
    x = [Instance(f"x{n}", "x.n", "t", (0, 1), answers=(sense,))
         for n, sense in enumerate("a" * 60 + "b" * 30 + "c" * 10)]
    y = [Instance("y1", "y.v", "t", (0, 1), answers=("d",)),
         Instance("y2", "y.v", "t", (0, 1), answers=("e", "d")),
         Instance("y3", "y.v", "t", (0, 1))]
    return LexicalSample([Lexelt("x.n", x), Lexelt("y.v", y)])


def test_parse_fractions():
    assert parse_fractions("1,0.1, 0.5,0.1") == (0.1, 0.5, 1.0)
    for bad in ("", "0", "1.5", "a,b", "-0.2"):
        with pytest.raises(WsdError, match="--learning-curve"):
            parse_fractions(bad)


def test_subsamples_are_nested_stratified_and_at_least_one_per_lexelt():
    subsamples = nested_subsamples(_sample(), (0.1, 0.5, 1.0))
    ids = {fraction: {i.id for i in sample.instances()} for fraction, sample in subsamples.items()}
    assert ids[0.1] < ids[0.5] < ids[1.0]
    assert len(ids[1.0]) == 102  # every annotated instance, the untagged y3 left out
    x_tenth = subsamples[0.1].lexelt("x.n").instances
    assert Counter(i.answers[0] for i in x_tenth) == {"a": 6, "b": 3, "c": 1}
    assert len(subsamples[0.1].lexelt("y.v").instances) == 1  # round(0.2) = 0, but never empty
    assert nested_subsamples(_sample(), (0.5,)) == {0.5: subsamples[0.5]}  # fixed seed


def test_every_prefix_of_the_order_is_near_proportional():
    instances = _sample().lexelts[0].instances
    order = nested_order(list(instances), random.Random(7))
    for length in range(10, 101, 10):
        counts = Counter(i.answers[0] for i in order[:length])
        assert abs(counts["a"] - 0.6 * length) <= 1 and abs(counts["c"] - 0.1 * length) <= 1


def test_bin_train_learning_curve_writes_json_and_no_model(run_command, tmp_path):
    result = run_command("train", "--train", FIXTURES / "train_small.xml",
                         "--test", FIXTURES / "test_small.xml",
                         "--key", FIXTURES / "test_small.key",
                         "--systems", "commonest,dlist", "--jobs", "1",
                         "--learning-curve", "0.25,1", "--models-dir", tmp_path / "models",
                         "--out-dir", tmp_path / "results")
    assert result.returncode == 0, result.stderr
    curve = read_learning_curve(tmp_path / "results" / "train_small" / "learning_curve.json")
    assert curve.seed == 0 and curve.systems() == ["commonest", "dlist"]
    assert [(p.fraction, p.training_instances) for p in curve.of("dlist")] == [(0.25, 12),
                                                                              (1.0, 48)]
    assert all(0 <= p.fine <= 1 and p.coarse is None for p in curve.points)
    assert "Fine-grained recall (%)" in result.stdout and "time:" in result.stdout
    assert not (tmp_path / "models").exists()
    assert not list((tmp_path / "results" / "train_small").glob("*.ans"))


def test_bin_train_refuses_bad_fractions(run_command, tmp_path):
    result = run_command("train", "--train", FIXTURES / "train_small.xml", "--split", "2:1",
                         "--learning-curve", "0,2", "--out-dir", tmp_path / "results")
    assert_one_line_error(result, "--learning-curve '0,2'")


def test_learning_curve_of_a_split_run_scores_on_the_held_out_part(run_command, tmp_path):
    result = run_command("train", "--train", FIXTURES / "train_small.xml", "--split", "2:1",
                         "--systems", "commonest", "--jobs", "1", "--learning-curve", "0.5,1",
                         "--out-dir", tmp_path / "results")
    assert result.returncode == 0, result.stderr
    curve = read_learning_curve(tmp_path / "results" / "train_small" / "learning_curve.json")
    # 32 of the 48 instances are on the training side of the 2:1 split
    assert [(p.fraction, p.training_instances) for p in curve.points] == [(0.5, 16), (1.0, 32)]
    assert not (tmp_path / "results" / "train_small" / "test.key").exists()
