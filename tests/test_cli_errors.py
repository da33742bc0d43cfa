"""Every error a director can meet, through the real command line: a Chinese message on stderr, the
documented exit code, never a traceback, and nothing stored before is lost.

The store is the bundled demo game crawled once from its replay forum; each test works on a copy,
breaks one thing (the game file, the ruleset, the forum, the login, the database) and runs the
command a director would.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.demo_game import copy_demo
from tracker.cli import main
from tracker.demo.run import DEMO_DATA
from tracker.demo.server import DEMO_PAGES, ReplayForum

CJK = re.compile(r"[\u4e00-\u9fff]")
FORUM_LINE = re.compile(r'(?m)^forum = ".*"$')


@dataclass(frozen=True)
class Baseline:
    """The demo game crawled once: its directory and what `posts --json` listed per thread."""

    root: Path
    posts: dict[int, list[int]]


@pytest.fixture(scope="module")
def forum() -> Iterator[ReplayForum]:
    with ReplayForum(DEMO_PAGES) as f:
        yield f


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory, forum: ReplayForum, demo_crawled: Path) -> Baseline:
    # the session's crawled demo (night 1 settled: 阿狸 and 老王 out), pointed at this module's forum
    root = tmp_path_factory.mktemp("crawled")
    game = copy_demo(demo_crawled, root)
    game.write_text(FORUM_LINE.sub(f'forum = "{forum.base_url}"', game.read_text(encoding="utf-8")),
                    encoding="utf-8")
    posts: dict[int, list[int]] = {}
    for tid in (2, 3, 4, 5, 6):
        posts[tid] = sorted(p["pid"] for p in _posts_json(game, tid))
    assert sum(len(v) for v in posts.values()) > 150
    return Baseline(root=root, posts=posts)


def _posts_json(game: Path, tid: int, db: str | None = None) -> list[dict[str, Any]]:
    """`tracker posts --json` in a subprocess-free way, without disturbing capsys of the caller."""
    import contextlib
    import io

    out = io.StringIO()
    args = ["posts", str(game), "--thread", str(tid), "--json"] + (["--db", db] if db else [])
    with contextlib.redirect_stdout(out):
        assert main(args) == 0
    rows: list[dict[str, Any]] = json.loads(out.getvalue())
    return rows


def copy_game(base: Baseline, dest: Path, *, forum_url: str | None = None, edit: Any = None) -> Path:
    """The crawled game (file + database) in ``dest``, optionally pointed at another forum or edited."""
    dest.mkdir(parents=True, exist_ok=True)
    shutil.copy(base.root / "demo.db", dest / "demo.db")
    text = (base.root / "demo.toml").read_text(encoding="utf-8")
    if forum_url is not None:
        text = FORUM_LINE.sub(f'forum = "{forum_url}"', text)
    if edit is not None:
        text = edit(text)
    game = dest / "demo.toml"
    game.write_text(text, encoding="utf-8")
    return game


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def assert_refused(code: int, err: str, expected: int, *words: str) -> None:
    assert code == expected, err
    assert "Traceback" not in err
    assert err.startswith("错误：") and CJK.search(err), err
    for w in words:
        assert w in err, (w, err)


def assert_posts_kept(game: Path, base: Baseline, db: str | None = None) -> None:
    for tid, pids in base.posts.items():
        assert sorted(p["pid"] for p in _posts_json(game, tid, db)) == pids


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


# ------------------------------------------------------------------------------ the game file


def test_a_missing_game_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["crawl"], ["tally", "--day", "1"], ["state"], ["flags"], ["cards", "verify"]):
        code, out, err = run(capsys, args[0], str(tmp_path / "nope.toml"), *args[1:])
        assert_refused(code, err, 2, "找不到游戏文件", "tracker init")
        assert out == ""
    assert not list(tmp_path.iterdir())  # no database created for a game that does not exist


def test_a_toml_syntax_error_says_where(tmp_path: Path, baseline: Baseline,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path, edit=lambda t: t.replace("[crawl]", "[crawl", 1))
    line = game.read_text(encoding="utf-8").splitlines().index("[crawl") + 1
    code, _, err = run(capsys, "crawl", str(game))
    assert_refused(code, err, 2, "TOML 语法错误", f"第 {line} 行", "[crawl")
    fixed = copy_game(baseline, tmp_path / "fixed")
    assert_posts_kept(fixed, baseline, f"sqlite:///{tmp_path / 'demo.db'}")


def test_a_wrong_key_names_the_nearest_one(tmp_path: Path, baseline: Baseline,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path, edit=lambda t: t.replace("concurrency =", "concurrancy =", 1))
    code, _, err = run(capsys, "tally", str(game), "--day", "2")
    assert_refused(code, err, 2, "concurrancy", "concurrency")


def test_a_bad_ruleset_id_suggests_the_bundled_ones_and_creates_no_database(
        tmp_path: Path, baseline: Baseline, capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path, edit=lambda t: t.replace('"luoluo-m19"', '"luoluo-m91"', 1))
    (tmp_path / "demo.db").unlink()
    code, _, err = run(capsys, "state", str(game))
    assert_refused(code, err, 2, "luoluo-m91", "luoluo-m19")
    assert not (tmp_path / "demo.db").exists()
    code, _, err = run(capsys, "tally", str(copy_game(baseline, tmp_path / "ok")), "--day", "2", "--ruleset", "nope")
    assert_refused(code, err, 2, "nope", "luoluo-m19")


@pytest.mark.parametrize(("breakage", "words"), [
    (lambda t: t.replace("[voting]", "[voting", 1), ("TOML 语法错误", "第 ", "[voting")),
    (lambda t: t.replace("\nplayers = ", "\nplayerz = ", 1), ("playerz", "players")),
    (lambda t: re.sub(r"(?m)^freeze_minutes = .*$", 'freeze_minutes = "一小时"', t, count=1),
     ("freeze_minutes", "整数")),
])
def test_a_ruleset_file_with_an_error_names_the_file_and_the_key(
        tmp_path: Path, baseline: Baseline, capsys: pytest.CaptureFixture[str], breakage: Any,
        words: tuple[str, ...]) -> None:
    from tracker.engine import rulesets

    source = (Path(rulesets.__file__).parent / "luoluo-m19.toml").read_text(encoding="utf-8")
    broken = breakage(source)
    assert broken != source
    (tmp_path / "my-game.toml").write_text(broken, encoding="utf-8")
    game = copy_game(baseline, tmp_path, edit=lambda t: t.replace('"luoluo-m19"', '"my-game.toml"', 1))
    code, _, err = run(capsys, "tally", str(game), "--day", "2")
    assert_refused(code, err, 2, "my-game.toml", *words)
    # the same file given to --ruleset on a good game
    good = copy_game(baseline, tmp_path / "good")
    code, _, err = run(capsys, "tally", str(good), "--day", "2", "--ruleset", str(tmp_path / "my-game.toml"))
    assert_refused(code, err, 2, "my-game.toml", *words)
    assert_posts_kept(good, baseline)


@pytest.mark.parametrize("command", [
    ["tally", "--day", "9"], ["tally", "--day", "9", "--json"], ["confirm", "--day", "9"],
    ["lurkers", "--day", "9"], ["elevator", "--day", "9"], ["announce", "--day", "9"],
    ["report", "lurkers", "--day", "9"], ["cards", "announce", "--day", "9"],
])
def test_a_day_the_game_does_not_have(tmp_path: Path, baseline: Baseline, capsys: pytest.CaptureFixture[str],
                                      command: list[str]) -> None:
    game = copy_game(baseline, tmp_path)
    args = [command[0], "lurkers", str(game), *command[2:]] if command[0] == "report" else \
        [command[0], str(game), *command[1:]]
    if command[:2] == ["cards", "announce"]:
        args = ["cards", str(game), "announce", "--day", "9"]
    code, out, err = run(capsys, *args)
    assert_refused(code, err, 2, "第 9 日", "1, 2")
    assert out == ""
    assert_posts_kept(game, baseline)


def test_usage_mistakes_are_explained_in_chinese(tmp_path: Path, baseline: Baseline,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    game = str(copy_game(baseline, tmp_path))
    cases = [
        (["tally", game], "缺少选项 --day"),
        (["tally", game, "--day", "二"], "--day 应为整数"),
        (["tally", game, "--dya", "2"], "没有选项 --dya"),
        (["card", game, "issue", "泡泡", "--color", "green", "--reason", "x"], "--color 只能是"),
        (["flags", game, "dismiss", "3"], "驳回需要违规记录的编号和理由"),
        (["nosuch"], "没有命令 nosuch"),
    ]
    for args, words in cases:
        code, out, err = run(capsys, *args)
        assert_refused(code, err, 2, words, "--help")
        assert out == "" and "Usage:" not in err and "Error:" not in err


# ---------------------------------------------------------------------------------- the forum


def test_an_unreachable_forum_keeps_what_was_stored(tmp_path: Path, baseline: Baseline,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path, forum_url=f"http://127.0.0.1:{free_port()}/",
                     edit=lambda t: t.replace("delay = 0.0", "delay = 0.0\nretries = 0"))
    for extra in ([], ["--json"]):
        code, out, err = run(capsys, "crawl", str(game), *extra)
        assert_refused(code, err, 5, "无法连接论坛", "forum")
        assert out == ""  # --json: stdout holds JSON or nothing
    assert_posts_kept(game, baseline)


@pytest.mark.parametrize(("tid", "status", "words"),
                         [(99999, "missing", ("不存在",)), (7, "no_permission", ("阅读权限", "登录"))])
def test_a_missing_or_forbidden_thread_is_reported_and_the_others_still_crawl(
        tmp_path: Path, baseline: Baseline, forum: ReplayForum, capsys: pytest.CaptureFixture[str], tid: int,
        status: str, words: tuple[str, ...]) -> None:
    game = copy_game(baseline, tmp_path, forum_url=forum.base_url,
                     edit=lambda t: t.replace("vote = 6", f"vote = {tid}", 1))
    code, out, err = run(capsys, "crawl", str(game), "--json")
    assert_refused(code, err, 4, *words)
    doc = json.loads(out)
    assert doc["status"] == "partial"
    statuses = {t["tid"]: t["status"] for t in doc["threads"]}
    assert statuses.pop(tid) == status and set(statuses.values()) == {"ok"}
    assert_posts_kept(game, baseline)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


def test_a_forum_address_that_is_not_discuz(tmp_path: Path, baseline: Baseline,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<html><body><h1>我的博客</h1></body></html>", encoding="utf-8")
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        game = copy_game(baseline, tmp_path / "game", forum_url=f"http://127.0.0.1:{server.server_address[1]}/")
        code, out, err = run(capsys, "crawl", str(game))
        assert_refused(code, err, 3, "不是 Discuz 主题帖", "[game] forum")
        assert "不是主题帖" in out
    finally:
        server.shutdown()
        server.server_close()
    assert_posts_kept(game, baseline)


def test_an_expired_login_in_the_cookie_file(tmp_path: Path, baseline: Baseline, forum: ReplayForum,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cookies.txt").write_text(
        "# Netscape HTTP Cookie File\n"
        "127.0.0.1\tFALSE\t/\tFALSE\t0\tq3Zx_2132_saltkey\tabcdEFGH\n"
        "127.0.0.1\tFALSE\t/\tFALSE\t0\tq3Zx_2132_auth\tbogus%2Fauth%3D\n", encoding="utf-8")
    (tmp_path / "cookies.txt").chmod(0o600)  # a login: readable by the owner only (else a 注意： line first)
    game = copy_game(baseline, tmp_path, forum_url=forum.base_url,
                     edit=lambda t: t.replace("[crawl]", '[login]\ncookie_file = "cookies.txt"\n\n[crawl]', 1))
    code, _, err = run(capsys, "crawl", str(game))
    assert_refused(code, err, 4, "登录已过期", "cookie")
    assert_posts_kept(game, baseline)
    (tmp_path / "cookies.txt").unlink()
    code, _, err = run(capsys, "crawl", str(game))
    assert_refused(code, err, 2, "找不到 cookie 文件")


def test_a_password_that_cannot_be_asked_for(tmp_path: Path, baseline: Baseline, forum: ReplayForum,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TRACKER_PASSWORD", raising=False)
    game = copy_game(baseline, tmp_path, forum_url=forum.base_url,
                     edit=lambda t: t.replace("[crawl]", '[login]\nusername = "导演A"\n\n[crawl]', 1))
    code, _, err = run(capsys, "crawl", str(game))
    assert_refused(code, err, 4, "密码", "TRACKER_PASSWORD")
    assert_posts_kept(game, baseline)


# ------------------------------------------------------------------------------- the database


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_database_url_that_cannot_be_opened(tmp_path: Path, baseline: Baseline,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path)
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    urls = {
        "nonsense://x": "无法打开数据库",
        "not a url": "数据库地址无效",
        f"sqlite:///{tmp_path / 'a-file' / 'game.db'}": "无法创建数据库所在的目录",
        f"postgresql+psycopg://director:pw@127.0.0.1:{free_port()}/game": "无法连接或升级数据库",
    }
    for url, words in urls.items():
        for command in (["state"], ["posts", "--thread", "5", "--json"], ["crawl"]):
            code, out, err = run(capsys, command[0], str(game), *command[1:], "--db", url)
            assert_refused(code, err, 6, words)
            assert out == ""
    assert_posts_kept(game, baseline)


def test_a_read_only_database_refuses_writes_and_keeps_its_data(tmp_path: Path, baseline: Baseline,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path)
    code, _, _ = run(capsys, "card", str(game), "issue", "碎碎", "--color", "yellow", "--reason", "发言不足")
    assert code == 0
    before = _digest(tmp_path / "demo.db")
    # SQLite's own read-only mode: what a file without write permission gives (root ignores chmod).
    ro = f"sqlite:///file:{tmp_path / 'demo.db'}?mode=ro&uri=true"
    for args in (["card", str(game), "issue", "泡泡", "--color", "blue", "--reason", "测试"],
                 ["crawl", str(game)], ["event", str(game), "benched", "--player", "泡泡", "--day", "2"]):
        code, _, err = run(capsys, *args, "--db", ro)
        assert_refused(code, err, 6, "只读", "已保存的数据没有改动")
    assert not (tmp_path / "file:").exists()  # the URI form is not taken for a directory to create
    assert _digest(tmp_path / "demo.db") == before
    code, out, _ = run(capsys, "cards", str(game), "verify", "--json")
    assert code == 0 and json.loads(out) == {"ok": True, "entries": 1, "broken_at": None}
    assert_posts_kept(game, baseline)


@pytest.mark.parametrize(("damage", "words"), [
    (lambda raw: raw[:20_000] + bytes(range(256)) * 8, "已损坏"),
    (lambda raw: "这不是数据库，只是一段文字。".encode() * 50, "不是 SQLite 数据库"),
])
def test_a_corrupt_database_is_reported_and_left_as_it_was(tmp_path: Path, baseline: Baseline,
                                                           capsys: pytest.CaptureFixture[str], damage: Any,
                                                           words: str) -> None:
    game = copy_game(baseline, tmp_path)
    bad = tmp_path / "demo.db"
    bad.write_bytes(damage(bad.read_bytes()))
    before = _digest(bad)
    for command in (["state"], ["crawl"], ["tally", "--day", "2"], ["cards", "verify"]):
        code, out, err = run(capsys, command[0], str(game), *command[1:])
        assert_refused(code, err, 6, words)
        assert out == ""
    assert _digest(bad) == before


def test_store_error_leaves_bugs_alone() -> None:
    """Only the director's database problems become messages: a constraint violation stays a bug."""
    from sqlalchemy.exc import DatabaseError, IntegrityError, OperationalError, ProgrammingError

    from tracker.store.db import store_error

    assert store_error(IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))) is None
    assert store_error(ProgrammingError("SELECT", {}, Exception("no such column"))) is None
    assert store_error(ValueError("x")) is None
    locked = store_error(OperationalError("INSERT", {}, Exception("database is locked")))
    assert locked is not None and locked.exit_code == 6 and "锁" in locked.message
    other = store_error(DatabaseError("SELECT", {}, Exception("something new")))
    assert other is not None and "something new" in other.message
    denied = store_error(ProgrammingError("INSERT", {}, Exception("permission denied for table post")))
    assert denied is not None and "写权限" in denied.message  # PostgreSQL's read-only account


