// The dealer's own panel: sign in (an id typed on the keypad or by a badge reader that types the id
// and Enter into the page, then the PIN), sign out, and sign the opener or the closer with the PIN
// (docs/dealer-screen.md, "The dealer signed in and the slips"). The PIN is sent with one command
// and then cleared; it is never shown. The slip the dealer signs is shown above the PIN: the tray's
// chips by denomination (count and amount of each) and the total, as the tray reads now.
"use strict";

const dealerPanel = {cmd: null, step: "menu", wedge: "", pending: null, books: ""};
const dealerField = (id) => document.getElementById(id);
const DEALER_WORDS = {dealer_in: "Sign in", dealer_out: "Sign out", opener: "Sign the opener",
                      closer: "Sign the closer"};

// The header's button: who is signed in (the picture's books), the table's books waiting.
function drawDealerSignedIn(p) {
  const books = p.books || {};
  const button = dealerField("dealer-open");
  button.textContent = books.dealer ? `Dealer ${books.dealer}` : "Dealer: sign in";
  button.dataset.dealer = books.dealer || "";
  button.classList.toggle("in", Boolean(books.dealer));
  const seen = JSON.stringify(books);
  if (seen !== dealerPanel.books && dealerPanel.step === "menu" && !dealerField("dealer-panel").hidden) {
    dealerStep("menu");                     // the choices follow the books (an opener signed: the closer)
  }
  dealerPanel.books = seen;
  if (dealerPanel.step === "pin") drawSlip(p.tray);   // the slip follows the tray while the PIN is typed
}

// The slip the dealer signs (the opener or the closer): the tray's chips by denomination, the
// highest value first, and the total; hidden for the other commands.
function drawSlip(tray) {
  const slip = dealerField("dealer-slip");
  const signing = dealerPanel.cmd === "opener" || dealerPanel.cmd === "closer";
  slip.hidden = !signing || !tray;
  if (slip.hidden) return;
  const chips = Object.entries(tray.chips || {}).map(([value, count]) => [Number(value), count])
    .sort((a, b) => b[0] - a[0]);
  const rows = chips.map(([value, count]) => el("tr", {"data-value": String(value)},
    el("td", {text: money(value)}), el("td", {text: String(count)}), el("td", {text: money(value * count)})));
  const head = el("tr", {}, el("th", {text: "Chip"}), el("th", {text: "Count"}), el("th", {text: "Amount"}));
  const total = el("tr", {class: "total"}, el("td", {text: "Total"}), el("td", {text: ""}),
    el("td", {text: tray.amount === null ? "not read" : money(tray.amount)}));
  slip.replaceChildren(head, ...rows, total);
  slip.dataset.total = tray.amount === null ? "" : String(tray.amount);
}

function dealerKeys(keys, onKey, kind) {
  const box = dealerField("dealer-keys");
  box.replaceChildren();
  box.className = `keys ${kind || ""}`;
  for (const [key, text] of keys) {
    const b = el("button", {type: "button", "data-key": key, text});
    b.onclick = () => onKey(key);
    box.append(b);
  }
}

function typeInto(input, key) {             // a key of the panel's keypad typed into ``input``
  input.value = key === "⌫" ? input.value.slice(0, -1) : key === "Clear" ? "" : input.value + key;
  input.focus();
}

