// The phone start page: the clock counts down from the server's level end (clocks/clock.js);
// a clock button posts in the background and the page is drawn again with the new state.
import { Feed, ServerClock, everySecond, formatTime, project, setText } from "../clocks/clock.js";

const cfg = JSON.parse(document.getElementById("bigscreen-config").textContent);
const t = cfg.texts;
const box = document.getElementById("phone-clock");
const timeEl = document.getElementById("bs-time");
const statusEl = document.getElementById("bs-status");
const clock = new ServerClock(cfg.timeUrl);
let snapshot = cfg.snapshot;
let payload = snapshot.clock;
const shownIndex = payload && payload.level ? payload.level.index : 0;
const shownRunning = !!(payload && payload.running);

let redraw = () => {};
// Drawn when the shown second may turn (clocks/clock.js everySecond).
function frame() {
  const p = project(payload, snapshot.levels, clock.now());
  setText(timeEl, payload && payload.stopped ? "--:--" : formatTime(p.remainingMs));
  timeEl.classList.toggle("paused", p.started && !p.running);
  timeEl.classList.toggle("warn", p.running && p.remainingMs <= 60000);
  // A new level or a pause from another screen: the controls and "Due now" change with it.
  if (p.index !== shownIndex || (payload && !!payload.running !== shownRunning)) {
    location.reload();
    return null;
  }
  return [p.running ? p.remainingMs : null];
}

new Feed({
  wsUrl: cfg.wsUrl,
  snapshotUrl: cfg.snapshotUrl,
  clock,
  onSnapshot: (s) => { snapshot = s; payload = s.clock; redraw(); },
  onEvent: (kind, data) => { if (kind === "clock" || kind === "level") { payload = data; redraw(); } },
  onStatus: (s) => { statusEl.textContent = s === "live" ? t.live : t.offline; statusEl.classList.toggle("offline", s !== "live"); },
}).start();
clock.syncHttp(6);

// Without a connection (static/floor/ui.js stops the form before it gets here) or when the
// answer does not come, the page stays as it is, says so, and the button works again: a reload
// would put the browser's own error page in its place. The clock shows whether it was done.
for (const form of box.querySelectorAll("form")) {
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    for (const b of form.querySelectorAll("button")) b.disabled = true;
    try {
      await fetch(form.action, { method: "POST", body: new FormData(form), headers: { "HX-Request": "true" }, credentials: "same-origin" });
    } catch (e) {
      for (const b of form.querySelectorAll("button")) b.disabled = false;
      if (window.floorNotSent) window.floorNotSent(form, "noAnswer");
      return;
    }
    location.reload();
  });
}

redraw = everySecond(frame);
