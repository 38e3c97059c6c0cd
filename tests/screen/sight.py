"""What the dealer screen's tests measure of sight: every visible text's contrast against what is
behind it, per WCAG 2.x (relative luminance; AA asks at least 4.5:1), from the page's computed colours.

:data:`CONTRAST` is a script for the page: it returns ``[checked, low]``, the
number of visible elements with text of their own and those below 4.5:1
(``[tag, id, class, text, ratio]``). Backgrounds are composed from the root
down (a translucent one over what is under it), and the text's colour is
faded by the opacity of the element and its ancestors.
"""

from __future__ import annotations

CONTRAST = """
function rgba(text) {
  const m = /rgba?\\(([^)]+)\\)/.exec(text);
  if (!m) return null;
  const p = m[1].split(",").map(parseFloat);
  return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
}
function over(top, under) {
  const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
}
function luminance(c) {
  const [r, g, b] = c.slice(0, 3).map((v) => {
    const s = v / 255;
    return s <= 0.04045 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function behind(node) {             // every background from the root down, composed
  const chain = [];
  for (let n = node; n; n = n.parentElement) chain.unshift(n);
  let colour = [255, 255, 255, 1];
  for (const n of chain) {
    const c = rgba(getComputedStyle(n).backgroundColor);
    if (c && c[3] > 0) colour = over(c, colour);
  }
  return colour;
}
function opacity(node) {
  let o = 1;
  for (let n = node; n; n = n.parentElement) o *= parseFloat(getComputedStyle(n).opacity);
  return o;
}
const low = [];
let checked = 0;
for (const node of document.querySelectorAll("body *")) {
  const own = [...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim());
  const style = getComputedStyle(node);
  if (!own || !node.getClientRects().length || style.visibility !== "visible") continue;
  const bg = behind(node);
  const ink = rgba(style.color);
  const text = over([ink[0], ink[1], ink[2], ink[3] * opacity(node)], bg);
  const [a, b] = [luminance(text), luminance(bg)].sort((x, y) => y - x);
  const ratio = (a + 0.05) / (b + 0.05);
  checked += 1;
  if (ratio < 4.5) low.push([node.tagName, node.id, node.className, node.textContent.slice(0, 40),
                             Math.round(ratio * 100) / 100]);
}
return [checked, low];
"""
