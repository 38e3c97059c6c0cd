// One table in detail: seats, stacks, wagers, cards, pots, results, the last hands step by step.
"use strict";

const name = decodeURIComponent(location.pathname.split("/").pop());
const detail = document.getElementById("detail");
document.getElementById("name").textContent = name;
document.title = `Pit monitor: ${name}`;

function seatHtml(seat, results, wagers) {
  const bets = Object.entries(seat.bets).map(([spot, amount]) =>
    `<span class="bet" data-spot="${esc(spot)}">${esc(spot)} ${money(amount)}</span>`).join("");
  const inPlay = wagers.filter((w) => w.seat === seat.seat).map((w) =>
    `<span class="bet closed">${esc(w.spot)} ${money(w.amount)}</span>`).join("");
  const hands = (seat.hands && seat.hands.length ? seat.hands : [seat.cards]).filter((h) => h.length);
  const cards = hands.map(cardsHtml).join("");
  const total = seat.total ? `<span class="total">${esc(seat.total)}</span>` : "";
  const stack = seat.stack !== null && seat.stack !== undefined
    ? `<div class="stack">stack ${money(seat.stack)}</div>` : "";
  const mine = (results || []).filter((r) => r.seat === seat.seat).map((r) =>
    `<div class="result ${r.payout > 0 ? "win" : r.payout < 0 ? "lose" : "push"}">${esc(r.spot)} ` +
    `${esc(r.outcome)} ${signedMoney(r.payout)}</div>`).join("");
  const busy = bets || inPlay || cards ? "" : " idle";
  return `<div class="seat-box${busy}" data-seat="${seat.seat}"><h3>Seat ${seat.seat}</h3>` +
    `<div class="bets">${inPlay || bets}</div>${stack}<div class="hand-cards">${cards}${total}</div>${mine}</div>`;
}

function potsHtml(pots) {
  if (!pots) return "";
  const list = (pots.pots || []).map((p, i) =>
    `<li>pot ${i + 1}: ${money(p.amount)} (seats ${(p.seats || p.eligible || []).join(", ")})</li>`).join("");
  return `<section class="panel"><h2>Pots</h2><ul>${list}</ul>` +
    (pots.rake !== null && pots.rake !== undefined ? `<p>rake ${money(pots.rake)}</p>` : "") + "</section>";
}

function handsHtml(hands) {
  if (!hands.length) return "<p>No hand yet.</p>";
  return hands.map((hand) => {
    const steps = hand.steps.map((s) =>
      `<li data-seq="${s.seq}"><span class="seq">${s.seq}</span> <span class="time">${clock(s.ts)}</span> ${esc(s.text)}</li>`).join("");
    const end = hand.voided !== null ? ` &mdash; voided` : hand.result ? ` &mdash; ${hand.result.map(esc).join("; ")}` : "";
    return `<details class="hand-log" data-hand="${hand.hand}"${hand === hands[0] ? " open" : ""}>` +
      `<summary>Hand ${hand.hand}${end}</summary><ol>${steps}</ol></details>`;
  }).join("");
}

function devicesHtml(devices) {
  return Object.entries(devices || {}).map(([device, d]) =>
    `<span class="device ${d.online ? "online" : "offline"}">${esc(device)}: ` +
    `${d.online ? "online" : "offline" + (d.reason ? " (" + esc(d.reason) + ")" : "")}</span>`).join(" ");
}

function show(view) {
  const state = view.state;
  const hand = view.hand !== null ? `hand ${view.hand}` : "between hands";
  const limits = view.limits ? ` &middot; limits ${money(view.limits.min_bet)} &ndash; ${money(view.limits.max_bet)}` : "";
  const shoe = state.shoe && state.shoe.shoe_id !== undefined
    ? `shoe ${esc(state.shoe.shoe_id ?? "none")}, ${state.shoe.cards_drawn ?? 0} cards drawn` +
      (state.shoe.cut_card_out ? ", cut card out" : "") : "";
  const alerts = view.alerts.length ? `<ul class="alerts">${view.alerts.map(alertHtml).join("")}</ul>` : "<p>None open.</p>";
  const acked = view.acknowledged.length ? `<ul class="alerts acked-list">${view.acknowledged.map(alertHtml).join("")}</ul>` : "";
  const progressive = Object.keys(view.meters || {}).length
    ? `<section class="panel progressive"><h2>Meters</h2>${metersHtml(view.meters)}</section>` : "";
  detail.dataset.link = view.link.state;
  detail.dataset.seq = view.seq;
  document.getElementById("summary").innerHTML =
    `${esc(view.game || "")} &middot; ${hand} &middot; ${esc(view.phase || "")} &middot; ` +
    `in play ${money(view.wagers)} ${linkHtml(view.link)}`;
  detail.innerHTML =
    `<section class="panel table-info"><div>${devicesHtml(state.devices)}</div><div>${shoe}${limits}</div>` +
    (view.link.state !== "live" && view.link.reason ? `<div class="reason">${esc(view.link.reason)}</div>` : "") +
    `</section>` + progressive +
    `<section class="panel felt"><div class="dealer"><h3>Dealer</h3>${cardsHtml(state.dealer.cards)}` +
    (state.dealer.total ? `<span class="total">${esc(state.dealer.total)}</span>` : "") + `</div>` +
    `<div class="seat-row">${state.seats.map((s) => seatHtml(s, state.results, view.wagers_list)).join("")}</div></section>` +
    potsHtml(view.pots) +
    `<section class="panel"><h2>Last result</h2>${resultHtml(view.last_result)}</section>` +
    `<section class="panel"><h2>Alerts</h2>${alerts}${acked}</section>` +
    `<section class="panel"><h2>Last hands, step by step</h2>${handsHtml(view.hands)}</section>` +
    `<section class="panel"><h2>Table</h2><ol class="table-log">${view.table_log.map((s) =>
      `<li><span class="seq">${s.seq}</span> <span class="time">${clock(s.ts)}</span> ${esc(s.text)}</li>`).join("")}</ol></section>`;
}

follow(`/api/stream?table=${encodeURIComponent(name)}`, {detail: show});
