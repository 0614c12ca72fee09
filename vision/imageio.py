"""Photo intake: bytes or a path in, an upright (H, W, 3) uint8 RGB array out.

Every way a file can be bad ends in `ImageError` (a `ValueError`) whose message is
one line naming what was wrong; nothing else escapes. Memory stays bounded: the
pixel count is read from the header and checked BEFORE any pixel is decoded.

Size policy:
- files over `max_bytes` (64 MB) are refused unread;
- images over `MAX_SOURCE_PIXELS` (150 MP, the header size) are refused as likely
  decompression bombs; phone photos top out near 108 MP;
- images over `max_pixels` (16 MP) are downscaled (INTER_AREA) so their area fits;
  JPEGs are decoded directly at 1/2, 1/4 or 1/8 scale (libjpeg "draft" mode) when that
  still leaves at least `max_pixels`, so a photo of 64 MP or more never exists in memory at full
  size (a 48 MP one is decoded whole, about 0.8 s here: its half, 12 MP, is under the budget).
  Tiles in such photos stay far larger than the classifier's input, so nothing is lost;
- images under `MIN_SIDE` (64 px) on either side are refused: no tile can be read there.
"""

from __future__ import annotations

import io
import logging
import math
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps, UnidentifiedImageError

try:
    from pillow_heif import register_heif_opener
except ImportError:  # a declared dependency; where an install lacks it, every other format still reads
    HEIC_READER = False
else:
    register_heif_opener()
    HEIC_READER = True
Image.init()  # load every plugin so Image.open(formats=...) knows the names below
# Pillow warns on stderr of a damaged file's metadata ("Corrupt EXIF data"): a damaged file gets our
# one-line error, or is read, so the warning would only break the promise of one line. Set once here:
# warnings.catch_warnings is not safe while the app reads photos on several threads.
warnings.filterwarnings("ignore", category=UserWarning, module=r"PIL\.")
# Pillow also logs (at error level) what it then raises, e.g. a TIFF's "More samples per pixel than can be
# decoded": with no handler of its own, Python's last-resort handler put that on stderr above our one line.
# A handler that drops it keeps the last resort away; an app's own logging still gets the record.
logging.getLogger("PIL").addHandler(logging.NullHandler())

MAX_BYTES = 64 * 1024 * 1024
MAX_SOURCE_PIXELS = 150_000_000
MAX_PIXELS = 16_000_000
MIN_SIDE = 64
# Formats a phone or a screenshot produces. Restricting Image.open to these also keeps
# Pillow from handing e.g. EPS files to Ghostscript.
FORMATS: tuple[str, ...] = tuple(
    name
    for name in ("JPEG", "MPO", "PNG", "WEBP", "GIF", "BMP", "TIFF", "HEIF", "AVIF")
    if name in Image.OPEN
)
SUPPORTED = "JPEG, PNG, HEIC, AVIF, WebP, GIF, BMP or TIFF"
NO_HEIC_READER = (
    "HEIC photos need the pillow-heif package, which this install lacks (pip install pillow-heif); "
    "a JPEG of the photo reads now"
)
TRUNCATED = "image file is truncated (incomplete download or upload?)"


class ImageError(ValueError):
    """A photo that cannot be used; the message is one line for the user."""


class PngMetadataTooLarge(ImageError):
    """A PNG whose text or colour-profile chunks Pillow will not inflate (over its 1 MB a chunk or 64 MB
    in all, against zip bombs): `read_image` reads it again without them, as its pixels need none."""


@dataclass(frozen=True)
class LoadedImage:
    """An upright RGB photo and how it relates to the file.

    `source_width`/`source_height` are the EXIF-rotated size of the file; `scale` is
    rgb size / source size (1.0 unless the photo was over `max_pixels`).
    """

    rgb: np.ndarray
    source_width: int
    source_height: int
    scale: float
    format: str


def _megapixels(pixels: int) -> str:
    return f"{pixels / 1e6:.0f} megapixels"


def _read_bytes(source: bytes | bytearray | memoryview | str | Path, max_bytes: int) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        data = bytes(source)
    else:
        path = Path(source)
        try:
            size = path.stat().st_size
            if path.is_dir():
                raise ImageError("not a file")
            if size > max_bytes:
                raise ImageError(_too_many_bytes(size, max_bytes))
            # a pipe (`<(curl ...)`, /dev/stdin) states no size: read one byte past the limit to tell
            with path.open("rb") as handle:
                data = handle.read(max_bytes + 1)
        except FileNotFoundError:
            raise ImageError("file not found") from None
        except PermissionError:
            raise ImageError("permission denied") from None
        except IsADirectoryError:
            raise ImageError("not a file") from None
        except OSError as error:
            raise ImageError(f"cannot read file: {error.strerror or error}") from None
    if not data:
        raise ImageError("file is empty (0 bytes)")
    if len(data) > max_bytes:
        raise ImageError(_too_many_bytes(len(data), max_bytes))
    return data


