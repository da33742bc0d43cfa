"""7 帖子: every stored post, filtered by author, thread, day and text, one page from the DB at a time.

The filter line takes ``作者:泡泡 帖:3 日:1 其余为正文`` (or ``author: tid: day:``, ``@泡泡``);
``[``/``]`` turn pages. Never more than one page of rows is built, however big the game.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static

from tui.screens.pane import Pane, reported
from tui.views import PostPage, PostQuery
from tui.widgets.lines import Lines
from tui.widgets.post_table import PostTable, post_rows
from tui.widgets.post_view import PostView

PAGE = 50
_KEYS = {"作者": "author", "author": "author", "帖": "tid", "tid": "tid", "日": "day", "day": "day"}


def parse_query(line: str) -> PostQuery:
    author: str | None = None
    tid: int | None = None
    day: int | None = None
    words: list[str] = []
    for token in line.split():
        if token.startswith("@") and len(token) > 1:
            author = token[1:]
            continue
        key, sep, value = token.replace("：", ":").partition(":")
        field = _KEYS.get(key.lower()) if sep else None
        if field == "author" and value:
            author = value
        elif field == "tid" and value.isdigit():
            tid = int(value)
        elif field == "day" and value.isdigit():
            day = int(value)
        else:
            words.append(token)
    return PostQuery(author=author, tid=tid, day=day, text=" ".join(words) or None)


class PostsPane(Pane):
    KEY = "posts"
    TITLE = "帖子"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "搜索"),
        Binding("right_square_bracket", "page(1)", "下一页"),
        Binding("left_square_bracket", "page(-1)", "上一页"),
        Binding("escape", "leave_search", "返回列表", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.query_: PostQuery = PostQuery()
        self.start = 0
        self.page: PostPage | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("帖子", "bold"), classes="pane-title")
        yield Input(placeholder="/ 搜索：作者:泡泡 帖:3 日:1 正文关键词", id="posts-filter")
        yield Static(id="posts-status", classes="pane-status")
        with Horizontal(classes="split"):
            with Vertical(classes="left"):
                yield PostTable(id="posts-table")
            with Vertical(classes="right"):
                yield PostView(id="posts-view")

    def focus_main(self) -> None:
        self.query_one(PostTable).focus()

    def reload(self) -> None:
        self.load(self.query_, self.start)

    @work(thread=True, exclusive=True, group="posts", exit_on_error=False)
    @reported
    def load(self, query: PostQuery, offset: int) -> None:
        page = self.gateway.search_posts(query, offset, PAGE)
        fixed = frozenset(k for k, v in (("author", query.author), ("tid", query.tid)) if v is not None)
        rows = post_rows(page.posts, fixed=fixed)
        self.deliver(self.show, page, rows)

    def show(self, page: PostPage, rows: Lines | None = None) -> None:
        new_query = self.page is None or self.page.query != page.query
        self.page = page
        self.start = page.offset
        q = page.query
        status = Text()
        if page.total:
            status.append(f"第 {page.offset + 1}–{page.offset + len(page.posts)} 条，共 {page.total} 条", "bold")
        else:
            status.append("没有符合条件的帖子", "yellow")
        for label, value in (("作者", q.author), ("帖", q.tid), ("日", q.day), ("正文", q.text)):
            if value is not None:
                status.append(f"  {label}:", "dim")
                status.append(str(value))
        self.set_text("#posts-status", status)
        self.query_one(PostTable).show(page.posts, rows, force=new_query)
        if not page.posts:
            self.query_one(PostView).show(None)

    def on_post_table_highlighted(self, message: PostTable.Highlighted) -> None:
        words = (self.query_.text,) if self.query_.text else ()
        self.query_one(PostView).show(message.post, highlight=words)

    def action_search(self) -> None:
        self.query_one("#posts-filter", Input).focus()

    def action_leave_search(self) -> None:
        self.focus_main()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_ = parse_query(event.value)
        self.start = 0
        self.load(self.query_, 0)
        self.focus_main()

    def action_page(self, step: int) -> None:
        total = self.page.total if self.page else 0
        new = self.start + step * PAGE
        if new < 0 or (total and new >= total):
            self.app.bell()
            return
        self.load(self.query_, new)
