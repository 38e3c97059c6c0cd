// Game protection: the pit's list of players and seats, the most suspicious first (or by the column
// chosen), a page of ROWS at a time, filtered by player or table and to the flagged alone (the server sorts
// and filters), the view kept in the page's address; and one player's page: bets against the true count
// (drawn here, in SVG), basic strategy accuracy, deviations, ratings. The page follows the floor's event
// stream and asks for what it shows again at most every two seconds.
"use strict";

const protectionMain = document.getElementById("protection");
const subjectId = new URLSearchParams(location.search).get("subject");
const REASONS = {bets: "bets rise with the count", wonging: "enters at high counts",
  play: "deviates with the count"};

function percent(value) {
  return value === null || value === undefined ? "-" : `${(value * 100).toFixed(1)}%`;
}

function sure(value) {
  return value >= 0.999 ? "&ge; 99.9%" : percent(value);
}

function reasonsHtml(reasons) {
  return reasons.length
    ? reasons.map((r) => `<span class="reason" data-reason="${esc(r)}">${esc(REASONS[r] || r)}</span>`).join(" ")
    : '<span class="muted">none</span>';
}

function subjectRow(s) {
  const f = s.figures;
  const link = `/protection?subject=${encodeURIComponent(s.subject)}`;
  return `<tr data-subject="${esc(s.subject)}" data-flagged="${s.flagged}" class="${s.flagged ? "flagged" : ""}">` +
    `<td><a href="${link}">${esc(s.player ? "player " + s.player : s.label)}</a></td>` +
    `<td>${s.seats.map((x) => `${esc(x.table)} seat ${x.seat}`).join(", ")}</td>` +
    `<td>${f.hands}</td><td>${f.correlation.toFixed(2)} (${sure(f.bet_confidence)})</td>` +
    `<td>${f.spread === null ? "-" : f.spread + "x"}</td>` +
    `<td>${f.high_hands} / ${f.hands} (table ${percent(f.high_share)}), ${f.high_entries} of ${f.entries} entries</td>` +
    `<td>${percent(f.accuracy)}, ${f.count_plays} count plays</td>` +
    `<td>${sure(f.suspicion)}</td><td>${reasonsHtml(f.reasons)}</td></tr>`;
}

// The list's columns: their heads and the server's sort for each (protection_list.py's SORTS), each
// first in the order given by the server; a second click turns it round.
const COLUMNS = [["who", "Who"], ["where", "Where"], ["hands", "Hands"], ["bets", "Bet/count"],
  ["spread", "Spread"], ["high", null], ["strategy", "Basic strategy"], ["suspicion", "Suspicion"],
  ["flagged", "Flagged for"]];
const FIRST_UP = new Set(["who", "where"]);   // given A to Z first; the others the largest first
const ROWS = 100;   // the rows a page of the list shows

// The view of the list: the query the server is asked with, each value as the server reads it. The
// page's address holds what differs from the first view (/protection?sort=bets&reverse=1&flagged=1&
// filter=T07&offset=100), so that a reload, Back and a link sent to someone show the same view; a value
// there the server cannot read is its to refuse, saying which.
const VIEW = {sort: "flagged", reverse: "0", flagged: "0", filter: "", offset: "0"};
let listed = viewOf(location.search);
let typing = false;   // the address already holds the filter being typed: the next keys replace it

function viewOf(search) {
  const query = new URLSearchParams(search);
  return Object.fromEntries(Object.entries(VIEW).map(([name, first]) => [name, query.get(name) ?? first]));
}

function viewAddress() {
  const query = new URLSearchParams(Object.entries(listed).filter(([name, value]) => value !== VIEW[name]));
  return query.toString() ? `/protection?${query}` : "/protection";
}

// The view changed: the address follows (a new entry for Back, or the filter typed on in the same one)
// and the list is asked for.
function viewChanged(how) {
  const replace = how === "replace" || (how === "typed" && typing);
  typing = how === "typed";
  const address = viewAddress();
  if (address !== location.pathname + location.search) {
    history[replace ? "replaceState" : "pushState"](null, "", address);
  }
  showProtection();
}

function listUrl() {
  return `/api/protection?${new URLSearchParams({limit: ROWS, ...listed})}`;
}

