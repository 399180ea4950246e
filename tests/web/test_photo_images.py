"""What a sent photo becomes (``services/photo_images.py``), without an app: any file,
however damaged, is either kept as a clean JPEG within the caps or refused with a
sentence, never an exception of another kind or a warning; a photo from a backup in the
app's own form is kept byte for byte."""

from __future__ import annotations

import io

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageCms

from companion.services import photo_images
from companion.services.photo_images import PhotoRefused, prepare, restored
from support.photos import bomb_png, camera_jpeg, plain_png


def _webp() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), "orange").save(out, "WEBP")
    return out.getvalue()


SOURCES = {"jpeg": camera_jpeg((400, 300)), "png": plain_png((300, 200)), "webp": _webp()}


def _is_clean_jpeg(data: bytes) -> bool:
    with Image.open(io.BytesIO(data)) as image:
        return (
            image.format == "JPEG"
            and max(image.size) <= photo_images.LONG_SIDE
            and not image.getexif()
            and [marker for marker, _ in image.applist] == ["APP0"]
        )


def test_a_photo_with_a_damaged_exif_block_is_kept_clean() -> None:
    # Found by a random run: Pillow warns of the corrupt EXIF while opening the file.
    image = io.BytesIO()
    exif = b"Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x05\x01\x12\x00\x03"
    Image.new("RGB", (20, 10)).save(image, "JPEG", exif=exif)
    kept = photo_images.prepare(image.getvalue())
    assert _is_clean_jpeg(kept.photo)
    assert (kept.width, kept.height) == (20, 10)


@settings(max_examples=150, deadline=None)
@given(
    source=st.sampled_from(sorted(SOURCES)),
    flips=st.lists(st.tuples(st.integers(0, 10**6), st.integers(1, 255)), max_size=8),
    cut=st.integers(0, 10**6),
)
@example(source="jpeg", flips=[], cut=10)
@example(source="png", flips=[(30, 7)], cut=10**6)
@example(source="webp", flips=[(20, 255)], cut=10**6)
def test_any_damaged_file_is_kept_clean_or_refused_in_words(
    source: str, flips: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray(SOURCES[source])
    for at, mask in flips:
        data[at % len(data)] ^= mask
    damaged = bytes(data[: max(1, cut % (len(data) + 1))])
    outcome = _outcome(damaged)
    if isinstance(outcome, str):
        assert outcome in REFUSALS
    else:
        assert _is_clean_jpeg(outcome.photo)
        assert _is_clean_jpeg(outcome.thumbnail)


REFUSALS = {
    photo_images.NOT_A_PHOTO,
    photo_images.BROKEN,
    photo_images.TOO_MANY_PIXELS,
    photo_images.EMPTY,
}


def _outcome(data: bytes) -> photo_images.Prepared | str:
    """What is kept of ``data``, or the sentence refusing it."""
    try:
        return prepare(data)
    except PhotoRefused as refused:
        return refused.message


def test_a_bomb_is_refused_from_its_header_whatever_pillow_would_say() -> None:
    for bomb in (bomb_png(), bomb_png(60_000_000, 1)):
        with pytest.raises(PhotoRefused, match="million pixels"):
            prepare(bomb)


def test_a_wide_gamut_photo_is_made_srgb_and_its_profile_dropped() -> None:
    wide = ImageCms.ImageCmsProfile(ImageCms.createProfile("LAB")).tobytes()
    out = io.BytesIO()
    Image.new("RGB", (200, 100), (200, 40, 40)).save(out, "JPEG", icc_profile=wide)
    kept = prepare(out.getvalue())
    with Image.open(io.BytesIO(kept.photo)) as image:
        assert "icc_profile" not in image.info
        assert _is_clean_jpeg(kept.photo)


def test_a_photo_in_the_apps_form_is_restored_byte_for_byte_and_others_made_anew() -> None:
    kept = prepare(camera_jpeg((2000, 1000)))
    again = restored(kept.photo)
    assert again.photo == kept.photo
    assert (again.width, again.height) == (kept.width, kept.height)
    assert again.thumbnail == kept.thumbnail
    foreign = camera_jpeg((300, 200))
    cleaned = restored(foreign)
    assert cleaned.photo != foreign
    assert _is_clean_jpeg(cleaned.photo)
    with pytest.raises(PhotoRefused, match="damaged or cut short"):
        restored(kept.photo[: len(kept.photo) // 2])
