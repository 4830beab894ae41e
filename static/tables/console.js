// Seating chart, live. A live message names the tables that changed: the console fetches those
// cards and the figures above them, and swaps them in; a draw reloads the whole chart. While
// the feed is down it polls. What changed between the page and its socket's first connection
// is fetched once (the socket's `hello`).
const chart = document.getElementById("chart");
let timer = null;
let retry = 500;
let wanted = new Set(); // table numbers named since the last fetch
let whole = false;

function busyTyping() {
  return !!document.querySelector("#chart form:focus-within input:not([type=hidden])");
}

function swapIn(html) {
  const doc = new DOMParser().parseFromString(html, "text/html");
  const head = doc.getElementById("chart-head");
  if (head) document.getElementById("chart-head")?.replaceWith(head);
  const grid = chart.querySelector(".tables-grid");
  for (const n of wantedNow) {
    const fresh = doc.getElementById(`table-${n}`);
    const old = document.getElementById(`table-${n}`);
    if (fresh && old) old.replaceWith(fresh);
    else if (old) old.remove(); // the table closed
    else if (fresh && grid) {
      // A table new to this page: put it in its place by number.
      const after = [...grid.children].find((c) => Number(c.id.replace("table-", "")) > n);
      grid.insertBefore(fresh, after || null);
    }
  }
  if (window.htmx) window.htmx.process(chart);
}

let wantedNow = [];
let due = 0; // when the pending fetch goes
let inFlight = false; // a fetch is under way
let again = false; // messages came during it: one more fetch follows
// At most one fetch in flight, 200 ms after the first message of a burst: a steady stream of
// messages (a busy room) still gets its changes shown, it only gathers them, and a slow server
// gets one fetch at a time from each console (what is named meanwhile goes in the next one).
// A bust waits up to a second: the message naming its tables comes on the console's own feed,
// which may arrive later, and one fetch then brings both (the figures come with every fetch).
// And a fetch starts at least half a second after the one before: in a storm of busts (ten a
// second at a festival) four consoles fetch at most eight times a second between them, not once
// for every message (bench/event_storm.py, docs/benchmarks.md); a quiet room is not delayed.
const SPACING_MS = 500;
const MAX_TABLES = 200;
let lastStart = 0;
function refresh(delay = 200) {
  if (inFlight) { again = true; return; }
  const at = Math.max(Date.now() + delay, lastStart + SPACING_MS);
  if (timer) {
    if (at >= due) return;
    clearTimeout(timer);
  }
  due = at;
  timer = setTimeout(fetchChart, at - Date.now());
}

async function fetchChart() {
  timer = null;
  if (busyTyping()) { setTimeout(refresh, 500); return; }
  inFlight = true;
  lastStart = Date.now();
  try {
    if (whole || !chart.querySelector(".tables-grid")) {
      whole = false; wanted = new Set();
      if (window.htmx) await window.htmx.ajax("GET", chart.dataset.url + location.search, { target: "#chart", swap: "innerHTML" });
      return;
    }
    // At most MAX_TABLES a fetch (tables/views.py reads no more): the rest go in the next.
    const named = [...wanted];
    wantedNow = named.slice(0, MAX_TABLES);
    wanted = new Set(named.slice(MAX_TABLES));
    if (wanted.size) again = true;
    const params = new URLSearchParams(location.search);
    params.set("tables", wantedNow.join(","));
    const r = await fetch(`${chart.dataset.url}?${params}`, { headers: { "HX-Request": "true" }, cache: "no-store" });
    if (r.ok) swapIn(await r.text());
  } catch (e) {
    /* the next message or the poll brings it */
  } finally {
    inFlight = false;
    if (again) { again = false; refresh(); }
  }
}

// The room is behind (live/backlog.py): a server process tells how late the live
// updates reach the screens, every two seconds while it lasts, and says so once it has caught
// up (seconds 0). Each process reports for itself; the notice shows the largest lag reported
// in the last ten seconds, and goes when every process has caught up or gone quiet.
const behindNote = document.getElementById("live-behind");
const lags = new Map(); // process and place -> [seconds, when]
let behindTimer = null;
function drawBehind() {
  if (!behindNote) return;
  const now = Date.now();
  let worst = 0;
  for (const [key, [seconds, at]] of lags) {
    if (now - at > 10000) lags.delete(key);
    else worst = Math.max(worst, seconds);
  }
  if (worst > 0) {
    behindNote.textContent = behindNote.dataset.behind.replace("{seconds}", String(Math.round(worst)));
    behindNote.hidden = false;
  } else {
    behindNote.hidden = true;
  }
  clearTimeout(behindTimer);
  if (lags.size) behindTimer = setTimeout(drawBehind, 2500);
}
function showBehind(data) {
  const key = `${data.process}/${data.where}`;
  if (Number(data.seconds) > 0) lags.set(key, [Number(data.seconds), Date.now()]);
  else lags.delete(key);
  drawBehind();
}

let openedBefore = false;
let openedAgain = false; // this connection is a reconnection (the chart is fetched anyway)
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}${chart.dataset.ws}`);
  ws.onopen = () => {
    retry = 500;
    clearInterval(window.__poll);
    // Back after a drop (the server closes a socket that falls behind): what changed meanwhile
    // came on no message, so the chart is fetched once. The first connection asks only when
    // its `hello` says something changed since the page.
    openedAgain = openedBefore;
    if (openedBefore) { whole = true; refresh(); }
    openedBefore = true;
  };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type === "hello") {
      // The version the chart must have seen (tables/consumers.py): newer than the page's on
      // the first connection, something changed between the page and its socket.
      const seen = Number(chart.dataset.version || 0);
      if (!openedAgain && Number(msg.version) > seen) { whole = true; refresh(); }
      return;
    }
    if (msg.type !== "event") return;
    if (msg.event === "seating" && msg.data) {
      if (msg.data.all || msg.data.draw) whole = true;
      for (const n of msg.data.tables || []) wanted.add(n);
      refresh();
    } else if (msg.event === "shot_clock") {
      // A table's shot clock (static/tables/chart_shotclock.js draws it).
      window.dispatchEvent(new CustomEvent("floor:shot-clock", { detail: msg.data }));
    } else if (msg.event === "report") {
      refresh(); // the dealers' reports beside the cards
    } else if (msg.event === "bust" || msg.event === "bust_undo") {
      refresh(1000); // the figures above the cards, with the tables' message if it comes
    } else if (msg.event === "behind" && msg.data) {
      showBehind(msg.data);
    }
  };
  ws.onclose = () => {
    clearInterval(window.__poll);
    window.__poll = setInterval(() => { whole = true; refresh(); }, 10000);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}
connect();
