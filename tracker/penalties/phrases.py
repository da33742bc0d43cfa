"""Forbidden phrases by rule section: Aho-Corasick candidates, kept only where jieba agrees.

Chinese has no spaces, so a substring is not a word: 广场助威 contains 场助, 主导演说 contains
导演说, 马上一场 contains 上一场, 代替补充 contains 替补. The matcher finds every candidate with one
Aho-Corasick pass (fast, catches phrases that span several tokens, such as 我发誓 = 我/发誓), then
segments only the clause around a candidate with a private jieba tokenizer (player names and game
terms in its user dictionary) and drops a hit whose edge cuts through a token. A hit may cover
several tokens or sit inside one (发誓 in 对天发誓); it may not half-overlap one.

Homophones and pinyin (贴脸 (2)(3)(4): "同音词、拼音、省略"): entries marked ``~`` are also matched
on a pinyin rendering of the text (every Han character replaced by its toneless syllable), so
你麻痹 is caught as 你妈逼 and 撒币/洒币 as 撒币; three-syllable ones also as their initials
(``nmb``). Latin entries match whole ASCII words only.

The segmenter (rjieba, else jieba) is loaded lazily, the first time a post has a candidate: most
posts have none, and start-up costs more than segmenting the few that do. Segmentations are
cached per text block, since the same short lines come back again and again in a thread.
"""

from __future__ import annotations

import itertools
import logging
import re
import unicodedata
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import ahocorasick

from tracker.errors import ConfigError
from tracker.penalties.findings import Finding, excerpt, make_finding
from tracker.penalties.lexicons import LEXICON_DIR
from tracker.records import Post

# Full-width ASCII → ASCII, upper → lower: one character for one, so offsets stay valid.
_FOLD = {c: c + 0x20 for c in range(ord("A"), ord("Z") + 1)}
_FOLD.update({c: c - 0xFEE0 + (0x20 if 0xFF21 <= c <= 0xFF3A else 0) for c in range(0xFF01, 0xFF5F)})
_FOLD[0x3000] = 0x20


def fold_text(text: str) -> str:
    """Case- and width-folded text of the same length (ＭＶＰ → mvp)."""
    return text.translate(_FOLD)


# jieba splits its input into blocks of these characters before segmenting, so segmenting the block
# around a hit gives exactly the tokens that segmenting the whole post would.
_JIEBA_BLOCK = re.compile(r"[\u4E00-\u9FD5a-zA-Z0-9+#&\._%\-]+")
_ASCII_WORD = re.compile(r"[a-z0-9]")
_PUA = 0xE000  # syllable i is written as chr(_PUA + i) in the pinyin rendering


@dataclass(frozen=True, slots=True)
class LexiconEntry:
    category: str
    section: str
    clause: str
    text: str  # the phrase (folded) or the regex source
    kind: str  # "literal" | "regex"
    homophones: bool = False
    source: str = ""


@dataclass
class Lexicon:
    """Every category's entries, plus innocent phrases and segmenter vocabulary."""

    entries: list[LexiconEntry] = field(default_factory=list)
    exceptions: list[str] = field(default_factory=list)
    terms: list[str] = field(default_factory=list)
    sections: dict[str, tuple[str, str]] = field(default_factory=dict)  # category -> (section, clause)

    @property
    def categories(self) -> list[str]:
        return sorted({e.category for e in self.entries})

    def for_ruleset(self, clauses: Mapping[str, str] | None) -> Lexicon:
        """Only the categories a ruleset maps (see ``Ruleset.phrase_clauses``), each citing the
        ruleset's own clause; ``None`` keeps everything as is. The selection is the post's: 107 relaxes
        mentions of past games, so its 上一场 is no violation."""
        if clauses is None:
            return self
        entries = [replace(e, clause=clauses[e.category]) for e in self.entries if e.category in clauses]
        sections = {c: (sec, clauses[c]) for c, (sec, _) in self.sections.items() if c in clauses}
        return Lexicon(entries=entries, exceptions=list(self.exceptions), terms=list(self.terms), sections=sections)

    def merged(self, other: Lexicon) -> Lexicon:
        """This lexicon plus another's (the director's own lists, which a ruleset never filters)."""
        return Lexicon(entries=[*self.entries, *other.entries], exceptions=[*self.exceptions, *other.exceptions],
                       terms=[*self.terms, *other.terms], sections={**self.sections, **other.sections})


