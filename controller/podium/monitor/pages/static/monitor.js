// Shared by the floor and the table pages: money, cards, alerts, the event stream, acknowledgements.
"use strict";

const SUITS = {c: "\u2663", d: "\u2666", h: "\u2665", s: "\u2660"};

function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;",
    '"': "&quot;", "'": "&#39;"}[c]));
}

function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents || 0);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

function signedMoney(cents) {
  return (cents > 0 ? "+" : "") + money(cents);
}

function clock(ts) {
  if (!ts) return "";
  const when = new Date(ts);
  return isNaN(when) ? esc(ts) : when.toLocaleTimeString("en-GB");
}

function cardHtml(card) {
  if (card === null || card === undefined) {
    return '<span class="card back" title="face down"></span>';
  }
  const rank = card[0] === "T" ? "10" : card[0];
  const suit = card[1];
  const red = suit === "h" || suit === "d" ? " red" : "";
  return `<span class="card${red}" data-card="${esc(card)}" title="${esc(card)}">` +
    `${esc(rank)}<small>${SUITS[suit] || esc(suit)}</small></span>`;
}

function cardsHtml(cards) {
  return `<span class="cards">${(cards || []).map(cardHtml).join("")}</span>`;
}

function alertHtml(alert) {
  const where = alert.concerns ? `<span class="where">${esc(alert.concerns)}</span>` : "";
  const hand = alert.hand !== null && alert.hand !== undefined ? ` hand ${alert.hand}` : "";
  const ack = alert.acked_by
    ? `<span class="acked">acknowledged by ${esc(alert.acked_by)} at ${clock(alert.acked_at)}</span>`
    : `<button class="ack" data-key="${esc(alert.key)}">Acknowledge</button>`;
  return `<li class="alert ${esc(alert.severity)}" data-key="${esc(alert.key)}" data-code="${esc(alert.code)}">` +
    `<span class="severity">${esc(alert.severity)}</span> <b class="code">${esc(alert.code)}</b> ${where}` +
    `<div class="message">${esc(alert.message)}</div>` +
    (alert.todo ? `<div class="todo">dealer: ${esc(alert.todo)}</div>` : "") +
    `<div class="meta">seq ${alert.seq}${hand} ${clock(alert.ts)} ${ack}</div></li>`;
}

const whoInput = document.getElementById("who");
whoInput.value = localStorage.getItem("pit-monitor-who") || "";
whoInput.addEventListener("change", () => localStorage.setItem("pit-monitor-who", whoInput.value.trim()));

async function acknowledge(key, button) {
  const who = whoInput.value.trim();
  if (!who) {
    whoInput.focus();
    whoInput.classList.add("wanted");
    return;
  }
  whoInput.classList.remove("wanted");
  localStorage.setItem("pit-monitor-who", who);
  button.disabled = true;
  const reply = await fetch("/api/ack", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({key, who})});
  if (!reply.ok) {
    button.disabled = false;
    button.textContent = "Failed: " + (await reply.text());
  }
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button.ack");
  if (button) acknowledge(button.dataset.key, button);
});

// The event stream: the server pushes every change; EventSource reconnects by itself. A page left
// (for another page of the monitor) closes its stream, or the browser may keep it open while the
// page waits in its back-forward cache, and a browser opens only six connections to one server;
// the page shown again opens a new one (and is sent a whole picture).
function follow(url, handlers) {
  const status = document.getElementById("stream");
  let source = null;
  const open = () => {
    source = new EventSource(url);
    source.onopen = () => { status.dataset.state = "live"; status.textContent = "live"; };
    source.onerror = () => { status.dataset.state = "lost"; status.textContent = "reconnecting"; };
    for (const [name, handler] of Object.entries(handlers)) {
      source.addEventListener(name, (event) => handler(JSON.parse(event.data)));
    }
  };
  open();
  window.addEventListener("pagehide", () => source.close());
  window.addEventListener("pageshow", (event) => { if (event.persisted) open(); });
}

function linkHtml(link) {
  const words = {live: "live", silent: "SILENT", error: "ERROR", connecting: "connecting"}[link.state] || link.state;
  const reason = link.reason ? ` title="${esc(link.reason)}"` : "";
  return `<span class="link ${esc(link.state)}"${reason}>${esc(words)}</span>`;
}

function resultHtml(result) {
  if (!result) return '<div class="last-result none">no hand settled yet</div>';
  if (result.voided !== null && result.voided !== undefined) {
    return `<div class="last-result">hand ${result.hand}: voided (${esc(result.voided)})</div>`;
  }
  const bank = result.bank;
  const who = bank ? `seat ${bank.seat} (dealing)` : "house";
  const net = bank ? bank.net : result.house;
  const side = net > 0 ? `${who} wins` : net < 0 ? `${who} pays` : "even";
  return `<div class="last-result">hand ${result.hand}: ${side} ${money(Math.abs(net))}` +
    `<div class="results">${result.results.map(esc).join("<br>")}</div></div>`;
}

function metersHtml(meters) {
  const names = Object.keys(meters || {});
  if (!names.length) return "";
  return `<div class="meters">${names.map((name) =>
    `<span class="meter" data-meter="${esc(name)}">${esc(name)} <b>${money(meters[name])}</b></span>`).join("")}</div>`;
}
