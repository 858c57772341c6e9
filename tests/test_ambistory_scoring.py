"""AmbiStory files and the task's scores, on hand-made cases."""
from __future__ import annotations

import json
import math

import pytest
from conftest import assert_error_at

from wsd_classic.corpora.ambistory import read_ambistory
from wsd_classic.errors import WsdError
from wsd_classic.scoring.ambistory import (
    prediction_lines, score_ambistory, within_standard_deviation)


@pytest.mark.parametrize("prediction, ratings, expected", [
    # mean 3, sample SD 1.58: 2 and 4 are inside, 1 and 5 outside the open interval
    (4, [1, 2, 3, 4, 5], True), (5, [1, 2, 3, 4, 5], False), (1, [1, 2, 3, 4, 5], False),
    # mean 4, SD 0: only the second rule, strictly below 1 away
    (4, [4, 4, 4, 4, 4], True), (3, [4, 4, 4, 4, 4], False), (5, [4, 4, 4, 4, 4], False),
    # mean 3.6, SD 0.548: 3 is 0.6 away (second rule), 5 is 1.4 away and beyond the SD
    (3, [3, 3, 4, 4, 4], True), (5, [3, 3, 4, 4, 4], False),
    # mean 2.4, SD 1.67: 4 lies within 2.4 + 1.67 although 1.6 away
    (4, [1, 1, 5, 1, 4], True),
])
def test_within_standard_deviation_has_both_rules(prediction, ratings, expected):
    assert within_standard_deviation(prediction, ratings) is expected


def test_spearman_over_integer_predictions_and_accuracy():
    ratings = {"0": [1, 1, 2], "1": [3, 3, 3], "2": [5, 4, 5], "3": [2, 2, 3]}
    score = score_ambistory({"0": 1, "1": 3, "2": 4, "3": 3}, ratings)
    # means 1.33, 3, 4.67, 2.33 rank 1, 3, 4, 2; predictions 1, 3, 4, 3 rank 1, 2.5, 4, 2.5
    assert score.spearman == pytest.approx(0.9486833)
    assert score.accuracy == 1.0 and score.samples == 4
    constant = score_ambistory({key: 4 for key in ratings}, ratings)
    assert math.isnan(constant.spearman) and constant.as_dict()["spearman"] is None
    assert constant.accuracy == 0.25
    with pytest.raises(WsdError, match="no prediction for 1 sample"):
        score_ambistory({"0": 1, "1": 3, "2": 4}, ratings)


def test_prediction_lines_are_the_task_s_json_lines_in_the_order_given():
    assert prediction_lines({"7": 2, "3": 5}) == [
        '{"id": "7", "prediction": 2}', '{"id": "3", "prediction": 5}']


STORY = {
    "homonym": "pitch", "judged_meaning": "the property of sound that varies with frequency",
    "precontext": "The choir warmed up. Nobody sang in tune. The conductor frowned.",
    "sentence": "She checked the pitch.", "ending": "",
    "example_sentence": "His voice rose in pitch.",
}


def test_reader_takes_rated_and_redacted_samples(tmp_path):
    path = tmp_path / "stories.json"
    path.write_text(json.dumps({
        "0": {**STORY, "choices": [4, 5, 4], "average": 4.33, "stdev": 0.58},
        "1": {**STORY, "ending": "The tuning fork agreed. ", "choices": "(???)"},
    }, indent=1))
    rated, redacted = read_ambistory(path)
    assert rated.choices == (4, 5, 4) and rated.average == pytest.approx(13 / 3)
    assert redacted.choices is None and redacted.ending == "The tuning fork agreed."
    assert rated.setup == redacted.setup and rated.story[2] == ""


@pytest.mark.parametrize("sample, fragment", [
    ({**STORY, "choices": [4, 9]}, "choices must be"),
    ({**STORY, "choices": [4]}, "choices must be"),
    ({key: value for key, value in STORY.items() if key != "ending"} | {"choices": [3, 3]},
     "lacks ending"),
    ({**STORY, "sentence": " ", "choices": [3, 3]}, "sentence is empty"),
    ({**STORY, "homonym": 7, "choices": [3, 3]}, "homonym is not a string"),
])
def test_reader_errors_name_the_sample_line(tmp_path, sample, fragment):
    path = tmp_path / "stories.json"
    good = {**STORY, "choices": [3, 4]}
    path.write_text(json.dumps({"0": good, "1": sample}, indent=1))
    line = path.read_text().splitlines().index(' "1": {') + 1
    assert_error_at(read_ambistory, path, line, fragment)


def test_reader_refuses_what_is_not_an_object_of_samples(tmp_path):
    path = tmp_path / "stories.json"
    path.write_text('{"0": {\n"homonym": }')
    assert_error_at(read_ambistory, path, 2, "not JSON")
    path.write_text("[1, 2]")
    assert_error_at(read_ambistory, path, 1, "expected a non-empty JSON object")