def _files(paths: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(p.glob("*.txt")))
        elif p.is_file():
            out.append(p)
        else:
            raise ConfigError(f"找不到词表文件或目录：{p}", hint="检查游戏文件里的额外词表路径")
    return out


def load_lexicon(extra: Sequence[Path] = (), *, builtin: bool = True) -> Lexicon:
    """The bundled lexicons plus the director's files (same format; see tracker/penalties/lexicons)."""
    lex = Lexicon()
    paths = ([LEXICON_DIR] if builtin else []) + [Path(p) for p in extra]
    for path in _files(paths):
        stem = path.stem
        lines = path.read_text(encoding="utf-8-sig").splitlines()
        if stem.startswith("_"):
            lex.terms += [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
            continue
        meta: dict[str, str] = {}
        for ln in lines:
            m = re.match(r"\s*#\s*(category|section|clause)\s*:\s*(.+?)\s*$", ln)
            if m:
                meta[m.group(1)] = m.group(2)
        category = meta.get("category", stem)
        old = lex.sections.get(category, ("", ""))
        section = meta.get("section", old[0] or "其他")
        clause = meta.get("clause", old[1] or f"{section}：导演认为违规的发言")
        lex.sections.setdefault(category, (section, clause))
        for lineno, raw in enumerate(lines, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            own_clause = clause
            if " | " in line:
                line, own_clause = (s.strip() for s in line.split(" | ", 1))
            where = f"{path.name}:{lineno}"
            if line.startswith("!"):
                lex.exceptions.append(fold_text(line[1:].strip()))
            elif line.startswith("re:"):
                try:
                    re.compile(line[3:])
                except re.error as exc:
                    raise ConfigError(f"词表 {where} 的正则表达式无效：{exc}") from exc
                lex.entries.append(LexiconEntry(category, section, own_clause, line[3:], "regex", source=where))
            else:
                homo = line.startswith("~")
                phrase = fold_text(line.lstrip("~").strip())
                if phrase:
                    lex.entries.append(LexiconEntry(category, section, own_clause, phrase, "literal", homo, where))
    return lex


@dataclass(frozen=True, slots=True)
class Hit:
    entry: LexiconEntry
    start: int
    end: int
    matched: str
    how: str  # "" for a literal hit, else a Chinese note (谐音 / 拼音缩写 / 句式)


_TONES = str.maketrans({c: unicodedata.normalize("NFD", c)[0]
                        for c in "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜńňǹḿ"})


def _toneless(reading: str) -> str:
    return reading.translate(_TONES)


_HAN = re.compile(r"[\u4e00-\u9fff]")


def _pinyin_table() -> dict[int, str]:
    """pypinyin's character table (codepoint → "reading,reading"), without importing pypinyin itself.

    ``import pypinyin`` trains its word segmenter and loads its phrase dictionary (about a second);
    the plain table is all the homophone matcher needs.
    """
    import importlib.util

    spec = importlib.util.find_spec("pypinyin")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in locations:
        path = Path(folder) / "pinyin_dict.py"
        sub = importlib.util.spec_from_file_location("_tracker_pinyin_dict", path)
        if sub is not None and sub.loader is not None and path.is_file():
            module = importlib.util.module_from_spec(sub)
            sub.loader.exec_module(module)
            table: dict[int, str] = module.pinyin_dict
            return table
    from pypinyin.pinyin_dict import pinyin_dict

    return dict(pinyin_dict)


_PINYIN: dict[int, str] | None = None


def pinyin_table() -> dict[int, str]:
    global _PINYIN
    if _PINYIN is None:
        _PINYIN = _pinyin_table()
    return _PINYIN


class Segmenter:
    """A private segmenter with the game's names and terms; created on first use.

    rjieba (jieba-rs: jieba's dictionary and algorithm, same tokens) starts several times faster
    than jieba; jieba's own private ``Tokenizer`` is the fallback. Never jieba's global ``dt``.
    """

    def __init__(self, names: Sequence[str], terms: Sequence[str], *, backend: str = "auto") -> None:
        self._names = [n for n in names if n]
        self._terms = [t for t in terms if t]
        self._backend = backend
        self._cut: Any = None
        self._memo: dict[str, list[tuple[int, int]]] = {}

    @property
    def loaded(self) -> bool:
        return self._cut is not None

    def _load_rjieba(self) -> Any:
        import rjieba

        seg = rjieba.Jieba()
        for term in self._terms:
            if not seg.has_word(term):
                seg.add_word(term, None, None)
        for name in self._names:
            # A player name stays one token whatever its neighbours (names are often common words).
            seg.add_word(name, max(seg.suggest_freq(name), 20000), None)
        return lambda text: [(s, e) for _w, s, e in seg.tokenize(text, "default", False)]

    def _load_jieba(self) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import jieba

            jieba.setLogLevel(logging.WARNING)
            tk = jieba.Tokenizer()
            tk.initialize()
        for term in self._terms:
            if not tk.FREQ.get(term):
                tk.add_word(term)
        for name in self._names:
            tk.add_word(name, freq=max(tk.FREQ.get(name, 0) or 0, tk.suggest_freq(name, False), 20000))
        return lambda text: [(s, e) for _w, s, e in tk.tokenize(text, HMM=False)]

    def _load(self) -> Any:
        if self._backend in ("auto", "rjieba"):
            try:
                return self._load_rjieba()
            except ImportError:
                if self._backend == "rjieba":
                    raise
        return self._load_jieba()

    def spans(self, text: str) -> list[tuple[int, int]]:
        memo = self._memo.get(text)
        if memo is not None:
            return memo
        if self._cut is None:
            self._cut = self._load()
        spans: list[tuple[int, int]] = self._cut(text)
        if len(self._memo) >= 100_000:
            self._memo.clear()
        self._memo[text] = spans
        return spans


class PhraseMatcher:
    """Compiled lexicon: build once per game, call :meth:`hits` / :meth:`detect` per post."""

    def __init__(self, lexicon: Lexicon, *, names: Sequence[str] = (), segmenter: str = "auto") -> None:
        self.lexicon = lexicon
        self.segmenter = Segmenter(list(names), lexicon.terms, backend=segmenter)
        self._literal = ahocorasick.Automaton()
        buckets: dict[str, list[tuple[LexiconEntry, str]]] = {}
        for e in lexicon.entries:
            if e.kind == "literal":
                buckets.setdefault(e.text, []).append((e, ""))
        self._homo_entries = [e for e in lexicon.entries if e.kind == "literal" and e.homophones]
        for e in self._homo_entries:
            initials = self._initials(e.text)
            if initials:
                buckets.setdefault(initials, []).append((e, f"拼音缩写（{e.text}）"))
        for key, items in buckets.items():
            self._literal.add_word(key, (len(key), tuple(items)))
        self._has_literal = bool(buckets)
        if self._has_literal:
            self._literal.make_automaton()
        regexes = [e for e in lexicon.entries if e.kind == "regex"]
        self._regexes = regexes
        self._regex = (
            re.compile("|".join(f"(?P<r{i}>{e.text})" for i, e in enumerate(regexes))) if regexes else None
        )
        self._exceptions = [x for x in lexicon.exceptions if x]

    # ------------------------------------------------ pinyin

    @cached_property
    def _pinyin(self) -> tuple[dict[int, str], Any] | None:
        """(character → syllable-codepoint table, automaton over syllable strings) for ``~`` entries."""
        if not self._homo_entries:
            return None
        pinyin_dict = pinyin_table()

        def readings(ch: str) -> list[str]:
            raw = pinyin_dict.get(ord(ch))
            return [_toneless(r) for r in raw.split(",")] if raw else []

        wanted: set[str] = set()
        per_entry: list[tuple[LexiconEntry, list[list[str]]]] = []
        for e in self._homo_entries:
            rs = [list(dict.fromkeys(readings(c))) for c in e.text]
            if len(e.text) < 2 or not all(rs):
                continue
            per_entry.append((e, rs))
            wanted.update(r for opts in rs for r in opts)
        syllables = {s: chr(_PUA + i) for i, s in enumerate(sorted(wanted))}
        table: dict[int, str] = {}
        for cp, raw in pinyin_dict.items():
            first = _toneless(raw.split(",")[0])
            if first in syllables:
                table[cp] = syllables[first]
        auto = ahocorasick.Automaton()
        keys: dict[str, list[LexiconEntry]] = {}
        for e, rs in per_entry:
            for combo in itertools.islice(itertools.product(*rs), 64):
                keys.setdefault("".join(syllables[s] for s in combo), []).append(e)
        for k, es in keys.items():
            auto.add_word(k, (len(k), tuple(es)))
        if not keys:
            return None
        auto.make_automaton()
        return table, auto

    @staticmethod
    def _initials(phrase: str) -> str | None:
        if len(phrase) < 3 or not all("\u4e00" <= c <= "\u9fff" for c in phrase):
            return None
        readings = [pinyin_table().get(ord(c)) for c in phrase]
        if not all(readings):
            return None
        letters = "".join(_toneless(str(r))[:1] for r in readings)
        return letters if len(letters) == len(phrase) and letters.isascii() else None

    # ------------------------------------------------ matching

    def candidates(self, text: str) -> list[Hit]:
        """Every raw occurrence before the segmenter has its say."""
        norm = fold_text(text)
        hits: list[Hit] = []
        if self._has_literal:
            for end_idx, (length, items) in self._literal.iter(norm):
                start, end = end_idx - length + 1, end_idx + 1
                for entry, how in items:
                    hits.append(Hit(entry, start, end, text[start:end], how))
        if self._regex is not None:
            for m in self._regex.finditer(norm):
                name = m.lastgroup
                if name is not None:
                    hits.append(Hit(self._regexes[int(name[1:])], m.start(), m.end(), text[m.start():m.end()], "句式"))
        if self._homo_entries and _HAN.search(norm):
            py = self._pinyin
            if py is not None:
                table, auto = py
                syl = norm.translate(table)
                literal_spans = {(h.start, h.end, h.entry.category) for h in hits}
                for end_idx, (length, entries) in auto.iter(syl):
                    start, end = end_idx - length + 1, end_idx + 1
                    for entry in entries:
                        if (start, end, entry.category) in literal_spans:
                            continue
                        if norm[start:end] == entry.text:
                            continue
                        hits.append(Hit(entry, start, end, text[start:end], f"谐音（{entry.text}）"))
        return hits

    def _aligned(self, norm: str, hit: Hit, cache: dict[int, list[tuple[int, int]]]) -> bool:
        if hit.matched.isascii():
            before = norm[hit.start - 1] if hit.start > 0 else " "
            after = norm[hit.end] if hit.end < len(norm) else " "
            return not (_ASCII_WORD.match(before) or _ASCII_WORD.match(after))
        for edge in (hit.start, hit.end):
            for block in _JIEBA_BLOCK.finditer(norm):
                if block.start() < edge < block.end():
                    break
            else:
                continue  # the edge falls on a block border: jieba cuts there anyway
            if block.start() not in cache:
                cache[block.start()] = [(block.start() + s, block.start() + e)
                                        for s, e in self.segmenter.spans(block.group())]
            for ts, te in cache[block.start()]:
                if ts < edge < te:
                    inside = ts <= hit.start and hit.end <= te  # the hit sits within one token
                    if not inside:
                        return False
        return True

    def hits(self, text: str) -> list[Hit]:
        """Accepted hits: aligned with token edges, not inside an innocent phrase, longest per place."""
        raw = self.candidates(text)
        if not raw:
            return []
        norm = fold_text(text)
        if self._exceptions:
            blocked = [(m.start(), m.start() + len(x)) for x in self._exceptions
                       for m in re.finditer(re.escape(x), norm)]
            raw = [h for h in raw if not any(s <= h.start and h.end <= e for s, e in blocked)]
        cache: dict[int, list[tuple[int, int]]] = {}
        kept = [h for h in raw if self._aligned(norm, h, cache)]
        # Within a category keep the longest hit where hits overlap (我发誓 over 发誓).
        kept.sort(key=lambda h: (h.start, -(h.end - h.start)))
        out: list[Hit] = []
        for h in kept:
            if any(o.entry.category == h.entry.category and o.start < h.end and h.start < o.end
                   and (o.end - o.start) >= (h.end - h.start) for o in out):
                continue
            out.append(h)
        return out

    def detect(self, post: Post) -> list[Finding]:
        """One ``keyword`` finding per category found in the post's own text (quotes excluded)."""
        text = post.text
        by_cat: dict[str, list[Hit]] = {}
        for h in self.hits(text):
            by_cat.setdefault(h.entry.category, []).append(h)
        found: list[Finding] = []
        for cat, hs in by_cat.items():
            first = hs[0]
            ev = "；".join(
                f"「{h.matched}」" + (f" {h.how}" if h.how else "") + f"（词表 {h.entry.source}）" for h in hs
            )
            found.append(make_finding(post, kind="keyword", category=cat, clause=first.entry.clause,
                                      matched=first.matched, evidence=ev,
                                      excerpt_text=excerpt(text, first.start, first.end)))
        return found