function dealerStep(name) {
  dealerPanel.step = name;
  const title = dealerField("dealer-title"), id = dealerField("dealer-id"), pin = dealerField("dealer-pin");
  const ok = dealerField("dealer-ok");
  const books = (model && model.picture && model.picture.books) || {};
  id.hidden = name !== "id";
  pin.hidden = name !== "pin";
  if (name === "pin") drawSlip(model && model.picture && model.picture.tray);
  else dealerField("dealer-slip").hidden = true;
  ok.hidden = name === "menu";
  if (name === "menu") {
    title.textContent = books.dealer ? `Dealer ${books.dealer}` : "No dealer signed in";
    const choices = [["dealer_in", books.dealer ? "Sign in (the next dealer)" : "Sign in"]];
    if (books.dealer) {
      choices.push(["dealer_out", "Sign out"]);
      choices.push(books.shift_open ? ["closer", "Sign the closer"] : ["opener", "Sign the opener"]);
    }
    dealerKeys(choices, (cmd) => {
      dealerPanel.cmd = cmd;
      if (cmd === "dealer_out") dealerSend();
      else dealerStep(cmd === "dealer_in" ? "id" : "pin");
    }, "choices");
  } else if (name === "id") {
    title.textContent = "Dealer: your id (or swipe your badge)";
    dealerKeys([..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-", "⌫"].map((k) => [k, k]), (k) => typeInto(id, k));
    id.focus();
    ok.onclick = () => { if (id.value.trim()) dealerStep("pin"); };
  } else if (name === "pin") {
    const who = dealerPanel.cmd === "dealer_in" ? id.value.trim() : books.dealer;
    title.textContent = `${DEALER_WORDS[dealerPanel.cmd]}: dealer ${who}, your PIN`;
    pin.value = "";
    dealerKeys([..."123456789", "⌫", "0", "Clear"].map((k) => [k, k]), (k) => typeInto(pin, k), "pin");
    pin.focus();
    ok.onclick = () => { if (pin.value) dealerSend(); };
  }
}

async function dealerSend() {
  const cmd = dealerPanel.cmd;
  const body = {cmd};
  if (cmd === "dealer_in") body.dealer = dealerField("dealer-id").value.trim();
  const key = JSON.stringify(body);
  if (!dealerPanel.pending || dealerPanel.pending.key !== key) dealerPanel.pending = {key, id: requestId()};
  body.request_id = dealerPanel.pending.id;
  if (cmd !== "dealer_out") body.dealer_pin = dealerField("dealer-pin").value;
  dealerField("dealer-pin").value = "";     // the PIN goes with this one command and is not kept
  const reply = await post("/api/dealer", body);
  body.dealer_pin = "";
  const out = dealerField("dealer-reply");
  out.textContent = reply.ok ? `${DEALER_WORDS[cmd]}: done` : spoken(reply.error);
  out.className = `reply ${reply.ok ? "ok" : "refused"}`;
  if (reply.ok) {
    dealerPanel.pending = null;
    dealerField("dealer-id").value = "";
    dealerStep("menu");
  } else if (cmd !== "dealer_out") {
    dealerStep("pin");
  }
}

function openDealer(step) {
  dealerField("dealer-reply").textContent = "";
  dealerField("dealer-panel").hidden = false;
  dealerStep(step);
}

function closeDealer() {
  dealerField("dealer-pin").value = "";
  dealerField("dealer-id").value = "";
  dealerField("dealer-panel").hidden = true;
  Object.assign(dealerPanel, {cmd: null, step: "menu", wedge: ""});
}

dealerField("dealer-open").onclick = () => openDealer("menu");
dealerField("dealer-cancel").onclick = closeDealer;

// Enter in a field is its OK; a badge reader types the id and Enter: into the id field when the
// panel asks for it, or anywhere on the page (no field focused, no panel open): a sign-in, then the PIN.
document.addEventListener("keydown", (event) => {
  const open = !dealerField("dealer-panel").hidden;
  if (open && event.key === "Enter" && (event.target.id === "dealer-id" || event.target.id === "dealer-pin")) {
    event.preventDefault();
    dealerField("dealer-ok").click();
    return;
  }
  if (open || event.target.tagName === "INPUT" || !document.getElementById("panel").hidden) return;
  if (event.key === "Enter") {
    const typed = dealerPanel.wedge.trim();
    dealerPanel.wedge = "";
    if (!typed) return;
    event.preventDefault();
    dealerPanel.cmd = "dealer_in";
    openDealer("id");
    dealerField("dealer-id").value = typed;
    dealerStep("pin");
  } else if (event.key === "Escape") {
    dealerPanel.wedge = "";
  } else if (event.key.length === 1 && /[A-Za-z0-9_-]/.test(event.key)) {
    dealerPanel.wedge = (dealerPanel.wedge + event.key).slice(-32);
  }
});
