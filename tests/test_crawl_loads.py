"""What `tracker crawl` loads (issue 22, item 9): cron runs it every few minutes, a fresh process each
time, and on a 3,150-post re-crawl the interpreter's imports were a third of its cost. A crawl reads
no rule, so it loads no ruleset models, no engine fold, no tally, no night engine, no detectors, no
word segmentation and no TUI; the roster check after it folds the log (and so loads the ruleset)
only when the log records a substitution, which must still excuse the substitute. What it writes
and reads (posts, versions, threads, crawls, raw pages, the event log) it writes and reads through
the stdlib sqlite3 on a SQLite file (tracker.store.crawl_statements): it loads no SQLAlchemy at all
(0.3 s of CPU, a fifth of that re-crawl), so neither its ORM nor sqlmodel, nor the store's sqlmodel
areas (penalties, schedule)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.captured_pages import PAGES
from tracker.cli import main
from tracker.demo.server import ReplayForum

DEMO_GAME = Path(__file__).parents[1] / "tracker" / "demo" / "data" / "game.toml"

# Loaded by no plain crawl; each line says whose it is.
NOT_FOR_A_CRAWL = (
    "tracker.engine.ruleset",  # the ruleset's pydantic models and reader (…_model, …_schema, …_reader)
    "tracker.engine.state", "tracker.engine.days", "tracker.engine.fold_pass",  # folding the log
    "tracker.engine.tally", "tracker.engine.ballots",  # the vote counter
    "tracker.engine.night",  # the night engine
    "tracker.service.gamelog", "tracker.service.votes", "tracker.service.flag_review", "tracker.penalties",
    "tracker.reports", "jieba", "rjieba", "textual", "tui", "alembic",
    "sqlalchemy", "sqlmodel", "tracker.store.orm", "tracker.store.penalties", "tracker.store.schedule",  # the store
    "tracker.store.tables", "tracker.store.column_types",  # its Core tables: what sqlite3 runs is written apart
    "pydantic", "tracker.config_model",  # the game file is read against its schema, the model not built
    "charset_normalizer",  # guessing a charset: only for a page that declares none, or a wrong one
    "httpx._main", "rich", "pygments",  # the httpx command's code (tracker.scraper.lean_httpx)
)


@pytest.fixture
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(PAGES) as f:
        yield f


def _game(tmp_path: Path, base: str, extra: str = "") -> Path:
    text = DEMO_GAME.read_text(encoding="utf-8").replace('forum = "http://127.0.0.1:8080/"', f'forum = "{base}"')
    game = tmp_path / "game.toml"
    game.write_text(text + extra, encoding="utf-8")
    return game


def _crawl_loading(game: Path) -> tuple[int, set[str]]:
    """(exit code, modules loaded) of `tracker crawl GAME --json` in a fresh interpreter."""
    code = ("import sys\nfrom tracker.cli import main\nrc = main(['crawl', sys.argv[1], '--json'])\n"
            "sys.stderr.write('MODULES ' + ' '.join(sorted(m for m, v in sys.modules.items() if v is not None))"
            " + '\\n')\nraise SystemExit(rc)")  # None: marked not importable (tracker.scraper.lean_httpx)
    done = subprocess.run([sys.executable, "-c", code, str(game)], capture_output=True, text=True, timeout=120)
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    return done.returncode, set(line.split()[1:])


def _heavy(mods: set[str]) -> set[str]:
    return {m for m in mods if m.startswith(NOT_FOR_A_CRAWL)}


def test_a_crawl_loads_no_ruleset_engine_tally_detectors_or_tui(tmp_path: Path, forum: ReplayForum) -> None:
    game = _game(tmp_path, forum.base_url)
    assert main(["crawl", str(game), "--json"]) == 0  # the database's first run migrates it (alembic, every table)
    code, mods = _crawl_loading(game)
    assert code == 0
    assert {"tracker.scraper.crawl", "tracker.store.posts", "tracker.service.roster_check"} <= mods  # it crawled
    assert _heavy(mods) == set()


def test_the_crawls_tables_load_no_orm_sqlmodel_or_pydantic() -> None:
    """The store's Core side on its own (the posts area, the event log, the engine and its units of
    work): pydantic is the game file's (tracker.config), never the store's."""
    code = textwrap.dedent("""
        import sys
        import tracker.store.db, tracker.store.events, tracker.store.posts, tracker.store.tables
        print(" ".join(sorted(sys.modules)))
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    mods = set(done.stdout.split())
    assert "sqlalchemy" in mods
    assert {m for m in mods if m.split(".")[0] in {"sqlmodel", "pydantic", "pydantic_core"}
            or m.startswith("sqlalchemy.orm")} == set()


def test_a_substitution_in_the_log_still_excuses_the_substitute(tmp_path: Path, forum: ReplayForum,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """路人甲 posts in the demo threads without being a player: named by the roster check, until the
    log says 路人甲 plays 泡泡's seat (then the log is folded, with the ruleset, as before)."""
    game = _game(tmp_path, forum.base_url)
    assert main(["crawl", str(game)]) == 0
    assert "名单核对：账号 路人甲" in capsys.readouterr().err
    game = _game(tmp_path, forum.base_url, '\n[[events]]\nat = 2025-03-01T12:00:00+08:00\nkind = "substituted"\n'
                                           'player = "泡泡"\nby = "路人甲"\n')
    code, mods = _crawl_loading(game)
    assert code == 0 and "tracker.engine.ruleset" in mods and "tracker.service.gamelog" in mods
    assert main(["crawl", str(game)]) == 0
    assert "路人甲" not in capsys.readouterr().err


def test_a_crawl_does_not_check_the_ruleset_the_next_command_does(tmp_path: Path, forum: ReplayForum,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """docs/cli.md: cron's crawl stores the posts whatever the ruleset says; `tracker state` (like
    every command that reads a rule) still refuses a ruleset id that does not exist."""
    game = _game(tmp_path, forum.base_url)
    game.write_text(game.read_text(encoding="utf-8").replace('ruleset = "', 'ruleset = "no-such-', 1), encoding="utf-8")
    assert main(["crawl", str(game), "--json"]) == 0
    assert capsys.readouterr().out.count('"status": "ok"') >= 1
    assert main(["state", str(game)]) != 0
    assert "no-such-" in capsys.readouterr().err
