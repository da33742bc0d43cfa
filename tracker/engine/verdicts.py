"""Why a ballot does not count (or needs the director's eye): English codes, Chinese explanations.

Every code is stable (the JSON contract prints ``"code: 中文说明"``); the Chinese words follow the
rule posts (投票对象, 改票, 代投, 挂机, 出局, 关门, 加速). A verdict may carry details (the target
as written, the nearest names, the quoted floor) that are folded into its message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Code(StrEnum):
    # format (the post looks like a ballot but is not in the strict format)
    MISSING_LABEL = "missing_label"
    BAD_LABEL = "bad_label"
    MISSING_TARGET = "missing_target"
    MISSING_REASON = "missing_reason"
    REASON_BEFORE_TARGET = "reason_before_target"
    MULTIPLE_TARGETS = "multiple_targets"
    LABEL_MISMATCH = "label_mismatch"
    PROXY_NOT_DIRECTOR = "proxy_not_director"
    PROXY_UNKNOWN_VOTER = "proxy_unknown_voter"
    # target
    UNKNOWN_TARGET = "unknown_target"
    TARGET_NOT_ALIVE = "target_not_alive"
    # voter
    VOTER_NOT_PLAYER = "voter_not_player"
    VOTER_LOOKALIKE = "voter_lookalike"
    VOTER_NOT_ALIVE = "voter_not_alive"
    VOTER_BENCHED = "voter_benched"
    # time
    POSTED_BEFORE_OPEN = "posted_before_open"
    POSTED_AFTER_CLOSE = "posted_after_close"
    # changes
    SECOND_VOTE = "second_vote"
    CHANGE_WRITTEN_AS_VOTE = "change_written_as_vote"
    CHANGE_WITHOUT_VOTE = "change_without_vote"
    CHANGE_WITHOUT_QUOTE = "change_without_quote"
    CHANGE_QUOTES_OTHER = "change_quotes_other"
    CHANGE_LIMIT = "change_limit"
    CHANGE_IN_FREEZE = "change_in_freeze"
    CHANGE_ACCELERATED = "change_accelerated"
    CHANGE_VOIDED_BY_ACCELERATION = "change_voided_by_acceleration"
    VOTE_IN_FREEZE = "vote_in_freeze"
    EDITED_IN_FREEZE = "edited_in_freeze"
    # elections with candidates (上警)
    CANDIDATE_MAY_NOT_VOTE = "candidate_may_not_vote"
    TARGET_NOT_CANDIDATE = "target_not_candidate"
    # proxy timing
    PROXY_TOO_LATE = "proxy_too_late"
    # flags (the ballot counts as the forum shows it; the director decides)
    EDITED_AFTER_CLOSE = "edited_after_close"
    EDITED = "edited"
    EDIT_TYPO = "edit_typo"
    EDIT_NOT_COUNTED = "edit_not_counted"
    NOON_EXCEPTION = "noon_exception"
    EDIT_AS_NEW = "edit_as_new"
    TARGET_OUT_BY_CLOSE = "target_out_by_close"
    NO_VOTE_RIGHT = "no_vote_right"
    VOTER_VOIDED = "voter_voided"


WORDS: dict[Code, str] = {
    Code.MISSING_LABEL: "缺少“投票对象：”格式，不是有效投票",
    Code.BAD_LABEL: "投票格式标签写错（应为“投票对象：”“投票理由：”或“改票对象：”“改票理由：”）",
    Code.MISSING_TARGET: "投票对象为空",
    Code.MISSING_REASON: "缺少投票理由",
    Code.REASON_BEFORE_TARGET: "投票理由写在投票对象之前，格式有误",
    Code.MULTIPLE_TARGETS: "一帖中写了多个投票对象",
    Code.LABEL_MISMATCH: "投票格式与改票格式混用",
    Code.PROXY_NOT_DIRECTOR: "只有导演可以代投",
    Code.PROXY_UNKNOWN_VOTER: "代投的玩家不是本局玩家",
    Code.UNKNOWN_TARGET: "投票对象不是本局玩家",
    Code.TARGET_NOT_ALIVE: "投票对象已出局，不能被投票",
    Code.VOTER_NOT_PLAYER: "投票者不是本局玩家",
    Code.VOTER_LOOKALIKE: "发帖账号不是该玩家（名字形近或 uid 不符），此票无效，请导演核对",
    Code.VOTER_NOT_ALIVE: "投票者已出局，不能投票",
    Code.VOTER_BENCHED: "投票者处于挂机状态，不能投票",
    Code.POSTED_BEFORE_OPEN: "投票在当日开门之前发出",
    Code.POSTED_AFTER_CLOSE: "投票在关门之后发出",
    Code.SECOND_VOTE: "已经投过票，改票须用改票格式并引用原投票楼层",
    Code.CHANGE_WRITTEN_AS_VOTE: "改票须写“改票对象：”，这一帖写的是“投票对象：”",
    Code.CHANGE_WITHOUT_VOTE: "改票前没有有效的原投票",
    Code.CHANGE_WITHOUT_QUOTE: "改票未引用原投票楼层",
    Code.CHANGE_QUOTES_OTHER: "改票引用的不是自己的原投票楼层",
    Code.CHANGE_LIMIT: "超过允许的改票次数",
    Code.CHANGE_IN_FREEZE: "关门前禁止改票的时间内改票",
    Code.CHANGE_ACCELERATED: "执行加速时不允许改票",
    Code.CHANGE_VOIDED_BY_ACCELERATION: "进程加速后所有改票作废",
    Code.PROXY_TOO_LATE: "代投发出太晚",
    Code.VOTE_IN_FREEZE: "截止前一小时及之后的投票帖一律无效",
    Code.EDITED_IN_FREEZE: "截止前一小时及之后编辑过的投票帖一律无效",
    Code.CANDIDATE_MAY_NOT_VOTE: "上警者（含已退水者）不得投票",
    Code.TARGET_NOT_CANDIDATE: "投票对象不是竞选者",
    Code.EDITED_AFTER_CLOSE: "投票在关门之后被编辑过，按论坛现在显示的内容计，请导演核对",
    Code.EDITED: "投票被编辑过，按论坛现在显示的内容计，请导演核对",
    Code.EDIT_TYPO: "修改错别字不算做改票：投票对象未变，按编辑后的内容计",
    Code.EDIT_NOT_COUNTED: "编辑不算：按最初记录的内容计（改变投票对象须改票，无效票须重新发帖更正）",
    Code.NOON_EXCEPTION: "投票对象在正午已出局，允许在禁止改票的时间内改票一次",
    Code.EDIT_AS_NEW: "编辑过的投票帖视为新帖，按最后编辑时间计",
    Code.TARGET_OUT_BY_CLOSE: "投票对象在关门前已出局，此票不计入结果",
    Code.NO_VOTE_RIGHT: "投票者没有票权（暗记），此票在真实票数中计 0",
    Code.VOTER_VOIDED: "投票者票权被剥夺（暗记），此票在真实票数中无效",
}

# Codes that do not make a ballot invalid: the vote counts, the director is told.
FLAG_CODES = frozenset({Code.EDITED_AFTER_CLOSE, Code.EDITED, Code.EDIT_TYPO, Code.EDIT_NOT_COUNTED,
                        Code.NOON_EXCEPTION, Code.EDIT_AS_NEW,
                        Code.TARGET_OUT_BY_CLOSE, Code.NO_VOTE_RIGHT, Code.VOTER_VOIDED})


@dataclass(frozen=True, slots=True)
class Verdict:
    """One reason, with the particulars that make it actionable (``饺字``, nearest ``饺子``)."""

    code: Code
    detail: str = ""

    @property
    def message(self) -> str:
        words = WORDS[self.code]
        return f"{words}（{self.detail}）" if self.detail else words

    @property
    def reason(self) -> str:
        """The JSON form: ``"change_without_quote: 改票未引用原投票楼层"``."""
        return f"{self.code.value}: {self.message}"

    @property
    def is_flag(self) -> bool:
        return self.code in FLAG_CODES
