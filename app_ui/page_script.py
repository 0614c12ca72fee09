"""Small scripts the page runs in the browser, where Streamlit has no word for what is wanted: Enter in
a typed field presses *Use this hand*, a photo just read or a typed hand just used takes a phone to its
result, and a toast keeps off the tile-table rows being edited.

Each script is fixed text with its values written in as JSON (the keys of the page's own widgets and a
number: nothing a user typed), loads nothing (the page makes no request), and is drawn in a container
hidden by CSS, so that it takes no room between the page's parts.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from string import Template

import streamlit as st

KEY_PREFIX = "page_script_"  # each script's container: `KEY_PREFIX` + its name
HIDDEN_CSS = f"[class*='st-key-{KEY_PREFIX}'] {{ display: none; }}"


def js(value: object) -> str:
    """`value` as a JavaScript literal that cannot end the script it is written in (no `</script>`)."""
    return json.dumps(value).replace("<", "\\u003c")


ENTER_PRESSES = Template("""(() => {
  const fields = $fields, button = $button, id = "enter:" + button;
  const done = (window.mahjongScripts = window.mahjongScripts || new Set());
  if (done.has(id)) return;
  done.add(id);
  document.addEventListener("keydown", (event) => {
    // not the Enter that ends a composition (五筒 typed by its pinyin): that only picks the characters
    if (event.key !== "Enter" || event.isComposing || event.keyCode === 229) return;
    const target = event.target;
    if (!(target instanceof Element)) return;
    if (!fields.some((key) => target.closest(".st-key-" + key))) return;
    // after this keydown's own handlers, Streamlit's among them, have taken the field's text
    setTimeout(() => document.querySelector(".st-key-" + button + " button")?.click(), 0);
  }, true);
})();""")


def enter_presses(fields: Sequence[str], button: str) -> str:
    """A script by which Enter in any of the text inputs keyed `fields` presses the button keyed `button`
    (once Streamlit has taken the field's text); set up once per page, however often it is drawn."""
    return ENTER_PRESSES.substitute(fields=js(list(fields)), button=js(button))


# how long the page follows the anchor as the pictures above it load and push it down (ms)
FOLLOW_MS = 4000

SCROLL_TO = Template("""(() => {
  const anchor = $anchor, token = $token;
  const done = (window.mahjongScripts = window.mahjongScripts || new Set());
  if (done.has(token)) return;
  done.add(token);
  const halves = [...document.querySelectorAll($halves)];
  // side by side: the second half starts right of the first
  if (halves.length > 1) {
    if (halves[1].getBoundingClientRect().left >= halves[0].getBoundingClientRect().right) return;
  }
  let moved = false;
  const stop = () => { moved = true; };
  for (const kind of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(kind, stop, { once: true, capture: true, passive: true });
  }
  const go = () => { if (!moved) document.getElementById(anchor)?.scrollIntoView({ block: "start" }); };
  go();
  requestAnimationFrame(go);
  for (const img of document.querySelectorAll("img")) {
    if (!img.complete) img.addEventListener("load", go, { once: true });
  }
  setTimeout(stop, $follow_ms);
})();""")


def scroll_to(anchor: str, halves: str, token: str) -> str:
    """A script that scrolls the page to the element whose id is `anchor`, once for `token`, where the
    page's two halves (CSS selector `halves`) stand stacked, as on a phone: side by side, the photo and
    the table beside it are read together, and the result is beside the table already. The photo above
    the anchor may load after the script runs and push it down: the page follows it for `FOLLOW_MS`,
    unless the user scrolls, taps or types first."""
    return SCROLL_TO.substitute(
        anchor=js(anchor), token=js("scroll:" + token), halves=js(halves), follow_ms=FOLLOW_MS
    )


# set on the page's body while a toast is to rise from the bottom of the screen (`app.TOAST_CSS`)
TOAST_LOW = "data-mahjong-toast-low"

TOAST_AWAY = Template("""(() => {
  const halves = $halves, low = $low, id = "toast-away";
  const done = (window.mahjongScripts = window.mahjongScripts || new Set());
  if (done.has(id)) return;
  done.add(id);
  // where the user last tapped or typed: in the tile table's half, in the screen's upper half, the
  // toast that the change brings rises from the bottom, off the rows being edited; anywhere else on
  // the page or the sidebar, it stands at the top. A tap outside both (a cell's or a box's list of
  // choices, drawn over the page) leaves the mark as the tap that opened it set it.
  const page = "[data-testid='stMain'], [data-testid='stSidebar']";
  const mark = (target, y) => {
    if (!(target instanceof Element) || !target.closest(page)) return;
    const table = document.querySelectorAll(halves)[1];
    document.body.toggleAttribute(low, !!table && table.contains(target) && y < window.innerHeight / 2);
  };
  document.addEventListener("pointerdown", (event) => mark(event.target, event.clientY), true);
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (!(target instanceof Element)) return;
    const box = target.getBoundingClientRect();
    mark(target, box.top + box.height / 2);
  }, true);
})();""")


def toast_away(halves: str) -> str:
    """A script by which a tap or a key in the tile table's half of the page (the second of the halves,
    CSS selector `halves`), in the upper half of the screen, marks the page's body `TOAST_LOW`, and any
    other unmarks it: a change's toast stands at the top of the screen, where on a phone it lay over the
    first rows of the table being edited (an audit); from the bottom it would cover the score a change
    above the result had moved (stage 71), so only the table's taps send it there. Set up once per page."""
    return TOAST_AWAY.substitute(halves=js(halves), low=js(TOAST_LOW))


def run(name: str, script: str) -> None:
    """Draw `script` where it runs once as the browser shows it, in a hidden container keyed by `name`
    (an element drawn again unchanged is not run again; one not drawn in a run goes)."""
    st.html(f"<style>{HIDDEN_CSS}</style>")
    st.container(key=KEY_PREFIX + name).html(f"<script>{script}</script>", unsafe_allow_javascript=True)
