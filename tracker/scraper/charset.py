"""Turn a response body into ``str`` before any parsing.

selectolax's Lexbor parser assumes UTF-8, and many Discuz installs (older or Big5/GBK editions)
still serve GBK. The charset is taken, in order, from the ``Content-Type`` header, then from the
document's own ``<meta>``, then from a strict UTF-8 attempt, and only last from statistical
detection (charset-normalizer), which is slow and can guess wrong on short pages.
"""

from __future__ import annotations

import codecs
import re

_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.I)
# <meta charset="gbk"> and <meta http-equiv="Content-Type" content="text/html; charset=gbk">
_META_CHARSET = re.compile(rb"<meta[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:\-]+)", re.I)
_META_WINDOW = 4096

# GBK and GB2312 pages routinely contain characters only GB18030 (their superset) can decode;
# Big5 pages likewise use HKSCS extensions.
_SUPERSETS = {
    "gbk": "gb18030",
    "gb2312": "gb18030",
    "gb_2312-80": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "ms936": "gb18030",
    "euc-cn": "gb18030",
    "big5": "big5hkscs",
    "x-big5": "big5hkscs",
    "cp950": "big5hkscs",
}

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def normalise_charset(name: str | None) -> str | None:
    """A Python codec name for a declared charset, widened to its superset; ``None`` if unknown."""
    if not name:
        return None
    label = name.strip().strip("\"'").lower()
    label = _SUPERSETS.get(label, label)
    try:
        info = codecs.lookup(label)
    except LookupError:
        return None
    # Python also names codecs that are no text encoding (base64, rot13, zlib) and one that refuses
    # everything ("undefined"): a forum declaring one has declared nothing usable.
    if info.name == "undefined" or not getattr(info, "_is_text_encoding", True):
        return None
    return info.name


def charset_from_header(content_type: str | None) -> str | None:
    if not content_type:
        return None
    m = _HEADER_CHARSET.search(content_type)
    return normalise_charset(m.group(1)) if m else None


def charset_from_meta(body: bytes) -> str | None:
    m = _META_CHARSET.search(body, 0, _META_WINDOW) or _META_CHARSET.search(body[:_META_WINDOW * 4])
    return normalise_charset(m.group(1).decode("ascii", "replace")) if m else None


def decode_body(body: bytes, content_type: str | None = None) -> str:
    """Decode an HTML (or JSON) body; never raises, undecodable bytes become U+FFFD as a last resort."""
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return body[len(bom):].decode(codec, "replace")
    declared = [c for c in (charset_from_header(content_type), charset_from_meta(body)) if c]
    for codec in (*declared, "utf-8"):
        try:
            return body.decode(codec)
        except (UnicodeError, LookupError):
            continue
    # loaded here, for the rare page that declares nothing usable: importing it was ~0.03 s of
    # every crawl's start (cron starts one every few minutes), for pages that all say their charset
    from charset_normalizer import from_bytes

    best = from_bytes(body).best()
    if best is not None and best.encoding:
        return body.decode(best.encoding, "replace")
    return body.decode(declared[0] if declared else "gb18030", "replace")
