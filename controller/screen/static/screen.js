// The dealer's screen: draws the table's picture as the server sends it, and sends the touches.
// It knows no game: seats, spots, cards, actions and commands are whatever the picture holds.
"use strict";

const SUITS = {s: "♠", h: "♥", d: "♦", c: "♣"};
const RED = new Set(["h", "d"]);
const FEW = 12;             // an amount range this small is offered as one button per value
let model = null;           // the last model drawn
let busy = false;           // a touch is on its way to the table

function words(name) {
  return String(name).replace(/_/g, " ");
}

function card(code) {
  if (code === null || code === undefined) return el("span", {class: "card back", "data-card": "down"});
  const rank = code.slice(0, -1).replace("T", "10");
  const suit = code.slice(-1);
  return el("span", {class: `card${RED.has(suit) ? " red" : ""}`, "data-card": code},
            el("b", {text: rank}), el("i", {text: SUITS[suit] || suit}));
}

function hand(h, index, count) {
  const box = el("div", {class: "hand", "data-hand": index});
  const cards = el("div", {class: "cards"});
  for (const c of h.cards) cards.append(card(c));
  box.append(cards);
  const line = [];
  if (count > 1) line.push(`hand ${index + 1}`);
  if (h.total !== null && h.total !== undefined) line.push(h.total);
  if (h.wager) line.push(money(h.wager));
  if (h.status) line.push(h.status);
  box.append(el("div", {class: "total", text: line.join(" · ")}));
  return box;
}

function drawTop(p) {
  document.getElementById("table-name").textContent = `${p.table} · ${words(p.game)}`;
  document.getElementById("hand-no").textContent = p.hand !== null ? `Hand ${p.hand}` : `Hand ${p.next_hand} next`;
  document.getElementById("phase").textContent = words(p.phase);
  const devices = document.getElementById("devices");
  devices.replaceChildren();
  for (const [name, d] of Object.entries(p.devices || {})) {
    const flags = (p.device_status || {})[name] || [];
    const bad = !d.online || flags.length;
    devices.append(el("span", {class: `device${bad ? " bad" : ""}`, "data-device": name, role: "status",
                               text: `${name}: ${d.online ? (flags.join(", ") || "ok") : "offline"}`}));
  }
}

function drawBanners(list) {
  const box = document.getElementById("banners");
  box.replaceChildren();
  for (const b of list) {
    const banner = el("div", {class: `banner ${b.severity}`, "data-key": b.key, "data-severity": b.severity},
                      el("div", {class: "todo", text: b.todo}),
                      b.message ? el("div", {class: "message", text: b.message}) : null);
    if (b.dismissable) {
      const done = el("button", {type: "button", class: `done${b.armed ? " sure" : ""}`,
                                 text: b.armed ? "Done: sure?" : "Done"});
      done.onclick = () => dismiss(b);
      banner.append(done);
    }
    box.append(banner);
  }
}

// A banner that takes two steps is armed by the server at the first touch (every page then shows
// "Done: sure?") and dismissed by the second, sent as its confirmation.
function dismiss(banner) {
  post("/api/dismiss", banner.confirm && banner.armed ? {key: banner.key, confirm: true} : {key: banner.key});
}

function drawDealer(p) {
  const box = document.getElementById("dealer");
  box.replaceChildren();
  const d = p.dealer || {};
  if (d.cards && d.cards.length) {
    const who = d.seat ? `Seat ${d.seat} banks` : "Dealer";
    const cards = el("div", {class: "cards"});
    for (const c of d.cards) cards.append(card(c));
    box.append(el("div", {class: "who", text: who}), cards,
               el("div", {class: "total", id: "dealer-total", text: d.total !== null ? d.total : ""}));
  }
  for (const [i, pot] of (p.pots || []).entries()) {
    box.append(el("div", {class: "pot", "data-pot": i,
                          text: `${i ? "side pot" : "pot"} ${money(pot.amount)} (seats ${pot.seats.join(", ")})`}));
  }
  box.append(...tableMoves(p));
  box.hidden = !box.childElementCount;
}

