// Dealer tablet: live table view. A change at this table arrives rendered over the websocket
// (tables/live.py) and is swapped in; a new level and hand-for-hand are written here from the
// tournament's messages. The tablet fetches its table only on (re)connect and after a draw.
// The level clock and the time call are drawn from the server clock (offset estimated
// NTP-style), so every tablet shows the same second.
import { Feed, ServerClock, everySecond, formatChips, formatTime, keepAwake, project, setText, soonSpread, Sounds } from "../clocks/clock.js";
import { TabletQueue, formFields } from "./tablet_queue.js";

const root = document.getElementById("dealer");
const texts = JSON.parse(document.getElementById("dealer-texts").textContent);
const conn = document.getElementById("conn");
const clock = new ServerClock("/api/time");
const sounds = new Sounds();
let snapshot = null;
let lastCountdownBeep = null;
let redraw = () => {}; // draws the countdowns at once (set below)

// A refresh never pulls the table from under the dealer's finger: while a sheet (seat, who
// shows first) is open it waits until the sheet closes.
let reloadWaiting = false;
function reloadTable() {
  if (root.querySelector("dialog[open]")) { reloadWaiting = true; return; }
  reloadWaiting = false;
  if (window.htmx) window.htmx.ajax("GET", root.dataset.url, { target: "#dealer", swap: "innerHTML" });
}
document.addEventListener("close", (e) => {
  if (e.target.tagName !== "DIALOG" || !reloadWaiting) return;
  setTimeout(() => { if (pendingHtml !== null) applyTable({ html: { [lang]: pendingHtml } }); else reloadTable(); }, 0);
}, true);

const lang = (document.documentElement.lang || "en").slice(0, 2);
const csrf = (() => { try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; } catch (e) { return ""; } })();
let pendingHtml = null;
let queue = null; // the tablet's queue of taps (below)

// Requests whose answer is the whole table (a reload, the dealer's own report): a table that
// comes on the socket meanwhile is held and swapped in after the answer. The answer may have
// been read before a change whose message came first; swapped in last, it would show the older
// table until the next change. The message, built from what was committed after its change,
// is never older than the change (tables/live.py); one built before the dealer's own tap and
// held during it may show the table before the tap for a moment, until the tap's own message.
// An answer is known by its own request's `loadend` (after htmx's swap; also on an error, an
// abort or a timeout): htmx's afterRequest fires on the element that sent it, which may have
// left the page by then (a reload's answer replaced the form). A request that never ends lets
// the held table in after REQUEST_MS.
const inFlight = new Set();
let held = null;
const NOTICE_MS = 10000;
const REQUEST_MS = 15000;
document.addEventListener("htmx:beforeSend", (e) => {
  const xhr = e.detail.xhr;
  if (e.detail.target !== root || !xhr) return;
  inFlight.add(xhr);
  xhr.addEventListener("loadend", () => answered(xhr));
  setTimeout(() => answered(xhr), REQUEST_MS);
});
function answered(xhr) {
  if (!inFlight.delete(xhr)) return;
  const notice = root.querySelector(":scope > .d-notice");
  if (notice && !notice.dataset.at) notice.dataset.at = String(Date.now());
  if (inFlight.size || !held) return;
  const view = held;
  held = null;
  applyTable(view);
}

// The rendered table: swapped in unless a sheet is open (then when it closes) or an answer
// with the whole table is on its way (then after it). The notice of the dealer's last action
// ("bust reported") stays a few seconds: the socket's table carries none.
function applyTable(view) {
  if (inFlight.size) { held = view; return; }
  drawTable(view.html[lang] || Object.values(view.html)[0]);
}

