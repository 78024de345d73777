#!/usr/bin/env python3
"""The workbench page in headless Chromium (selenium, Debian's chromium and chromium-driver).

Serves web/dist/index.html on 127.0.0.1 and checks, against the native solver
(target/release/tsumugi-mate, one thread, the same nodes and rules):
  - batch mode (`?file=&nodes=&rules=`) answers a file's problems with the native lines;
  - a pasted problem, solved with its report, shows the native main line, in Japanese notation,
    and the report's page with its board; a screenshot is written (--screenshot);
  - a malformed KIF shows its error naming the line, and the page then solves the next text;
  - stop ends a long solve (ミクロコスモス, no limit) and the page solves again after it.
Exit 0 when all hold. Run from the project root after `bash web/build.sh` and a release build.
"""
import argparse
import functools
import http.server
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.common.by import By

ROOT = pathlib.Path(__file__).resolve().parents[2]
NATIVE = ROOT / "target/release/tsumugi-mate"
failures = []


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def lines_of(file, ids):
    text = (ROOT / "problems" / file).read_text(encoding="utf-8")
    return [l for l in text.splitlines() if any(f" # {i} " in l + " " for i in ids)]


def native(lines, rules, nodes, tmp):
    src, out = tmp / "native.sfen", tmp / "native.out"
    src.write_text("\n".join(lines) + "\n", encoding="utf-8")
    subprocess.run([str(NATIVE), "solve", str(src), "--rules", rules, "--threads", "1", "--jobs", "1",
                    "--nodes", str(nodes), "--hash", "256", "--quiet", "--results", str(out)],
                   check=False, capture_output=True)
    return [l.strip() for l in out.read_text(encoding="utf-8").splitlines() if l.strip()]


def wait(pred, seconds, step=0.2):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if pred():
            return True
        time.sleep(step)
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--screenshot", default=str(ROOT / "web/dist/screenshot.png"))
    a = ap.parse_args()
    tmp = pathlib.Path(tempfile.mkdtemp())
    site = tmp / "site"
    site.mkdir()
    shutil.copy(ROOT / "web/dist/index.html", site / "index.html")
    batch = lines_of("yaneuraou_mate11_100.sfen", [f"yane500m-mate11-{i:04}" for i in range(1, 6)])
    (site / "batch.sfen").write_text("\n".join(batch) + "\n", encoding="utf-8")
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    o = Options()
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1600"):
        o.add_argument(arg)
    d = webdriver.Chrome(options=o)
    try:
        # Batch mode.
        d.get(f"{base}?file=batch.sfen&nodes=300000&rules=pure")
        check(wait(lambda: d.title == "done", 300), "batch mode ends with the title `done`")
        page = [l.strip() for l in d.find_element(By.ID, "answers").text.splitlines() if l.strip()]
        want = native(batch, "pure", 300000, tmp)
        check(page == want and len(want) == 5, f"batch answers are the native lines ({len(page)} of {len(want)})")

        # A pasted problem with its report.
        d.get(base)
        wait(lambda: d.find_element(By.ID, "solve").is_enabled(), 60)
        zukou = lines_of("edo_zukou.sfen", ["zukou-002"])

        def paste(text):
            box = d.find_element(By.ID, "problems")
            d.execute_script("arguments[0].value = arguments[1];", box, text)

        def settings(nodes, seconds, report):
            for name, value in (("nodes", nodes), ("seconds", seconds), ("questions", 2)):
                d.execute_script("arguments[0].value = arguments[1];", d.find_element(By.ID, name), str(value))
            box = d.find_element(By.ID, "report")
            if box.is_selected() != report:
                box.click()

        def status(i=0):
            found = d.find_elements(By.CSS_SELECTOR, f"#problem-{i} .status")
            return found[0].text if found else ""

        paste(zukou[0])
        settings(2000000, 0, True)
        d.find_element(By.ID, "solve").click()
        check(wait(lambda: status().startswith("詰み"), 120), f"a pasted 図巧 2 is solved ({status()!r})")
        usi = d.find_element(By.CSS_SELECTOR, "#problem-0 .usi").text.strip()
        check(usi == native(zukou, "tsume", 2000000, tmp)[0], "its line is the native one")
        jp = d.find_element(By.CSS_SELECTOR, "#problem-0 .line").text
        check(jp.startswith("▲"), f"the line in Japanese notation ({jp[:20]}…)")
        frames = d.find_elements(By.CSS_SELECTOR, "#problem-0 iframe.report")
        check(len(frames) == 1, "the report's page is shown")
        if frames:
            wait(lambda: d.execute_script("return arguments[0].contentDocument.getElementById('board') !== null", frames[0]), 20)
            check(d.execute_script("return arguments[0].contentDocument.getElementById('board') !== null", frames[0]),
                  "the report has its board viewer")
        d.save_screenshot(a.screenshot)

        # A malformed KIF, then a good problem.
        paste("手合割：平手\n先手の持駒：金二\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n|v香 ・ ・ ・|一\n")
        d.find_element(By.ID, "solve").click()
        errors = d.find_element(By.ID, "errors")
        check(wait(lambda: errors.is_displayed() and "pasted:" in errors.text, 30), f"a bad KIF names its line ({errors.text!r})")
        paste(zukou[0])
        settings(200000, 0, False)
        d.find_element(By.ID, "solve").click()
        check(wait(lambda: status().startswith("詰み"), 60), "the page solves the next text")

        # Stop a long solve, then solve again.
        paste((ROOT / "problems/long_microcosmos.sfen").read_text(encoding="utf-8"))
        settings(0, 0, False)
        d.find_element(By.ID, "solve").click()
        check(wait(lambda: "nodes" in d.find_element(By.ID, "progress").text, 60), "a long solve shows its progress")
        d.find_element(By.ID, "stop").click()
        check(wait(lambda: status().startswith("stopped"), 10), f"stop stops it ({status()!r})")
        wait(lambda: d.find_element(By.ID, "solve").is_enabled(), 30)
        paste(zukou[0])
        d.find_element(By.ID, "solve").click()
        check(wait(lambda: status().startswith("詰み"), 60), "the page solves again after stop")
        severe = [l for l in d.get_log("browser") if l.get("level") == "SEVERE"]
        check(not severe, f"no error in the browser's console {severe}")
    finally:
        d.quit()
        server.shutdown()
    print(f"{len(failures)} failed" if failures else "all passed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
