"""Worn print (`Style.print_wear`, `synth/wear.py`): a face printed as a real deck is,
with its shape, alpha and labels kept, and the scenes without it drawn as before."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from scorekeeper_lab.training.synth.compose import READABLE, Style, compose_scene  # noqa: E402
from scorekeeper_lab.training.synth.fallback import fallback_deck  # noqa: E402
from scorekeeper_lab.training.synth.wear import wear_print  # noqa: E402


def _contrast(img: np.ndarray) -> float:
    grey = cv2.cvtColor(img[:, :, :3], cv2.COLOR_BGR2GRAY)
    lo, hi = np.percentile(grey, [2, 98])
    return float(hi - lo)


def test_a_worn_face_keeps_its_shape_and_alpha_and_is_seeded() -> None:
    face = fallback_deck().faces[0].image
    a = wear_print(np.random.default_rng(3), face)
    b = wear_print(np.random.default_rng(3), face)
    assert a.shape == face.shape and a.dtype == face.dtype
    assert np.array_equal(a[:, :, 3], face[:, :, 3])
    assert np.array_equal(a, b)
    assert not np.array_equal(a[:, :, :3], face[:, :, :3])


def test_worn_print_is_never_sharper_in_contrast_than_the_art() -> None:
    # fade and paper only take contrast away; grain adds a little noise at most
    face = fallback_deck().faces[5].image
    base = _contrast(face)
    for seed in range(12):
        assert _contrast(wear_print(np.random.default_rng(seed), face)) <= base + 12


def test_wear_changes_the_pixels_and_not_the_labels() -> None:
    deck = [fallback_deck()]
    plain = compose_scene(np.random.default_rng(9), deck, (320, 320), READABLE)
    again = compose_scene(np.random.default_rng(9), deck, (320, 320), READABLE)
    assert np.array_equal(plain.image, again.image)  # no wear: no draw from the generator
    worn_style = Style(readable=True, tight_fans=READABLE.tight_fans, print_wear=1.0)
    worn = compose_scene(np.random.default_rng(9), deck, (320, 320), worn_style)
    # the layout is drawn before any wear, so the same cards lie in the same places
    assert [c.card for c in worn.cards] == [c.card for c in plain.cards]
    assert all(np.allclose(w.outline, p.outline) for w, p in zip(worn.cards, plain.cards,
                                                                 strict=True))