def _too_many_bytes(size: int, limit: int) -> str:
    if size == limit + 1:
        # read one byte past the limit (a pipe, a device): its size is unknown, only that it is over
        return f"file is too large: over the limit of {limit / 2**20:.0f} MB"
    return f"file is too large: {size / 2**20:.1f} MB (limit {limit / 2**20:.0f} MB)"


def _open(data: bytes) -> Image.Image:
    """Parse the header only (Pillow opens lazily)."""
    try:
        with warnings.catch_warnings():
            # We apply our own, lower limit below; Pillow's warning would only be noise.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(io.BytesIO(data), formats=list(FORMATS))
    except Image.DecompressionBombError as error:
        # Pillow refuses above 2x its own limit before telling us the size; its message has the pixel count.
        match = re.search(r"\((\d+) pixels\)", str(error))
        over = _megapixels(int(match.group(1))) if match else "too many pixels"
        raise ImageError(f"image is too large: {over} (limit {_megapixels(MAX_SOURCE_PIXELS)})") from None
    except UnidentifiedImageError:
        kind = signature_format(data)
        if kind == "HEIC" and not HEIC_READER:
            raise ImageError(NO_HEIC_READER) from None
        bits = jpeg_precision(data) if kind == "JPEG" else None
        if bits is not None and bits != 8:  # intact, and of a depth Pillow does not decode
            raise ImageError(
                f"image file is a {bits}-bit JPEG, which this reader cannot decode: save it as an ordinary"
                " (8-bit) JPEG or a PNG"
            ) from None
        if kind is not None:  # the file says what it is, and its header cannot be read: damaged
            article = "an" if kind[:1] in "AEIOU" else "a"  # "an AVIF file" (an audit, stage 77)
            said = f"image file is corrupt or cut off (it begins as {article} {kind} file)"
            raise ImageError(said) from None
        raise ImageError(f"not a supported image file (expected {SUPPORTED})") from None
    except (RecursionError, NotImplementedError):
        raise  # bugs, not a file's damage (both are RuntimeErrors)
    # RuntimeError: Pillow's AVIF reader on a damaged header (a review, stage 78: an internal error)
    except (OSError, SyntaxError, ValueError, EOFError, RuntimeError) as error:
        raise _decode_error(error, data) from None


def signature_format(data: bytes) -> str | None:
    """The supported format a file's first bytes name, or None."""
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG"
    if data[:6] in (b"GIF87a", b"GIF89a"):
        return "GIF"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    if data[4:8] == b"ftyp" and data[8:12] in (b"avif", b"avis"):
        return "AVIF"
    if data[4:8] == b"ftyp" and data[8:12] in (b"heic", b"heix", b"mif1", b"msf1", b"heim", b"heis"):
        return "HEIC"
    if data[:2] == b"BM" and data[6:10] == bytes(4):  # the header's reserved bytes are zero
        return "BMP"
    return None


# the start-of-frame markers (SOF0-SOF15 but DHT, JPG and DAC, which share the range)
JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def jpeg_precision(data: bytes) -> int | None:
    """The bits a sample of a JPEG's frame header declares (8 in nearly every photo; 12 from some
    scientific and medical software, which Pillow refuses as it would a damaged file: said as such, an
    intact file was called "corrupt or cut off", an audit), or None where no frame header is found."""
    at = 2  # past the start-of-image marker
    while at + 4 < len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        if marker == 0xFF:  # a fill byte before a marker
            at += 1
            continue
        if marker in JPEG_FRAMES:
            return data[at + 4]  # after the marker and the segment's length
        if marker == 0xDA:  # a scan before any frame: no photo's layout
            return None
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return None


