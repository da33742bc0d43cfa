"""Message-body extraction: Discuz's renderings of BBCode -> text, quotes, fonts, and the fast path."""

from __future__ import annotations

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from selectolax.lexbor import LexborHTMLParser

from tracker.clock import SHANGHAI
from tracker.scraper.html_text import Body, extract_body, extract_simple, parse_edit_marker


def body(html: str) -> Body:
    node = LexborHTMLParser(f"<table><tr><td class='t_f'>{html}</td></tr></table>").css_first("td")
    assert node is not None
    return extract_body(node, SHANGHAI)


def test_br_and_source_newlines() -> None:
    assert body("投票对象：饺子<br />\n投票理由：好吃<br />\n").text == "投票对象：饺子\n投票理由：好吃"
    assert body("a<br />\n<br />\nb").text == "a\n\nb"
    assert body("\n  前后空白  <br />\n  第二行  \n").text == "前后空白\n  第二行"


def test_entities_and_nbsp_are_decoded() -> None:
    assert body("A&nbsp;&amp;&nbsp;B &lt;x&gt; &#20320;").text == "A & B <x> 你"


def test_quote_in_the_middle_is_cut_and_kept_apart() -> None:
    html = ('前文<br />\n<div class="quote"><blockquote><font size="2"><a href="forum.php?mod=redirect&amp;'
            'goto=findpost&amp;pid=9&amp;ptid=4" target="_blank"><font color="#999999">泡泡 发表于 2025-3-1 11:00'
            '</font></a></font><br />\n投票对象：饺子<br />\n投票理由：饺子好吃 ...</blockquote></div><br />\n后文')
    b = body(html)
    assert b.text == "前文\n\n后文"
    (q,) = b.quotes
    assert (q.pid, q.author, q.text) == (9, "泡泡", "投票对象：饺子\n投票理由：饺子好吃 ...")
    assert q.posted_at == datetime(2025, 3, 1, 11, 0, tzinfo=SHANGHAI)
    assert b.colors == () and b.sizes == ()  # the quote header's grey size-2 font is not the quoter's


def test_quote_without_header_and_mobile_reply_wrap() -> None:
    plain = body('<div class="quote"><blockquote>随手引用</blockquote></div>正文')
    assert plain.text == "正文" and plain.quotes[0].pid is None and plain.quotes[0].text == "随手引用"
    mobile = body('<div class="reply_wrap"><a href="http://x/forum.php?mod=redirect&amp;amp;goto=findpost&amp;amp;'
                  'pid=31&amp;amp;ptid=3"><font color="#999999">饺子 发表于 2025-3-1 15:10</font></a><br />\n'
                  '卧槽</div><br />\n正文')
    assert (mobile.text, mobile.quotes[0].pid, mobile.quotes[0].text) == ("正文", 31, "卧槽")


def test_fonts_colours_and_sizes_in_every_rendering() -> None:
    b = body('<font color="#FF0000"><font size="5">大红</font></font> <font style="color:rgb(255,0,0)">rgb</font>'
             ' <font style="font-size:20px">px</font> <font style="background-color:Red">底色</font>'
             ' <span style="COLOR: Blue">蓝</span> <font face="宋体">字体</font>')
    assert b.colors == ("#FF0000", "rgb(255,0,0)", "Blue")
    assert b.sizes == ("5", "20px")
    assert [(f.color, f.size, f.text) for f in b.fonts] == [
        ("#FF0000", None, "大红"), (None, "5", "大红"), ("rgb(255,0,0)", None, "rgb"), (None, "20px", "px"),
        ("Blue", None, "蓝")]
    assert b.text == "大红 rgb px 底色 蓝 字体"


def test_edit_marker_is_reported_not_kept() -> None:
    b = body('<i class="pstatus"> 本帖最后由 花千树 于 2025-3-1 14:32 编辑 </i><br />\n<br />\n正文')
    assert b.text == "正文"
    assert parse_edit_marker(b.edit_marker, SHANGHAI) == ("花千树", datetime(2025, 3, 1, 14, 32, tzinfo=SHANGHAI))
    assert parse_edit_marker("本帖最後由 甲 於 2025-3-1 14:32 編輯", SHANGHAI)[0] == "甲"
    assert parse_edit_marker(None, SHANGHAI) == (None, None)
    assert parse_edit_marker("本帖最后由 X 于 很久以前 编辑", SHANGHAI) == (None, None)


def test_images_smilies_and_hidden_things() -> None:
    b = body('看图 <img src="static/image/smiley/default/smile.gif" smilieid="1" border="0" alt="" />'
             '<img id="aimg_1" class="zoom" src="static/image/common/none.gif" file="data/attachment/a.jpg" />'
             '<font class="jammer">干扰码</font><span style="display:none">隐藏</span>'
             '<div class="img"><img src="http://x/static/image/common/logo.png" /></div>尾'
             '<script>var x = "脚本";</script>')
    assert b.text == "看图 尾"
    assert b.smilies == ("default/smile.gif",)
    assert b.images == ("data/attachment/a.jpg", "http://x/static/image/common/logo.png")


def test_blocks_lists_and_code() -> None:
    b = body('<div align="center">居中</div>正文<ul><li>一</li><li>二</li></ul>'
             '<div class="blockcode"><div id="code_x"><ol><li>print(1)<br /></li></ol></div>'
             '<em onclick="copycode($(\'code_x\'));">复制代码</em></div>')
    assert b.text == "居中\n正文\n一\n二\nprint(1)"


text_and_breaks = st.lists(st.one_of(
    st.text(alphabet=st.characters(blacklist_characters="<&\r\x00", blacklist_categories=("Cs",)), max_size=12),
    st.sampled_from(["<br />", "<br />\n", "<br>", "\n", " ", "\xa0", "投票对象：", "\t"])), max_size=12)


@settings(max_examples=300, deadline=None)
@given(text_and_breaks)
def test_fast_path_equals_the_tree_walk(parts: list[str]) -> None:
    html = "".join(parts)
    fast = extract_simple(html)
    assert fast is not None
    parsed = LexborHTMLParser(html).body
    assert parsed is not None
    assert fast.text == extract_body(parsed, SHANGHAI).text


def test_fast_path_declines_markup() -> None:
    assert extract_simple("a <b>b</b>") is None
    assert extract_simple("a &amp; b") is None
    assert extract_simple("a\r\nb") is None
