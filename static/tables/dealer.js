// Dealer tablet: live table view. The websocket tells us when something changed; we then fetch
// the table fragment again (htmx). The level clock and the time call are drawn from the server
// clock (offset estimated NTP-style), so every tablet shows the same second.
import { Feed, ServerClock, formatTime, keepAwake, project, Sounds } from "../clocks/clock.js";

const root = document.getElementById("dealer");
const texts = JSON.parse(document.getElementById("dealer-texts").textContent);
const conn = document.getElementById("conn");
const clock = new ServerClock("/api/time");
const sounds = new Sounds();
let snapshot = null;
let lastCountdownBeep = null;

// A refresh never pulls the table from under the dealer's finger: while a sheet (seat, who
// shows first) is open it waits until the sheet closes.
let reloadWaiting = false;
function reloadTable() {
  if (root.querySelector("dialog[open]")) { reloadWaiting = true; return; }
  reloadWaiting = false;
  if (window.htmx) window.htmx.ajax("GET", root.dataset.url, { target: "#dealer", swap: "innerHTML" });
}
document.addEventListener("close", (e) => {
  if (e.target.tagName === "DIALOG" && reloadWaiting) setTimeout(reloadTable, 0);
}, true);

const feed = new Feed({
  wsUrl: root.dataset.ws,
  snapshotUrl: root.dataset.clock,
  clock,
  onSnapshot: (s) => { snapshot = s; },
  onEvent: (event, data) => {
    if (event === "clock" && snapshot) snapshot.clock = data;
    feed.refresh();
    if (event === "level") reloadTable();
  },
  onStatus: (s) => {
    conn.textContent = s === "live" ? `● ${texts.live}` : texts.offline;
    conn.className = `conn-dot ${s}`;
    if (s === "live") reloadTable();
  },
});
const baseRefetch = feed.refetchSoon.bind(feed);
feed.refetchSoon = () => { baseRefetch(); clearTimeout(feed._tableTimer); feed._tableTimer = setTimeout(reloadTable, 120); };
// The server closes the socket for good when the link is revoked or unknown (4403, 4404) or the
// table was broken or closed (4410, tables/consumers.py): the tablet stops trying and says why.
const FINAL_CLOSE = { 4403: "revoked", 4404: "revoked", 4410: "closed" };
const baseConnect = feed.connect.bind(feed);
feed.connect = () => {
  baseConnect();
  if (feed.ws) {
    const ws = feed.ws;
    ws.addEventListener("close", (e) => {
      const reason = FINAL_CLOSE[e.code];
      if (!reason) return;
      feed.connect = () => {};
      feed.startPolling = () => {};
      feed.stopPolling();
      const main = document.createElement("main");
      main.className = "revoked";
      main.id = `dealer-${reason}`;
      const p = document.createElement("p");
      p.textContent = texts[reason];
      main.append(p);
      document.body.replaceChildren(main);
    });
  }
};
feed.start();
keepAwake();

function tick() {
  const now = clock.now();
  const el = document.getElementById("d-time");
  if (el && snapshot && snapshot.clock) {
    const p = project(snapshot.clock, snapshot.levels || [], now);
    el.textContent = p.started ? formatTime(p.remainingMs) : "--:--";
    el.classList.toggle("paused", p.started && !p.running);
  }
  const tc = document.getElementById("timecall");
  if (tc) {
    const ends = Number(tc.dataset.ends);
    const countdown = Number(tc.dataset.countdown) * 1000;
    const left = ends - now;
    const out = document.getElementById("tc-time");
    out.textContent = Math.max(0, Math.ceil(left / 1000));
    const inCountdown = left <= countdown;
    tc.classList.toggle("countdown", inCountdown && left > 0);
    tc.classList.toggle("over", left <= 0);
    if (inCountdown && left > 0 && lastCountdownBeep !== ends) { lastCountdownBeep = ends; sounds.play("minute"); }
  }
  requestAnimationFrame(tick);
}
requestAnimationFrame(tick);

// Tap a seat: the sheet to report a bust or call the clock on that player. A button with
// `data-sheet` opens the sheet it names ("who shows first?").
document.addEventListener("click", (e) => {
  const opener = e.target.closest("[data-sheet]");
  if (opener) { document.getElementById(opener.dataset.sheet)?.showModal(); return; }
  const seat = e.target.closest("button.seat");
  if (!seat || seat.disabled) return;
  const sheet = document.getElementById("seat-sheet");
  sheet.querySelector("#sheet-title").textContent = `${texts.seat} ${seat.dataset.seat} · ${seat.dataset.name}`;
  sheet.querySelectorAll(".sheet-seat").forEach((i) => { i.value = seat.dataset.seat; });
  sheet.showModal();
});
document.addEventListener("htmx:beforeRequest", () => {
  const sheet = document.getElementById("seat-sheet");
  if (sheet && sheet.open) {
    reloadWaiting = false; // the answer to this request is the fresh table
    sheet.close();
  }
});
