"""decode_body: header first, then <meta>, then UTF-8, then detection; GBK read as GB18030."""

from __future__ import annotations

import pytest

from tests.captured_pages import PAGES
from tracker.scraper.charset import charset_from_header, charset_from_meta, decode_body


def test_gbk_twin_decodes_to_the_utf8_page() -> None:
    gbk = (PAGES / "day1-discussion-p1.gbk.html").read_bytes()
    utf8 = (PAGES / "day1-discussion-p1.html").read_bytes()
    # the twin only differs in its <meta charset>; no header charset: the meta must be used
    assert decode_body(gbk, "text/html") == utf8.decode("utf-8").replace(
        '<meta charset="utf-8" />', '<meta charset="gbk" />')


def test_header_charset_wins_over_meta() -> None:
    body = '<meta charset="utf-8"><p>版杀</p>'.encode("gb18030")
    assert "版杀" in decode_body(body, "text/html; charset=GBK")


@pytest.mark.parametrize("declared", ["gbk", "GB2312", "x-gbk", "cp936"])
def test_gbk_family_is_widened_to_gb18030(declared: str) -> None:
    # 𠀀 (U+20000) and € are outside GB2312/GBK but inside GB18030
    body = f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={declared}">'.encode() \
        + "<p>𠀀€</p>".encode("gb18030")
    assert "𠀀€" in decode_body(body, None)
    assert charset_from_header(f"text/html; charset={declared}") == "gb18030"


def test_utf8_bom_is_dropped() -> None:
    assert decode_body(b"\xef\xbb\xbf<p>\xe7\x89\x88</p>", "text/html; charset=utf-8") == "<p>版</p>"


def test_wrong_declaration_falls_back_to_what_decodes() -> None:
    body = "<p>投票对象：饺子，这是一段足够长的中文文本用于检测编码。</p>".encode("gb18030") * 5
    assert "投票对象" in decode_body(body, "text/html; charset=utf-8")


def test_undeclared_utf8_and_unknown_charset() -> None:
    assert decode_body("版杀".encode(), None) == "版杀"
    assert charset_from_header("text/html; charset=no-such-codec") is None
    assert charset_from_meta(b"<meta charset='big5'>") == "big5hkscs"


def test_never_raises_on_garbage() -> None:
    assert isinstance(decode_body(bytes(range(256)) * 3, "text/html; charset=utf-8"), str)
