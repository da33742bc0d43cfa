"""Open the demo's HTML reports in headless Chromium and save screenshots (a look, as a director would).

Run on demand: `.venv/bin/python benchmarks/shot_reports.py [OUT_DIR]`; needs Debian's `chromium`
(`apt-get install chromium fonts-noto-cjk`). Prints how long each page took to render.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> int:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("chromium not installed: apt-get install chromium fonts-noto-cjk")
        return 1
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "shots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([str(Path(sys.executable).with_name("tracker")), "demo", "--json", "--dir", tmp],
                       check=True, capture_output=True)
        for page in sorted(Path(tmp, "reports").glob("*.html")):
            shot = out / f"{page.stem}.png"
            started = time.perf_counter()
            subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp}/chromium", f"--screenshot={shot}",
                            "--window-size=1000,1400", page.as_uri()], check=True, capture_output=True, timeout=60)
            print(f"{shot}  {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
