"""Two small scripts the page runs in the browser, where Streamlit has no word for what is wanted: Enter in
a typed field presses *Use this hand*, and a photo just read or a typed hand just used takes a phone to its
result.

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


def run(name: str, script: str) -> None:
    """Draw `script` where it runs once as the browser shows it, in a hidden container keyed by `name`
    (an element drawn again unchanged is not run again; one not drawn in a run goes)."""
    st.html(f"<style>{HIDDEN_CSS}</style>")
    st.container(key=KEY_PREFIX + name).html(f"<script>{script}</script>", unsafe_allow_javascript=True)