function drawSeats(p, payouts) {
  const box = document.getElementById("seats");
  box.replaceChildren();
  // Once a hand is dealt, a seat with no hand, no chips read on its spots and no money to move
  // collapses (drawn, not shown): the seats in play share the panel's width and height.
  const dealt = p.seats.some((s) => s.hands.length);
  const empty = (s) => dealt && !s.hands.length
    && !Object.values((p.live || {})[String(s.seat)] || {}).some((v) => v)
    && !settlement(p, s.seat, payouts).length;
  const shown = p.seats.filter((s) => !empty(s)).length || 1;
  // Up to four seats side by side, more in two rows; a settled hand of more than two lines of money a
  // seat (boxes, moves, stack changes: Buster's main, side and progressive at six seats, Hold'em's
  // side pots) puts every seat in one row: tall, not wide, dense (a box to collect says only what to
  // take: "Collect $5.00").
  const lines = payouts.length + (p.moves || []).filter((m) => m.seat !== null).length
    + (p.stack_changes || []).length;
  const many = lines > 2 * shown;
  box.style.setProperty("--cols", shown <= 4 || many ? shown : Math.ceil(shown / 2));
  document.getElementById("felt").classList.toggle("dense", many);
  const button = (p.session || {}).button;
  for (const s of p.seats) {
    const live = (p.live || {})[String(s.seat)] || {};
    const seat = el("div", {class: `seat${s.in_turn ? " in-turn" : ""}${s.hands.length ? " dealt" : ""}`
                                   + `${empty(s) ? " empty" : ""}`, "data-seat": s.seat});
    const head = el("div", {class: "head"}, el("span", {class: "no", text: `Seat ${s.seat}`}));
    if (button === s.seat) head.append(el("span", {class: "button-mark", text: "D"}));
    if (s.stack !== undefined) head.append(el("span", {class: "stack", "data-stack": s.stack, text: money(s.stack)}));
    seat.append(head);
    const due = (p.committed || {})[String(s.seat)] || {};
    const spots = new Set([...Object.keys(s.bets), ...Object.keys(live), ...Object.keys(due)]);
    if (spots.size) {
      const list = el("div", {class: "spots"});
      for (const spot of [...spots].sort()) list.append(spotLine(p, s, spot, live[spot] || 0, due[spot]));
      seat.append(list);
    }
    s.hands.forEach((h, i) => seat.append(hand(h, i, s.hands.length)));
    seat.append(...settlement(p, s.seat, payouts));
    box.append(seat);
  }
}

// -- money at settlement: the boxes of the spots NEXT checks, the stacks, a pot game's moves ---------
// The picture's `checks` are exactly the spots the table checks at NEXT (one rule, the table's): a
// spot gets a box to pay or collect if and only if it is among them. Where the money goes to a stack
// the table keeps, the seat shows what NEXT does to its stack (`stack_changes`); a pot game's chips
// to move come in order as `moves` (numbered, so the bets are gathered before a pot is pushed).

function spotLine(p, s, spot, reads, due) {
  // A spot shows what it reads; during a hand, one that does not hold what the hand says is marked
  // (not the seat in turn's: its player is putting in the chips of the action being taken).
  const bet = s.bets[spot] || 0;
  const wrong = p.table_phase === "in_hand" && due !== undefined && reads !== due && !s.in_turn;
  return el("span", {class: `spot${wrong ? " moved" : ""}`, "data-spot": spot, "data-bet": bet, "data-live": reads,
                     text: `${words(spot)} ${money(reads)}${wrong ? ` (should hold ${money(due)})` : ""}`});
}