def _decode_error(error: BaseException, data: bytes) -> ImageError:
    """Pillow's decoder errors -> the user's message (truncation is the common, fixable case)."""
    text = _reason(error)
    if data.startswith(PNG_SIGNATURE) and any(limit in text for limit in PNG_TEXT_LIMITS):
        return PngMetadataTooLarge("image file's text metadata is too large to read")
    cut = any(word in text.lower() for word in ("truncated", "end of file")) or isinstance(error, EOFError)
    if cut or _shorter_than_declared(data):
        return ImageError(TRUNCATED)
    if re.fullmatch(r"decoder error -?\d+", text):  # Pillow's code alone says nothing to a user
        return ImageError(f"image file is corrupt: its image data cannot be decoded ({text})")
    return ImageError(f"image file is corrupt: {text}")


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
# the names Pillow's refusals of a PNG's text give its limits by ("Decompressed data too large for
# PngImagePlugin.MAX_TEXT_CHUNK", "Too much memory used in text chunks: ...>MAX_TEXT_MEMORY"): a photo
# exported with years of editing history in its XMP met them, and was refused in those words (an audit)
PNG_TEXT_LIMITS = ("MAX_TEXT_CHUNK", "MAX_TEXT_MEMORY")
# the chunks those limits guard, none of which the pixels need (an EXIF orientation is an eXIf chunk)
PNG_TEXT_CHUNKS = frozenset({b"tEXt", b"zTXt", b"iTXt", b"iCCP"})


def without_png_text(data: bytes) -> bytes:
    """A PNG's bytes with its text and colour-profile chunks left out, every other byte as it was."""
    kept = [data[: len(PNG_SIGNATURE)]]
    at = len(PNG_SIGNATURE)
    while at + 12 <= len(data):  # length, type, data, CRC
        end = at + 12 + int.from_bytes(data[at : at + 4], "big")
        if data[at + 4 : at + 8] not in PNG_TEXT_CHUNKS:
            kept.append(data[at:end])
        at = end
    kept.append(data[at:])  # a tail too short to be a chunk stays, for Pillow to judge
    return b"".join(kept)


def _shorter_than_declared(data: bytes) -> bool:
    """Whether a RIFF file (WebP) holds fewer bytes than its header declares: cut off. Pillow's WebP
    decoder says only that it "could not create decoder object"."""
    return data[:4] == b"RIFF" and len(data) >= 8 and int.from_bytes(data[4:8], "little") + 8 > len(data)


def _reason(error: BaseException) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:120]


def _check_size(image: Image.Image) -> None:
    width, height = image.size
    if width * height > MAX_SOURCE_PIXELS:
        raise ImageError(
            f"image is too large: {width} x {height} pixels (limit {_megapixels(MAX_SOURCE_PIXELS)})"
        )
    if min(width, height) < MIN_SIDE:
        raise ImageError(
            f"image is too small: {width} x {height} pixels (at least {MIN_SIDE} x {MIN_SIDE} needed)"
        )


# The pages of a multi-page TIFF looked at for the photo: a file may hold a thumbnail first (an audit: a
# 160 x 120 thumbnail on page 1, the photo on page 2, was read, and no tile found on it).
MOST_PAGES = 16


def _to_largest_page(image: Image.Image) -> None:
    """Turn a multi-page TIFF to its page with the most pixels within `MAX_SOURCE_PIXELS` (the first
    such; page 1 where none is): its photo, not a thumbnail before it. Only the pages' headers are read."""
    if image.format != "TIFF":
        return
    sizes: list[int] = []
    for page in range(MOST_PAGES):
        try:
            image.seek(page)
        except (EOFError, *_DECODE_ERRORS):  # no more pages, or a damaged one: the pages before it count
            break
        sizes.append(image.size[0] * image.size[1])
    within = [pixels if pixels <= MAX_SOURCE_PIXELS else 0 for pixels in sizes]
    image.seek(within.index(max(within)) if within else 0)


