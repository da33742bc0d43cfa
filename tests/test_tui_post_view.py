"""PostView shows a post as the forum did, and never lets the post's text act as markup or escapes."""

from __future__ import annotations

from datetime import datetime
from types import SimpleNamespace

from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region

from tracker.clock import SHANGHAI
from tui.literal import clean, literal
from tui.post_render import is_large, is_reddish, render_post_html
from tui.widgets.post_view import PostView

HOSTILE = "[bold red]赢[/] [/] [link=http://x]点[/link] \x1b[31m红\x1b[0m :smile: \u202eabc \u200b藏"


def _post(html: str, text: str = "") -> SimpleNamespace:
    return SimpleNamespace(pid=9, tid=3, floor=7, author="[b]泡泡[/b]", posted_at=datetime(2025, 3, 1, 10, 20, tzinfo=SHANGHAI),
                           html=html, text=text, edited_at=None, blocked=False)


def test_literal_keeps_brackets_and_makes_escapes_visible() -> None:
    t = literal(HOSTILE)
    assert "[bold red]赢[/]" in t.plain
    assert "[link=http://x]" in t.plain
    assert "\x1b" not in t.plain and "␛[31m" in t.plain
    assert "<U+202E>" in t.plain and "<U+200B>" in t.plain
    assert t.spans and not any(s.style == "bold red" for s in t.spans)


def test_html_render_red_large_quote_and_highlight() -> None:
    html = ('<div class="quote"><blockquote><font size="2"><a href="x"><font color="#999999">饺子 发表于 2025-3-1 15:10'
            '</font></a></font><br />\n卧槽</blockquote></div><br />\n'
            '<font color="#FF0000"><font size="5">我是预言家</font></font><br />\n<font color="#0000FF">蓝字</font> 发誓')
    t = render_post_html(html, highlight=("发誓",))
    lines = t.plain.split("\n")
    assert lines[0].startswith("│ 饺子 发表于") and lines[1] == "│ 卧槽"
    assert "⇑我是预言家" in t.plain
    red = [s for s in t.spans if "red" in str(s.style) and t.plain[s.start:s.end] == "我是预言家"]
    assert red, t.spans
    assert any(t.plain[s.start:s.end] == "发誓" and "yellow" in str(s.style) for s in t.spans)
    quote = [s for s in t.spans if "dim" in str(s.style) and "卧槽" in t.plain[s.start:s.end]]
    assert quote


def test_colour_and_size_rules() -> None:
    assert is_reddish("#FF0000") and is_reddish("Red") and is_reddish("#ee0000") and is_reddish("rgb(250, 10, 10)")
    assert not is_reddish("#0000FF") and not is_reddish("#999999") and not is_reddish("orange")
    assert is_large("5", None) and is_large(None, "font-size:20px") and not is_large("2", None) and not is_large("3", None)


def test_html_entities_and_markup_in_html_stay_literal() -> None:
    t = render_post_html("&lt;b&gt;[bold]x[/bold]&lt;/b&gt; \x1b[2J")
    assert t.plain == "<b>[bold]x[/bold]</b> ␛[2J"


class _One(App[None]):
    def __init__(self, post: SimpleNamespace, highlight: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.post, self.highlight = post, highlight

    def compose(self) -> ComposeResult:
        yield PostView(id="pv")

    def on_mount(self) -> None:
        self.query_one(PostView).show(self.post, self.highlight)


async def test_hostile_post_renders_literally_on_screen() -> None:
    long_line = "长" * 10_000
    post = _post(f"{HOSTILE}<br />\n{long_line}", text=HOSTILE)
    app = _One(post)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        view = app.query_one(PostView)
        assert view.body_text == clean(HOSTILE) + "\n" + long_line
        body = view.query_one(".post-body")
        strips = body.render_lines(Region(0, 0, body.size.width, body.size.height))
        screen_text = "\n".join("".join(seg.text for seg in strip) for strip in strips)
        # What reaches the terminal: the markup words as typed, the escape as a visible token, no raw ESC.
        assert "[bold red]赢[/]" in screen_text and "[link=http://x]" in screen_text
        assert "␛[31m红␛[0m" in screen_text
        assert "\x1b" not in screen_text
        # The 10,000-character line wraps at the view's width instead of running off the screen.
        assert all(cell_len(line) <= body.size.width for line in screen_text.split("\n"))
        head = view.query_one(".post-head").content
        assert isinstance(head, Text) and "[b]泡泡[/b]" in head.plain


async def test_plain_text_fallback_when_html_missing_is_literal() -> None:
    app = _One(_post("", text="[red]x[/red]\x07"))
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        assert app.query_one(PostView).body_text == "[red]x[/red]␇"


def test_deep_nesting_renders_without_recursion_and_keeps_the_words() -> None:
    """~500 nested [b] (3.5 KB of post) or ~250 nested quotes used to kill the app (RecursionError)."""
    import sys

    from tui.post_render import render_post_html

    deep_b = "<b>" * 5000 + "藏在最里面" + "</b>" * 5000
    quote = '<div class="quote"><blockquote>'
    deep_q = quote * 2000 + "层层引用" + "</blockquote></div>" * 2000
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)  # the walk must not depend on the stack at all
    try:
        for html, word in ((deep_b, "藏在最里面"), (deep_q, "层层引用")):
            assert word in render_post_html(html).plain
    finally:
        sys.setrecursionlimit(limit)


def test_a_huge_post_is_cut_with_what_is_left_said() -> None:
    import time

    from tui.post_render import MAX_CHARS, render_post_html

    html = "<br />".join(f"第{i}行" + "长" * 60 for i in range(25_000))  # ~1.6 MB
    started = time.monotonic()
    t = render_post_html(html)
    assert time.monotonic() - started < 1.5
    assert len(t.plain) < MAX_CHARS * 1.05  # line breaks are not counted, text is
    tail = t.plain.rsplit("\n", 1)[-1]
    assert tail.startswith("…(余下 ") and tail.endswith(" 字)")
    left = int(tail[len("…(余下 "):-len(" 字)")])
    assert left > 1_500_000
