"""Photos for tests: a phone's camera shot (EXIF with a location, an orientation and the
phone's make, a comment), files that only pretend to be photos, decompression bombs, and
sending one to a play through its form."""

from __future__ import annotations

import io
import struct
import zlib

from flask.testing import FlaskClient
from PIL import ExifTags, Image
from werkzeug.test import TestResponse

from support.client import HTMX, csrf

#: What the test camera writes into its photos, none of which may be kept.
PHONE_MAKE = "PhoneCo Camera 12"
COMMENT = "taken at Ann's flat"
LATITUDE = (48.0, 51.0, 24.0)


def camera_jpeg(size: tuple[int, int] = (1200, 800), *, colour: str = "teal") -> bytes:
    """A JPEG as a phone's camera writes it: EXIF with the location (GPS), the make and
    an orientation of 6 (the phone was held upright: the picture is to be turned 90°
    clockwise), and a comment."""
    exif = Image.Exif()
    exif[ExifTags.Base.Orientation] = 6
    exif[ExifTags.Base.Make] = PHONE_MAKE
    gps = exif.get_ifd(ExifTags.IFD.GPSInfo)
    gps[ExifTags.GPS.GPSLatitudeRef] = "N"
    gps[ExifTags.GPS.GPSLatitude] = LATITUDE
    gps[ExifTags.GPS.GPSLongitudeRef] = "E"
    gps[ExifTags.GPS.GPSLongitude] = (2.0, 21.0, 7.0)
    out = io.BytesIO()
    Image.new("RGB", size, colour).save(out, "JPEG", exif=exif, comment=COMMENT.encode())
    return out.getvalue()


def plain_png(size: tuple[int, int] = (640, 480)) -> bytes:
    """A small PNG with transparency (a screenshot's)."""
    out = io.BytesIO()
    Image.new("RGBA", size, (200, 30, 30, 128)).save(out, "PNG")
    return out.getvalue()


def _chunk(kind: bytes, data: bytes) -> bytes:
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))


def bomb_png(width: int = 100_000, height: int = 100_000) -> bytes:
    """A PNG of a few hundred bytes whose header claims ``width`` x ``height`` pixels
    (ten billion by default): decoding it would take gigabytes."""
    header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * 1024)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", rows)
        + _chunk(b"IEND", b"")
    )


#: Not photos, each named and typed as a JPEG by the form that sends it.
PRETENDERS = {
    "html": b"<!doctype html><script>alert(1)</script>",
    "svg": b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    "gif": (
        b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff!\xf9\x04\x01"
        b"\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;"
    ),
    "truncated jpeg": b"\xff\xd8\xff\xe0\x00\x10JFIF\x00",
}


BOUNDARY = "odd-companion-photo"


def multipart(fields: dict[str, str], photo: bytes, *, name: str = "photo.jpg") -> bytes:
    """A ``multipart/form-data`` body (boundary :data:`BOUNDARY`) with ``fields`` and the
    photo as the ``photo`` field, typed ``image/jpeg``: built in memory (the test client
    spools a large body of files to a temporary file it never closes)."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
        for key, value in fields.items()
    ]
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="photo"; filename="{name}"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    )
    return "".join(parts).encode() + head.encode() + photo + f"\r\n--{BOUNDARY}--\r\n".encode()


def send_photo(
    client: FlaskClient,
    token: str,
    play_id: int,
    data: bytes,
    *,
    name: str = "photo.jpg",
    htmx: bool = False,
) -> TestResponse:
    """Send ``data`` as the play's photo (typed ``image/jpeg``) through its form."""
    fields = {"csrf_token": csrf(client, f"/t/{token}"), "anchor": "play-photos"}
    return client.post(
        f"/t/{token}/plays/{play_id}/photos",
        data=multipart(fields, data, name=name),
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
        headers=HTMX if htmx else {},
    )
