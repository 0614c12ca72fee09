"""End to end in headless Chromium: the real app (`streamlit run app.py`) driven like a player would.

Needs Debian's `chromium` and the Python `playwright` package (its driver only: no browser download).
Screenshots go to the test's tmp folder, and to $SCREENSHOT_DIR when it is set (for the README).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app_ui.hand_view import START_PROMPT_KEY
from app_ui.tile_editor import COLUMN_PX
from tests.app.conftest import ROOT, load_test

CHROMIUM = load_test.CHROMIUM
CHROMIUM_ARGS = load_test.CHROMIUM_ARGS
PHONE = {"width": 390, "height": 3400}
DESKTOP = {"width": 1100, "height": 3000}
TABLET = {"width": 900, "height": 3000}
RESULT = re.compile(r"^\d+ tai")
ROW_MARKERS_PX = 34  # the data editor's row-selection column, left of the first column

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not Path(CHROMIUM).exists(), reason="Debian chromium is not installed (/usr/bin/chromium)"
    ),
]
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = load_test.free_port()
    process = load_test.start_server(port)
    url = f"http://127.0.0.1:{port}"
    try:
        load_test.wait_healthy(url, process=process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def save_shot(page: object, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path))  # type: ignore[attr-defined]
    target = os.environ.get("SCREENSHOT_DIR")
    if target:
        Path(target).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(target) / name)
    return path


def model_shipped() -> bool:
    """The same check the app makes: can the shipped model be loaded?"""
    code = (
        "import os; from vision.pipeline import TileReader; "
        "TileReader.load(os.environ.get('MAHJONG_MODELS_DIR') or None)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=120)
    return done.returncode == 0


def open_app(browser: object, server: str, viewport: dict[str, int]) -> Any:
    """A new page on the app once its first run has drawn the uploader: a file set on the input before
    the app is listening could be dropped, which a player, who uploads after seeing the page, never meets."""
    page = browser.new_page(viewport=viewport)  # type: ignore[attr-defined]
    page.goto(server)
    page.get_by_text("Upload a photo of the winning hand").first.wait_for(timeout=60_000)
    page.locator("input[type=file]").first.wait_for(state="attached", timeout=60_000)
    return page


def wait_result(page: object, timeout_ms: int = 90_000) -> str:
    alert = page.get_by_text(RESULT).first  # type: ignore[attr-defined]
    alert.wait_for(timeout=timeout_ms)
    return str(alert.inner_text())


def assert_no_horizontal_scroll(page: object) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")  # type: ignore[attr-defined]
    client = page.evaluate("document.documentElement.clientWidth")  # type: ignore[attr-defined]
    assert width <= client, f"page scrolls sideways: {width} > {client}"


def top_left(page: object, heading: str) -> tuple[float, float]:
    """Where a heading of the page starts (x, y), in the page's pixels."""
    box = page.get_by_role("heading", name=heading).first.bounding_box()  # type: ignore[attr-defined]
    assert box is not None, heading
    return box["x"], box["y"]


