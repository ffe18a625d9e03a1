"""The camera's status carries a `reason` code beside its English `error` (kept for the log):
the page says each reason in its own language, so every reason a camera can give has words
in every catalogue, and they are not English repeated."""

from __future__ import annotations

from typing import get_args

from scorekeeper.camera.base import Reason
from scorekeeper.web.refusals.catalogue import LANGUAGES, words


def test_every_camera_reason_has_words_in_every_language() -> None:
    reasons = get_args(Reason)
    assert "no_camera" in reasons
    english = words("en")
    for language in LANGUAGES:
        w = words(language)
        missing = [r for r in reasons if f"camera.reason.{r}" not in w]
        assert missing == [], f"{language} cannot say camera reasons {missing}"
        if language != "en":
            same = [r for r in reasons if w[f"camera.reason.{r}"] == english[f"camera.reason.{r}"]]
            assert same == [], f"{language} repeats English for {same}"


def test_the_catalogues_hold_no_words_for_a_camera_reason_that_is_gone() -> None:
    keys = {k.removeprefix("camera.reason.") for k in words("en") if k.startswith("camera.reason.")}
    assert keys == set(get_args(Reason))
