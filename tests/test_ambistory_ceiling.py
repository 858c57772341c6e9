"""What bounds an AmbiStory rater: the two-way decomposition of each setup's ratings, the
roles the ratings give, and the rater told those roles, on hand-made samples."""
from __future__ import annotations

import numpy as np
import pytest

from wsd_classic.benchmarks import ambistory_ceiling as ceiling
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
