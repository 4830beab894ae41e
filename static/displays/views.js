// A native view of the display manager (seating list, table map, payouts, results, slide):
// its pages take turns, and it is drawn again, at most every few seconds, when its tournament
// changes (a bust, a draw, a move). The screen around it (display.js) decides which view shows.
const view = document.querySelector(".dv-view");
const pages = [...document.querySelectorAll(".dv-pg")];
const label = document.getElementById("dv-page");
let current = 0;

if (pages.length > 1) {
  const seconds = Number(view.dataset.pageSeconds) || 10;
  setInterval(() => {
    pages[current].hidden = true;
    current = (current + 1) % pages.length;
    pages[current].hidden = false;
    label.textContent = `${current + 1} / ${pages.length}`;
  }, seconds * 1000);
}

// The tournament's events: draw the page again (spread, and not more than every 5 s).
const REDRAW = new Set(["bust", "bust_undo", "entries", "payouts", "deal", "status", "seating", "tournament", "counts"]);
const tournament = view.dataset.live;
let redrawAt = 0;
function redrawSoon() {
  if (redrawAt) return;
  redrawAt = Date.now() + 5000 + Math.random() * 3000;
  setTimeout(() => location.reload(), redrawAt - Date.now());
}
// The hello names any change, a hand or the clock too: the view is fetched and drawn again (back
// to its first page) only when what it shows differs.
const shown = (root) => [...root.querySelectorAll(".dv-body")].map((b) => b.textContent).join("");
async function redrawIfChanged() {
  try {
    const r = await fetch(location.href, { cache: "no-store" });
    if (!r.ok) return;
    const fresh = new DOMParser().parseFromString(await r.text(), "text/html");
    if (shown(fresh) !== shown(document)) redrawSoon();
  } catch (e) { /* offline: the next change draws it */ }
}
function listen(retry) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/t/${tournament}/?hello=1`);
  ws.onmessage = (m) => {
    try {
      const msg = JSON.parse(m.data);
      if (msg.type === "event" && REDRAW.has(msg.event)) redrawSoon();
      // The view was drawn before its socket opened: a change in between came on no message.
      else if (msg.type === "hello" && msg.version > Number(view.dataset.version)) redrawIfChanged();
    } catch (e) { /* not ours */ }
  };
  ws.onclose = (e) => {
    if (e.code === 4404) return; // the tournament is no more (tournament/consumers.py)
    setTimeout(() => listen(Math.min(retry * 2, 30000)), retry);
  };
}
if (tournament && !document.body.classList.contains("dv-slide")) listen(1000);