function payoutBox(check) {
  const done = check.payout > 0 ? "Paid ✓" : check.payout < 0 ? "Collected ✓" : "Push ✓";
  const state = {pay: `Pay ${money(check.to_pay)}`, collect: `Collect ${money(-check.to_pay)}`, paid: done,
                 short: `Short ${money(check.to_pay)}`, over: `Over ${money(-check.to_pay)}`}[check.state];
  const chips = check.chips.map(([value, count]) => `${count} × ${money(value)}`).join(" + ");
  const how = check.state === "paid" ? `reads ${money(check.read)}`
    : check.to_pay < 0 ? `take ${money(-check.to_pay)} · should read ${money(check.expected)}`
    : `${chips}${check.rest ? ` + ${money(check.rest)}` : ""} · should read ${money(check.expected)}, reads ${money(check.read)}`;
  const why = ((model && model.reasons) || {})[`${check.seat}:${check.spot}`];
  return el("div", {class: `payout ${check.state}`, "data-payout": `${check.seat}:${check.spot}`,
                    "data-state": check.state},
            el("div", {class: "what", text: `${words(check.spot)}: ${state}`}),
            why ? el("div", {class: "why", "data-why": why, text: why}) : null,
            el("div", {class: "how", text: how}),
            check.jackpot ? jackpotLine(check.jackpot) : null);
}

function jackpotLine(j) {
  const text = j.waiting
    ? `Jackpot ${money(j.amount)} (${words(j.prize)}) waits for a supervisor: pay nothing from the tray`
    : `Jackpot ${money(j.amount)} confirmed by ${j.supervisor}: paid by the supervisor, not from the tray`;
  return el("div", {class: `jackpot${j.waiting ? " waiting" : ""}`, "data-jackpot": j.waiting ? "waiting" : "paid",
                    text});
}

function moveBox(m, n) {
  return el("div", {class: `move ${m.kind}`, "data-move": m.kind, "data-amount": m.amount ?? "",
                    "data-pot": m.pot ?? "", text: `${n}. ${m.words}`});
}

function settlement(p, seat, payouts) {
  const boxes = [];
  (p.moves || []).forEach((m, i) => { if (m.seat === seat) boxes.push(moveBox(m, i + 1)); });
  for (const check of payouts) if (check.seat === seat) boxes.push(payoutBox(check));
  for (const c of p.stack_changes || []) {
    if (c.seat !== seat) continue;
    boxes.push(el("div", {class: `stack-change${c.change < 0 ? " loses" : ""}`, "data-change": c.change,
                          text: `Stack ${c.change > 0 ? "+" : "−"}${money(Math.abs(c.change))} → ${money(c.stack)} at NEXT`}));
  }
  return boxes;
}

function tableMoves(p) {
  const boxes = [];
  (p.moves || []).forEach((m, i) => { if (m.seat === null) boxes.push(moveBox(m, i + 1)); });
  return boxes;
}

function label(a) {
  let text = (model.labels && model.labels[a.name]) || words(a.name);   // as the game declares it
  // A seat with several hands (a split) numbers each from 1, as the display does: hand_index N-1.
  const seat = a.seat !== null ? model.picture.seats.find((s) => s.seat === a.seat) : undefined;
  const several = seat !== undefined && seat.hands.length > 1;
  if (a.seat !== null) text += ` · seat ${a.seat}${several ? ` hand ${a.hand_index + 1}` : ""}`;
  if (a.low !== null && a.spot !== null) text += ` · ${words(a.spot)} spot`;
  return text;
}

// -- the action bar: one button per open action, on one line; a dangerous one (VOID, a dealer
// leaving) set apart at the end and taken only at a second touch within ARMED_FOR ----------------

const ARMED_FOR = 5000;      // ms a dangerous action's first touch waits for its second
let armed = null;            // {name, at} of the dangerous action touched once

function drawActions(p) {
  const box = document.getElementById("actions");
  box.replaceChildren();
  const danger = new Set(model.dangerous || []);
  for (const a of p.actions || []) {
    const risky = danger.has(a.name);
    const sure = risky && armed !== null && armed.name === a.name && Date.now() - armed.at < ARMED_FOR;
    const text = label(a);
    const cut = text.indexOf(" · ");
    const b = el("button", {type: "button", "data-action": a.name,
                            class: `action${a.seat === null ? " table" : ""}${risky ? " danger" : ""}${sure ? " sure" : ""}`},
                 el("span", {class: "name", text: cut < 0 ? text : text.slice(0, cut)}),
                 cut < 0 ? null : el("span", {class: "who", text: text.slice(cut)}),
                 sure ? el("span", {class: "again", text: ": touch again"}) : null);
    b.onclick = () => {
      if (risky) { dangerous(a); return; }
      armed = null;                        // another touch: a dangerous action waits for a fresh first touch
      touch(a);
    };
    box.append(b);
  }
}

