"""The director's terminal UI: a header with the day's deadlines, seven screens, one service.

Attributes down, messages up: the app owns the Service (through :class:`Gateway`), the crawl worker
and the header's crawl status; screens (``tui/screens``) compose widgets (``tui/widgets``), load
their data in workers and report decisions back with :class:`DataChanged`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.containers import Horizontal
from textual.widgets import ContentSwitcher

from tracker.clock import Clock
from tracker.service import Service
from tui.commands import TrackerCommands
from tui.gateway import Gateway
from tui.heap import freeze_long_lived
from tui.messages import CrawlFinished, CrawlProgressed, DataChanged
from tui.screens.help import HelpScreen
from tui.screens.pane import Pane
from tui.screens.registry import PANES, make_pane
from tui.widgets.game_header import CrawlStatus, GameHeader
from tui.widgets.key_bar import KeyBar
from tui.widgets.sidebar import SCREENS, Sidebar

if TYPE_CHECKING:
    from tracker.scraper.crawl import CrawlProgress
    from tui.gateway import CrawlLine

NARROW = 100


class TrackerApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "版杀导演台"
    # only our own commands, in Chinese: Textual's system commands (Keys, Quit, Screenshot, Theme)
    # are English, and the palette's placeholder is ours too (action_command_palette)
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {TrackerCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(str(i), f"show('{key}')", label, show=False) for i, (key, label) in enumerate(SCREENS, 1)),
        Binding("r", "crawl", "抓取"),
        Binding("question_mark", "help", "帮助"),
        Binding("q", "quit", "退出"),
    ]

    def __init__(self, service: Service, *, clock: Clock | None = None, crawl_on_start: bool = False,
                 crawl_interval: float | None = None) -> None:
        super().__init__()
        from tui.zone import set_zone

        set_zone(service.game.tz)  # every time on the screen in the game's zone
        self.gateway = Gateway(service, clock)
        self.crawl_on_start = crawl_on_start
        minutes = service.game.schedule.interval_minutes
        self.crawl_interval = crawl_interval if crawl_interval is not None else minutes * 60
        self.crawl_count = 0
        self._badges_started = False

    @property
    def service(self) -> Service:
        return self.gateway.service

    def compose(self) -> ComposeResult:
        g = self.gateway
        yield GameHeader(title=g.service.game.name, ruleset=g.ruleset_name(), days=g.header_days(),
                         freeze_minutes=g.freeze_minutes(), clock=g.clock, tz_name=g.service.game.timezone,
                         id="game-header")
        with Horizontal(id="body"):
            yield Sidebar(id="sidebar")
            yield ContentSwitcher(id="panes")
        yield KeyBar(id="keys")

    async def on_mount(self) -> None:
        self._apply_width(self.size.width)
        await self.action_show("overview")
        if self.crawl_interval > 0:
            self.set_interval(self.crawl_interval, self.action_crawl)
        if self.crawl_on_start:
            self.action_crawl()

    def on_resize(self, event: events.Resize) -> None:
        self._apply_width(event.size.width)

    def _apply_width(self, width: int) -> None:
        narrow = width < NARROW
        self.set_class(narrow, "-narrow")
        self.query_one(Sidebar).compact = narrow

    # -- navigation -----------------------------------------------------------------------------------
    @property
    def current_pane(self) -> Pane | None:
        content = self.query_one("#panes", ContentSwitcher).visible_content
        return content if isinstance(content, Pane) else None

    async def action_show(self, key: str) -> None:
        if key not in PANES:
            return
        switcher = self.query_one("#panes", ContentSwitcher)
        if switcher.current != key:
            # a notice belongs to the screen it came from (the BBCode path of 票型 on 判罚 misleads);
            # the crawl's state stays in the header
            self.clear_notifications()
            if not switcher.query(f"#{key}"):
                await switcher.mount(make_pane(key))
                freeze_long_lived()  # the new screen's widgets live as long as the app
            switcher.current = key
        self.query_one(Sidebar).current = key
        pane = self.query_one(f"#{key}", Pane)
        pane.reload()
        pane.focus_main()

    async def on_sidebar_chosen(self, message: Sidebar.Chosen) -> None:
        await self.action_show(message.key)

    def action_command_palette(self) -> None:
        """The palette with a Chinese placeholder (Textual's says "Search for commands…")."""
        from textual.command import CommandPalette

        # Textual types the argument App[object]; App is invariant in its result, so TrackerApp (an
        # App[None]) is refused by mypy although any app is meant
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
            self.push_screen(CommandPalette(placeholder="搜索命令（中文或英文）…", id="--command-palette"))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    # -- crawling -------------------------------------------------------------------------------------
    def action_crawl(self) -> None:
        header = self.query_one(GameHeader)
        if header.crawl.state == "running":
            self.notify("抓取已在进行中", timeout=2)
            return
        header.crawl = CrawlStatus("running", header.crawl.at, "开始抓取")
        self.run_crawl()

    @work(exclusive=True, group="crawl", exit_on_error=False)
    async def run_crawl(self) -> None:
        """The crawl runs in a child process (see Gateway.crawl); this worker only awaits its progress."""
        def progress(step: CrawlProgress | CrawlLine) -> None:
            self.post_message(CrawlProgressed(describe_progress(step)))

        try:
            await self.gateway.crawl(progress)
        except Exception as exc:  # every failure becomes ✗ with the reason, never a crash
            self.post_message(CrawlFinished(False, getattr(exc, "message", None) or str(exc) or type(exc).__name__))
        else:
            self.post_message(CrawlFinished(True))

    @work(thread=True, exclusive=True, group="header-days", exit_on_error=False)
    def refresh_days(self) -> None:
        """The header's days as recorded now (a 延时 moves the close, a 加速 is shown)."""
        days = self.gateway.header_days()
        self.call_from_thread(setattr, self.query_one(GameHeader), "days", days)

    def on_crawl_progressed(self, message: CrawlProgressed) -> None:
        header = self.query_one(GameHeader)
        header.crawl = CrawlStatus("running", header.crawl.at, message.detail)

    def on_crawl_finished(self, message: CrawlFinished) -> None:
        self.crawl_count += 1
        now: datetime = self.gateway.clock.now()
        self.query_one(GameHeader).crawl = CrawlStatus("ok" if message.ok else "failed", now, message.detail)
        if message.ok:
            self.gateway.invalidate()
            self._reload_all()

    def on_data_changed(self, message: DataChanged) -> None:
        self.gateway.invalidate()
        self._reload_all()

    def _reload_all(self) -> None:
        self.refresh_days()
        self.refresh_badges()
        pane = self.current_pane
        if pane is not None:
            pane.reload()

    # -- badges ---------------------------------------------------------------------------------------
    def first_load_done(self) -> None:
        """The first screen has its data: only now start the badges' counts (seconds on a big game,
        in threads that share the GIL), so they never delay what the director looks at first.
        Detection runs in each crawl's child process (crawl_on_start in `tracker tui`); the app only reads."""
        if not self._badges_started:
            self._badges_started = True
            freeze_long_lived()
            self.refresh_badges()

    def refresh_badges(self) -> None:
        self._flag_badge()
        self._tally_badge()
        self._lurker_badge()

    @work(thread=True, exclusive=True, group="badge-flags", exit_on_error=False)
    def _flag_badge(self) -> None:
        self.call_from_thread(self.set_badge, "flags", self.service.flag_review.flag_count(status="open"))

    @work(thread=True, exclusive=True, group="badge-tally", exit_on_error=False)
    def _tally_badge(self) -> None:
        self.call_from_thread(self.set_badge, "tally", self.gateway.tally_badge())

    @work(thread=True, exclusive=True, group="badge-lurkers", exit_on_error=False)
    def _lurker_badge(self) -> None:
        self.call_from_thread(self.set_badge, "lurkers", self.gateway.lurker_count())

    def set_badge(self, key: str, n: int | str | None) -> None:
        sidebar = self.query_one(Sidebar)
        sidebar.badges = {**sidebar.badges, key: n or 0}


def describe_progress(step: CrawlProgress | CrawlLine | str) -> str:
    """A crawl progress report as the header shows it, whatever shape the crawler sends."""
    if isinstance(step, str):
        return step
    if getattr(step, "event", None) == "step":  # after the crawl itself: 检测违规
        return str(getattr(step, "detail", ""))
    done, total = getattr(step, "threads_done", None), getattr(step, "threads_total", None)
    if total:
        pages = getattr(step, "pages_fetched", 0)
        return f"{done}/{total} 帖 · {pages} 页"
    tid = getattr(step, "tid", None)
    page = getattr(step, "page", None)
    pages = getattr(step, "pages", None)
    if tid is not None and page is not None:
        return f"tid {tid} 第{page}{'/' + str(pages) if pages else ''}页"
    return str(step)


def run_app(game_path: Path, db_url: str | None = None) -> None:
    service = Service.open(game_path, db_url=db_url)
    try:
        TrackerApp(service, crawl_on_start=True).run()
    finally:
        service.close()
