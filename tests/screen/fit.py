"""What the dealer screen's tests measure of fit: at a size, every payout box, the instruction, each
banner's message line, every button and the header lie wholly inside the viewport, and nothing scrolls.

:data:`FIT` is a script for the page: it returns a list of what does not fit, each
``[what, text, [left, top, right, bottom]]`` (empty: everything fits). Elements
measured are those drawn (with a rectangle); the overlays, hidden, are not.
:func:`assert_fits` runs it at each size of :data:`PANELS` and fails naming
what lies outside; :data:`TOUCH` is the least height of a button in play.
"""

from __future__ import annotations

from typing import Any

PANELS = ((800, 480), (1280, 800))
"""The 7" panel and the 10" one, landscape."""

TOUCH = 44
"""The least height and width, in CSS pixels, of every button in play (about 7 mm on a 7" panel)."""

FIT = """
const W = window.innerWidth, H = window.innerHeight, bad = [];
const box = (e) => { const r = e.getBoundingClientRect();
                     return [r.left, r.top, r.right, r.bottom].map(Math.round); };
const drawn = (e) => e.getClientRects().length > 0 && !e.closest('.overlay');
function inside(what, e) {
  const [l, t, r, b] = box(e);
  if (l < -0.5 || t < -0.5 || r > W + 0.5 || b > H + 0.5 || r - l <= 0 || b - t <= 0)
    bad.push([what, e.textContent.trim().slice(0, 60), [l, t, r, b]]);
}
const all = (s) => [...document.querySelectorAll(s)].filter(drawn);
for (const e of all('.payout')) inside('payout box', e);
for (const e of all('#instruction')) inside('instruction', e);
for (const e of document.querySelectorAll('.banner .message'))
  if (drawn(e)) inside('banner message', e); else bad.push(['banner message not shown', e.textContent, []]);
for (const e of all('button')) {
  inside('button', e);
  const [l, t, r, b] = box(e);
  if (b - t < arguments[0] || r - l < arguments[0])
    bad.push(['small button', e.textContent.trim(), [l, t, r, b]]);
}
const top = document.getElementById('top');
inside('header', top);
for (const e of top.children) {
  if (!drawn(e)) continue;
  const [l, t, r, b] = box(e), [hl, ht, hr, hb] = box(top);
  if (l < hl || r > hr || t < ht || b > hb)
    bad.push(['cut by the header', e.textContent.trim(), [l, t, r, b]]);
}
for (const e of [document.scrollingElement, ...all('body *')]) {
  const s = getComputedStyle(e);
  if (e.scrollHeight > e.clientHeight + 1 && e !== document.scrollingElement && s.overflowY !== 'auto'
      && s.overflowY !== 'scroll') continue;
  if (e.scrollHeight > e.clientHeight + 1)
    bad.push(['scrolls', (e.id || e.className || e.tagName), [e.clientHeight, e.scrollHeight]]);
}
return [(document.querySelectorAll('.payout').length), bad];
"""


def assert_fits(station: Any, boxes: int) -> None:
    """At each size of :data:`PANELS`, ``boxes`` payout boxes drawn and nothing outside the viewport;
    the window back at 1280x800."""
    for width, height in PANELS:
        station.resize(width, height)
        count, bad = station.page(FIT, TOUCH)
        assert count == boxes, f"{count} payout boxes drawn at {width}x{height}, not {boxes}"
        assert bad == [], f"at {width}x{height}: " + "; ".join(map(str, bad))
    station.resize(1280, 800)