function dangerous(a) {
  if (armed !== null && armed.name === a.name && Date.now() - armed.at < ARMED_FOR) {
    armed = null;
    touch(a);
  } else {
    armed = {name: a.name, at: Date.now()};
    setTimeout(() => { if (armed && Date.now() - armed.at >= ARMED_FOR) { armed = null; if (model) drawActions(model.picture); } },
               ARMED_FOR + 50);
  }
  drawActions(model.picture);
}

function draw(next) {
  model = next;
  document.getElementById("link").hidden = next.ready;
  document.getElementById("link-reason").textContent =
    next.link.state === "live" ? "waiting for the table's picture" : `the table: ${next.link.reason || next.link.state}`;
  const p = next.picture;
  if (!p) return;
  drawTop(p);
  drawBanners(next.banners);
  document.getElementById("instruction").textContent = p.instruction || "";
  document.getElementById("notice").textContent = spoken(p.notice);
  document.getElementById("pit-message").textContent = p.message ? `From the pit: ${p.message}` : "";
  drawDealer(p);
  drawSeats(p, next.payouts);
  drawActions(p);
  drawTournament(p);
  drawAnswers(next);
  drawDealerSignedIn(p);
  document.body.dataset.seq = next.seq;
  document.body.dataset.phase = p.table_phase;
}

// A refusal as the table words it ("turn_up: ..."), the action it names put as its button says it.
function spoken(text) {
  const named = /^([a-z][a-z_]*): /.exec(text || "");
  const labels = (model && model.labels) || {};
  return named && labels[named[1]] ? `${labels[named[1]]}: ${text.slice(named[0].length)}` : (text || "");
}

function lost() {
  document.getElementById("link").hidden = false;
  document.getElementById("link-reason").textContent = "the screen's server does not answer";
}

function say(reply) {
  if (!reply.ok) document.getElementById("notice").textContent = spoken(reply.error);
}

async function act(name, amount) {
  if (busy) return;
  busy = true;
  try {
    const body = {action: name, request_id: requestId()};
    if (amount !== null) body.amount = amount;
    say(await post("/api/act", body));
  } finally {
    busy = false;
  }
}

function touch(a) {
  if (a.low === null || a.spot !== null) act(a.name, null);   // no amount, or the spot carries it
  else askAmount(label(a), a.low, a.high, (amount) => act(a.name, amount));
}

// -- the amount keypad: one button per value for a few values, else a keypad in dollars -------------

function askAmount(title, low, high, then, optional) {
  const box = document.getElementById("amount");
  const keys = document.getElementById("amount-keys");
  const shown = document.getElementById("amount-shown");
  let typed = "";
  const few = high !== null && high - low < FEW;
  document.getElementById("amount-title").textContent = title;
  document.getElementById("amount-range").textContent = few ? "choose" :
    `${money(low)}${high !== null ? ` to ${money(high)}` : " or more"}`;
  keys.replaceChildren();
  keys.className = few ? "keys values" : "keys";
  const done = (amount) => { box.hidden = true; keys.replaceChildren(); then(amount); };
  if (few) {
    for (let v = low; v <= high; v++) {
      const b = el("button", {type: "button", "data-value": v, text: String(v)});
      b.onclick = () => done(v);
      keys.append(b);
    }
  } else {
    const show = () => { shown.textContent = typed ? money(Number(typed) * 100) : (optional ? "no amount" : "$"); };
    for (const k of ["1", "2", "3", "4", "5", "6", "7", "8", "9", "⌫", "0", "00"]) {
      const b = el("button", {type: "button", "data-digit": k, text: k});
      b.onclick = () => { typed = k === "⌫" ? typed.slice(0, -1) : (typed + k).replace(/^0+/, "").slice(0, 7); show(); };
      keys.append(b);
    }
    show();
  }
  shown.hidden = few;
  box.querySelector("[data-key=ok]").hidden = few;
  box.querySelector("[data-key=ok]").onclick = () => {
    if (!typed && optional) { done(null); return; }
    const cents = Number(typed || "0") * 100;
    if (cents < (low || 0) || (high !== null && cents > high)) { shown.classList.add("wrong"); return; }
    shown.classList.remove("wrong");
    done(cents);
  };
  box.querySelector("[data-key=cancel]").onclick = () => { box.hidden = true; keys.replaceChildren(); };
  box.hidden = false;
}

