// The table page's pit actions: close or open the table, set its limits, a message to its dealer,
// sign the opener or the closer and enter the drop (the table's books, drawn here too),
// each as a supervisor (id and PIN), confirmed first, carried out by the table; its answer shown as
// it words it, and the record of the actions tried on this table. The PIN is cleared once sent.
"use strict";

const pitTable = decodeURIComponent(location.pathname.split("/").pop());
const pitPanel = document.getElementById("pit-actions");
pitPanel.innerHTML = `<h2>Pit actions</h2>
<div id="pit-now" class="pit-now"></div>
<div id="pit-refusal" class="reason" hidden></div>
<div class="pit-row"><label>Supervisor <input id="supervisor" autocomplete="off" size="8"></label>
<label>PIN <input id="pin" type="password" autocomplete="off" inputmode="numeric" size="8"></label></div>
<div class="pit-row"><button type="button" data-cmd="close_table">Close the table</button>
<button type="button" data-cmd="open_table">Open the table</button></div>
<div class="pit-row"><label>Minimum $<input id="min-bet" inputmode="decimal" size="8"></label>
<label>Maximum $<input id="max-bet" inputmode="decimal" size="8"></label>
<button type="button" data-cmd="set_limits">Set the limits</button></div>
<div class="pit-row"><input id="dealer-text" maxlength="200" size="40" placeholder="a message to the dealer">
<button type="button" data-cmd="dealer_message">Send to the dealer</button></div>
<h3>The table's books</h3><div id="books-now" class="books-now"></div>
<div class="pit-row"><button type="button" data-cmd="sign_slip" data-slip="opener">Sign the opener</button>
<button type="button" data-cmd="sign_slip" data-slip="closer">Sign the closer</button></div>
<div class="pit-row"><label>Drop $<input id="drop" inputmode="decimal" size="10"></label>
<button type="button" data-cmd="enter_drop">Enter the drop</button></div>
<div id="pit-confirm" class="pit-confirm" hidden><span id="pit-confirm-text"></span>
<button type="button" id="pit-yes">Confirm</button> <button type="button" id="pit-no">Cancel</button></div>
<div id="pit-answer" class="pit-answer"></div>
<h3>Actions on this table</h3><ol id="pit-record" class="pit-record"></ol>`;

const pitField = (id) => document.getElementById(id);
const prefilled = {"min-bet": null, "max-bet": null};
let pitPending = null;     // the order waiting for its confirmation (with the PIN)
let pitSeen = null;        // the table's pit-side state last drawn
let pitLast = null;        // {key, id}: the request id of the last order not yet done, for its retries

