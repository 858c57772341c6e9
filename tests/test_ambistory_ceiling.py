"""What bounds an AmbiStory rater: the two-way decomposition of each setup's ratings, the
roles the ratings give, and the rater told those roles, on hand-made samples."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from wsd_classic.benchmarks.ambistory import ceiling
from wsd_classic.benchmarks.ambistory.features import FEATURES, FeaturizedSplit
from wsd_classic.corpora.ambistory import AmbiStorySample

# Two ratings per sample whose mean is the value wanted.
CHOICES = {5.0: (5, 5), 4.0: (4, 4), 3.0: (3, 3), 2.0: (2, 2), 1.0: (1, 1)}


def _sample(key, setup, meaning, ending, average):
    return AmbiStorySample(key, "bank", meaning, f"Pre {setup}.", "The bank.", ending, "",
                           CHOICES[average])


def _samples():
    """Setup 0: meaning a is rated 2 above b (a +1, b -1), ending E1 half a point above E2, and
    E1 supports a, E2 b (interaction +-0.5); setup 1 is rated 2 throughout; setup 2 lacks
    ratings of four cells."""
    table = {("a", ""): 4.0, ("a", "E1."): 5.0, ("a", "E2."): 3.0,
             ("b", ""): 2.0, ("b", "E1."): 2.0, ("b", "E2."): 2.0}
    samples = [_sample(f"0{meaning}{ending}", 0, meaning, ending, value)
               for (meaning, ending), value in table.items()]
    samples += [_sample(f"1{meaning}{ending}", 1, meaning, ending, 2.0)
                for meaning, ending in table]
    samples += [_sample("2a", 2, "a", "E1.", 5.0), _sample("2b", 2, "b", "E1.", 1.0)]
    return samples


def test_complete_setups_become_tables_of_two_meanings_by_three_endings():
    samples = _samples()
    tables = ceiling.complete_tables(samples)
    assert len(tables) == 2 and all(table.shape == (2, 3) for table in tables)
    first = next(table for table in tables if samples[table[0, 0]].precontext == "Pre 0.")
    assert [samples[index].judged_meaning for index in first[:, 0]] == ["a", "b"]
    assert [samples[index].ending for index in first[0]] == ["", "E1.", "E2."]


def test_components_recover_the_effects_and_their_squares_add_up():
    samples = _samples()
    ratings = np.array([sample.average for sample in samples])
    parts = ceiling.components(ratings, ceiling.complete_tables(samples))
    assert parts["setup"][:6] == pytest.approx([0.5] * 6)
    assert parts["setup"][6:12] == pytest.approx([-0.5] * 6)
    assert parts["meaning"][:6] == pytest.approx([1, 1, 1, -1, -1, -1])
    assert parts["ending"][:6] == pytest.approx([0, 0.5, -0.5] * 2)
    assert parts["interaction"][:6] == pytest.approx([0, 0.5, -0.5, 0, -0.5, 0.5])
    assert np.isnan(parts["meaning"][12:]).all()  # setup 2 is incomplete
    shares = ceiling.variance_shares(samples)
    assert shares["setups"] == 2 and shares["samples"] == 12
    # setup 3 + meaning 6 + ending 1 + interaction 1 = 11, the squares around the grand mean
    assert shares["shares"] == pytest.approx({"setup": 3 / 11, "meaning": 6 / 11,
                                              "ending": 1 / 11, "interaction": 1 / 11})


def test_component_agreement_follows_each_component_apart():
    samples = _samples()
    ratings = np.array([sample.average for sample in samples])
    parts = ceiling.components(ratings, ceiling.complete_tables(samples))
    flipped = ratings - 2 * np.nan_to_num(parts["interaction"])
    agreement = ceiling.component_agreement(samples, flipped)
    assert agreement["meaning"] == pytest.approx(1.0)
    assert agreement["interaction"] == pytest.approx(-1.0)
    assert ceiling.component_agreement(samples, np.full(len(samples), 3.0))["meaning"] is None


def test_roles_come_from_the_other_meaning_of_the_same_story():
    samples = _samples()
    labels = dict(zip((sample.id for sample in samples), ceiling.roles(samples)))
    assert labels["0a"] == labels["0b"] == "open"
    assert (labels["0aE1."], labels["0bE1."]) == ("supported", "opposed")
    assert (labels["0aE2."], labels["0bE2."]) == ("supported", "opposed")  # 3 against 2
    assert labels["1aE1."] == "tie" and labels["2a"] == "supported"
    alone = [_sample("x", 3, "a", "E1.", 4.0)]
    assert ceiling.roles(alone) == ["tie"]


def test_the_role_oracle_answers_each_role_its_training_mean():
    train = _samples()
    outcome = ceiling.role_oracle(train, train)
    assert outcome["role_means"]["supported"] == pytest.approx((5 + 3 + 5) / 3)
    assert outcome["role_means"]["opposed"] == pytest.approx((2 + 2 + 1) / 3)
    assert outcome["samples"] == len(train)
    # A role the training samples lack gets their overall mean: all ties here, all 2.
    only_ties = [sample for sample in train if sample.precontext == "Pre 1."]
    assert ceiling.role_oracle(only_ties, train)["role_means"] == {"open": 2.0, "tie": 2.0}


def test_pairing_agreement_counts_setups_whose_endings_go_with_the_humans_meanings():
    samples = _samples()
    ratings = np.array([sample.average for sample in samples])
    assert ceiling.pairing_agreement(samples, ratings) == 1.0
    parts = ceiling.components(ratings, ceiling.complete_tables(samples))
    swapped = ratings - 2 * np.nan_to_num(parts["interaction"])  # each ending the other meaning
    assert ceiling.pairing_agreement(samples, swapped) == 0.0
    # setup 1 shows no pairing (rated 2 throughout) and setup 2 is incomplete: one setup counts
    only_flat = [sample for sample in samples if sample.precontext != "Pre 0."]
    assert np.isnan(ceiling.pairing_agreement(only_flat, np.arange(len(only_flat), dtype=float)))


def test_oracle_columns_hold_the_pairing_sign_and_the_meaning_effect():
    samples = _samples()
    assert ceiling.oracle_column(samples, "pairing")[:6].tolist() == [0, 1, -1, 0, -1, 1]
    assert ceiling.oracle_column(samples, "meaning")[:6] == pytest.approx([1, 1, 1, -1, -1, -1])
    assert (ceiling.oracle_column(samples, "meaning")[12:] == 0).all()  # incomplete setup
    with pytest.raises(ValueError):
        ceiling.oracle_column(samples, "setup")


def _many_setups(count):
    """``count`` complete setups, each meaning effect +-(setup % 3 + 1) / 2."""
    samples = []
    for setup in range(count):
        effect = (setup % 3 + 1) / 2 * (1 if setup % 2 else -1)
        for meaning, sign in (("a", 1), ("b", -1)):
            for ending in ("", "E1.", "E2."):
                samples.append(_sample(f"{setup}{meaning}{ending}", setup, meaning, ending,
                                       3.0 + sign * round(effect)))
    return samples


def test_a_blurred_meaning_effect_keeps_the_agreement_asked_and_opposes_the_two_meanings():
    samples = _many_setups(3000)
    effect = ceiling.oracle_column(samples, "meaning")
    for agreement in (0.3, 0.7):
        draws = [ceiling.blurred(samples, effect, agreement, seed) for seed in range(5)]
        assert np.mean([np.corrcoef(noisy, effect)[0, 1] for noisy in draws]) == pytest.approx(
            agreement, abs=0.03)
        assert draws[0][:3] == pytest.approx(-draws[0][3:6])  # the setup's two meanings
    assert not np.allclose(ceiling.blurred(samples, effect, 0.5, seed=0),
                           ceiling.blurred(samples, effect, 0.5, seed=1))


def test_a_rater_told_the_ratings_meaning_effect_scores_above_one_told_noise():
    samples = _many_setups(120)
    for index, sample in enumerate(samples):  # homonyms for the folds
        samples[index] = AmbiStorySample(sample.id, f"word{index // 12}", sample.judged_meaning,
                                         sample.precontext, sample.sentence, sample.ending, "",
                                         sample.choices)
    train, dev = samples[:480], samples[480:]
    split = {name: FeaturizedSplit(part, np.zeros((len(part), len(FEATURES))), Counter(), [])
             for name, part in (("train", train), ("dev", dev))}
    params = {"model": "ridge", "alpha": 1.0}
    told = ceiling.told_rater(params, ("ending",), split["train"], split["dev"],
                              ceiling.oracle_column(train, "meaning"),
                              ceiling.oracle_column(dev, "meaning"))
    rng = np.random.default_rng(0)
    noise = ceiling.told_rater(params, ("ending",), split["train"], split["dev"],
                               rng.normal(size=len(train)), rng.normal(size=len(dev)))
    assert told["samples"] == len(dev)
    assert told["spearman"] > 0.9 and told["accuracy"] > 0.9
    assert told["spearman"] > noise["spearman"] + 0.5