// Swap the table in (after a sheet closes, if one is open).
function drawTable(html) {
  if (root.querySelector("dialog[open]")) { pendingHtml = html; reloadWaiting = true; return; }
  pendingHtml = null;
  reloadWaiting = false;
  const notice = root.querySelector(":scope > .d-notice");
  root.innerHTML = html;
  const fresh = notice && Date.now() - Number(notice.dataset.at || 0) < NOTICE_MS;
  if (fresh && !root.querySelector(":scope > .d-notice")) root.prepend(notice);
  for (const form of root.querySelectorAll("form[method=post]")) {
    if (form.querySelector("input[name=csrfmiddlewaretoken]")) continue;
    const input = document.createElement("input");
    input.type = "hidden"; input.name = "csrfmiddlewaretoken"; input.value = csrf;
    form.prepend(input);
  }
  if (window.htmx) window.htmx.process(root);
  markWaiting(queue ? queue.items : []);
  redraw();
}

const fill = (template, values) => Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template);

// tda-de 23: a new level applies from the next hand; the tablet says so until the next hand.
function drawLevel(clockData) {
  const box = document.getElementById("d-level");
  const line = document.getElementById("d-lv");
  const banner = document.getElementById("d-newlevel");
  const lv = clockData && clockData.level;
  if (!box || !line || !lv) return;
  line.replaceChildren();
  if (lv.is_break) line.textContent = texts.breakWord;
  else {
    const strong = document.createElement("strong");
    strong.textContent = `${formatChips(lv.small_blind)}/${formatChips(lv.big_blind)}`;
    line.append(`${texts.level} ${lv.number} · `, strong);
    // A big-blind ante is the big blind (as on the big screen and in the announcements).
    if (lv.big_blind_ante) line.append(` · ${texts.bbAnte} ${formatChips(lv.big_blind)}`);
    else if (lv.ante) line.append(` · ${texts.ante} ${formatChips(lv.ante)}`);
  }
  const handLevel = Number(box.dataset.handLevel);
  if (banner) {
    banner.replaceChildren();
    if (clockData.started && handLevel >= 0 && lv.index !== handLevel && !lv.is_break) {
      const b = document.createElement("div");
      b.className = "banner level"; b.setAttribute("role", "status");
      b.textContent = fill(texts.newLevel, { sb: formatChips(lv.small_blind), bb: formatChips(lv.big_blind) });
      banner.append(b);
    }
  }
}

// Hand-for-hand on, off, or a new round: every table plays the next hand.
function drawH4h(data) {
  const box = document.getElementById("d-h4h");
  const done = document.getElementById("hand-done");
  if (!box) return;
  box.replaceChildren();
  if (data.on) {
    const b = document.createElement("div");
    b.className = "banner h4h"; b.textContent = texts.h4hPlay;
    box.append(b);
  }
  if (done) done.disabled = false;
}

// The dealer's taps: every action form goes through the tablet's queue (./tablet_queue.js),
// which sends it at once with its own key, or keeps it while the tablet is offline and sends it
// when the connection is back. Its answer is the table, swapped in as a reload's would be.
let sendingItem = null;
queue = new TabletQueue({
  token: root.dataset.token,
  base: root.dataset.url,
  texts,
  csrf,
  now: () => clock.now(),
  onSend: (item) => { sendingItem = item; inFlight.add(item); },
  onAnswer: (answer, item) => {
    const done = item || sendingItem;
    sendingItem = null;
    if (answer && answer.html) drawTable(answer.html);
    if (done) answered(done);
  },
  onChange: (items) => markWaiting(items),
});

// What the table shows of the waiting actions: a seat reported out waits as such.
function markWaiting(items) {
  const busts = new Set(items.filter((i) => actionOf(i.url) === "bust").map((i) => fieldOf(i.fields, "seat")));
  for (const seat of root.querySelectorAll("button.seat")) {
    const waiting = busts.has(seat.dataset.seat);
    seat.classList.toggle("waiting", waiting);
    let tag = seat.querySelector(".tag.wait");
    if (waiting && !tag) {
      tag = document.createElement("span");
      tag.className = "tag wait"; tag.textContent = texts.qSeatWaiting;
      seat.append(tag);
    } else if (!waiting && tag) tag.remove();
  }
}
function actionOf(url) { return new URL(url, location.href).pathname.slice(root.dataset.url.length).replace(/\/$/, ""); }
function fieldOf(fields, name) { return (fields.find(([k]) => k === name) || [])[1] || ""; }

