"""One post as the forum showed it: header line (floor, author, time, thread) and the rendered body.

Red text in red, enlarged text marked ⇑ and underlined, matched words highlighted, quotes dimmed
behind a bar; nothing from the post is ever read as markup (see :mod:`tui.post_render`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.literal import literal
from tui.post_render import render_post_html
from tui.zone import zone


class PostLike(Protocol):
    """What a post shows: a forum's :class:`tracker.records.Post` or the store's ``StoredPost``."""

    @property
    def pid(self) -> int: ...
    @property
    def tid(self) -> int: ...
    @property
    def floor(self) -> int: ...
    @property
    def author(self) -> str: ...
    @property
    def posted_at(self) -> datetime: ...
    @property
    def html(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def edited_at(self) -> datetime | None: ...
    @property
    def blocked(self) -> bool: ...


def post_header(post: PostLike) -> Text:
    out = Text()
    out.append(f"{post.floor} 楼", "bold")
    out.append("  ")
    out.append_text(literal(post.author, "bold cyan", line=True))
    at: datetime = post.posted_at
    out.append(f"  {at.astimezone(zone()):%Y-%m-%d %H:%M:%S}", "dim")
    out.append(f"  tid {post.tid} · pid {post.pid}", "dim")
    edited = getattr(post, "edited_at", None)
    if edited is not None:
        out.append(f"  已编辑 {edited.astimezone(zone()):%m-%d %H:%M}", "yellow")
    if getattr(post, "blocked", False):
        out.append("  已屏蔽", "bold red")
    if getattr(post, "deleted", False):
        out.append("  已删除", "bold red")
    versions = getattr(post, "versions", 1) or 1
    if versions > 1:
        out.append(f"  {versions} 个版本", "yellow")
    return out


def post_body(post: PostLike, highlight: tuple[str, ...] = ()) -> Text:
    html = getattr(post, "html", "") or ""
    if html.strip():
        return render_post_html(html, highlight)
    if getattr(post, "blocked", False):
        return Text("提示：该帖被管理员或版主屏蔽", "dim italic")
    body = literal(getattr(post, "text", "") or "")
    if highlight:
        body.highlight_words([w for w in highlight if w], style="bold black on yellow")
    return body


class PostView(VerticalScroll):
    """Give it a post with :meth:`show`; ``None`` clears it to a hint."""

    DEFAULT_CSS = """
    PostView { height: 1fr; padding: 0 1; }
    PostView > .post-head { height: auto; margin-bottom: 1; }
    PostView > .post-body { height: auto; }
    """

    def __init__(self, *, placeholder: str = "（未选中帖子）", id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.placeholder = placeholder
        self.post: PostLike | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text(self.placeholder, "dim"), classes="post-head")
        yield Static(Text(""), classes="post-body")

    def show(self, post: PostLike | None, highlight: tuple[str, ...] = (), note: Text | None = None) -> None:
        self.post = post
        head = self.query_one(".post-head", Static)
        body = self.query_one(".post-body", Static)
        if post is None:
            head.update(Text(self.placeholder, "dim"))
            body.update(Text(""))
            return
        header = post_header(post)
        if note is not None:
            header.append("\n")
            header.append_text(note)
        head.update(header)
        body.update(post_body(post, highlight))
        self.scroll_home(animate=False)

    @property
    def body_text(self) -> str:
        """What the body shows, as plain text (tests assert it is literal)."""
        body = self.query_one(".post-body", Static)
        content = body.content
        return content.plain if isinstance(content, Text) else str(content)
