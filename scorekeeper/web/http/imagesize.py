"""An image's format and size from its first bytes, before anything is decoded.

A few hundred KB of PNG can declare 20 000 × 20 000 pixels, which OpenCV would decode into
over a gigabyte; reading the header first lets the server refuse it for free. Only the
formats a phone sends (and `cv2.imdecode` reads) are recognised: anything else is refused
rather than handed to a rarer decoder.
"""

from __future__ import annotations

import struct
from typing import NamedTuple

_PNG = b"\x89PNG\r\n\x1a\n"
# start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range
_JPEG_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_JPEG_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})


class ImageSize(NamedTuple):
    format: str
    width: int
    height: int

    @property
    def pixels(self) -> int:
        return self.width * self.height


def image_size(data: bytes) -> ImageSize | None:
    """JPEG, PNG, WebP or BMP dimensions; None for another format or a broken header."""
    for reader in (_png, _jpeg, _webp, _bmp):
        try:
            size = reader(data)
        except (struct.error, IndexError):
            return None
        if size is not None:
            return size if size.width > 0 and size.height > 0 else None
    return None


def _png(data: bytes) -> ImageSize | None:
    """IHDR must be the first chunk, so its width and height sit at fixed offsets."""
    if not data.startswith(_PNG) or data[12:16] != b"IHDR":
        return None
    width, height = struct.unpack_from(">II", data, 16)
    return ImageSize("png", width, height)


def _jpeg(data: bytes) -> ImageSize | None:
    """Walk the marker segments to the first start-of-frame (EXIF thumbnails are skipped)."""
    if not data.startswith(b"\xff\xd8"):
        return None
    at = 2
    while True:
        if data[at] != 0xFF:
            raise IndexError("not a marker")
        while data[at] == 0xFF:  # fill bytes may pad any marker
            at += 1
        marker = data[at]
        if marker in _JPEG_STANDALONE:
            at += 1
            continue
        if marker in (0xD9, 0xDA):  # end of image, or scan data before any frame header
            raise IndexError("no frame header")
        (length,) = struct.unpack_from(">H", data, at + 1)
        if marker in _JPEG_SOF:
            height, width = struct.unpack_from(">HH", data, at + 4)
            return ImageSize("jpeg", width, height)
        at += 1 + length


def _webp(data: bytes) -> ImageSize | None:
    """Lossy (VP8), lossless (VP8L) or extended (VP8X: the canvas, which frames must fill)."""
    if data[:4] != b"RIFF" or data[8:12] != b"WEBP":
        return None
    chunk = data[12:16]
    if chunk == b"VP8 ":
        if data[23:26] != b"\x9d\x01\x2a":
            raise IndexError("bad VP8 start code")
        width, height = struct.unpack_from("<HH", data, 26)
        return ImageSize("webp", width & 0x3FFF, height & 0x3FFF)
    if chunk == b"VP8L":
        if data[20] != 0x2F:
            raise IndexError("bad VP8L signature")
        (bits,) = struct.unpack_from("<I", data, 21)
        return ImageSize("webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
    if chunk == b"VP8X":
        width = int.from_bytes(data[24:27], "little") + 1
        height = int.from_bytes(data[27:30], "little") + 1
        return ImageSize("webp", width, height)
    raise IndexError("unknown WebP chunk")


def _bmp(data: bytes) -> ImageSize | None:
    """BITMAPINFOHEADER and later (signed, a negative height is top-down), or the old core one."""
    if data[:2] != b"BM":
        return None
    (header,) = struct.unpack_from("<I", data, 14)
    if header == 12:
        width, height = struct.unpack_from("<HH", data, 18)
    elif header >= 40:
        width, height = struct.unpack_from("<ii", data, 18)
    else:
        raise IndexError("unknown BMP header")
    return ImageSize("bmp", abs(width), abs(height))
