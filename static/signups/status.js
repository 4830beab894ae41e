// A sign-up's private page follows the waiting list live. The tournament's socket (/ws/t/<id>/)
// sends "signups" with numbers only (live/catalogue.py SignupsPayload): `moved` the arrival
// numbers that just got a place, `waiting_count` how many wait, and `waiting` the list in order
// when positions changed (a new sign-up joins the end: its message has only the count). The page
// knows its own arrival number and position and redraws from the message alone. Only after the
// socket was down (a phone asleep) does it fetch itself once, for what it may have missed.
const cfg = JSON.parse(document.getElementById("signup-config").textContent);
const t = cfg.texts;
const live = document.getElementById("signup-live");
const conn = document.getElementById("signup-conn");
let status = cfg.status;
let position = cfg.position;

function words(text) {
  const state = document.getElementById("signup-state");
  const line = document.getElementById("signup-words");
  if (state) { state.dataset.status = status; state.className = `su-state ${status}`; }
  if (line && line.textContent !== text) line.textContent = text;
}

function apply(data) {
  if (status !== "confirmed" && status !== "waiting") return;
  if ((data.moved || []).includes(cfg.sequence)) {
    status = "confirmed";
    words(t.confirmed);
    const cancel = document.querySelector("#signup-cancel p");
    document.body.dataset.movedUp = "1"; // tests wait for it
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    if (cancel) cancel.hidden = true;
    return;
  }
  if (status !== "waiting") return;
  if (!Array.isArray(data.waiting)) {
    // Only the end of the list changed: the same position, a new count.
    if (position && typeof data.waiting_count === "number") {
      words(t.waiting.replace("%(p)s", String(position)).replace("%(w)s", String(data.waiting_count)));
    }
    return;
  }
  const index = data.waiting.indexOf(cfg.sequence);
  if (index >= 0) {
    position = index + 1;
    words(t.waiting.replace("%(p)s", String(position)).replace("%(w)s", String(data.waiting.length)));
  } else {
    refresh(); // left the list some other way (the director): ask the page once
  }
}

async function refresh() {
  let html;
  try {
    const r = await fetch(location.href, { cache: "no-store" });
    if (!r.ok) return;
    html = await r.text();
  } catch (e) { return; } // offline: keep what is shown
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const next = fresh.getElementById("signup-state");
  const here = document.getElementById("signup-state");
  if (next && here && next.outerHTML !== here.outerHTML) live.innerHTML = next.outerHTML;
  status = next ? next.dataset.status : status;
  position = next && next.dataset.position ? Number(next.dataset.position) : position;
  if (status !== "confirmed" && status !== "waiting") document.getElementById("signup-cancel")?.remove();
}

let retry = 1000;
let everOpen = false;
let reopened = false; // a reconnection fetches anyway
let poll = null;
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try { ws = new WebSocket(`${proto}//${location.host}${cfg.ws}?hello=1`); } catch (e) { later(); return; }
  ws.onopen = () => {
    retry = 1000;
    clearInterval(poll); poll = null;
    conn.textContent = `● ${t.live}`;
    document.body.dataset.live = "1";
    reopened = everOpen;
    if (everOpen) refresh();
    everOpen = true;
  };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type === "event" && msg.event === "signups" && msg.data) apply(msg.data);
    // The page was rendered before its socket opened: a change in between came on no message.
    else if (msg.type === "hello" && !reopened && msg.version > cfg.version) refresh();
  };
  ws.onclose = (e) => {
    conn.textContent = t.offline;
    document.body.dataset.live = "";
    if (!poll) poll = setInterval(refresh, 20000);
    if (e.code !== 4404) later();
  };
}
function later() { setTimeout(connect, retry); retry = Math.min(retry * 2, 15000); }
connect();