// -- the supervisor panel: id, PIN (never shown), command, seat, amount, confirm ---------------------

const panel = {id: "", pin: "", cmd: null, seat: null, amount: null, step: "id", pending: null};

function forms() {
  return (model && model.forms) || {};
}

function named(cmd) {                     // the command's label, as its game declares it
  const form = forms()[cmd];
  return form ? form.label : words(cmd);
}

function takes(cmd, field) {
  const form = forms()[cmd];
  return !!form && form.fields.includes(field);
}

function after(cmd, field) {              // the panel's step after asking ``field`` (or after the command)
  const order = ["seat", "amount"];
  for (const next of order.slice(field === null ? 0 : order.indexOf(field) + 1)) {
    if (takes(cmd, next)) return next;
  }
  return "confirm";
}

function clearPin() {
  panel.pin = "";
  document.getElementById("panel-shown").textContent = "";
}

function closePanel() {
  clearPin();
  Object.assign(panel, {id: "", cmd: null, seat: null, amount: null, step: "id"});
  document.getElementById("panel-body").replaceChildren();
  document.getElementById("panel-reply").textContent = "";
  document.getElementById("panel").hidden = true;
  document.getElementById("panel-ok").textContent = "OK";
  document.getElementById("panel-ok").classList.remove("danger");
}

function keypad(keys, onKey) {
  const body = document.getElementById("panel-body");
  body.replaceChildren();
  body.className = "keys";
  for (const k of keys) {
    const b = el("button", {type: "button", "data-key": k, text: k});
    b.onclick = () => onKey(k);
    body.append(b);
  }
}

function choices(list, onPick) {
  const body = document.getElementById("panel-body");
  body.replaceChildren();
  body.className = "keys choices";
  for (const [value, text] of list) {
    const b = el("button", {type: "button", "data-choice": value, text});
    b.onclick = () => onPick(value);
    body.append(b);
  }
}

