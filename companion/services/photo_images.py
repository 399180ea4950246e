"""A photo as the app keeps it: decoded with Pillow under caps, turned upright, made sRGB,
scaled down, and written anew as a JPEG that carries no metadata at all.

Nothing a phone sends is stored as it came: what is kept is a fresh encoding of the
pixels alone (no EXIF, so no location, no camera, no time; no comment, XMP or colour
profile). Before any pixel is decoded the file's size and its dimensions (read from its
header) are checked, so a small file that claims billions of pixels (a decompression
bomb) is refused for what it claims. Only the decoders of the formats a phone's camera
or screenshot gives are ever tried.

>>> from PIL import Image
>>> out = io.BytesIO()
>>> Image.new("RGB", (3200, 1600), "teal").save(out, "PNG")
>>> kept = prepare(out.getvalue())
>>> (kept.width, kept.height), kept.photo[:2] == JPEG_START
((1600, 800), True)
>>> try:
...     prepare(b"<html>not a photo</html>")
... except PhotoRefused as refused:
...     print(refused.message)
This file is not a photo the app can read (JPEG, PNG or WebP).
"""

from __future__ import annotations

import base64
import binascii
import io
import struct
import warnings
from dataclasses import dataclass

from PIL import Image, ImageCms, ImageOps, UnidentifiedImageError

from companion.games.text import N_, _

#: What is kept: the photo at most this many pixels on its long side, and a thumbnail.
LONG_SIDE = 1600
THUMBNAIL_SIDE = 360
#: JPEG quality of what is kept (a 1600 px photo of a table is 150-400 KB).
QUALITY = 82
THUMBNAIL_QUALITY = 78
#: The most a sent file may weigh: a phone's camera gives 2-8 MB, a 50 MP shot about 15.
MAX_BYTES = 16 * 1024 * 1024
#: The most pixels a sent photo may have (a 48 MP sensor's full shot fits; more is a
#: decompression bomb or nothing a phone takes). Checked from the header, before decoding.
MAX_PIXELS = 50_000_000
#: The decoders ever tried: what phones' cameras and screenshots give.
FORMATS = ("JPEG", "PNG", "WEBP")
JPEG_START = b"\xff\xd8"
JPEG_END = b"\xff\xd9"
#: What may be filled in behind a photo's transparent parts (a screenshot's corners).
BACKGROUND = (255, 255, 255)

