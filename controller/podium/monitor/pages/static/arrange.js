// The floor's arrangement: tiles grouped by pit (the floor file's; tables in none last), filtered
// by pit, game and alert severity, sorted by name, severity or game within each pit. The choice
// is kept in the page's address (?pit=&game=&alert=&sort=) and in the browser for the next visit.
"use strict";

const CHOICES = {pit: "filter-pit", game: "filter-game", alert: "filter-alert", sort: "sort"};
const NO_PIT = "-";
const RANK = {critical: 0, warning: 1, info: 2};
const byName = new Intl.Collator("en", {numeric: true}).compare;

const choice = (() => {
  const query = new URLSearchParams(location.search);
  let saved = {};
  try { saved = JSON.parse(localStorage.getItem("pit-monitor-floor") || "{}") || {}; } catch (e) { saved = {}; }
  const fromAddress = Object.keys(CHOICES).some((key) => query.has(key));
  const chosen = {};
  for (const key of Object.keys(CHOICES)) chosen[key] = String((fromAddress ? query.get(key) : saved[key]) || "");
  return chosen;
})();

// Keep the choice shown: in the address (to share or bookmark) and in the browser.
function keepChoice() {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(choice)) if (value) query.set(key, value);
  const search = query.toString();
  history.replaceState(null, "", location.pathname + (search ? "?" + search : ""));
  localStorage.setItem("pit-monitor-floor", JSON.stringify(choice));
}

keepChoice();

// A filter's options: "all", then `values` ([value, words]), and the chosen value even when no
// table has it yet (so a kept choice is never lost).
function fillSelect(key, values) {
  const select = document.getElementById(CHOICES[key]);
  const wanted = [...values];
  if (choice[key] && !wanted.some(([value]) => value === choice[key])) wanted.push([choice[key], choice[key]]);
  const html = wanted.map(([value, words]) => `<option value="${esc(value)}">${esc(words)}</option>`).join("");
  if (select.drawn !== html) {
    select.replaceChildren(select.options[0]);
    select.insertAdjacentHTML("beforeend", html);
    select.drawn = html;
  }
  select.value = choice[key];
}

// A fixed choice (alerts, sort): one the page does not offer is dropped.
function checkSelect(key) {
  const select = document.getElementById(CHOICES[key]);
  if (![...select.options].some((o) => o.value === choice[key])) choice[key] = "";
  select.value = choice[key];
}

function worstOf(tile) {
  return tile.alerts.length ? tile.alerts[0].severity : "none";
}

function rankOf(tile) {
  return RANK[worstOf(tile)] ?? (tile.alerts.length ? 3 : 4);
}

// Whether the pit and game filters keep a table (the tables a sound is made for).
function inView(tile) {
  if (choice.pit === NO_PIT ? tile.pit !== null : choice.pit && tile.pit !== choice.pit) return false;
  return !choice.game || tile.game === choice.game;
}

function shown(tile) {
  if (!inView(tile)) return false;
  if (choice.alert === "critical") return rankOf(tile) === RANK.critical;
  if (choice.alert === "warning") return rankOf(tile) <= RANK.warning;
  return true;
}

function order(a, b) {
  if (choice.sort === "severity") {
    return rankOf(a) - rankOf(b) || b.alerts.length - a.alerts.length || byName(a.table, b.table);
  }
  if (choice.sort === "game") {         // a table not heard yet (no game) last
    return Number(!a.game) - Number(!b.game) || byName(a.game || "", b.game || "") || byName(a.table, b.table);
  }
  return byName(a.table, b.table);
}

// A pit's header: its name, its tables and open alerts, and its figures (`pitFigures`).
function pitHead(pit, tiles) {
  const alerts = tiles.reduce((n, t) => n + t.alerts.length, 0);
  const words = `${tiles.length} table${tiles.length === 1 ? "" : "s"}, ` +
    `${alerts} alert${alerts === 1 ? "" : "s"} open`;
  return `<span class="pit-name">${esc(pit.pit ?? "No pit")}</span> <span class="pit-count">${words}</span>` +
    `<span class="pit-figures">${pitFigures(pit, tiles)}</span>`;
}

