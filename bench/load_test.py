"""Load test: several browser clients upload a photo to the app at once; p50/p95 latency and errors.

    python bench/load_test.py [--clients 4] [--rounds 3] [--photo samples/all_suited.jpg] [--json OUT]

Starts `streamlit run app.py` on a free loopback port (or uses --url, which must be loopback), then
runs --clients headless Chromium pages (Debian chromium driven by Playwright's async API, one browser,
one page per client, each page its own Streamlit session) for --rounds each: open the app, upload the
photo, wait until the score (or a "not a valid win" message) is on the page. Latency = upload to
answer shown. Everything is bounded: at most 16 clients and 20 rounds, --request-timeout per upload,
--deadline for the whole run. Exit 0 when there were no errors, 1 otherwise, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import math
import os
import re
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

if __name__ == "__main__":  # its dependencies checked before they load: one line, not a traceback
    from scoring.console import run_main

    sys.exit(run_main("python bench/load_test.py", __file__))
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MAX_CLIENTS, MAX_ROUNDS = 16, 20
# What counts as an answer on the page: a score, or the scoring's explanation of a non-win.
ANSWER = re.compile(r"^(\d+ (tai|fan)|Not a valid win)")
# What counts as the app refusing the photo: no model, or a file the reader cannot take
# (the app names the file, then vision.imageio's reason).
PHOTO_ERROR = re.compile(
    r"^(No tile model|The tile model could not"
    r"|.*: (reading the tiles took|the tiles could not be read|this file"
    r"|not a supported image file|image file is|image is too|file is|not a file|file not found"
    r"|permission denied|cannot read file))"
)


@dataclass
class Report:
    clients: int
    rounds: int
    photo: str
    requests: int = 0
    errors: int = 0
    latencies_s: list[float] = field(default_factory=list)
    error_messages: list[str] = field(default_factory=list)
    answers: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0

    def summary(self) -> dict[str, object]:
        lat = sorted(self.latencies_s)

        def pct(p: float) -> float | None:
            if not lat:
                return None
            # Nearest-rank percentile: the smallest latency with at least p % of requests at or below it.
            return round(lat[min(len(lat), max(1, math.ceil(p / 100 * len(lat)))) - 1], 3)

        return {
            "clients": self.clients,
            "rounds": self.rounds,
            "photo": self.photo,
            "requests": self.requests,
            "errors": self.errors,
            "p50_s": round(statistics.median(lat), 3) if lat else None,
            "p95_s": pct(95),
            "max_s": round(lat[-1], 3) if lat else None,
            "wall_s": round(self.wall_s, 2),
            "answers": self.answers,
            "error_messages": self.error_messages[:10],
        }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def is_loopback(url: str) -> bool:
    host = urllib.parse.urlparse(url).hostname or ""
    return host in ("127.0.0.1", "localhost", "::1")


def start_server(port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(port),
            "--server.address",
            "127.0.0.1",
            "--server.headless",
            "true",
            "--browser.gatherUsageStats",
            "false",
        ],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
    )


def wait_healthy(url: str, timeout_s: float = 60.0, process: subprocess.Popen[bytes] | None = None) -> None:
    """Return once the app answers its health check; fail early when its `process` has exited."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"streamlit exited with {process.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                if response.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the app at {url} did not answer its health check within {timeout_s:.0f} s")


async def one_request(browser: object, url: str, photo: Path, timeout_s: float) -> tuple[float, str]:
    """Open a fresh session, upload, wait for the answer. Returns (latency, answer) or raises."""
    page = await browser.new_page(viewport={"width": 390, "height": 2400})  # type: ignore[attr-defined]
    try:
        await page.goto(url, timeout=timeout_s * 1000)
        upload = page.locator("input[type=file]").first
        await upload.wait_for(state="attached", timeout=timeout_s * 1000)
        started = time.perf_counter()
        await upload.set_input_files(str(photo))
        answer = page.get_by_text(ANSWER).first
        failure = page.get_by_text(PHOTO_ERROR).first
        deadline = started + timeout_s
        while time.perf_counter() < deadline:
            if await answer.count():
                latency = time.perf_counter() - started
                return latency, (await answer.inner_text()).split("\n")[0]
            if await failure.count():
                raise RuntimeError((await failure.inner_text()).split("\n")[0])
            if await page.get_by_text("Traceback").count():
                raise RuntimeError("a traceback is shown")
            await asyncio.sleep(0.05)
        raise TimeoutError(f"no answer within {timeout_s:g} s")
    finally:
        await page.close()


async def run_clients(
    url: str, photo: Path, clients: int, rounds: int, timeout_s: float, report: Report
) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:

            async def client(index: int) -> None:
                for _ in range(rounds):
                    report.requests += 1
                    try:
                        latency, answer = await one_request(browser, url, photo, timeout_s)
                    except Exception as exc:  # every failure is counted and reported, not raised
                        report.errors += 1
                        report.error_messages.append(f"client {index}: {type(exc).__name__}: {exc}"[:300])
                        continue
                    report.latencies_s.append(latency)
                    report.answers[answer] = report.answers.get(answer, 0) + 1

            await asyncio.gather(*(client(i) for i in range(clients)))
        finally:
            await browser.close()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python bench/load_test.py", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--clients", type=int, default=4, help=f"browser pages at once, 1..{MAX_CLIENTS} (default 4)"
    )
    parser.add_argument(
        "--rounds", type=int, default=3, help=f"uploads per client, 1..{MAX_ROUNDS} (default 3)"
    )
    parser.add_argument(
        "--photo",
        type=Path,
        default=ROOT / "samples" / "all_suited.jpg",
        help="the photo uploaded (default: samples/all_suited.jpg)",
    )
    parser.add_argument("--url", help="an already running app (loopback only); default: start one")
    parser.add_argument(
        "--request-timeout",
        type=float,
        default=60.0,
        help="limit for one upload's answer, seconds (default 60)",
    )
    parser.add_argument("--deadline", type=float, default=600.0, help="limit for the whole run, seconds")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    args = parser.parse_args(argv)
    if not 1 <= args.clients <= MAX_CLIENTS or not 1 <= args.rounds <= MAX_ROUNDS:
        parser.error(f"--clients must be 1..{MAX_CLIENTS} and --rounds 1..{MAX_ROUNDS}")
    if args.url and not is_loopback(args.url):
        parser.error("--url must be a loopback address (127.0.0.1 / localhost): this is a local load test")
    if not args.photo.is_file():
        parser.error(f"--photo {args.photo} is not a file")
    if not Path(CHROMIUM).exists():
        parser.error(f"{CHROMIUM} not found: apt-get install chromium")
    return args


def main(argv: list[str] | None = None) -> int:
    # the browser's library first, before a server starts: missing (outside the .venv `./run test`
    # installs into), run_main says so in one line
    importlib.import_module("playwright.async_api")
    args = parse_args(argv)
    server = None
    url = args.url
    if url is None:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        server = start_server(port)
    report = Report(clients=args.clients, rounds=args.rounds, photo=str(args.photo))
    try:
        wait_healthy(url.rstrip("/"))
        started = time.perf_counter()
        try:
            asyncio.run(
                asyncio.wait_for(
                    run_clients(url, args.photo, args.clients, args.rounds, args.request_timeout, report),
                    timeout=args.deadline,
                )
            )
        except TimeoutError:
            report.errors += 1
            report.error_messages.append(f"the run passed its --deadline of {args.deadline:g} s")
        report.wall_s = time.perf_counter() - started
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    summary = report.summary()
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    print(
        f"load test: {summary['requests']} uploads from {args.clients} clients, "
        f"errors {summary['errors']}, p50 {summary['p50_s']} s, p95 {summary['p95_s']} s"
    )
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0 if report.errors == 0 and report.latencies_s else 1
