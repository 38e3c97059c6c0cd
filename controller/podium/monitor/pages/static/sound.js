// A beep on each new critical alert, once the user turns the sound on: off by default, and a
// browser lets a page make sound only after a gesture (the toggle is one). A WebAudio tone, no file.
// Each sound played counts in <body data-sounds> (what the page's tests look at).
"use strict";

const sound = {on: false, context: null, heard: new Set(), primed: false};
const soundButton = document.getElementById("sound");
document.body.dataset.sounds = "0";
document.body.dataset.sound = "off";

function showSound() {
  soundButton.textContent = sound.on ? "Sound on" : "Sound off";
  soundButton.setAttribute("aria-pressed", String(sound.on));
  document.body.dataset.sound = sound.on ? "on" : "off";
}

soundButton.addEventListener("click", () => {
  if (!sound.context) {
    try {
      sound.context = new AudioContext();
    } catch (error) {
      soundButton.textContent = "No sound in this browser";
      soundButton.disabled = true;
      return;
    }
  }
  sound.on = !sound.on;
  if (sound.on) sound.context.resume();
  showSound();
});

function beep() {
  const context = sound.context;
  const tone = context.createOscillator();
  const volume = context.createGain();
  tone.type = "square";
  tone.frequency.value = 880;
  volume.gain.value = 0.12;
  tone.connect(volume).connect(context.destination);
  tone.start(context.currentTime);
  tone.stop(context.currentTime + 0.25);
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds) + 1);
}

// The tiles just drawn: a beep for each critical alert not heard before on a table that `shown`
// keeps, but for those already open when the page first loads.
function soundAlerts(tiles, shown) {
  let fresh = 0;
  for (const tile of tiles) {
    for (const alert of tile.alerts) {
      if (alert.severity !== "critical" || sound.heard.has(alert.key)) continue;
      sound.heard.add(alert.key);
      if (sound.primed && shown(tile)) fresh += 1;
    }
  }
  sound.primed = true;
  if (!sound.on) return;
  for (let n = 0; n < fresh; n++) setTimeout(beep, n * 350);
}
