"""Every command that shows the card ledger checks its hash chain first (it is cheap) and says so.

A forged 红牌 written into the database behind the tool's back must not display quietly with exit
0: the warning goes to stderr before the output (so it is seen first), the output still shows
what the database holds (the director needs it to compare with a backup), and the command exits 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tracker.cli.common import echo
from tracker.errors import LedgerBrokenError
from tracker.penalties.ledger import Verification

if TYPE_CHECKING:
    from tracker.service import Service


def check_ledger(svc: Service) -> Verification:
    """Verify the chain; when broken, warn on stderr at once (before anything else is printed)."""
    v = svc.cards.verify_ledger()
    if not v.ok:
        echo(f"！！！记牌账本已损坏：{v.problem}（第 {v.broken_at} 条）。以下判罚与牌况不可信！！！", err=True)
    return v


def fail_if_broken(v: Verification) -> None:
    """After the output: exit 1 (the README's code for a broken ledger) with the fix."""
    if not v.ok:
        raise LedgerBrokenError(f"记牌账本校验失败：{v.problem}（第 {v.broken_at} 条）",
                                hint="账本在记牌工具之外被改动；`tracker cards GAME.toml verify` 查看，再从备份恢复数据库")
