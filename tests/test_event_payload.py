"""Event payloads are read through typed keys (issue 23 item 1): ``Event.payload`` is the data as a
:class:`~tracker.engine.events.Payload`, so a misspelt key is a mypy error, not a silent None."""

from __future__ import annotations

import subprocess
import sys
from datetime import datetime
from pathlib import Path

from tracker.clock import SHANGHAI
from tracker.engine.events import Event, EventDraft, given

AT = datetime(2025, 3, 1, 10, 0, tzinfo=SHANGHAI)


def test_the_payload_is_the_events_own_data() -> None:
    e = Event(seq=3, at=AT, kind="night_settled", player=None, data={"phase": "night:1", "vote_tid": 4},
              recorded_by="导演", recorded_at=AT)
    assert e.payload.phase == "night:1" and e.payload.vote_tid == 4 and e.payload.seq is None
    draft = EventDraft(at=AT, kind="eliminated", player="泡泡", data={"cause": "vote", "by_hand": 1})
    assert draft.payload.cause == "vote" and draft.data["by_hand"] == 1  # a key it does not type stays in data
    assert given(draft.payload.day, 2) == 2 and given(e.payload.vote_tid, 0) == 4


def test_mypy_refuses_a_misspelt_key(tmp_path: Path) -> None:
    # in a child process: mypy's api raises this interpreter's recursion limit for good, and the
    # game file's depth check (tests/test_inputs_hostile.py) relies on the ordinary one
    def check(key: str) -> tuple[int, str]:
        source = tmp_path / f"reads_{key}.py"
        source.write_text("from tracker.engine.events import Event\n\n\n"
                          f"def tid(e: Event) -> object:\n    return e.payload.{key}\n", encoding="utf-8")
        done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--follow-imports=silent",
                               "--cache-dir", str(tmp_path / "cache"), str(source)],
                              capture_output=True, text=True, timeout=600, check=False)
        return done.returncode, done.stdout + done.stderr

    code, said = check("vote_tdi")
    assert code == 1 and "vote_tdi" in said, said
    code, said = check("vote_tid")
    assert code == 0, said