// One request id per person's action, the same when the same order is sent again after no answer,
// so the table carries it out once (docs/control.md, "Request ids"); another order gets a new one.
function withRequestId(body) {
  const {pin, ...shown} = body;
  const key = JSON.stringify(shown);
  if (!pitLast || pitLast.key !== key) {
    const bytes = new Uint8Array(12);
    crypto.getRandomValues(bytes);
    pitLast = {key, id: Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")};
  }
  return {...body, request_id: pitLast.id};
}

// Dollars typed ("25", "25.50", "$1,000") as cents; null if it is not an amount.
function centsOf(text) {
  const found = /^\s*\$?(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(String(text).replace(/,/g, ""));
  return found ? Number(found[1]) * 100 + Number((found[2] || "0").padEnd(2, "0")) : null;
}

// A limit field shows the table's limit when the page opens and when the limit changes, unless
// something else was typed in it.
function prefill(id, cents) {
  const input = pitField(id);
  const text = (cents / 100).toFixed(2);
  if (text === prefilled[id]) return;
  if (input.value === (prefilled[id] ?? "")) input.value = text;
  prefilled[id] = text;
}

// The table's picture: what the pit set (closed, limits, a message waiting) and the limits to start from.
function pitPanelSees(view) {
  const state = view.state || {};
  const limits = view.limits;
  if (limits) {
    prefill("min-bet", limits.min_bet);
    prefill("max-bet", limits.max_bet);
  }
  const words = [state.closed ? "<b class=\"closed-badge\">CLOSED by the pit</b>" : "open"];
  if (limits) words.push(`limits ${money(limits.min_bet)} &ndash; ${money(limits.max_bet)}`);
  if (state.message) words.push(`message waiting for the dealer: &ldquo;${esc(state.message)}&rdquo;`);
  const now = pitField("pit-now");
  now.dataset.closed = String(Boolean(state.closed));
  now.innerHTML = words.join(" &middot; ");
  const books = booksHtml(view.books, view.shift, (state.books || {}).unsigned);
  const shownBooks = pitField("books-now");
  if (shownBooks.drawn !== books) { shownBooks.innerHTML = books; shownBooks.drawn = books; }
  const seen = JSON.stringify([state.closed, limits, state.message, state.books]);
  if (pitSeen !== null && seen !== pitSeen) loadPitRecord();   // an action took effect
  pitSeen = seen;
}

// The table's books: the dealer signed in, each dealer's figures here, the last count (its slips,
// who signed them, the drop, the count room's win and hold) beside the shift's theo.
function booksHtml(books, shift, slips) {
  if (!books) return "";
  const dealer = books.dealer ? `dealer <b>${esc(books.dealer)}</b> signed in` : "no dealer signed in";
  const waiting = Object.keys(slips || {}).map((slip) => `the ${slip} waits for a supervisor's signature`);
  const dealers = books.dealers.map((d) => `<li data-dealer="${esc(d.dealer)}">${esc(d.dealer)}: ${d.hands} hands` +
    `${d.hands_per_hour === null ? "" : ` (${d.hands_per_hour}/h)`}, ${d.voids} voids, ` +
    `${d.payout_mismatches} payout mismatches, ${Math.round(d.seconds / 60)} min at the table</li>`).join("");
  const c = books.count;
  let count = "<p>No opener yet.</p>";
  if (c) {
    const signed = (who) => who ? `signed ${esc(who)}` : "not signed by a supervisor";
    const parts = [`opener ${money(c.opener)} (${esc(c.opener_dealer)}, ${signed(c.opener_signed_by)})`,
      `fills ${money(c.fills)}`, `credits ${money(c.credits)}`,
      c.closer === null ? "no closer yet" : `closer ${money(c.closer)} (${esc(c.closer_dealer)}, ${signed(c.closer_signed_by)})`];
    const slips = [["opener", c.opener_chips, c.opener], ["closer", c.closer_chips, c.closer]]
      .filter(([, chips]) => chips).map(([slip, chips, total]) => slipHtml(slip, chips, total)).join("");
    if (c.closer !== null) parts.push(c.drop === null ? "no drop yet" : `drop ${money(c.drop)}`);
    if (c.win !== null) parts.push(`<b>win ${signedMoney(c.win)}</b>, hold ${c.hold_percent === null ? "-" : `${c.hold_percent} %`}`);
    if (shift) parts.push(`shift theo ${shift.theo.cents === null ? "unknown" : money(Math.round(shift.theo.cents))}`);
    count = `<p class="count" data-win="${c.win ?? ""}" data-hold="${c.hold_percent ?? ""}">${parts.join(" &middot; ")}</p>${slips}`;
  }
  return `<p>${[dealer, ...waiting].join(" &middot; ")}</p>${count}<ul class="dealers">${dealers}</ul>`;
}

// A slip by denomination, as the table inventory slip lists it: each chip value, its count and its
// amount, the highest value first, and the total.
function slipHtml(slip, chips, total) {
  const rows = [...chips].reverse().map((c) => `<tr data-value="${c.value}"><td>${money(c.value)}</td>` +
    `<td class="n">${c.count}</td><td class="n">${money(c.amount)}</td></tr>`).join("");
  return `<table class="slip" data-slip="${slip}"><caption>The ${slip} by denomination</caption>` +
    `<tr><th>chip</th><th>count</th><th>amount</th></tr>${rows}` +
    `<tr class="total"><th>total</th><td></td><td class="n">${money(total)}</td></tr></table>`;
}

// The order a button asks for, with the words to confirm it; or a string saying what is missing.
function pitOrder(cmd, button) {
  const supervisor = pitField("supervisor").value.trim();
  const pin = pitField("pin").value;
  if (!supervisor) return "type the supervisor's id";
  if (!pin) return "type the supervisor's PIN";
  const as = ` as supervisor ${supervisor}?`;
  const body = {cmd, supervisor, pin};
  if (cmd === "close_table") return {body, words: `Close ${pitTable}${as}`};
  if (cmd === "open_table") return {body, words: `Open ${pitTable}${as}`};
  if (cmd === "sign_slip") {
    body.slip = button.dataset.slip;
    return {body, words: `Sign ${pitTable}'s ${body.slip}${as}`};
  }
  if (cmd === "enter_drop") {
    body.amount = centsOf(pitField("drop").value);
    if (body.amount === null) return "type the drop in dollars, as 1250 or 1250.00";
    return {body, words: `Enter ${pitTable}'s drop of ${money(body.amount)}${as}`};
  }
  if (cmd === "set_limits") {
    body.min_bet = centsOf(pitField("min-bet").value);
    body.max_bet = centsOf(pitField("max-bet").value);
    if (body.min_bet === null || body.max_bet === null) return "type the limits in dollars, as 25 or 25.00";
    return {body, words: `Set ${pitTable}'s limits to ${money(body.min_bet)} – ${money(body.max_bet)}${as}`};
  }
  body.text = pitField("dealer-text").value.trim();
  if (!body.text) return "type the message to the dealer";
  return {body, words: `Send ${pitTable}'s dealer “${body.text}”${as}`};
}

function pitAnswer(ok, text) {
  const answer = pitField("pit-answer");
  answer.dataset.ok = ok === null ? "" : String(ok);
  answer.textContent = text;
}

async function pitSend(body) {
  pitField("pin").value = "";
  pitAnswer(null, "sent, waiting for the table…");
  try {
    const reply = await fetch(`/api/tables/${encodeURIComponent(pitTable)}/command`, {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify(withRequestId(body))});
    if ((reply.headers.get("Content-Type") || "").startsWith("application/json")) {
      const outcome = await reply.json();
      if (outcome.ok) pitLast = null;
      pitAnswer(outcome.ok, outcome.ok ? `${pitTable} did it.` : `Refused: ${outcome.error}`);
    } else {
      pitAnswer(false, `Refused by the monitor: ${await reply.text()}`);
    }
  } catch (error) {
    pitAnswer(false, `The monitor did not answer: ${error}`);
  }
  loadPitRecord();
}

function pitRecordHtml(record) {
  const fields = record.fields || {};
  const what = record.cmd === "set_limits" ? ` ${money(fields.min_bet)} – ${money(fields.max_bet)}`
    : record.cmd === "dealer_message" ? ` “${esc(fields.text)}”`
    : record.cmd === "sign_slip" ? ` ${esc(fields.slip)}`
    : record.cmd === "enter_drop" ? ` ${money(fields.amount)}` : "";
  const outcome = record.ok ? "done" : `refused: ${esc(record.error)}`;
  return `<li data-cmd="${esc(record.cmd)}" data-ok="${record.ok}"><span class="time">${clock(record.at)}</span> ` +
    `${esc(record.who)} (supervisor ${esc(record.supervisor)}): ${esc(record.cmd.replace("_", " "))}${what}` +
    ` &mdash; ${outcome}</li>`;
}

async function loadPitRecord() {
  const reply = await fetch(`/api/actions?table=${encodeURIComponent(pitTable)}`);
  if (!reply.ok) return;
  const known = await reply.json();
  const refusal = !known.sign_in
    ? "Pit actions need a signed-in user: this monitor has no password file (start it with --password-file)."
    : !known.control.includes(pitTable)
      ? `No control socket for ${pitTable}: give it control = "tcp://HOST:PORT" in the floor file (--tables).`
      : "";
  const shown = pitField("pit-refusal");
  shown.hidden = !refusal;
  shown.textContent = refusal;
  pitPanel.querySelectorAll("button[data-cmd]").forEach((button) => { button.disabled = Boolean(refusal); });
  pitField("pit-record").innerHTML = known.actions.map(pitRecordHtml).join("") || "<li>none yet</li>";
}

pitPanel.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button) return;
  const confirm = pitField("pit-confirm");
  if (button.dataset.cmd) {
    const order = pitOrder(button.dataset.cmd, button);
    if (typeof order === "string") {
      pitAnswer(false, order);
      return;
    }
    pitPending = order.body;
    pitField("pit-confirm-text").textContent = order.words;
    confirm.hidden = false;
  } else if (button.id === "pit-yes" && pitPending) {
    const body = pitPending;
    pitPending = null;
    confirm.hidden = true;
    pitSend(body);
  } else if (button.id === "pit-no") {
    pitPending = null;
    confirm.hidden = true;
  }
});

loadPitRecord();