// An action in words, for the list of waiting ones.
function describe(action, fields, form) {
  const seat = fieldOf(fields, "seat");
  const name = form.closest("#seat-sheet") ? (document.getElementById("sheet-title").dataset.name || "") : "";
  switch (action) {
    case "hand": return fill(texts.qHand, { h: Number(fieldOf(fields, "hand")) + 1 });
    case "bust": {
      const stack = fieldOf(fields, "stack");
      const who = fill(texts.qBust, { s: seat, name });
      return stack ? `${who} · ${fill(texts.qStack, { stack })}` : who;
    }
    case "time": return fill(texts.qTime, { s: seat });
    case "time_bank": return fill(texts.qTimeBank, { s: seat });
    default: return texts[`q_${action}`] || action;
  }
}

const HAND_TAP_MS = 4000;

// Capture phase on window: before htmx's own listener on the form, which then never sends it.
window.addEventListener("submit", (e) => {
  const form = e.target;
  if (!(form instanceof HTMLFormElement) || (form.getAttribute("method") || "").toLowerCase() !== "post") return;
  const url = new URL(form.getAttribute("action") || location.href, location.href);
  if (!queue.owns(url.pathname)) return;
  e.preventDefault();
  e.stopPropagation();
  const action = actionOf(url.href);
  const fields = formFields(form, e.submitter);
  if (action === "hand") {
    // "Hand done" of the next hands while earlier ones wait: each its own hand number. A tap
    // while the one of a moment ago still waits for its answer is a double tap.
    const hands = queue.items.filter((i) => actionOf(i.url) === "hand");
    if (hands.some((i) => Date.now() - i.at < HAND_TAP_MS)) return;
    const before = hands.length;
    const hand = fields.find(([k]) => k === "hand");
    if (hand) hand[1] = String(Number(hand[1]) + before);
  }
  const sheet = document.getElementById("seat-sheet");
  const what = describe(action, fields, form);
  if (sheet && sheet.open) { pendingHtml = null; reloadWaiting = false; sheet.close(); }
  // The sheet serves the next seat too (offline, no new table replaces it): a stack typed for
  // this player is not the next one's.
  const stack = document.getElementById("bust-stack");
  if (stack && form.contains(stack)) stack.value = "";
  queue.add(url.pathname, fields, what);
}, true);

let socketStatus = "";
function drawConn() {
  if (!socketStatus) return;
  const s = navigator.onLine === false ? "offline" : socketStatus;
  conn.textContent = s === "live" ? `● ${texts.live}` : texts.offline;
  conn.className = `conn-dot ${s}`;
}

const feed = new Feed({
  wsUrl: `${root.dataset.ws}?lang=${lang}`, // the table comes rendered in this language
  snapshotUrl: root.dataset.clock,
  clock,
  onSnapshot: (s) => { snapshot = s; redraw(); },
  onEvent: (event, data) => {
    if (event === "clock" || event === "level") {
      if (snapshot) snapshot.clock = data;
      if (event === "level") drawLevel(data);
      redraw();
    } else if (event === "table" && data.html) applyTable(data);
    else if (event === "h4h") drawH4h(data);
    else if (event === "structure" && snapshot && data.levels) {
      // The running level's blinds may have been edited: write them from the new structure.
      snapshot.levels = data.levels;
      const current = snapshot.clock && snapshot.clock.level;
      const row = current && data.levels[current.index];
      if (row) drawLevel({ ...snapshot.clock, level: { ...row, index: current.index } });
    }
    else if (event === "seating" && data.draw) soonSpread(reloadTable);
  },
  onStatus: (s) => {
    socketStatus = s;
    drawConn();
    if (s === "live") { reloadTable(); queue.pump(); }
  },
});
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
      // The actions still waiting are sent all the same: each comes back "not applied" with
      // the reason, shown above, and the floor is told (./tablet_queue.js).
      const waiting = document.getElementById("tq");
      document.body.replaceChildren(...(waiting ? [waiting] : []), main);
    });
  }
};
feed.start();
keepAwake();
// The badge says "offline" while the device says so too (a dropped Wi-Fi does not always close
// the socket at once), with the queue's banner.
window.addEventListener("offline", drawConn);
window.addEventListener("online", drawConn);

