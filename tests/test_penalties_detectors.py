"""Each detector on its own: the cases the rule posts name and the traps around them."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest

from tracker.clock import SHANGHAI
from tracker.errors import ConfigError
from tracker.penalties.chatlog import detect_chat_log
from tracker.penalties.detect import DetectContext, Detector, detect_posts
from tracker.penalties.fonts import (
    FontThresholds,
    detect_fonts,
    parse_color,
    red_distance,
    size_px,
    strip_quotes,
)
from tracker.penalties.kidnap import Kidnap, detect_kidnapped_speech, leftover_speech
from tracker.penalties.phrases import PhraseMatcher, load_lexicon
from tracker.penalties.presence import StatusChange, detect_presence
from tracker.penalties.spam import SpamThresholds, detect_spam
from tracker.records import FontUse, Post, Quote

T0 = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)
NAMES = ["泡泡", "饺子", "曹操", "马上", "青铃"]


def post(text: str = "", *, html: str | None = None, author: str = "泡泡", pid: int = 1, tid: int = 3,
         floor: int = 2, at: datetime = T0, **kw: object) -> Post:
    return Post(pid=pid, tid=tid, floor=floor, author=author, uid=None, posted_at=at,
                html=html if html is not None else text, text=text, **kw)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def matcher() -> PhraseMatcher:
    return PhraseMatcher(load_lexicon(), names=NAMES)


# ------------------------------------------------------------------ fonts


@pytest.mark.parametrize("value", ["#FF0000", "#f00", "#ff0000", "Red", "RED", "rgb(255, 0, 0)",
                                   "rgb(100%,0%,0%)", "rgba(255,0,0,0.8)", "hsl(0, 100%, 50%)", "ff0000",
                                   "#EE0000", "#E60012", "#ff3333"])
def test_red_and_near_red_are_red(value: str) -> None:
    d = red_distance(value)
    assert d is not None and d <= FontThresholds().red_delta_e


@pytest.mark.parametrize("value", ["Blue", "#0000FF", "Purple", "#999999", "DarkRed", "Crimson", "green",
                                   "#CC0000"])
def test_other_colours_are_not_red(value: str) -> None:
    d = red_distance(value)
    assert d is not None and d > FontThresholds().red_delta_e


def test_not_a_colour() -> None:
    assert parse_color("banana") is None and parse_color("rgb(1,2)") is None and red_distance("") is None


def test_threshold_is_configurable() -> None:
    p = post("强调", html='<font color="#CC0000">强调</font>')
    assert detect_fonts(p) == []
    assert [f.kind for f in detect_fonts(p, FontThresholds(red_delta_e=12))] == ["red_text"]


@pytest.mark.parametrize("value,px", [("4", 18), ("5", 24), ("7", 48), ("3", 16), ("+1", 18), ("20px", 20),
                                      ("14pt", 56 / 3), ("1.5em", 24), ("150%", 24), ("x-large", 24)])
def test_sizes_in_px(value: str, px: float) -> None:
    assert size_px(value) == pytest.approx(px)


def test_style_attributes_and_size_threshold() -> None:
    html = '<span style="font-size: 20px; color: rgb(238, 0, 0)">看这里</span><font size="3">正常</font>'
    kinds = sorted(f.kind for f in detect_fonts(post("看这里正常", html=html)))
    assert kinds == ["large_font", "red_text"]
    small = post("正常", html='<font style="font-size:17px">正常</font> <font size="3">正常</font>')
    assert detect_fonts(small) == []
    bg = post("x", html='<span style="background-color:#ff0000">x</span>')
    assert detect_fonts(bg) == []


def test_quote_header_and_quoted_red_are_not_the_quoters() -> None:
    html = ('<div class="quote"><blockquote><font size="2"><a href="x"><font color="#999999">饺子 发表于 '
            '2025-3-1 15:10</font></a></font><br /><font color="#FF0000">红字</font>'
            '<div class="quote"><blockquote><font size="6">嵌套</font></blockquote></div>'
            '</blockquote></div><br />我的回复<font color="Blue">蓝</font>')
    assert "999999" not in strip_quotes(html) and "我的回复" in strip_quotes(html)
    assert detect_fonts(post("我的回复蓝", html=html)) == []


def test_parser_fields_are_used_too() -> None:
    p = post("x", html="x", colors=("#F00",), fonts=(FontUse(None, "5", "大字"),))
    found = {f.kind: f for f in detect_fonts(p)}
    assert set(found) == {"red_text", "large_font"}
    assert "大字" in found["large_font"].excerpt and found["red_text"].matched == "#F00"


# ------------------------------------------------------------------ phrases


@pytest.mark.parametrize("text,category,matched", [
    ("我发誓我是好人", "oath", "我发誓"),
    ("我对天发誓没乱投", "oath", "发誓"),
    ("以我的人格担保他是好人", "oath", "以我的人格担保"),
    ("如果我是狼，我就自刀", "oath", "如果我是狼，我就自刀"),
    ("卧槽真吊", "insult", "卧槽"),
    ("你麻痹的", "insult", "你麻痹"),
    ("你这个撒币", "insult", "撒币"),
    ("你这个洒币", "insult", "洒币"),
    ("nmb，别装了", "insult", "nmb"),
    ("NMB", "insult", "NMB"),
    ("他就是个SB", "insult", "SB"),
    ("我问了导演，这场加速了发言也吃牌", "director_quote", "我问了导演"),
    ("导演说今天关门", "director_quote", "导演说"),
    ("我信A，但是我场助比较信B", "outside_help", "场助"),
    ("他这么换替补我怎么认他狼", "substitute", "替补"),
    ("你忘了上一场女巫黑情侣了？", "past_game", "上一场"),
    ("一定要选他当ＭＶＰ", "mvp", "ＭＶＰ"),
    ("不信我你等着结束后看演员表吧", "threat", "看演员表"),
    ("你们要出我不如我淹死好了", "threat", "淹死"),
    ("我准备好背锅了", "scapegoat", "背锅"),
    ("他都这么贴脸了，我没法不信他", "face_reading", "贴脸"),
])
def test_forbidden_phrases(matcher: PhraseMatcher, text: str, category: str, matched: str) -> None:
    hits = [(h.entry.category, h.matched) for h in matcher.hits(text)]
    assert (category, matched) in hits


@pytest.mark.parametrize("text", [
    "昨天去广场助威跳舞了",
    "我觉得这局应该由警长来主导演说顺序",
    "马上一场大戏就要开演了",
    "我用这个思路代替补充说明一下",
    "他在场上助攻了好几次",
    "导演说明了规则",
    "我曹操今天不出手",       # a name in the user dictionary: not 我曹 (wo cao)
    "如果你是狼我就投你",      # a plain hypothesis, not an oath
    "sbc 是一个缩写",          # sb only as a whole Latin word
    "规则帖里写了禁止的东西",
])
def test_innocent_look_alikes(matcher: PhraseMatcher, text: str) -> None:
    assert matcher.hits(text) == []


@pytest.mark.parametrize("backend", ["jieba", "rjieba"])
def test_both_segmenters_draw_the_same_lines(backend: str) -> None:
    m = PhraseMatcher(load_lexicon(), names=NAMES, segmenter=backend)
    for text in ["昨天去广场助威跳舞了", "主导演说顺序", "马上一场大戏", "代替补充", "我曹操今天不出手"]:
        assert m.hits(text) == [], (backend, text)
    for text, want in [("我对天发誓", "发誓"), ("我场助比较信他", "场助"), ("马上说上一场的事", "上一场")]:
        assert [h.matched for h in m.hits(text)] == [want], (backend, text)


def test_homophone_evidence_names_the_original(matcher: PhraseMatcher) -> None:
    f = matcher.detect(post("你这个洒币"))[0]
    assert "谐音（撒币）" in f.evidence and f.category == "insult" and f.kind == "keyword"


def test_quoted_text_is_never_the_quoters(matcher: PhraseMatcher) -> None:
    q = Quote(pid=31, author="饺子", posted_at=T0, text="卧槽，这发言也太离谱了吧")
    p = post("注意文明用语哈", html="<div class=\"quote\"><blockquote>卧槽</blockquote></div>注意文明用语哈",
             quotes=(q,))
    assert matcher.detect(p) == []


def test_director_extends_the_lexicon(tmp_path: Path) -> None:
    (tmp_path / "insult.txt").write_text("菜狗\n!菜狗粮\n", encoding="utf-8")
    (tmp_path / "spoiler.txt").write_text("# section: 马甲\n# clause: 马甲：剧透\n剧透一下\n", encoding="utf-8")
    m = PhraseMatcher(load_lexicon([tmp_path]), names=NAMES)
    assert [(h.entry.category, h.matched) for h in m.hits("你这个菜狗")] == [("insult", "菜狗")]
    assert m.hits("我买了菜狗粮") == []
    hit = m.hits("我剧透一下")[0]
    assert hit.entry.category == "spoiler" and hit.entry.clause == "马甲：剧透"
    with pytest.raises(ConfigError):
        load_lexicon([tmp_path / "missing.txt"])
    (tmp_path / "bad.txt").write_text("re:(unclosed\n", encoding="utf-8")
    with pytest.raises(ConfigError):
        load_lexicon([tmp_path / "bad.txt"])


def test_segmenter_loads_only_when_a_candidate_appears() -> None:
    m = PhraseMatcher(load_lexicon(), names=NAMES)
    assert m.hits("今天天气很好，大家继续讨论。") == []
    assert not m.segmenter.loaded
    m.hits("导演说今天关门")
    assert m.segmenter.loaded


# ------------------------------------------------------------------ 贴证


@pytest.mark.parametrize("text", ["取酒 21:15:03 反馈：村民阵营", "看这个：\n泡泡 2025-03-01 21:15:03\n我是预言家",
                                  "21:15:03 泡泡\n验了饺子"])
def test_chat_logs(text: str) -> None:
    f = detect_chat_log(post(text))
    assert len(f) == 1 and f[0].kind == "chat_log_evidence"


@pytest.mark.parametrize("text", ["截止时间 2025-03-02 22:00", "我 22:00 再来", "比分 3:2:1 哈哈哈", "今天 10 点见"])
def test_not_chat_logs(text: str) -> None:
    assert detect_chat_log(post(text)) == []


# ------------------------------------------------------------------ 绑架


def test_kidnapped_player_may_only_make_animal_sounds() -> None:
    k = Kidnap("青铃", T0, T0 + timedelta(days=1))
    ok = [post("喵喵喵！汪～", author="青铃", pid=1), post(":) {:2_25:} 咕咕", author="青铃", pid=2),
          post("投票对象：饺子\n投票理由：喵喵", author="青铃", pid=3)]
    bad = [post("喵，我是好人", author="青铃", pid=4), post("投票对象：饺子\n投票理由：他最可疑", author="青铃", pid=5)]
    later = post("我终于能说话了", author="青铃", pid=6, at=T0 + timedelta(days=2))
    other = post("我是好人", author="泡泡", pid=7)
    found = detect_kidnapped_speech([*ok, *bad, later, other], [k])
    assert [f.pid for f in found] == [4, 5]
    assert leftover_speech("喵，我是好人") == "我是好人"


# ------------------------------------------------------------------ 水帖


def test_spam_run_of_near_empty_posts() -> None:
    floors = [post(str(i), author="饺子", pid=100 + i, floor=10 + i) for i in range(6)]
    found = detect_spam([post("正常发言比较长", pid=99, floor=9), *floors, post("1", author="泡泡", pid=200, floor=16)])
    assert len(found) == 1 and found[0].pid == 100 and found[0].related_pids == tuple(range(101, 106))
    broken = [post(str(i), author="饺子" if i != 3 else "泡泡", pid=100 + i, floor=10 + i) for i in range(6)]
    assert detect_spam(broken) == []
    assert detect_spam(floors, SpamThresholds(min_run=7)) == []


# ------------------------------------------------------------------ 诈尸 / 挂机


def test_posting_while_out_or_benched_depends_on_when() -> None:
    died = T0 + timedelta(days=1)
    tl = [StatusChange("饺子", "out", died, "第一夜死亡"), StatusChange("泡泡", "benched", died),
          StatusChange("青铃", "dead_not_out", died)]
    threads = {3: "discussion", 4: "vote", 2: "process", 9: "other"}
    posts = [
        post("死前", author="饺子", pid=1, at=died - timedelta(minutes=1)),
        post("诈尸", author="饺子", pid=2, at=died + timedelta(minutes=1)),
        post("进程帖", author="饺子", pid=3, tid=2, at=died + timedelta(hours=1)),
        post("投票对象：泡泡", author="饺子", pid=4, tid=4, at=died + timedelta(hours=1)),
        post("闲聊帖", author="饺子", pid=5, tid=9, at=died + timedelta(hours=1)),
        post("挂机中", author="泡泡", pid=6, at=died + timedelta(hours=1)),
        post("死亡未出局可以说话", author="青铃", pid=7, at=died + timedelta(hours=1)),
    ]
    got = {(f.pid, f.kind) for f in detect_presence(posts, tl, threads)}  # type: ignore[arg-type]
    assert got == {(2, "posted_while_out"), (3, "posted_while_out"), (6, "posted_while_benched")}
    with_votes = detect_presence(posts, tl, threads, include_vote_threads=True)  # type: ignore[arg-type]
    assert (4, "posted_while_out") in {(f.pid, f.kind) for f in with_votes}


# ------------------------------------------------------------------ the whole set


def test_detect_posts_runs_everything_and_exempts_directors() -> None:
    ctx = DetectContext(players=["泡泡", "饺子"], directors=["导演A"], threads={3: "discussion"},
                        timeline=[StatusChange("饺子", "out", T0)])
    posts = [
        post("我发誓", html='<font color="red">我发誓</font>', pid=1),
        post("导演说", html='<font color="red" size="6">导演说</font>', author="导演A", pid=2),
        post("还在", author="饺子", pid=3, at=T0 + timedelta(hours=1)),
        post("卧槽", author="泡泡", pid=4, blocked=True),
    ]
    found = detect_posts(posts, context=ctx)
    assert [(f.pid, f.label) for f in found] == [(1, "keyword:oath"), (1, "red_text"), (3, "posted_while_out")]
    only_fonts = Detector(DetectContext(players=["泡泡"], detectors=frozenset({"fonts"}))).run(posts[:1])
    assert [f.kind for f in only_fonts] == ["red_text"]