// The list's frame, drawn once (the filter keeps what is typed in it while the rows change), showing the
// view's filter and flagged-only.
function listFrame() {
  protectionMain.innerHTML = `<section class="panel"><h2 id="list-title">Players and seats, most suspicious first</h2>` +
    `<div class="list-tools"><label>Player or table <input id="list-filter" type="search" ` +
    `placeholder="player, seat or table" maxlength="200" autocomplete="off"></label>` +
    `<label><input id="list-flagged" type="checkbox"> Flagged only</label>` +
    `<button id="list-previous" type="button">Previous</button> <span id="list-place"></span> ` +
    `<button id="list-next" type="button">Next</button></div>` +
    `<table class="ratings protection-list"><thead><tr id="list-heads"></tr></thead><tbody id="list-rows"></tbody></table>` +
    `</section><section class="panel"><h2 id="count-title">The count</h2><div id="list-counts"></div></section>`;
  viewTools();
  let typed = null;
  document.getElementById("list-filter").addEventListener("input", (e) => {
    clearTimeout(typed);
    typed = setTimeout(() => { listed.filter = e.target.value; listed.offset = "0"; viewChanged("typed"); }, 300);
  });
  document.getElementById("list-flagged").addEventListener("change", (e) => {
    listed.flagged = e.target.checked ? "1" : "0";
    listed.offset = "0";
    viewChanged("push");
  });
  document.getElementById("list-previous").addEventListener("click", () => {
    listed.offset = String(Math.max(0, Number(listed.offset) - ROWS)); viewChanged("push");
  });
  document.getElementById("list-next").addEventListener("click", () => {
    listed.offset = String(Number(listed.offset) + ROWS); viewChanged("push");
  });
  document.getElementById("list-heads").addEventListener("click", (e) => {
    const head = e.target.closest("button[data-sort]");
    if (!head) return;
    listed.reverse = head.dataset.sort === listed.sort && listed.reverse !== "1" ? "1" : "0";
    listed.sort = head.dataset.sort;
    listed.offset = "0";
    viewChanged("push");
  });
}

// The filter and flagged-only as the view has them (drawn, or the view taken back from the address).
function viewTools() {
  document.getElementById("list-filter").value = listed.filter;
  document.getElementById("list-flagged").checked = listed.flagged === "1";
}

function showList(data) {
  const s = data.settings;
  document.getElementById("list-heads").innerHTML = COLUMNS.map(([sort, words]) => {
    const up = FIRST_UP.has(sort) !== data.reverse;
    const chosen = sort === data.sort;
    const arrow = chosen ? (up ? " \u25b2" : " \u25bc") : "";
    return `<th aria-sort="${chosen ? (up ? "ascending" : "descending") : "none"}">` +
      `<button type="button" class="sort" data-sort="${sort}">${esc(words || `At +${s.wong_count} or more`)}${arrow}</button></th>`;
  }).join("");
  const column = COLUMNS.find(([sort]) => sort === data.sort);
  const who = data.flagged_only ? "Flagged players and seats" : "Players and seats";
  document.getElementById("list-title").textContent = data.sort === "flagged" && !data.reverse
    ? `${who}, most suspicious first`
    : `${who}, by ${(column[1] || `at +${s.wong_count} or more`).toLowerCase()}${data.reverse ? ", turned round" : ""}`;
  const shown = data.subjects.length;
  const n = (count) => count.toLocaleString("en-US");
  const matching = (data.flagged_only ? " flagged" : "") + (data.filter ? ` matching "${data.filter}"` : "");
  document.getElementById("list-place").textContent = shown
    ? `${n(data.offset + 1)} - ${n(data.offset + shown)} of ${n(data.total)}${matching}`
    : `none${matching}`;
  document.getElementById("list-previous").disabled = data.offset === 0;
  document.getElementById("list-next").disabled = data.offset + shown >= data.total;
  document.getElementById("list-rows").innerHTML = data.subjects.map(subjectRow).join("") ||
    `<tr><td colspan="9">${data.listed ? `nobody${esc(matching)}` : "no house-banked hand yet"}</td></tr>`;
  document.getElementById("count-title").textContent =
    `The count at their tables (${s.system}; figures ${s.figures})`;
  document.getElementById("list-counts").innerHTML = Object.entries(data.counts).map(([table, c]) => c
    ? `<span class="count" data-table="${esc(table)}">${esc(table)}: RC ${c.running}, TC ${c.true.toFixed(1)}, ` +
      `${c.decks_left.toFixed(1)} decks left</span>`
    : `<span class="count" data-table="${esc(table)}">${esc(table)}: no shoe seen loaded</span>`).join(" ");
}

// Bets against the true count: one dot per hand, the count across, the bet up.
function plotSvg(points) {
  const width = 640, height = 320, pad = 44;
  if (!points.length) return '<p class="muted">no bet yet</p>';
  const counts = points.map((p) => p[0]), bets = points.map((p) => p[1]);
  const lowCount = Math.min(-2, Math.floor(Math.min(...counts))), highCount = Math.max(4, Math.ceil(Math.max(...counts)));
  const topBet = Math.max(...bets);
  const x = (c) => pad + (c - lowCount) / (highCount - lowCount) * (width - 2 * pad);
  const y = (b) => height - pad - b / topBet * (height - 2 * pad);
  const ticks = [];
  for (let c = lowCount; c <= highCount; c++) {
    ticks.push(`<line x1="${x(c)}" y1="${height - pad}" x2="${x(c)}" y2="${pad}" class="grid"/>` +
      `<text x="${x(c)}" y="${height - pad + 16}" text-anchor="middle">${c > 0 ? "+" : ""}${c}</text>`);
  }
  const dots = points.map((p) => `<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3"/>`).join("");
  return `<svg class="plot" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" ` +
    `aria-label="bets against the true count">${ticks.join("")}` +
    `<line x1="${pad}" y1="${height - pad}" x2="${width - pad}" y2="${height - pad}" class="axis"/>` +
    `<line x1="${pad}" y1="${pad}" x2="${pad}" y2="${height - pad}" class="axis"/>` +
    `<text x="${pad - 4}" y="${pad}" text-anchor="end">${money(topBet)}</text>` +
    `<text x="${pad - 4}" y="${height - pad}" text-anchor="end">$0</text>` +
    `<text x="${width / 2}" y="${height - 6}" text-anchor="middle">true count at no more bets</text>` +
    `<g class="dots">${dots}</g></svg>`;
}

