"""A page of posts as rows (floor, author, time, thread, first words); the highlighted one is shown aside."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import DataTable

from tui.literal import literal
from tui.widgets.lines import Col, Lines, compose, fill
from tui.widgets.post_view import PostLike
from tui.zone import zone


def excerpt(text: str, width: int = 40) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


COLUMNS = (Col("楼", 6, "right"), Col("作者", 16), Col("时间", 11), Col("帖", 7), Col("内容"))


def post_rows(posts: tuple[PostLike, ...], *, fixed: frozenset[str] = frozenset()) -> Lines:
    """(header, one line per post): pure, a worker thread builds them, the UI only adds them.

    ``fixed``: the columns a search pins to one value (``author``, ``tid``) are left out, so their
    room goes to the content — a long account name filtered on would otherwise push it off the pane."""
    keep = [i for i, key in enumerate(("floor", "author", "time", "tid", "content")) if key not in fixed]
    out: list[tuple[Text | str, ...]] = []
    for p in posts:
        flags = Text()
        if getattr(p, "deleted", False):
            flags.append("[删] ", "bold red")
        if getattr(p, "blocked", False):
            flags.append("[屏] ", "bold red")
        if getattr(p, "edited_at", None) is not None:
            flags.append("[改] ", "yellow")
        out.append((Text(str(p.floor), justify="right"), literal(p.author),
                    Text(f"{p.posted_at.astimezone(zone()):%m-%d %H:%M}", "dim"), str(p.tid),
                    Text.assemble(flags, literal(excerpt(p.text)))))
    return compose([COLUMNS[i] for i in keep], [tuple(row[i] for i in keep) for row in out])


def _identity(posts: tuple[PostLike, ...]) -> tuple[object, ...]:
    return tuple((p.pid, p.floor, p.text, getattr(p, "deleted", False), getattr(p, "blocked", False),
                  getattr(p, "edited_at", None)) for p in posts)


class PostTable(DataTable[Text]):
    @dataclass
    class Highlighted(Message):
        post: PostLike

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.posts: tuple[PostLike, ...] = ()

    def on_mount(self) -> None:
        fill(self, post_rows(()))

    def show(self, posts: tuple[PostLike, ...], rows: Lines | None = None, *,
             force: bool = False) -> None:
        """Replace the rows; ``rows`` (from :func:`post_rows`) may be built beforehand in a worker thread.
        The same posts again (a screen shown anew, a crawl that changed other pages) keep the table."""
        if rows is None:
            rows = post_rows(posts)
        if not force and _identity(posts) == _identity(self.posts):
            self.posts = posts  # same posts, same text: the rows on screen are already right
            return
        self.posts = posts
        fill(self, rows)
        if posts:
            self.move_cursor(row=0)
            self.post_message(self.Highlighted(posts[0]))

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.posts):
            self.post_message(self.Highlighted(self.posts[event.cursor_row]))
