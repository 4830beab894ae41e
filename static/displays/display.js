// A screen of the display manager (/display/): shows its pairing code until it is paired, then
// the views it is told to show, one at a time, each in a frame of this installation's own pages.
// What to show arrives over the websocket (/ws/display/, the `assignment` message); a new view
// is loaded in a hidden frame and shown only once it has loaded and marked itself good
// (`dv-ok` on its body): a view whose tournament is gone is never swapped in, so the screen
// keeps its last good view. A clock that speaks stays loaded (hidden) between its turns of a
// rotation, so it still announces a level that starts while another view is shown.
const cfg = JSON.parse(document.getElementById("display-config").textContent);
const t = cfg.texts;
const $ = (id) => document.getElementById(id);
const frames = $("ds-frames");
let state = { version: -1, views: [] };
let index = 0;
let timer = null;
let loading = null;
let retry = 500;
const kept = new Map(); // view index -> the loaded frame of a speaking clock

// For tests and the benchmark: what the screen received and shows.
window.floorDisplay = { version: -1, shown: null, received: 0, loads: 0 };

function apply(next) {
  if (!next) return;
  window.floorDisplay.received += 1;
  // The page's own state, then the same again when the socket (re)connects: what is shown stays,
  // instead of every view being loaded afresh on every connection.
  if (next.version <= state.version) return;
  state = next;
  window.floorDisplay.version = next.version;
  $("ds-pair").hidden = next.paired;
  const waiting = next.paired && !next.views.length;
  $("ds-wait").hidden = !waiting;
  if (waiting) $("ds-wait-text").textContent = t.paired.replace("%(name)s", next.name);
  document.title = next.paired ? `${next.name} · Floor` : document.title;
  clearTimeout(timer);
  index = 0;
  kept.clear(); // a new assignment loads its views afresh
  if (next.views.length) show(0);
  else frames.replaceChildren();
}

// Put `frame` in front; the others go, except speaking clocks, which wait hidden.
function bringForward(frame) {
  const keep = new Set(kept.values());
  for (const old of [...frames.children]) {
    if (old === frame) continue;
    if (keep.has(old)) old.classList.add("parked");
    else old.remove();
  }
  frame.classList.remove("loading", "parked");
}

function show(i) {
  const view = state.views[i];
  if (!view) return;
  if (loading) loading.remove();
  loading = null;
  const waiting = kept.get(i);
  if (waiting && waiting.isConnected) {
    bringForward(waiting);
    window.floorDisplay.shown = view.url;
    schedule(i, true);
    return;
  }
  const frame = document.createElement("iframe");
  frame.className = "ds-frame loading";
  frame.title = `${t.view}: ${view.kind}`;
  frame.setAttribute("scrolling", "no");
  frame.addEventListener("load", () => {
    if (loading !== frame) return;
    loading = null;
    let good = false;
    try { good = frame.contentDocument.body.classList.contains("dv-ok"); } catch (e) { good = false; }
    if (good) {
      if (view.sound && state.views.length > 1) kept.set(i, frame);
      bringForward(frame);
      window.floorDisplay.shown = view.url;
    } else {
      frame.remove(); // gone or broken: keep what is shown
    }
    schedule(i, good);
  });
  loading = frame;
  window.floorDisplay.loads += 1;
  frame.src = view.url;
  frames.append(frame);
}

function schedule(i, good) {
  clearTimeout(timer);
  if (state.views.length < 2) {
    // One view that could not load: try again in a while (the director may fix it).
    if (!good) timer = setTimeout(() => show(0), 30000);
    return;
  }
  const seconds = good ? state.views[i].seconds : 5;
  timer = setTimeout(() => {
    index = (i + 1) % state.views.length;
    show(index);
  }, seconds * 1000);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  let ws;
  try { ws = new WebSocket(`${proto}//${location.host}${cfg.wsUrl}`); } catch (e) { reconnect(); return; }
  ws.onopen = () => { retry = 500; $("ds-status").textContent = ""; };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type !== "event") return;
    if (msg.event === "assignment") apply(msg.data);
    if (msg.event === "removed") setTimeout(() => location.reload(), 500);
  };
  ws.onclose = (e) => {
    if (e.code === 4404 || e.code === 4410) { setTimeout(() => location.reload(), 3000); return; }
    $("ds-status").textContent = t.offline;
    reconnect();
  };
}

function reconnect() {
  setTimeout(connect, retry);
  retry = Math.min(retry * 2, 10000);
}

apply(cfg.state);
connect();
