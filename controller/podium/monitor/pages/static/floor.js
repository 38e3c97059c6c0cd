// The floor view: one tile per table, grouped by pit (arrange.js), updated as the server pushes changes.
"use strict";

const floor = document.getElementById("floor");
const tiles = new Map();       // table -> its last tile (JSON)
const sections = new Map();    // table -> its tile's element
let pits = [];                 // the floor view's pits

function seatChip(s) {
  const stack = s.stack !== null && s.stack !== undefined ? `<small class="stack">${money(s.stack)}</small>` : "";
  const wager = s.wager ? `<small>${money(s.wager)}</small>` : "";
  const classes = "seat" + (s.dealer ? " dealer-seat" : "") + (s.in_turn ? " in-turn" : "");
  const badge = s.dealer ? '<b class="badge dealer-badge" title="player-dealer">D</b>' : "";
  return `<span class="${classes}" data-seat="${s.seat}">${s.seat}${badge}${wager}${stack}</span>`;
}

function sessionLine(tile) {
  const parts = [];
  const t = tile.tournament;
  if (t && t.level) parts.push(`<span class="level">level ${t.level} &middot; ${esc(t.blinds_text)}</span>`);
  if (t && t.winner !== null) parts.push(`<span class="winner">seat ${t.winner} won</span>`);
  if (tile.dealer_seat !== null) parts.push(`<span>seat ${tile.dealer_seat} deals</span>`);
  else if (tile.button !== null) parts.push(`<span>button ${tile.button}</span>`);
  if (tile.pots) parts.push(`<span class="pots">pots ${money(tile.pots)}</span>`);
  return parts.length ? `<div class="session">${parts.join(" &middot; ")}</div>` : "";
}

function tileHtml(tile) {
  const seats = tile.seats.length ? tile.seats.map(seatChip).join("") : '<span class="empty">no wager</span>';
  const hand = tile.hand !== null ? `hand ${tile.hand}` : "between hands";
  const offline = tile.offline.length ? `<div class="offline">offline: ${tile.offline.map(esc).join(", ")}</div>` : "";
  const alerts = tile.alerts.length ? `<ul class="alerts">${tile.alerts.map(alertHtml).join("")}</ul>` : "";
  const reason = tile.link.state !== "live" && tile.link.reason
    ? `<div class="reason">${esc(tile.link.reason)}</div>` : "";
  const closed = tile.closed ? '<span class="closed-badge" title="closed by the pit">CLOSED</span>' : "";
  return `<header><a class="name" href="/table/${encodeURIComponent(tile.table)}">${esc(tile.table)}</a>` +
    `<span class="game">${esc(tile.game || "")}</span>${closed}${linkHtml(tile.link)}</header>${reason}` +
    `<div class="play"><span class="hand">${hand}</span> <span class="phase">${esc(tile.phase || "")}</span>` +
    `<span class="wagers" title="wagers in play">${money(tile.wagers)}</span></div>` +
    `<div class="seats">${seats}</div>${sessionLine(tile)}${offline}${metersHtml(tile.meters)}` +
    `${shiftLine(tile)}${resultHtml(tile.last_result)}${alerts}`;
}

// The table's figures this shift (with the monitor's database), and its open ratings.
function shiftLine(tile) {
  const f = tile.shift;
  if (!f) return countWords(tile) ? `<div class="shift-line">${countWords(tile).replace(" &middot; ", "")}</div>` : "";
  const rated = tile.rated ? ` &middot; <span class="rated">${tile.rated} rated</span>` : "";
  return `<div class="shift-line" data-hands="${f.hands}" data-theo="${f.theo.cents ?? ""}">shift: ` +
    `${f.hands} hands${f.hands_per_hour === null ? "" : ` (${f.hands_per_hour}/h)`} &middot; ` +
    `wagered ${money(f.wagered)} &middot; house ${signedMoney(f.house_result)} &middot; ` +
    `theo ${f.theo.cents === null ? "unknown" : money(Math.round(f.theo.cents))}` +
    `${f.rake ? ` &middot; rake ${money(f.rake)}` : ""}` +
    `${f.banked ? ` &middot; bank ${signedMoney(f.bank_result)}` : ""}${countWords(tile)}${rated}</div>`;
}

// The table's last count, once its win is known: the count room's win and hold, beside the theo.
function countWords(tile) {
  const c = tile.books && tile.books.count;
  if (!c || c.win === null) return "";
  return ` &middot; <span class="count" data-win="${c.win}">count win ${signedMoney(c.win)}` +
    `${c.hold_percent === null ? "" : `, hold ${c.hold_percent} %`}</span>`;
}

// Draw a tile; whether where it goes may change (its pit, game, alerts), or it is new.
function showTile(tile) {
  let section = sections.get(tile.table);
  const before = tiles.get(tile.table);
  if (!section) {
    section = document.createElement("section");
    section.className = "tile";
    section.dataset.table = tile.table;
    sections.set(tile.table, section);
  }
  tiles.set(tile.table, tile);
  section.dataset.link = tile.link.state;
  section.dataset.seq = tile.seq;
  section.dataset.alerts = tile.alerts.length;
  section.dataset.worst = worstOf(tile);
  section.dataset.pit = tile.pit ?? "";
  section.dataset.game = tile.game ?? "";
  const html = tileHtml(tile);
  if (section.drawn !== html) {          // a tile that did not change keeps its elements (and clicks)
    section.innerHTML = html;
    section.drawn = html;
  }
  return !before || before.pit !== tile.pit || before.game !== tile.game ||
    JSON.stringify(before.alerts.map((a) => a.key)) !== JSON.stringify(tile.alerts.map((a) => a.key));
}

function summary() {
  const all = [...tiles.values()];
  const live = all.filter((t) => t.link.state === "live").length;
  const alerts = all.reduce((n, t) => n + t.alerts.length, 0);
  const hidden = all.filter((t) => !shown(t)).length;
  document.getElementById("summary").textContent =
    `${all.length} tables, ${live} live, ${alerts} alert${alerts === 1 ? "" : "s"} open` +
    (hidden ? `; ${hidden} table${hidden === 1 ? "" : "s"} not shown` : "");
}

// The headers of the pits these tiles stand in (their figures change with the tiles').
function refreshPitHeads(changed) {
  for (const name of new Set(changed.map((t) => t.pit ?? NO_PIT))) {
    const pit = pits.find((p) => (p.pit ?? NO_PIT) === name);
    const head = floor.querySelector(`section.pit[data-pit="${CSS.escape(name)}"] .pit-head`);
    if (pit && head) head.innerHTML = pitHead(pit, pit.tables.map((t) => tiles.get(t)).filter(Boolean));
  }
}

function redraw() {
  arrange(floor, pits, tiles, sections);
  summary();
}

onChoice(redraw);

follow("/api/stream", {
  floor: (view) => {
    floor.innerHTML = "";
    tiles.clear();
    sections.clear();
    pits = view.pits;
    view.tables.forEach(showTile);
    soundAlerts(view.tables, inView);
    redraw();
  },
  tiles: (changed) => {
    const moved = changed.tables.map(showTile).some(Boolean);
    soundAlerts(changed.tables, inView);
    if (moved) redraw(); else { summary(); refreshPitHeads(changed.tables); }
  },
});