// Drawn when a shown second may turn (clocks/clock.js everySecond); returns the milliseconds
// left on the running countdowns: the level, the time call, the shot clock.
function tick() {
  const now = clock.now();
  const running = [];
  const el = document.getElementById("d-time");
  if (el && snapshot && snapshot.clock) {
    const p = project(snapshot.clock, snapshot.levels || [], now);
    setText(el, p.started ? formatTime(p.remainingMs) : "--:--");
    el.classList.toggle("paused", p.started && !p.running);
    if (p.running) running.push(p.remainingMs);
  }
  const tc = document.getElementById("timecall");
  if (tc) {
    const ends = Number(tc.dataset.ends);
    const countdown = Number(tc.dataset.countdown) * 1000;
    const left = ends - now;
    setText(document.getElementById("tc-time"), String(Math.max(0, Math.ceil(left / 1000))));
    const inCountdown = left <= countdown;
    tc.classList.toggle("countdown", inCountdown && left > 0);
    tc.classList.toggle("over", left <= 0);
    if (inCountdown && left > 0 && lastCountdownBeep !== ends) { lastCountdownBeep = ends; sounds.play("minute"); }
    running.push(left, left - countdown);
  }
  running.push(drawShotClock(now));
  return running;
}

// The shot clock counts down from the server's end instant (a reload shows the same second);
// at 10 s it warns, at 0 it says the time is up — in words, not by colour alone — and a card
// can no longer be played.
const SC_TEXT = { running: "scRunning", warning: "scWarning", time_up: "scTimeUp" };
function drawShotClock(now) {
  const sc = document.getElementById("shotclock");
  if (!sc || !sc.dataset.ends) return null;
  const left = Math.max(0, Number(sc.dataset.ends) - now);
  const time = document.getElementById("sc-time");
  if (time && time.firstChild) setText(time.firstChild, String(Math.ceil(left / 1000)));
  const phase = left <= 0 ? "time_up" : left <= Number(sc.dataset.warn) * 1000 ? "warning" : "running";
  if (sc.dataset.phase === phase) return left;
  const before = sc.dataset.phase;
  sc.dataset.phase = phase;
  sc.classList.remove("phase-idle", "phase-running", "phase-warning", "phase-time_up");
  sc.classList.add(`phase-${phase}`);
  const state = document.getElementById("sc-state");
  if (state) state.textContent = texts[SC_TEXT[phase]];
  if (phase === "time_up") for (const b of sc.querySelectorAll("button.bank")) b.disabled = true;
  // A tone when the warning begins and when the time is up, not when a page opens mid-way.
  if (before && before !== "idle" && phase !== "running") sounds.play("minute");
  return left;
}
redraw = everySecond(tick);
document.body.addEventListener("htmx:afterSettle", () => redraw()); // a time call started, a table reloaded

// Tap a seat: the sheet to report a bust or call the clock on that player. A button with
// `data-sheet` opens the sheet it names ("who shows first?").
document.addEventListener("click", (e) => {
  const opener = e.target.closest("[data-sheet]");
  if (opener) { document.getElementById(opener.dataset.sheet)?.showModal(); return; }
  const seat = e.target.closest("button.seat");
  if (!seat || seat.disabled) return;
  const sheet = document.getElementById("seat-sheet");
  const title = sheet.querySelector("#sheet-title");
  title.textContent = `${texts.seat} ${seat.dataset.seat} · ${seat.dataset.name}`;
  title.dataset.name = seat.dataset.name;
  sheet.querySelectorAll(".sheet-seat").forEach((i) => { i.value = seat.dataset.seat; });
  sheet.querySelectorAll(".sheet-entry").forEach((i) => { i.value = seat.dataset.entry || ""; });
  sheet.showModal();
});
document.addEventListener("htmx:beforeRequest", () => {
  const sheet = document.getElementById("seat-sheet");
  if (sheet && sheet.open) {
    pendingHtml = null; reloadWaiting = false; // the answer to this request is the fresh table
    sheet.close();
  }
});