def test_typed_hand_in_browser(server: str, browser: object, tmp_path: Path) -> None:
    page = open_app(browser, server, PHONE)
    page.get_by_role("tab", name=re.compile("Type a hand")).click()
    page.get_by_label("Concealed tiles (with the winning tile)").fill("123m 456p 789s 22m")
    page.get_by_label("Exposed melds, one group each").fill("CCC")
    page.get_by_label("Exposed melds, one group each").press("Enter")
    page.get_by_role("button", name="Use this hand").click()
    assert wait_result(page).startswith("1 tai")
    page.get_by_text("Payout").first.wait_for()
    page.get_by_text("+4").first.wait_for()  # 1 tai on a discard: the winner gets 4 x 1
    # a screen reader hears each choice by its words, in a group named by the question
    assert page.get_by_role("radiogroup", name="Won by").count() == 1
    assert page.get_by_role("radio", name="Discard (someone threw it)").is_checked()
    self_drawn = page.get_by_role("radio", name="Self-drawn")
    assert not self_drawn.is_checked()
    page.get_by_text("Self-drawn", exact=True).first.click()
    for _ in range(50):  # the page reruns before the choice shows
        if self_drawn.is_checked():
            break
        page.wait_for_timeout(100)
    assert self_drawn.is_checked()
    # the change's toast stands at the top of a phone's screen with the sidebar closed: from the bottom it
    # covered the score it had moved (with the sidebar open it rises from the bottom, clear of the
    # sidebar's first boxes: test_a_changes_toast_leaves_the_score_in_sight_on_a_phone)
    toast = page.locator(".stToastContainer").get_by_text(re.compile("^Changed: ")).first
    toast.wait_for(timeout=10_000)
    box = toast.bounding_box()
    assert box is not None and box["y"] < PHONE["height"] / 2, box
    assert_no_horizontal_scroll(page)
    save_shot(page, tmp_path, "app-typed-phone.png")
    assert not page.get_by_text("Traceback").count()
    page.close()


def read_samples_in_process() -> list[tuple[Path, dict]]:
    """Each sample read by the shipped model and scored here, the way the app does it."""
    from concurrent.futures import ThreadPoolExecutor

    import scoring
    from app_ui.hand_build import build_hand
    from app_ui.reading import read_tiles
    from app_ui.tile_sets import tiles_in_set
    from vision.imageio import load_image
    from vision.pipeline import TileReader

    reader = TileReader.load(os.environ.get("MAHJONG_MODELS_DIR") or None)
    out = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        for path in sorted((ROOT / "samples").glob("*.jpg")):
            if json.loads(path.with_suffix(".json").read_text())["rules"] != "singapore":
                continue  # uploaded under the app's first rule set, Singapore's
            rgb = load_image(path.read_bytes())
            read = read_tiles(reader, rgb, pool, timeout_s=120, faces=tiles_in_set("singapore"))
            build = build_hand(list(read.rows), read.meld_concealed)
            result = scoring.score_json(dict(build.hand)) if not build.problems else {"valid": False}
            out.append((path, result))
    return out


def test_sample_photo_upload_in_browser(server: str, browser: object, tmp_path: Path) -> None:
    """Upload a sample photo: the page shows what the shipped model + scoring give for it.

    The sample is one the model reads as a winning hand (tai and payout must then be on the page);
    if it reads none of them as a win, the page must still answer with the reason and the tile table.
    """
    if not model_shipped():
        pytest.skip("no tile model in models/ yet: the photo path cannot give a score")
    samples = read_samples_in_process()
    path, expected = next(((p, r) for p, r in samples if r.get("valid")), samples[0])
    page = open_app(browser, server, PHONE)
    started = time.perf_counter()
    page.locator("input[type=file]").first.set_input_files(str(path))
    answer = page.get_by_text(re.compile(r"^(\d+ tai|Not a valid win)")).first
    answer.wait_for(timeout=90_000)
    elapsed = time.perf_counter() - started
    text = str(answer.inner_text())
    if expected.get("valid"):
        assert text.startswith(f"{expected['tai']} tai"), (text, expected.get("message"))
        page.get_by_text("Payout").first.wait_for()
        winner = next(p for p in expected["payout"]["players"] if p["role"] == "winner")
        page.get_by_text(f"{winner['amount']:+g}").first.wait_for()
    else:
        assert text.startswith("Not a valid win")
    page.get_by_text("Check the tiles").first.wait_for()
    assert_no_horizontal_scroll(page)
    # a phone stacks the page: the table under the result, as the page has always run
    assert top_left(page, "Check the tiles")[1] > top_left(page, "Result")[1]
    save_shot(page, tmp_path, "app-photo-phone.png")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(1000)
    # a wide screen puts the tile table beside the photo, whose numbers its rows carry
    photo = page.locator("[data-testid=stImage] img").first.bounding_box()
    table_x, table_y = top_left(page, "Check the tiles")
    assert photo is not None and table_x >= photo["x"] + photo["width"], (photo, table_x)
    assert table_y < photo["y"] + photo["height"], (photo, table_y)
    assert_no_horizontal_scroll(page)
    save_shot(page, tmp_path, "app-photo-desktop.png")
    # a tablet's width with the sidebar open leaves halves too narrow for the table: stacked again
    page.set_viewport_size(TABLET)
    page.wait_for_timeout(1000)
    assert top_left(page, "Check the tiles")[1] > top_left(page, "Result")[1]
    assert_no_horizontal_scroll(page)
    assert not page.get_by_text("Traceback").count()
    print(
        f"{path.name} -> '{text.splitlines()[0]}' in {elapsed:.2f} s "
        f"(samples read as wins: {[p.name for p, r in samples if r.get('valid')]})"
    )
    page.close()


