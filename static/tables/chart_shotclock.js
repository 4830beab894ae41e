// Seating chart: each table's shot clock, small. The console's socket (console.js) hands on
// the `shot_clock` message (when the decision ends) as a `floor:shot-clock` event; this counts
// down from the server's instant and says "time is up" in words.
import { ServerClock } from "../clocks/clock.js";

const clock = new ServerClock("/api/time");
clock.syncHttp(4);
const chart = document.getElementById("chart");
const words = { idle: chart?.dataset.scIdle || "", timeUp: chart?.dataset.scTimeUp || "" };

window.addEventListener("floor:shot-clock", (e) => {
  const data = e.detail || {};
  const box = document.querySelector(`.sc-mini[data-table="${Number(data.table)}"]`);
  if (!box) return;
  box.dataset.ends = data.ends_ms == null ? "" : String(data.ends_ms);
  draw(box, clock.now());
});

function draw(box, now) {
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