# ------------------------------------------------------------------------ Ctrl-C and no terminal


CLI = [sys.executable, "-c", "import sys; from tracker.cli import main; sys.exit(main())"]


def test_ctrl_c_during_a_crawl_keeps_the_store_consistent_and_the_next_crawl_completes(
        tmp_path: Path, baseline: Baseline) -> None:
    with ReplayForum(DEMO_PAGES) as forum:
        text = (DEMO_DATA / "game.toml").read_text(encoding="utf-8")
        game = tmp_path / "demo.toml"
        game.write_text(FORUM_LINE.sub(f'forum = "{forum.base_url}"', text), encoding="utf-8")
        forum.stall_after(4)  # two listings and two desktop pages answered, then the forum hangs
        proc = subprocess.Popen([*CLI, "crawl", str(game)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                stdin=subprocess.DEVNULL, text=True)
        deadline = time.monotonic() + 60
        while len(forum.requests) <= 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        forum.release()
        forum.stall_after(None)
        assert proc.returncode == 130, err
        assert "Traceback" not in err and "已中断" in err and "不受影响" in err

        again = subprocess.run([*CLI, "crawl", str(game), "--json"], capture_output=True, text=True, timeout=120,
                               stdin=subprocess.DEVNULL)
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["status"] == "ok"
    for tid, pids in baseline.posts.items():
        rows = _posts_json(game, tid)
        assert sorted(p["pid"] for p in rows) == pids  # every post, none twice
        assert all(p["versions"] == 1 for p in rows)


def test_post_without_a_terminal_and_without_yes_is_refused(tmp_path: Path, baseline: Baseline) -> None:
    game = copy_game(baseline, tmp_path, forum_url=f"http://127.0.0.1:{free_port()}/")
    reply = tmp_path / "r.bbcode"
    reply.write_text("[b]第 2 日 公示[/b]", encoding="utf-8")
    done = subprocess.run([*CLI, "post", str(game), "--thread", "process", "--file", str(reply)],
                          capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("错误：") and "--yes" in done.stderr and "Traceback" not in done.stderr
    assert_posts_kept(game, baseline)


# ---------------------------------------------------------------------- files the tool writes


def test_a_reports_directory_that_cannot_be_written(tmp_path: Path, baseline: Baseline,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path)
    (tmp_path / "reports").write_text("一个文件占了报告目录的名字", encoding="utf-8")
    code, _, err = run(capsys, "report", "tally", str(game), "--day", "2", "--write")
    assert_refused(code, err, 2, "无法写入报告", "已有同名文件", "reports_dir")
    assert_posts_kept(game, baseline)


def test_init_into_a_directory_that_does_not_exist(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "init", "--ruleset", "dnf-107", "--out", str(tmp_path / "no" / "such" / "g.toml"))
    assert_refused(code, err, 2, "无法写入", "路径不存在", "--out")
    assert out == ""


def test_post_a_file_that_is_not_utf8(tmp_path: Path, baseline: Baseline, capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path, forum_url=f"http://127.0.0.1:{free_port()}/")
    reply = tmp_path / "gbk.bbcode"
    reply.write_bytes("第二日公示".encode("gbk"))
    code, out, err = run(capsys, "post", str(game), "--thread", "process", "--file", str(reply), "--yes")
    assert_refused(code, err, 2, "不是 UTF-8 编码")
    assert out == ""


def test_a_ruleset_path_that_is_a_directory(tmp_path: Path, baseline: Baseline,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    game = copy_game(baseline, tmp_path)
    (tmp_path / "rules.toml").mkdir()
    code, _, err = run(capsys, "tally", str(game), "--day", "2", "--ruleset", str(tmp_path / "rules.toml"))
    assert_refused(code, err, 2, "无法读取规则文件", "这是一个目录")


def test_a_cookie_file_path_that_is_a_directory(tmp_path: Path, baseline: Baseline, forum: ReplayForum,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "cookies").mkdir()
    game = copy_game(baseline, tmp_path, forum_url=forum.base_url,
                     edit=lambda t: t.replace("[crawl]", '[login]\ncookie_file = "cookies"\n\n[crawl]', 1))
    code, _, err = run(capsys, "crawl", str(game))
    assert_refused(code, err, 2, "无法读取 cookie 文件", "这是一个目录")
    assert "Errno" not in err
    assert_posts_kept(game, baseline)


def test_help_is_in_chinese(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "tally", "--help")
    assert code == 0
    assert "用法:" in out and "选项:" in out and "[必填]" in out and "显示本帮助并退出" in out
    assert "Usage" not in out and "Show this message" not in out and "required" not in out
    code, out, _ = run(capsys, "--help")
    assert code == 0 and "命令:" in out and "Commands" not in out