def test_bad_file_in_browser(server: str, browser: object, tmp_path: Path) -> None:
    bad = tmp_path / "notes.png"
    bad.write_bytes(b"this is not a photo")
    page = open_app(browser, server, PHONE)
    page.locator("input[type=file]").first.set_input_files(str(bad))
    page.get_by_text(re.compile(r"^notes\.png: ")).first.wait_for(timeout=60_000)
    assert not page.get_by_text("Traceback").count()
    page.close()


def test_correction_in_browser(server: str, browser: object, tmp_path: Path) -> None:
    """Fix a misread tile in the real data editor: the score appears at once."""
    page = open_app(browser, server, DESKTOP)
    page.get_by_role("tab", name=re.compile("Type a hand")).click()
    # Tile 11 was "misread" as 2s: no pair, not a win.
    page.get_by_label("Concealed tiles (with the winning tile)").fill("123m 456m 789m 2m 2s")
    page.get_by_label("Exposed melds, one group each").fill("CCC")
    page.get_by_label("Exposed melds, one group each").press("Enter")
    page.get_by_role("button", name="Use this hand").click()
    page.get_by_text(re.compile("^Not a valid win")).first.wait_for(timeout=60_000)
    grid = page.locator("[data-testid=stDataFrame]").first
    for _ in range(5):  # the page may still be redrawing (seen on a loaded machine): the table comes back
        try:
            grid.scroll_into_view_if_needed()
            break
        except Exception:
            page.wait_for_timeout(1000)
    box = grid.bounding_box()
    assert box is not None
    # Columns #, Tile, Group, Sure? after the row markers: row 11's Tile cell (header ~36 px, rows 35 px).
    tile_x = ROW_MARKERS_PX + COLUMN_PX["n"] + COLUMN_PX["tile"] / 2
    page.mouse.dblclick(box["x"] + tile_x, box["y"] + 36 + 35 * 10 + 17)
    # The cell's option list opens after a moment; typed too early, the first letter is lost.
    page.wait_for_timeout(1000)
    page.keyboard.type("2m", delay=100)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    # Half flush 2 + red dragon pong 1.
    assert wait_result(page, timeout_ms=60_000).startswith("3 tai")
    page.get_by_role("button", name="Undo my corrections").wait_for()
    save_shot(page, tmp_path, "app-correction-desktop.png")
    page.close()


# a phone's screen: what lies under it is reached by scrolling (the tests above draw a page 3400 px tall)
PHONE_SCREEN = {"width": 390, "height": 844}
DESKTOP_SCREEN = {"width": 1100, "height": 844}
MAIN_SCROLL = (
    "document.querySelector('[data-testid=stMain]').scrollTop"  # the page's scroll, not the window's
)


