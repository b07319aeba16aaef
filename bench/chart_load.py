"""First load of the chart pages in Chromium with an empty cache: navigation start to every plotly
chart drawn. Run against a served site (`make demo` serves collected, gzip-compressed static files):

    .venv/bin/python bench/chart_load.py http://127.0.0.1:8000 [--repeats 3]

Prints the time per page and its ratio to the 1.5 s goal; nothing asserts it.
"""

from __future__ import annotations

import argparse
import statistics
import time

from playwright.sync_api import sync_playwright

GOAL_S = 1.5
PAGES = ["/hipho/", "/hanabi/", "/chess/"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=args.chromium,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        print(f"{'page':12} {'median s':>9} {'max s':>7} {'bytes on the wire':>18} {'max/goal':>9}")
        for path in PAGES:
            times, wire = [], 0
            for _ in range(args.repeats):
                context = browser.new_context()  # empty cache every time: a first visit
                page = context.new_page()
                sizes: list[int] = []
                page.on(
                    "response",
                    lambda r, sizes=sizes: sizes.append(int(r.headers.get("content-length") or 0)),
                )
                t0 = time.perf_counter()
                page.goto(args.base + path)
                for chart_id in page.eval_on_selector_all(
                    "[data-chart]", "els => els.map(e => e.id)"
                ):
                    page.wait_for_selector(f'#{chart_id}[data-drawn="1"]', timeout=30_000)
                times.append(time.perf_counter() - t0)
                wire = sum(sizes)
                context.close()
            print(
                f"{path:12} {statistics.median(times):9.2f} {max(times):7.2f} {wire:18,d} {max(times) / GOAL_S:9.2f}"
            )
        browser.close()


if __name__ == "__main__":
    main()
