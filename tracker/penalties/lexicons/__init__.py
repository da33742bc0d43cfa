"""Forbidden-phrase lists, one data file per category (rule section).

File format (UTF-8, one entry a line, ``#`` starts a comment)::

    # section: 贴脸                      rule section the category belongs to
    # clause: 贴脸：发誓或诅咒            wording cited on the flag
    我发誓                              a phrase (Latin letters match case-insensitively)
    ~傻逼                               the phrase and every same-pinyin spelling (撒币, 煞笔 …)
    re:如果我是.{0,12}我就自刀           a regular expression for a multi-word form
    !广场助威                           an innocent phrase: hits inside it are never reported
    淹死 | 作弊：讨论故意淹死            an entry with its own clause

The file's stem is the category (``insult.txt`` → ``insult``). Files whose stem starts with
``_`` are not categories: ``_terms.txt`` is game vocabulary for the segmenter. A director adds
words by pointing the game at more files or folders in the same format; a file whose category
already exists adds to it.
"""

from __future__ import annotations

from pathlib import Path

LEXICON_DIR = Path(__file__).resolve().parent