def box_of(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return dict(box)


def overlaps(one: dict[str, float], other: dict[str, float]) -> bool:
    return (
        one["x"] < other["x"] + other["width"]
        and other["x"] < one["x"] + one["width"]
        and one["y"] < other["y"] + other["height"]
        and other["y"] < one["y"] + one["height"]
    )


def result_top(page: Any, settle_ms: int = 5000) -> float:
    """Where the result's heading stands on the screen once the page stops moving (the photo above it loads
    after its place is drawn)."""
    last = None
    for _ in range(settle_ms // 250):
        page.wait_for_timeout(250)
        top = float(page.evaluate("document.getElementById('result').getBoundingClientRect().top"))
        if top == last:
            break
        last = top
    assert last is not None
    return last


def test_enter_in_a_typed_field_scores_the_hand(server: str, browser: object) -> None:
    """Enter (a phone keyboard's Go) in any typed field scores the hand, as *Use this hand* does."""
    page = open_app(browser, server, PHONE_SCREEN)
    page.get_by_role("tab", name=re.compile("Type a hand")).click()
    # the browser loads Streamlit's code for the script on its first use, a moment after the fields show:
    # a user does not type a hand in that moment, a test may
    page.wait_for_function("() => window.mahjongScripts && window.mahjongScripts.has('enter:typed_use')")
    page.get_by_label("Concealed tiles (with the winning tile)").fill("123m 456p 789s 22m")
    melds = page.get_by_label("Exposed melds, one group each")
    melds.fill("CCC")
    melds.press("Enter")  # no button pressed
    page.locator("[data-testid=stAlert]").get_by_text(re.compile("^1 tai")).first.wait_for(timeout=60_000)
    bonus = page.get_by_role("textbox", name="Bonus tiles", exact=True)
    bonus.fill("F1")  # East's own flower: 1 tai more
    bonus.press("Enter")
    page.locator("[data-testid=stAlert]").get_by_text(re.compile("^2 tai")).first.wait_for(timeout=60_000)
    assert not page.get_by_text("not the one scored").count()
    # the Enter that ends a composition (五筒 typed by its pinyin) only picks the characters
    bonus.fill("F1 S1")  # East's own season too: 3 tai, once used
    bonus.dispatch_event("keydown", {"key": "Enter", "keyCode": 229, "isComposing": True})
    page.wait_for_timeout(2000)
    assert not page.locator("[data-testid=stAlert]").get_by_text(re.compile("^3 tai")).count()
    bonus.press("Enter")
    page.locator("[data-testid=stAlert]").get_by_text(re.compile("^3 tai")).first.wait_for(timeout=60_000)
    assert not page.get_by_text("Traceback").count()
    page.close()


def read_sample(page: Any) -> None:
    page.get_by_role("button", name=re.compile("high score")).click()
    page.get_by_text(re.compile(r"^Read \d+ tiles")).first.wait_for(timeout=90_000)


def set_bonus_from_deal(page: Any) -> Any:
    """Scroll back from the result to *Bonus tiles held from the deal* (200 px down the screen, the score
    under it in sight), pick them all, and give the toast that says what changed."""
    box = "document.querySelector('.st-key-bonus_from_deal').getBoundingClientRect()"
    page.evaluate(f"{MAIN_SCROLL} += {box}.top - 200")
    page.wait_for_timeout(300)
    page.locator(".st-key-bonus_from_deal").get_by_role("combobox").first.click()
    page.get_by_role("option", name="Select all").first.click()
    page.keyboard.press("Escape")
    toast = page.locator("[data-testid=stToast]").filter(has_text="Changed: ").first
    toast.wait_for(timeout=30_000)
    page.wait_for_timeout(700)  # the toast's own rise
    return toast


# records, at each change of the page from the reader's spinner on until the tiles read are said,
# whether the empty page's prompt is visible
SPINNER_WATCH = """(key) => {
  window.__promptUnderSpinner = [];
  let spun = false;
  new MutationObserver(() => {
    spun = spun || !!document.querySelector("[data-testid='stSpinner']");
    if (!spun || /Read \\d+ tiles/.test(document.body.innerText)) return;
    const prompt = document.querySelector(".st-key-" + key);
    window.__promptUnderSpinner.push(!!prompt && prompt.offsetParent !== null);
  }).observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true});
}"""


def test_the_empty_pages_prompt_is_hidden_while_the_photo_is_read(
    server: str, browser: object, tmp_path: Path
) -> None:
    """An audit: "Upload a photo, try a sample, or type a hand to start." stood under the spinner that
    read the photo just uploaded, and (stage 87) after it until the hand was drawn
    (`hand_view.START_PROMPT_CSS`)."""
    if not model_shipped():
        pytest.skip("no tile model in models/ yet: no photo is read")
    from PIL import Image

    # a 12 MP phone photo's size, for a reading long enough to be seen under the spinner
    big = tmp_path / "big.jpg"
    with Image.open(ROOT / "samples" / "high_score.jpg") as sample:
        sample.convert("RGB").resize((4000, 3000)).save(big, quality=90)
    page = open_app(browser, server, PHONE_SCREEN)
    prompt = page.get_by_text("Upload a photo, try a sample, or type a hand to start.")
    prompt.wait_for(timeout=60_000)
    # every change of the page is looked at, not the page polled: the spinner stands well under a second
    # (Streamlit shows it once the reading has taken 0.5 s), and a poll had missed it (a flaky run)
    page.evaluate(SPINNER_WATCH, START_PROMPT_KEY)
    page.locator("input[type=file]").first.set_input_files(str(big))
    page.get_by_text(re.compile(r"^Read \d+ tiles")).first.wait_for(timeout=90_000)
    spinning = page.evaluate("window.__promptUnderSpinner")
    assert spinning, "the reading's spinner was never shown"
    assert not any(spinning), "the prompt stood under the spinner, or after it before the hand was drawn"
    assert not prompt.count() and not page.get_by_text("Traceback").count()
    page.close()


def test_a_photo_read_takes_a_phone_to_its_result_once(server: str, browser: object) -> None:
    """On a phone the result lay three screens under the photo: a photo read scrolls to it, once (a change
    made after it leaves the page where it is); a wide screen, the table beside the photo, stays put."""
    if not model_shipped():
        pytest.skip("no tile model in models/ yet: no photo is read")
    page = open_app(browser, server, PHONE_SCREEN)
    assert page.evaluate(MAIN_SCROLL) == 0
    read_sample(page)
    top = result_top(page)
    assert 0 <= top < 150, top  # the result's heading at the top of the screen
    assert page.evaluate(MAIN_SCROLL) > PHONE_SCREEN["height"]
    set_bonus_from_deal(page)
    scrolled = page.evaluate(MAIN_SCROLL)
    page.wait_for_timeout(1000)
    assert page.evaluate(MAIN_SCROLL) == scrolled  # not taken to the result again
    assert not page.get_by_text("Traceback").count()
    page.close()
    page = open_app(browser, server, DESKTOP_SCREEN)
    read_sample(page)
    page.wait_for_timeout(2000)
    assert page.evaluate(MAIN_SCROLL) == 0
    page.close()


def type_and_use(page: Any, concealed: str, bonus: str = "") -> None:
    """Type a hand in the *Type a hand* tab and press *Use this hand*."""
    page.get_by_role("tab", name=re.compile("Type a hand")).click()
    page.get_by_label("Concealed tiles (with the winning tile)").fill(concealed)
    page.get_by_role("textbox", name="Bonus tiles", exact=True).fill(bonus)
    page.get_by_role("button", name="Use this hand").click()


def test_a_typed_hand_takes_a_phone_to_its_result_once(server: str, browser: object) -> None:
    """On a phone the result lay two screens under *Use this hand*: a typed hand used scrolls to it, once,
    as a photo read does; a refused one leaves its refusal in sight by the fields; a wide screen stays."""
    page = open_app(browser, server, PHONE_SCREEN)
    type_and_use(page, "123m 456p 789s CCC 22m", "cat rat")  # the animals: a box for the deal's bonus
    page.locator("[data-testid=stAlert]").get_by_text(RESULT).first.wait_for(timeout=60_000)
    top = result_top(page)
    assert 0 <= top < 150, top  # the result's heading at the top of the screen
    assert page.evaluate(MAIN_SCROLL) > 0
    set_bonus_from_deal(page)
    scrolled = page.evaluate(MAIN_SCROLL)
    page.wait_for_timeout(1000)
    assert page.evaluate(MAIN_SCROLL) == scrolled  # not taken to the result again
    type_and_use(page, "99")  # refused: the page stays by the fields, where the error line is
    at_press = page.evaluate(MAIN_SCROLL)
    page.get_by_text(re.compile("^Could not read the concealed tiles")).first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    assert page.evaluate(MAIN_SCROLL) == at_press
    assert not page.get_by_text("Traceback").count()
    page.close()
    page = open_app(browser, server, DESKTOP_SCREEN)
    type_and_use(page, "123m 456p 789s CCC 22m")
    page.get_by_text(re.compile("^1 tai")).first.wait_for(timeout=60_000)
    page.wait_for_timeout(2000)
    assert page.evaluate(MAIN_SCROLL) == 0
    page.close()


def test_a_changes_toast_leaves_the_score_in_sight_on_a_phone(
    server: str, browser: object, tmp_path: Path
) -> None:
    """A change's toast at the bottom of a phone's screen lay over the score it had just moved: with the
    sidebar closed it stands at the top, over the boxes above the one set; with the sidebar open over the
    page it still rises from the bottom, clear of the sidebar's first boxes (stage 71)."""
    if not model_shipped():
        pytest.skip("no tile model in models/ yet: no photo is read")
    page = open_app(browser, server, PHONE_SCREEN)
    read_sample(page)
    result_top(page)
    toast = box_of(set_bonus_from_deal(page))
    score = box_of(page.locator("[data-testid=stAlert]").filter(has_text=re.compile(r"^\d+ tai")).first)
    assert score["y"] < PHONE_SCREEN["height"], score  # the score is in sight ...
    assert not overlaps(toast, score), (toast, score)  # ... and the toast is not over it
    assert not overlaps(toast, box_of(page.locator(".st-key-bonus_from_deal")))  # nor over the box set
    save_shot(page, tmp_path, "app-toast-phone.png")
    page.locator("[data-testid=stExpandSidebarButton]").first.click()
    max_tai = page.get_by_role("spinbutton", name="Max tai")
    max_tai.fill("3")
    max_tai.press("Enter")
    sidebar_toast = page.locator("[data-testid=stToast]").filter(has_text="Max tai").first
    sidebar_toast.wait_for(timeout=30_000)
    page.wait_for_timeout(700)
    assert box_of(sidebar_toast)["y"] > PHONE_SCREEN["height"] / 2, box_of(sidebar_toast)
    assert not page.get_by_text("Traceback").count()
    page.close()


def correct_tile(page: Any, row: int, face: str, table_top: float) -> tuple[float, Any]:
    """Scroll the tile table's top to `table_top` px down the screen, change row `row`'s tile to `face` as
    a player does (tap the cell, tap it again for its list, type, Enter) and give where the row was
    tapped and the toast that says what changed."""
    grid = page.locator("[data-testid=stDataFrame]").first
    page.evaluate(
        "(y) => document.querySelector('[data-testid=stMain]').scrollBy(0, "
        + "document.querySelector('[data-testid=stDataFrame]').getBoundingClientRect().top - y)",
        table_top,
    )
    box, last = box_of(grid), None
    while last is None or abs(box["y"] - last["y"]) > 0.5:  # the page may still be moving
        page.wait_for_timeout(400)
        last, box = box, box_of(grid)
    page.keyboard.press("Escape")  # no cell selected: Enter after the last edit moved the selection down
    tapped = box["y"] + 36 + 35 * (row - 1) + 17
    x = box["x"] + ROW_MARKERS_PX + COLUMN_PX["n"] + COLUMN_PX["tile"] / 2
    page.mouse.click(x, tapped)
    page.wait_for_timeout(500)
    page.mouse.dblclick(x, tapped)
    page.wait_for_timeout(1000)  # the cell's list opens after a moment: typed too early, a letter is lost
    page.keyboard.type(face, delay=100)
    page.wait_for_timeout(300)
    page.keyboard.press("Enter")
    toast = page.locator("[data-testid=stToast]").filter(has_text="Changed: ").last
    toast.wait_for(timeout=30_000)
    page.wait_for_timeout(800)  # the toast's own rise
    return tapped, toast


def test_a_corrections_toast_keeps_off_the_row_corrected(
    server: str, browser: object, tmp_path: Path
) -> None:
    """A correction's toast at the top of a phone's screen lay over the tile table's first rows, being
    edited (an audit): a tap on the table in the screen's upper half sends it to the bottom; lower down,
    it stays at the top, as it does for the boxes above the result (the toast test above)."""
    for screen in (PHONE_SCREEN, {"width": 1280, "height": 900}):
        page = open_app(browser, server, screen)
        type_and_use(page, "123m 456p 789s CCC 22m")
        page.get_by_text(re.compile("^1 tai")).first.wait_for(timeout=60_000)
        page.wait_for_timeout(4500)  # the page's own scroll to the result, which follows it this long
        grid = page.locator("[data-testid=stDataFrame]").first
        for row, broken, face, table_top in ((1, "4m", "1m", 100), (10, "3m", "2m", 8)):
            correct_tile(page, row, broken, table_top)
            page.wait_for_timeout(4500)  # that toast gone; the undo buttons drawn over the table
            tapped, toast = correct_tile(page, row, face, table_top)
            top = box_of(grid)["y"] + 36 + 35 * (row - 1)
            corrected = {**box_of(grid), "y": top, "height": 35}
            said = (screen, row, tapped, box_of(toast), corrected)
            assert not overlaps(box_of(toast), corrected), said
            assert (box_of(toast)["y"] > screen["height"] / 2) == (tapped < screen["height"] / 2), said
            save_shot(page, tmp_path, f"app-toast-table-{screen['width']}-row{row}.png")
            page.wait_for_timeout(4500)
        page.close()


def test_house_rules_set_before_the_first_hand_survive_a_reload(server: str, browser: object) -> None:
    """A phone's browser reloads a page it put away while the camera took the photo: house rules set on
    the empty page had come back as the defaults (stage 87); the address carries them now."""
    page = open_app(browser, server, PHONE_SCREEN)
    page.locator("[data-testid=stExpandSidebarButton]").first.click()
    unit = page.get_by_role("spinbutton", name="Unit")
    unit.fill("0.5")
    unit.press("Enter")
    page.wait_for_function("() => location.search.includes('unit=0.5')", timeout=30_000)
    page.reload()
    page.get_by_text("Upload a photo of the winning hand").first.wait_for(timeout=60_000)
    # the sidebar stays open, its unit as set: waited for, as the page may still be drawing it (a busy
    # machine read "0" once, mid-draw; a unit lost on the reload stays 1, which this still fails on)
    unit = page.get_by_role("spinbutton", name="Unit")
    unit.wait_for(timeout=30_000)
    settled = time.monotonic() + 15
    while unit.input_value() != "0.5" and time.monotonic() < settled:
        page.wait_for_timeout(200)
    assert unit.input_value() == "0.5"
    page.locator("[data-testid=stSidebarCollapseButton] button").first.click()
    type_and_use(page, "123m 456p 789s 22m", "F1")  # East's own flower: 1 tai, paid in halves
    page.get_by_text(re.compile(r"^Rules: .*unit 0\.5")).first.wait_for(timeout=60_000)
    assert not page.get_by_text("Traceback").count()
    page.close()