function step(name) {
  panel.step = name;
  const title = document.getElementById("panel-title");
  const shown = document.getElementById("panel-shown");
  const ok = document.getElementById("panel-ok");
  ok.hidden = false;
  if (name === "id") {
    title.textContent = "Supervisor: your id";
    shown.textContent = panel.id;
    keypad([..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "⌫"], (k) => {
      panel.id = k === "⌫" ? panel.id.slice(0, -1) : (panel.id + k).slice(0, 32);
      shown.textContent = panel.id;
    });
    ok.onclick = () => { if (panel.id) step("pin"); };
  } else if (name === "pin") {
    title.textContent = `Supervisor ${panel.id}: your PIN`;
    shown.textContent = "";
    keypad([..."123456789", "⌫", "0", "Clear"], (k) => {        // a phone's 3x4 pad
      panel.pin = k === "Clear" ? "" : k === "⌫" ? panel.pin.slice(0, -1) : (panel.pin + k).slice(0, 32);
      shown.textContent = "•".repeat(panel.pin.length);
    });
    document.getElementById("panel-body").className = "keys pin";
    ok.onclick = () => { if (panel.pin) step("command"); };
  } else if (name === "command") {
    title.textContent = `Supervisor ${panel.id}: which command?`;
    shown.textContent = "";
    ok.hidden = true;
    choices(Object.entries(forms()).map(([c, form]) => [c, form.label]),
            (c) => { panel.cmd = c; step(after(c, null)); });
  } else if (name === "seat") {
    title.textContent = `${named(panel.cmd)}: for which seat?`;
    ok.hidden = true;
    const seats = ((model && model.picture && model.picture.seats) || []).map((s) => [s.seat, `Seat ${s.seat}`]);
    choices(seats, (s) => { panel.seat = Number(s); step(after(panel.cmd, "seat")); });
  } else if (name === "amount") {
    document.getElementById("panel").hidden = true;
    askAmount(`${named(panel.cmd)}${panel.seat ? ` · seat ${panel.seat}` : ""}: amount (none: OK)`, 0, null,
              (cents) => { panel.amount = cents; document.getElementById("panel").hidden = false; step("confirm"); },
              true);
    document.querySelector("#amount [data-key=cancel]").onclick = () => {
      document.getElementById("amount").hidden = true; closePanel();
    };
  } else if (name === "confirm") {
    title.textContent = "Send this?";
    const parts = [named(panel.cmd)];
    if (panel.seat !== null) parts.push(`seat ${panel.seat}`);
    if (panel.amount !== null) parts.push(money(panel.amount));
    shown.textContent = parts.join(" · ");
    shown.dataset.confirm = parts.join(" · ");
    document.getElementById("panel-body").replaceChildren();
    ok.textContent = "Send";
    ok.classList.toggle("danger", (model.dangerous || []).includes(panel.cmd));   // a cash-out, VOID
    ok.onclick = send;
  }
}

async function send() {
  const body = {cmd: panel.cmd, supervisor: panel.id};
  if (panel.seat !== null) body.seat = panel.seat;
  if (panel.amount !== null) body.amount = panel.amount;
  // One request id per person's action, the same when they send it again after no answer: the
  // table carries it out once (docs/control.md, "Request ids"). A new action gets a new id.
  const key = JSON.stringify(body);
  if (!panel.pending || panel.pending.key !== key) panel.pending = {key, id: requestId()};
  if (forms()[panel.cmd]?.books !== false) body.request_id = panel.pending.id;   // a read takes none
  body.pin = panel.pin;
  clearPin();                            // the PIN goes with this one command and is not kept
  const reply = await post("/api/command", body);
  body.pin = "";
  if (reply.ok) panel.pending = null;
  if (reply.ok && reply.hands) { showRecall(named(panel.cmd), reply.hands); return; }
  document.getElementById("panel-ok").textContent = "OK";
  document.getElementById("panel-ok").classList.remove("danger");
  const out = document.getElementById("panel-reply");
  out.textContent = reply.ok ? `${named(panel.cmd)}: done` : reply.error;
  out.className = `reply ${reply.ok ? "ok" : "refused"}`;
  Object.assign(panel, {cmd: null, seat: null, amount: null});
  step(reply.ok ? "id" : "pin");
  if (reply.ok) { panel.id = ""; document.getElementById("panel-shown").textContent = ""; }
}

function showRecall(name, hands) {         // the last hands step by step, the newest last, until Close
  Object.assign(panel, {id: "", cmd: null, seat: null, amount: null, step: "recall"});
  document.getElementById("panel-title").textContent =
    hands.length ? `The last ${hands.length} hands, step by step` : "No hand recorded yet";
  document.getElementById("panel-shown").textContent = "";
  document.getElementById("panel-ok").hidden = true;
  const out = document.getElementById("panel-reply");
  out.textContent = `${name}: ${hands.length} shown`;
  out.className = "reply ok";
  const body = document.getElementById("panel-body");
  body.className = "recall";
  body.replaceChildren(...hands.map((h) => el("pre", {"data-hand": h.hand, text: h.lines.join("\n")})));
  body.lastElementChild?.scrollIntoView({block: "end"});
}

document.getElementById("supervisor-open").onclick = () => {
  closePanel();
  document.getElementById("panel").hidden = false;
  step("id");
};
document.getElementById("panel-cancel").onclick = closePanel;

follow(draw, lost);
