// The dealer's screen, what it tells beside the table's picture: a tournament's level, blinds and
// time left (and a new level announced), and the answers the table gave during the hand (a chip
// count). Drawn by screen.js's draw(); the clock ticks here every second.
"use strict";

const NEWS_FOR = 60000;      // ms a new level's announcement stays up (a touch takes it away)
let clockSession = null;     // the picture's session the clock counts down for
let levelSeen = null;        // the level the page last drew (null: none yet)

function blindsWords(blinds) {
  return blinds.map((b) => money(b)).join(" / ");
}

function timeLeft(endsAt) {
  const ms = Date.parse(endsAt) - Date.now();
  if (!(ms > 0)) return "ends now";
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, "0");
  return `${h ? `${h}:` : ""}${mm}:${String(s % 60).padStart(2, "0")} left`;
}

function tickClock() {
  const box = document.getElementById("clock");
  const s = clockSession;
  if (!s || !s.level) { box.hidden = true; return; }
  box.hidden = false;
  box.dataset.level = s.level;
  box.textContent = `Level ${s.level} · blinds ${blindsWords(s.blinds || [])}` +
    (s.level_ends_at ? ` · ${timeLeft(s.level_ends_at)}` : "");
}

// In tournament play (the session's level above 0): the level, its blinds and the time left, always
// on screen; a new level is announced with its blinds.
function drawTournament(p) {
  const s = p.session || {};
  clockSession = s;
  tickClock();
  const news = document.getElementById("level-news");
  if (s.level && levelSeen !== null && s.level > levelSeen) {
    news.textContent = `Level ${s.level} now: blinds ${blindsWords(s.blinds || [])}`;
    news.dataset.level = s.level;
    news.hidden = false;
    clearTimeout(news.timer);
    news.timer = setTimeout(() => { news.hidden = true; }, NEWS_FOR);
  }
  if (!s.level) news.hidden = true;
  levelSeen = s.level || 0;
}

function drawAnswers(m) {
  const box = document.getElementById("answers");
  box.replaceChildren(...(m.answers || []).map((text) => el("div", {class: "answer", text})));
}

document.getElementById("level-news").onclick = (e) => { e.currentTarget.hidden = true; };
setInterval(tickClock, 1000);