#: Why a photo is refused, in English (translated where it is refused, with ``_``).
NOT_A_PHOTO = N_("This file is not a photo the app can read (JPEG, PNG or WebP).")
EMPTY = N_("Choose a photo first (or take one with the camera).")
BROKEN = N_("This photo is damaged or cut short: take it again.")
#: The refusals that name a limit: their message, and the limit it names.
TOO_LARGE_WORDS = N_("This photo is larger than %(size)s MB: send a smaller one.")
TOO_LARGE_LIMIT = {"size": MAX_BYTES // (1024 * 1024)}
TOO_MANY_PIXELS_WORDS = N_(
    "This photo has more than %(millions)s million pixels: the app does not open it (take "
    "it at the camera's usual size)."
)
TOO_MANY_PIXELS_LIMIT = {"millions": MAX_PIXELS // 1_000_000}
#: The same refusals in English, as the app says them.
TOO_LARGE = TOO_LARGE_WORDS % TOO_LARGE_LIMIT
TOO_MANY_PIXELS = TOO_MANY_PIXELS_WORDS % TOO_MANY_PIXELS_LIMIT

# A photo claiming more pixels than Pillow's own guard allows is refused like any other
# past MAX_PIXELS: its warning is an error here (process-wide, and for this warning only),
# never a line in the log while the decoding goes on.
warnings.simplefilter("error", Image.DecompressionBombWarning)


#: What Pillow's decoders raise on a damaged or hostile file (a truncated stream, a header
#: that lies, an EXIF block whose offsets point nowhere).
_BROKEN_FILE = (
    OSError,
    ValueError,
    EOFError,
    MemoryError,
    TypeError,
    KeyError,
    IndexError,
    ZeroDivisionError,
    struct.error,
    ImageCms.PyCMSError,
)


class PhotoRefused(Exception):  # noqa: N818 - raised as "the photo is refused"
    """A sent file the app does not keep; ``message`` says why, for the person (in the
    reader's language)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Prepared:
    """A photo as it is kept: its JPEG, its thumbnail's, and its size in pixels."""

    photo: bytes
    thumbnail: bytes
    width: int
    height: int


def prepare(data: bytes) -> Prepared:
    """The photo to keep from what a phone sent (see the module's docstring); raises
    :class:`PhotoRefused` with the reason."""
    if not data:
        raise PhotoRefused(_(EMPTY))
    if len(data) > MAX_BYTES:
        raise PhotoRefused(_(TOO_LARGE_WORDS, **TOO_LARGE_LIMIT))
    try:
        with warnings.catch_warnings():
            # A damaged EXIF block (Pillow warns "Corrupt EXIF data") only loses what the
            # photo would be stripped of anyway; the orientation then stays as stored.
            warnings.simplefilter("ignore", UserWarning)
            with _opened(data) as image:
                upright = _decoded(image)
    except PhotoRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise _too_many_pixels() from None
    except (UnidentifiedImageError, SyntaxError):
        raise PhotoRefused(_(NOT_A_PHOTO)) from None
    except _BROKEN_FILE:
        raise PhotoRefused(_(BROKEN)) from None
    return _kept(upright)


def _opened(data: bytes) -> Image.Image:
    """The image, opened (its header read, no pixel decoded) and its size checked."""
    image = Image.open(io.BytesIO(data), formats=FORMATS)
    width, height = image.size
    if width < 1 or height < 1 or width * height > MAX_PIXELS:
        image.close()
        raise _too_many_pixels() if width * height > MAX_PIXELS else PhotoRefused(_(NOT_A_PHOTO))
    return image


def _too_many_pixels() -> PhotoRefused:
    return PhotoRefused(_(TOO_MANY_PIXELS_WORDS, **TOO_MANY_PIXELS_LIMIT))


def _decoded(image: Image.Image) -> Image.Image:
    """The pixels, upright, in sRGB, at most :data:`LONG_SIDE` on the long side."""
    # A JPEG is decoded straight at a half, quarter or eighth of its size when that is
    # still at least the size kept: a 48 MP photo then takes a sixteenth of the memory.
    image.draft("RGB", _fitted(image.size, LONG_SIDE))
    profile = image.info.get("icc_profile")
    upright = ImageOps.exif_transpose(image)
    srgb = _in_srgb(_rgb(upright), profile)
    srgb.thumbnail((LONG_SIDE, LONG_SIDE), Image.Resampling.LANCZOS)
    return srgb


def _fitted(size: tuple[int, int], side: int) -> tuple[int, int]:
    """``size`` scaled to fit a square of ``side`` (never enlarged).

    >>> _fitted((4000, 3000), 1600), _fitted((300, 200), 1600)
    ((1600, 1200), (300, 200))
    """
    width, height = size
    scale = min(1.0, side / max(width, height))
    return max(1, round(width * scale)), max(1, round(height * scale))


def _rgb(image: Image.Image) -> Image.Image:
    """Plain RGB pixels: transparency laid on white, palettes and greys expanded."""
    if image.mode == "RGB":
        return image
    if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
        rgba = image.convert("RGBA")
        flat = Image.new("RGB", rgba.size, BACKGROUND)
        flat.paste(rgba, mask=rgba.getchannel("A"))
        return flat
    return image.convert("RGB")


def _in_srgb(image: Image.Image, profile: bytes | None) -> Image.Image:
    """The pixels in sRGB: a phone's wide-gamut photo (Display P3) keeps its colours once
    its profile is dropped. A profile that cannot be read is ignored."""
    if not profile:
        return image
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
        converted = ImageCms.profileToProfile(image, source, _SRGB, outputMode="RGB")
    except (ImageCms.PyCMSError, OSError, ValueError, TypeError):
        return image
    return converted if converted is not None else image


_SRGB = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB"))


def _kept(image: Image.Image) -> Prepared:
    """The JPEGs of the photo and of its thumbnail, written from the pixels alone."""
    image.info.clear()  # Pillow would carry a JPEG comment over
    thumbnail = image.copy()
    thumbnail.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), Image.Resampling.LANCZOS)
    return Prepared(
        photo=_jpeg(image, QUALITY),
        thumbnail=_jpeg(thumbnail, THUMBNAIL_QUALITY),
        width=image.width,
        height=image.height,
    )


def _jpeg(image: Image.Image, quality: int) -> bytes:
    out = io.BytesIO()
    image.save(out, "JPEG", quality=quality, optimize=True)
    return out.getvalue()


def from_base64(text: object) -> bytes:
    """A photo's bytes from its base64 text (an export's ``jpeg``); ``ValueError`` when it
    is not base64 text.

    >>> from_base64("/9j/")
    b'\\xff\\xd8\\xff'
    >>> from_base64(12)
    Traceback (most recent call last):
    ...
    ValueError: not base64 text
    """
    if not isinstance(text, str):
        raise ValueError("not base64 text")
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise ValueError("not base64 text") from None


def restored(data: bytes) -> Prepared:
    """A photo from a backup: kept byte for byte when it is what :func:`prepare` writes (a
    JPEG of at most :data:`LONG_SIDE` with no metadata, whole), so that exporting an
    import gives the same document again; anything else goes through :func:`prepare`.
    The thumbnail is made again from it."""
    if not _is_kept_form(data):
        return prepare(data)
    with Image.open(io.BytesIO(data), formats=("JPEG",)) as image:
        image.load()
        pixels = image.copy()
    thumbnail = pixels.copy()
    thumbnail.info.clear()
    thumbnail.thumbnail((THUMBNAIL_SIDE, THUMBNAIL_SIDE), Image.Resampling.LANCZOS)
    return Prepared(data, _jpeg(thumbnail, THUMBNAIL_QUALITY), pixels.width, pixels.height)


def _is_kept_form(data: bytes) -> bool:
    """Whether ``data`` is a whole baseline RGB JPEG within the kept size whose only
    marker besides the image is JFIF's (no EXIF, XMP, profile or comment)."""
    if not (data.startswith(JPEG_START) and data.endswith(JPEG_END)) or len(data) > MAX_BYTES:
        return False
    try:
        with Image.open(io.BytesIO(data), formats=("JPEG",)) as image:
            if image.mode != "RGB" or max(image.size) > LONG_SIDE or "comment" in image.info:
                return False
            if any(marker != "APP0" for marker, _ in image.applist):  # type: ignore[attr-defined]
                return False
            image.load()
    except (
        UnidentifiedImageError,
        SyntaxError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        *_BROKEN_FILE,
    ):
        return False
    return True
