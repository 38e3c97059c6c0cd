// The floor view: one tile per table, updated as the server pushes changes.
"use strict";

const floor = document.getElementById("floor");

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
  return `<header><a class="name" href="/table/${encodeURIComponent(tile.table)}">${esc(tile.table)}</a>` +
    `<span class="game">${esc(tile.game || "")}</span>${linkHtml(tile.link)}</header>${reason}` +
    `<div class="play"><span class="hand">${hand}</span> <span class="phase">${esc(tile.phase || "")}</span>` +
    `<span class="wagers" title="wagers in play">${money(tile.wagers)}</span></div>` +
    `<div class="seats">${seats}</div>${sessionLine(tile)}${offline}${metersHtml(tile.meters)}` +
    `${resultHtml(tile.last_result)}${alerts}`;
}

function showTile(tile, count = true) {
  let section = floor.querySelector(`section[data-table="${CSS.escape(tile.table)}"]`);
  if (!section) {
    section = document.createElement("section");
    section.className = "tile";
    section.dataset.table = tile.table;
    floor.appendChild(section);
  }
  section.dataset.link = tile.link.state;
  section.dataset.seq = tile.seq;
  section.dataset.alerts = tile.alerts.length;
  const worst = tile.alerts.length ? tile.alerts[0].severity : "none";
  section.dataset.worst = worst;
  const html = tileHtml(tile);
  if (section.drawn !== html) {          // a tile that did not change keeps its elements (and clicks)
    section.innerHTML = html;
    section.drawn = html;
  }
  if (count) summary();
}

function summary() {
  const tiles = [...floor.querySelectorAll("section.tile")];
  const live = tiles.filter((t) => t.dataset.link === "live").length;
  const alerts = tiles.reduce((n, t) => n + Number(t.dataset.alerts || 0), 0);
  document.getElementById("summary").textContent =
    `${tiles.length} tables, ${live} live, ${alerts} alert${alerts === 1 ? "" : "s"} open`;
}

follow("/api/stream", {
  floor: (view) => { floor.innerHTML = ""; view.tables.forEach((t) => showTile(t, false)); summary(); },
  tiles: (changed) => { changed.tables.forEach((t) => showTile(t, false)); summary(); },
});