// The figures of a pit this shift, the sum of its tables' (none without the monitor's database), and
// its tables' last counts together: the count room's win and hold.
function pitFigures(pit, tiles) {
  const shifts = tiles.map((t) => t.shift).filter(Boolean);
  const counts = tiles.map((t) => t.books && t.books.count).filter((c) => c && c.win !== null);
  let count = "";
  if (counts.length) {
    const win = counts.reduce((n, c) => n + c.win, 0), drop = counts.reduce((n, c) => n + c.drop, 0);
    count = `<span class="count" data-win="${win}">count win ${signedMoney(win)}` +
      `${drop ? `, hold ${(win * 100 / drop).toFixed(2)} %` : ""}</span>`;
  }
  if (!shifts.length) return count ? `<span class="shift-figures">${count}</span>` : "";
  const sum = (key) => shifts.reduce((n, f) => n + (f[key] || 0), 0);
  const hands = sum("hands"), hours = sum("hours");
  const theo = shifts.some((f) => f.theo.cents === null) ? null
    : shifts.reduce((n, f) => n + f.theo.cents, 0);
  const parts = [`${hands} hands${hours > 0 ? ` (${(hands / hours).toFixed(1)}/h per table)` : ""}`,
    `wagered ${money(sum("wagered"))}`, `house ${signedMoney(sum("house_result"))}`,
    `theo ${theo === null ? "unknown" : money(Math.round(theo))}`];
  if (sum("rake")) parts.push(`rake ${money(sum("rake"))}`);
  if (sum("banked")) parts.push(`bank ${signedMoney(sum("bank_result"))}`);
  if (count) parts.push(count);
  return `<span class="shift-figures" data-hands="${hands}" data-wagered="${sum("wagered")}">` +
    `shift: ${parts.join(" &middot; ")}</span>`;
}

// Lay the tiles out: a section per pit (the floor view's `pits`, in order), its shown tiles sorted;
// a tile filtered out or a pit with no tile shown is hidden.
function arrange(floorElement, pits, tiles, sections) {
  const groups = pits.map((pit) => ({pit, tiles: pit.tables.map((name) => tiles.get(name)).filter(Boolean)}));
  for (const group of groups) {
    const key = group.pit.pit ?? NO_PIT;
    let section = floorElement.querySelector(`section.pit[data-pit="${CSS.escape(key)}"]`);
    if (!section) {
      section = document.createElement("section");
      section.className = "pit";
      section.dataset.pit = key;
      section.innerHTML = '<h2 class="pit-head"></h2><div class="pit-tiles"></div>';
    }
    floorElement.appendChild(section);
    const kept = group.tiles.filter(shown).sort(order);
    const keep = new Set(kept);
    section.hidden = !kept.length;
    section.querySelector(".pit-head").innerHTML = pitHead(group.pit, group.tiles);
    const box = section.querySelector(".pit-tiles");
    for (const tile of group.tiles) sections.get(tile.table).hidden = !keep.has(tile);
    for (const tile of kept) box.appendChild(sections.get(tile.table));
  }
  fillSelect("pit", pits.map((p) => p.pit === null ? [NO_PIT, "no pit"] : [p.pit, p.pit]));
  const games = [...new Set([...tiles.values()].map((t) => t.game).filter(Boolean))].sort(byName);
  fillSelect("game", games.map((g) => [g, g]));
  checkSelect("alert");
  checkSelect("sort");
}

function onChoice(redraw) {
  for (const [key, id] of Object.entries(CHOICES)) {
    document.getElementById(id).addEventListener("change", (event) => {
      choice[key] = event.target.value;
      keepChoice();
      redraw();
    });
  }
}
