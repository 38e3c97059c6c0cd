// The table page's rated play: rate a player at a seat (the id typed, or read by a card or barcode
// reader that types it and presses Enter), the open ratings with their figures so far, each closed with
// one touch; and the table's figures for the current shift.
"use strict";

const ratedTable = decodeURIComponent(location.pathname.split("/").pop());
const ratingPanel = document.getElementById("ratings");
ratingPanel.innerHTML = `<h2>Rated play</h2>
<form id="rate-form" class="pit-row"><label>Seat <select id="rate-seat"></select></label>
<label>Player id <input id="rate-player" autocomplete="off" maxlength="64" size="16"
 placeholder="type or swipe the card"></label>
<button type="submit" id="rate-open">Rate</button></form>
<div id="rate-answer" class="pit-answer"></div>
<table class="ratings"><thead><tr><th>Seat</th><th>Player</th><th>Since</th><th>Hands</th>
<th>Average bet</th><th>Wagered</th><th>Actual</th><th>Theo</th><th>Banked</th><th></th></tr></thead>
<tbody id="rating-rows"></tbody></table>
<h2>This shift</h2><div id="shift-figures" class="shift"></div>`;

const ratingField = (id) => document.getElementById(id);
let ratingSeats = "";

// A theoretical win in words: cents rounded, the 95% interval where an edge is simulated.
function theoText(theo) {
  if (!theo || theo.cents === null || theo.cents === undefined) return "unknown";
  const interval = theo.interval
    ? ` <span class="interval">(${money(Math.round(theo.interval[0]))} to ${money(Math.round(theo.interval[1]))})</span>` : "";
  return `${money(Math.round(theo.cents))}${interval}`;
}

function minutes(seconds) {
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)} h ${Math.floor(seconds % 3600 / 60)} min`
    : `${Math.floor(seconds / 60)} min`;
}

function ratingRow(rating) {
  const f = rating.figures;
  const spots = Object.entries(f.spots).map(([spot, s]) =>
    `<div class="spot">${esc(spot)}: ${s.hands} × avg ${money(s.average_bet || 0)}</div>`).join("");
  return `<tr data-rating="${rating.id}" data-seat="${rating.seat}" data-player="${esc(rating.player)}"` +
    ` data-hands="${f.hands}" data-wagered="${f.wagered}" data-actual="${f.actual}"` +
    ` data-theo="${f.theo.cents ?? ""}" data-interval="${f.theo.interval ? f.theo.interval.join(" ") : ""}"` +
    ` data-banked="${f.banked}" data-bank-result="${f.bank_result}">` +
    `<td>${rating.seat}</td><td>${esc(rating.player)}</td>` +
    `<td>${clock(rating.opened)} (${minutes(f.seconds)}) by ${esc(rating.opened_by)}</td>` +
    `<td>${f.hands}</td><td>${f.average_bet === null ? "-" : money(f.average_bet)}${spots}</td>` +
    `<td>${money(f.wagered)}</td><td>${signedMoney(f.actual)}</td><td>${theoText(f.theo)}</td>` +
    `<td>${f.banked ? `${f.banked} (bank ${signedMoney(f.bank_result)})` : "-"}</td>` +
    `<td><button type="button" class="rate-close" data-rating="${rating.id}">Close</button></td></tr>`;
}

function shiftHtml(shift) {
  if (!shift) return "<p>Shift figures need the recorder's database (serve --db).</p>";
  const parts = [`${shift.hands} hands`,
    `${shift.hands_per_hour === null ? "-" : shift.hands_per_hour} hands/h`,
    `wagered ${money(shift.wagered)}`, `house result ${signedMoney(shift.house_result)}`,
    `theo ${theoText(shift.theo)}`];
  if (shift.rake) parts.push(`rake ${money(shift.rake)}`);
  if (shift.banked) parts.push(`bank result ${signedMoney(shift.bank_result)} (${shift.banked} hands banked)`);
  return `<p><b>${esc(shift.shift || "")}</b></p><p>${parts.join(" &middot; ")}</p>`;
}

// The table's page detail: the seats to rate at, the open ratings, the shift.
function ratingsSee(view) {
  const seats = (view.state.seats || []).map((s) => s.seat);
  const key = seats.join(",");
  if (key !== ratingSeats) {
    const select = ratingField("rate-seat");
    const chosen = select.value;
    select.innerHTML = seats.map((n) => `<option value="${n}">${n}</option>`).join("");
    if (seats.includes(Number(chosen))) select.value = chosen;
    ratingSeats = key;
  }
  ratingPanel.dataset.enabled = String(view.ratings !== null && view.ratings !== undefined);
  const rows = (view.ratings || []).map(ratingRow).join("");
  const body = ratingField("rating-rows");
  if (body.drawn !== rows) { body.innerHTML = rows; body.drawn = rows; }
  const shift = shiftHtml(view.shift);
  const figures = ratingField("shift-figures");
  if (figures.drawn !== shift) { figures.innerHTML = shift; figures.drawn = shift; }
}

async function ratingPost(url, body) {
  const who = whoInput.value.trim();
  const reply = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({...body, who})});
  const answer = ratingField("rate-answer");
  if (reply.ok) return reply.json();
  answer.textContent = `Refused: ${await reply.text()}`;
  answer.dataset.ok = "false";
  return null;
}

ratingField("rate-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = ratingField("rate-player");
  const player = input.value.trim();
  const seat = Number(ratingField("rate-seat").value);
  if (!player) { input.focus(); return; }
  const done = await ratingPost(`/api/tables/${encodeURIComponent(ratedTable)}/ratings`, {seat, player});
  if (done) {
    input.value = "";
    const answer = ratingField("rate-answer");
    answer.dataset.ok = "true";
    answer.textContent = `Rating ${done.rating.id}: ${done.rating.player} at seat ${done.rating.seat}` +
      (done.replaced ? ` (rating of ${done.replaced.player} closed)` : "");
  }
});

ratingPanel.addEventListener("click", async (event) => {
  const button = event.target.closest("button.rate-close");
  if (!button) return;
  button.disabled = true;
  const done = await ratingPost(`/api/ratings/${button.dataset.rating}/close`, {});
  if (done) {
    const answer = ratingField("rate-answer");
    answer.dataset.ok = "true";
    answer.textContent = `Rating ${done.rating.id} of ${done.rating.player} closed`;
  } else {
    button.disabled = false;
  }
});
