// One table in detail: seats, stacks, wagers, cards, pots, results, the last hands step by step.
"use strict";

const name = decodeURIComponent(location.pathname.split("/").pop());
const detail = document.getElementById("detail");
const pastBox = document.getElementById("history");   // the last hands and the table's events, below
document.getElementById("name").textContent = name;
document.title = `Pit monitor: ${name}`;

function handHtml(hand, several) {
  const total = hand.total ? `<span class="total">${esc(hand.total)}</span>` : "";
  const status = hand.status ? `<span class="status">${esc(hand.status)}</span>` : "";
  const wager = several && hand.wager !== null && hand.wager !== undefined
    ? `<span class="bet closed">${money(hand.wager)}</span>` : "";
  return `<div class="hand-cards">${cardsHtml(hand.cards)}${total}${wager}${status}</div>`;
}

function seatHtml(seat, view) {
  const state = view.state;
  const bets = Object.entries(seat.bets).map(([spot, amount]) =>
    `<span class="bet" data-spot="${esc(spot)}">${esc(spot)} ${money(amount)}</span>`).join("");
  const inPlay = view.wagers_list.filter((w) => w.seat === seat.seat).map((w) =>
    `<span class="bet closed">${esc(w.spot)} ${money(w.amount)}</span>`).join("");
  const hands = (seat.hands || []).filter((h) => h.cards.length || h.status);
  const several = hands.length > 1;
  const stack = seat.stack !== null && seat.stack !== undefined
    ? `<div class="stack">stack ${money(seat.stack)}</div>` : "";
  const dealer = state.dealer.seat === seat.seat;
  const button = !dealer && state.dealer.seat === null && state.session.button === seat.seat;
  const badge = dealer ? '<span class="badge dealer-badge" title="player-dealer">DEALER</span>'
    : button ? '<span class="badge button-badge" title="the button">BUTTON</span>' : "";
  const place = (view.tournament && view.tournament.places || []).find((p) => p.seat === seat.seat);
  const out = place ? `<div class="place">out, place ${place.place}</div>` : "";
  const results = (state.results || []).filter((r) => r.seat === seat.seat);
  // A spot wagered on several hands (a split) numbers each from 1: "hand N" is hand_index N-1.
  const split = new Set(results.filter((r) => r.hand_index > 0).map((r) => r.spot));
  const mine = results.map((r) =>
    `<div class="result ${r.payout > 0 ? "win" : r.payout < 0 ? "lose" : "push"}">${esc(r.spot)}` +
    `${split.has(r.spot) ? " hand " + (r.hand_index + 1) : ""} ${esc(r.outcome)}` +
    `${r.label ? " (" + esc(r.label) + ")" : ""} ${signedMoney(r.payout)}</div>`).join("");
  const closed = view.wagers_list.filter((w) => w.seat === seat.seat).reduce((n, w) => n + w.amount, 0);
  const riding = (view.seats.find((s) => s.seat === seat.seat) || {}).wager || 0;
  const playing = view.hand !== null && riding > closed  // raised, called, split, put into the pots
    ? `<div class="riding">in play ${money(riding)}</div>` : "";
  const busy = bets || inPlay || hands.length || stack || dealer ? "" : " idle";
  const turn = seat.in_turn ? " in-turn" : "";
  return `<div class="seat-box${busy}${turn}${dealer ? " dealer-seat" : ""}" data-seat="${seat.seat}">` +
    `<h3>Seat ${seat.seat} ${badge}</h3><div class="bets">${inPlay || bets}</div>${playing}${stack}${out}` +
    `${hands.map((h) => handHtml(h, several)).join("")}${mine}</div>`;
}

function potsHtml(view) {
  const pots = view.state.pots || [];
  if (!pots.length) return "";
  const list = pots.map((p, i) =>
    `<li data-pot="${i}">pot ${i + 1}: ${money(p.amount)} (seats ${(p.seats || []).join(", ")})</li>`).join("");
  const rake = view.rake ? `<p>rake due ${money(view.rake)}</p>` : "";
  return `<section class="panel pots"><h2>Pots</h2><ul>${list}</ul>${rake}</section>`;
}

function sessionHtml(view) {
  const parts = [];
  const t = view.tournament;
  if (t) {
    if (t.level) {
      parts.push(`<span class="level">level ${t.level}: blinds ${esc(t.blinds_text)}` +
        `${t.ends_at ? ", until " + clock(t.ends_at) : ""}</span>`);
    }
    if (t.winner !== null) parts.push(`<span class="winner">seat ${t.winner} won the tournament</span>`);
  }
  if (view.dealer_seat !== null) {
    parts.push(`<span>seat ${view.dealer_seat} deals</span>`);
  } else if (view.button !== null) {
    parts.push(`<span>button at seat ${view.button}</span>`);
  }
  return parts.length ? `<div class="session">${parts.join(" &middot; ")}</div>` : "";
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

function dealerHtml(state) {
  const dealer = state.dealer;
  if (!dealer.cards.length && dealer.seat === null) return "";
  const who = dealer.seat !== null ? `Dealer: seat ${dealer.seat}` : "Dealer";
  return `<div class="dealer"><h3>${who}</h3>${cardsHtml(dealer.cards)}` +
    (dealer.total ? `<span class="total">${esc(dealer.total)}</span>` : "") + `</div>`;
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
  detail.dataset.stale = view.stale;
  document.getElementById("summary").innerHTML =
    `${esc(view.game || "")} &middot; ${hand} &middot; ${esc(view.phase || "")} &middot; ` +
    `in play ${money(view.wagers)} ${linkHtml(view.link)}`;
  const html =
    `<section class="panel table-info"><div>${devicesHtml(state.devices)}</div><div>${shoe}${limits}</div>` +
    sessionHtml(view) +
    (view.link.state !== "live" && view.link.reason ? `<div class="reason">${esc(view.link.reason)}</div>` : "") +
    `</section>` + progressive +
    `<section class="panel felt">${dealerHtml(state)}` +
    `<div class="seat-row">${state.seats.map((s) => seatHtml(s, view)).join("")}</div></section>` +
    potsHtml(view) +
    `<section class="panel"><h2>Last result</h2>${resultHtml(view.last_result)}</section>` +
    `<section class="panel"><h2>Alerts</h2>${alerts}${acked}</section>`;
  const past =
    `<section class="panel"><h2>Last hands, step by step</h2>${handsHtml(view.hands)}</section>` +
    `<section class="panel"><h2>Table</h2><ol class="table-log">${view.table_log.map((s) =>
      `<li><span class="seq">${s.seq}</span> <span class="time">${clock(s.ts)}</span> ${esc(s.text)}</li>`).join("")}</ol></section>`;
  if (detail.drawn !== html) {           // an unchanged view keeps its elements (and the acks' clicks)
    detail.innerHTML = html;
    detail.drawn = html;
  }
  if (pastBox.drawn !== past) {
    pastBox.innerHTML = past;
    pastBox.drawn = past;
  }
}

follow(`/api/stream?table=${encodeURIComponent(name)}`, {detail: (view) => { show(view); ratingsSee(view); pitPanelSees(view); }});
