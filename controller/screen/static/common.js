// Shared by the dealer's screen and the meter page: money, the model stream, posting JSON.
"use strict";

function money(cents) {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString("en-US");
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, "0")}`;
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

// Follow the server's model: `draw(model)` with each one; `lost()` while the stream is down.
function follow(draw, lost) {
  let source = null;
  function open() {
    source = new EventSource("/api/stream");
    source.addEventListener("model", (e) => draw(JSON.parse(e.data)));
    source.onerror = () => {
      lost();
      if (source.readyState === EventSource.CLOSED) { source.close(); setTimeout(open, 1000); }
    };
  }
  open();
}

function requestId() {                  // a fresh id for one person's action (docs/control.md)
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function post(path, body) {
  try {
    const reply = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                     body: JSON.stringify(body)});
    if (!reply.ok) return {ok: false, error: await reply.text()};
    return await reply.json();
  } catch (e) {
    return {ok: false, error: "the screen's server does not answer"};
  }
}