def _draft(image: Image.Image, max_pixels: int) -> None:
    """Let libjpeg decode at 1/2, 1/4 or 1/8 scale when the result still has >= max_pixels."""
    if image.format not in ("JPEG", "MPO"):
        return
    width, height = image.size
    reduce = 1
    while reduce < 8 and (width // (reduce * 2)) * (height // (reduce * 2)) >= max_pixels:
        reduce *= 2
    if reduce > 1:
        image.draft("RGB", (width // reduce, height // reduce))


# Modes whose pixels average as they are (not a palette's indices): `Image.reduce` shrinks them.
REDUCIBLE = ("L", "LA", "RGB", "RGBA", "I", "F", "CMYK", "YCbCr")


def _reduced(image: Image.Image, max_pixels: int) -> Image.Image:
    """An image decoded at over twice the linear size `max_pixels` allows, shrunk by a whole factor
    (keeping at least `max_pixels`) before it is converted: a 144-megapixel PNG, 0.6 MB as a file,
    took 3.7 GB converted and composited at full size. JPEGs arrive already small (`_draft`)."""
    width, height = image.size
    factor = math.isqrt(width * height // max(1, max_pixels))
    if factor < 2:
        return image
    if image.mode.startswith("I;16"):  # 16-bit grey: Pillow averages it only as 32-bit, then back
        return image.convert("I").reduce(factor).convert("I;16")
    return image.reduce(factor) if image.mode in REDUCIBLE else image


def _to_rgb(image: Image.Image, source_format: str = "") -> np.ndarray:
    """Any Pillow mode -> (H, W, 3) uint8 RGB; transparency composited on white (a BMP's alpha of
    zeros throughout is none: `source_format`, the file's)."""
    mode = image.mode
    if mode.startswith("I;16") or mode == "I":
        # 16-bit greyscale: Pillow's convert("L") would clip everything above 255 to white. 32-bit
        # samples say no range: 8-bit values saved as 32-bit stay as they are, 16-bit ones are scaled
        # as such, and samples past 16 bits by their peak
        grey = np.asarray(image).astype(np.float32)
        peak = float(grey.max()) if grey.size else 0.0
        divisor = 257.0 if mode.startswith("I;16") else _int32_divisor(peak)
        grey8 = np.clip(np.rint(grey / divisor), 0, 255).astype(np.uint8)
        return np.repeat(grey8[:, :, None], 3, axis=2)
    if mode == "F":
        # floating-point grey: 0..1 (a linear TIFF's range, read as black before stage 51) or 0..255
        grey = np.asarray(image).astype(np.float32)
        # the peak of the finite samples: nanmax warns on stderr where all are NaN, and where some are
        # signalling NaNs (a damaged file's bits) as their arithmetic does ("invalid value"); those and
        # samples near float32's limit ("overflow" times 255) come out as 0 or 255 all the same
        finite = grey[np.isfinite(grey)]
        peak = float(finite.max()) if finite.size else 0.0
        with np.errstate(invalid="ignore", over="ignore"):
            grey8 = np.clip(np.rint(np.nan_to_num(grey * (255.0 if peak <= 1.0 else 1.0))), 0, 255)
        return np.repeat(grey8.astype(np.uint8)[:, :, None], 3, axis=2)
    has_alpha = mode in ("RGBA", "LA", "PA", "RGBa", "La") or "transparency" in image.info
    if has_alpha:
        rgba = image.convert("RGBA")
        if source_format == "BMP" and rgba.getchannel("A").getextrema()[1] == 0:
            # a 32-bit BMP's fourth byte often goes unused, all zeros, and is no alpha (an audit, stage
            # 78: read as a blank page); a PNG or GIF transparent throughout is blank, as browsers show it
            return np.asarray(rgba.convert("RGB"))
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return np.asarray(Image.alpha_composite(white, rgba).convert("RGB"))
    return np.asarray(image.convert("RGB"))


def _int32_divisor(peak: float) -> float:
    """What brings 32-bit grey samples to 0..255, read off their peak (the file says no bit depth)."""
    if peak <= 255:
        return 1.0
    return 257.0 if peak <= 65535 else peak / 255.0


# The grey a JPEG decoder paints where the compressed data broke off or went bad (Y, Cb, Cr all 128).
DECODER_FILL = 128
# A band of that grey along an edge at least this share of the photo deep is the decoder's, not the scene's.
FILLED_SHARE = 0.02
# ... unless as much as this of the rest of the picture is exactly that grey too: its own background
OWN_GREY_SHARE = 0.02


def decoder_filled_share(rgb: np.ndarray) -> float:
    """How deep a band of the decoder's flat grey reaches in from one edge of `rgb`, as a share of that
    side: a JPEG whose data is damaged part-way decodes without an error, the rest of its scan painted
    grey; turned upright by its EXIF orientation, that band may lie along any edge. 0 for a photo, for
    a picture whose own background is that grey (a rendered scene: it shows all round the tiles), and
    for one wholly of it (nothing left to tell a damaged file by)."""
    columns = rgb.transpose(1, 0, 2)
    from_each_edge = (rgb, rgb[::-1], columns, columns[::-1])  # top, bottom, left, right
    depths = [_filled_lines(lines) for lines in from_each_edge]
    shares = [
        depth / len(lines) if len(lines) else 0.0 for depth, lines in zip(depths, from_each_edge, strict=True)
    ]
    edge = int(np.argmax(shares))
    if shares[edge] < FILLED_SHARE:
        return 0.0
    rest = from_each_edge[edge][depths[edge] :: 3, ::3]  # sampled: a camera's noise is seldom exactly 128
    if rest.size == 0 or (rest == DECODER_FILL).all(axis=-1).mean() >= OWN_GREY_SHARE:
        return 0.0  # no picture left to tell a decoder's grey from a flat grey picture by
    return shares[edge]


def _filled_lines(lines: np.ndarray) -> int:
    """The number of leading rows of `lines` wholly of the decoder's grey, checked row by row from the
    edge (a photo stops at its first row: no full-image pass)."""
    count = 0
    for line in lines:
        if not (line == DECODER_FILL).all():
            break
        count += 1
    return count


def _downscale(rgb: np.ndarray, max_pixels: int) -> np.ndarray:
    height, width = rgb.shape[:2]
    if width * height <= max_pixels:
        return rgb
    factor = math.sqrt(max_pixels / (width * height))
    size = (max(1, int(width * factor)), max(1, int(height * factor)))
    return cv2.resize(rgb, size, interpolation=cv2.INTER_AREA)


# what Pillow raises on a file it cannot decode (RuntimeError: its AVIF decoder on a damaged frame, an
# audit, stage 78: it was an internal error, exit 1)
_DECODE_ERRORS = (OSError, SyntaxError, ValueError, EOFError, IndexError, KeyError, TypeError, RuntimeError)


def read_image(
    source: bytes | str | Path,
    *,
    max_pixels: int = MAX_PIXELS,
    max_bytes: int = MAX_BYTES,
) -> LoadedImage:
    """Decode a photo upright (EXIF orientation applied), RGB, at most `max_pixels` pixels."""
    data = _read_bytes(source, max_bytes)
    try:
        return _decoded(data, max_pixels)
    except PngMetadataTooLarge:
        return _decoded(without_png_text(data), max_pixels)


def _decoded(data: bytes, max_pixels: int) -> LoadedImage:
    image = _open(data)
    _to_largest_page(image)
    _check_size(image)
    source_format = str(image.format)
    try:
        # Animated GIF/WebP: Pillow opens at frame 0 and load() decodes only that frame
        # (asking n_frames would walk the whole file).
        if source_format == "PNG":
            # a PNG's EXIF may follow its pixels, and reading it decodes them: a damaged stream must
            # fail here, not inside the best-effort EXIF read, which would leave half a photo
            image.load()
        header_size = image.size  # full resolution, before a draft decodes it smaller
        _draft(image, max_pixels)
        image.load()
        rgb = _to_rgb(_reduced(_upright(image), max_pixels), source_format)
    except (ImageError, RecursionError, NotImplementedError):
        raise  # ours, or bugs and not a file's damage (both are RuntimeErrors)
    except MemoryError:
        raise ImageError("image is too large to decode in the memory available") from None
    except _DECODE_ERRORS as error:
        raise _decode_error(error, data) from None
    source_width, source_height = _upright_size(header_size, rgb.shape[1], rgb.shape[0])
    rgb = np.ascontiguousarray(_downscale(rgb, max_pixels))
    return LoadedImage(
        rgb=rgb,
        source_width=source_width,
        source_height=source_height,
        scale=rgb.shape[1] / source_width,
        format=source_format,
    )


def _upright_size(header_size: tuple[int, int], width: int, height: int) -> tuple[int, int]:
    """The upright photo's full-resolution size: the file's `header_size`, turned where the pixels
    decoded upright (`width` x `height`, perhaps a draft's fraction) lie the other way. Read off the
    pixels, not the EXIF tag: Pillow turns a TIFF upright itself as it opens it, a JPEG or PNG not."""
    header_width, header_height = header_size
    as_stored = abs(width * header_height - height * header_width)
    turned = abs(width * header_width - height * header_height)
    return (header_height, header_width) if turned < as_stored else (header_width, header_height)


def _upright(image: Image.Image) -> Image.Image:
    try:
        return ImageOps.exif_transpose(image)
    except Exception:  # Same: show the photo as stored rather than refuse it.
        return image


def load_image(
    source: bytes | str | Path,
    *,
    max_pixels: int = MAX_PIXELS,
    max_bytes: int = MAX_BYTES,
) -> np.ndarray:
    """(H, W, 3) uint8 RGB, EXIF orientation applied; raises ImageError with a one-line message."""
    return read_image(source, max_pixels=max_pixels, max_bytes=max_bytes).rgb