function subjectHtml(s) {
  const f = s.figures;
  const deviations = s.deviations.slice().reverse().map((d) =>
    `<tr class="${d.with_count ? "with-count" : ""}"><td>${esc(d.table)} hand ${d.hand}</td><td>seat ${d.seat}</td>` +
    `<td>${esc(d.taken)}</td><td>${esc(d.advised)}</td><td>${d.true > 0 ? "+" : ""}${d.true.toFixed(1)}</td>` +
    `<td>${d.with_count ? "with the count" : ""}</td></tr>`).join("");
  const unchecked = s.not_checked.map((why) => `<p class="muted">${esc(why)}</p>`).join("");
  return `<section class="panel"><h2>${esc(s.player ? "Player " + s.player : s.label)}</h2>` +
    `<p>Flagged for: ${reasonsHtml(f.reasons)}; suspicion ${sure(f.suspicion)}</p>` +
    `<p>Ratings: ${s.ratings.map((r) => `#${r}`).join(", ") || "none (an unrated seat)"}; seats: ` +
    `${s.seats.map((x) => `<a href="/table/${encodeURIComponent(x.table)}">${esc(x.table)}</a> seat ${x.seat}`).join(", ")}</p></section>` +
    `<section class="panel"><h2>Bets against the count</h2>${plotSvg(f.plot)}` +
    `<p id="bet-figures">${f.hands} hands; correlation ${f.correlation.toFixed(2)} (sure it rises: ${sure(f.bet_confidence)}); ` +
    `bets ${f.smallest_bet === null ? "-" : money(f.smallest_bet)} to ${f.largest_bet === null ? "-" : money(f.largest_bet)}` +
    ` (spread ${f.spread === null ? "-" : f.spread + "x"}; ramp ${f.ramp === null ? "-" : f.ramp + "x"}); ` +
    `average at +2 or more ` +
    `${f.average_bet_high === null ? "-" : money(f.average_bet_high)}, at 0 or less ${f.average_bet_low === null ? "-" : money(f.average_bet_low)}</p>` +
    `<p>Sat out and came back ${f.entries} times, ${f.high_entries} at +${s.settings.wong_count} or more; ` +
    `${f.high_hands} of ${f.hands} hands played there, where the table deals ${percent(f.high_share)} ` +
    `(sure it is wonging: ${sure(f.wong_confidence)})</p></section>` +
    `<section class="panel"><h2>Basic strategy</h2><p id="play-figures">${f.decisions} decisions, ${percent(f.accuracy)} as basic strategy; ` +
    `${f.deviations} deviations, ${f.count_plays} with the count (sure: ${sure(f.play_confidence)}); insurance taken ${f.insurance} times</p>` +
    `${unchecked}<table class="ratings"><thead><tr><th>Hand</th><th>Seat</th><th>Took</th><th>Strategy</th>` +
    `<th>True count</th><th></th></tr></thead><tbody>${deviations}</tbody></table></section>`;
}

let protectionDue = null;
let asked = 0;   // the newest ask: an answer to an older one (the page changed since) is let go

async function showProtection() {
  clearTimeout(protectionDue);
  protectionDue = null;
  const ask = ++asked;
  const url = subjectId ? `/api/protection/subject?id=${encodeURIComponent(subjectId)}` : listUrl();
  const reply = await fetch(url);
  const failed = reply.ok ? null : await reply.text();
  const data = reply.ok ? await reply.json() : null;
  if (ask !== asked) return;
  if (failed !== null) {
    const back = subjectId ? "" : ' <a href="/protection">The whole list</a>';
    protectionMain.innerHTML = `<section class="panel"><p id="list-refused">${esc(failed)}.${back}</p></section>`;
    return;
  }
  if (subjectId) {
    document.getElementById("name").textContent = ` › ${data.player ? "player " + data.player : data.label}`;
    protectionMain.innerHTML = subjectHtml(data);
    return;
  }
  if (data.total && data.offset >= data.total) {     // the list grew shorter: its last page
    listed.offset = String(Math.floor((data.total - 1) / ROWS) * ROWS);
    viewChanged("replace");
    return;
  }
  document.getElementById("summary").textContent = `${data.flagged} flagged of ${data.listed}`;
  if (!document.getElementById("list-rows")) listFrame();
  showList(data);
}

function soon() {
  if (protectionDue === null) protectionDue = setTimeout(showProtection, 2000);
}

window.addEventListener("popstate", () => {    // Back or Forward to another view of the list
  if (subjectId) return;
  listed = viewOf(location.search);
  typing = false;
  if (document.getElementById("list-rows")) viewTools();
  showProtection();
});
showProtection();
follow("/api/stream", {tiles: soon});
