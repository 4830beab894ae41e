// Seating chart: each table's shot clock, small. The console's socket (console.js) hands on
// the `shot_clock` message (when the decision ends) as a `floor:shot-clock` event; this counts
// down from the server's instant and says "time is up" in words.
import { ServerClock } from "../clocks/clock.js";

const clock = new ServerClock("/api/time");
clock.syncHttp(4);
const chart = document.getElementById("chart");
const words = { idle: chart?.dataset.scIdle || "", timeUp: chart?.dataset.scTimeUp || "" };

// The newest state each table's clock came with on the socket. A card the console fetched
// before a change can be swapped in after the change's message: the box then carries an older
// `data-version` than this, and the next draw puts the newer state back. A card rendered after
// a change the socket did not bring (a hand done stops the clock) has the higher version and
// stays.
const latest = new Map(); // table number -> { version, ends }

window.addEventListener("floor:shot-clock", (e) => {
  const data = e.detail || {};
  const table = Number(data.table);
  const version = Number(data.version || 0);
  const known = latest.get(table);
  if (!known || version > known.version) {
    latest.set(table, { version, ends: data.ends_ms == null ? "" : String(data.ends_ms) });
  }
  const box = document.querySelector(`.sc-mini[data-table="${table}"]`);
  if (box) draw(box, clock.now());
});

function catchUp(box) {
  const known = latest.get(Number(box.dataset.table));
  if (known && known.version > Number(box.dataset.version || 0)) {
    box.dataset.ends = known.ends;
    box.dataset.version = String(known.version);
  }
}

function draw(box, now) {
  catchUp(box);
  const value = box.querySelector(".sc-value");
  if (!value) return;
  let phase = "idle";
  let text = words.idle || "";
  if (box.dataset.ends) {
    const left = Math.max(0, Number(box.dataset.ends) - now);
    phase = left <= 0 ? "time_up" : left <= Number(box.dataset.warn || 10) * 1000 ? "warning" : "running";
    text = phase === "time_up" ? (words.timeUp || "") : `${Math.ceil(left / 1000)} s`;
  }
  if (value.textContent !== text) value.textContent = text;
  box.className = `sc-mini phase-${phase}`;
}

setInterval(() => {
  const now = clock.now();
  for (const box of document.querySelectorAll(".sc-mini")) draw(box, now);
}, 500);
