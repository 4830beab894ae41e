// Floor clock client: server-time offset (NTP-style, best of several round trips), a live feed
// over the websocket with polling fallback, and a countdown drawn from the level's end instant.
// The screen projects level ends itself from the structure, so it switches level on time even
// before the server's announcement arrives.

const SYNC_SAMPLES = 8;

export class ServerClock {
  constructor(timeUrl) {
    this.timeUrl = timeUrl;
    this.offset = 0; // server_ms - local_ms
    this.bestRtt = Infinity;
    this.samples = [];
  }
  now() { return Date.now() + this.offset; }
  addSample(t0, serverMs, t1) {
    const rtt = t1 - t0;
    const offset = serverMs - (t0 + t1) / 2;
    this.samples.push({ rtt, offset });
    if (this.samples.length > 32) this.samples.shift();
    const best = this.samples.reduce((a, b) => (b.rtt < a.rtt ? b : a));
    this.bestRtt = best.rtt;
    this.offset = best.offset;
  }
  reset() { this.samples = []; this.bestRtt = Infinity; }
  async syncHttp(n = SYNC_SAMPLES) {
    for (let i = 0; i < n; i++) {
      try {
        const t0 = Date.now();
        const r = await fetch(this.timeUrl, { cache: "no-store" });
        const body = await r.json();
        this.addSample(t0, body.server_ms, Date.now());
      } catch (e) { /* try again on the next sync */ }
    }
  }
}

// A screen's countdowns are drawn when a shown second may turn, not on every animation frame: a
// page that rewrites its digits sixty times a second repaints sixty times a second (half a core
// of a big screen's PC, a dealer tablet's battery) for a figure that changes once a second.
// `draw()` draws and returns the milliseconds left on each running countdown it shows; the next
// draw comes just after the soonest of them turns a whole second, and never more than 250 ms
// later (a pause, a message, a new sync with the server's time); `null` stops the drawing (the
// page is reloading). Returns a function that draws at once (call it when a message changes
// what is shown).
const MAX_WAIT_MS = 250;
export function everySecond(draw) {
  let timer = 0;
  const run = () => {
    clearTimeout(timer);
    const running = draw();
    if (running === null) return;
    let wait = MAX_WAIT_MS;
    for (const left of running) {
      if (left != null && left > 0) wait = Math.min(wait, (left % 1000) + 2);
    }
    timer = setTimeout(run, wait);
  };
  run();
  return run;
}

// Writes `text` into `node` only when it differs: the same text written again still costs a
// layout and a paint.
export function setText(node, text) {
  if (node && node.textContent !== text) node.textContent = text;
}

// Project the clock forward from the last known payload using the structure.
export function project(payload, levels, serverNow) {
  if (!payload || !payload.started || !payload.level) {
    return { index: payload && payload.level ? payload.level.index : 0, remainingMs: payload ? payload.remaining_ms : 0, running: false, started: false };
  }
  let index = payload.level.index;
  if (!payload.running || payload.ends_at_ms == null) {
    return { index, remainingMs: payload.remaining_ms, running: false, started: true };
  }
  let endsAt = payload.ends_at_ms;
  while (serverNow >= endsAt && index < levels.length - 1) {
    index += 1;
    endsAt += levels[index].minutes * 60000;
  }
  return { index, remainingMs: Math.max(0, endsAt - serverNow), running: true, started: true, endsAt };
}

export function formatTime(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), s = total % 60;
  const pad = (x) => String(x).padStart(2, "0");
  return h > 0 ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
}

export function formatChips(n, lang) {
  if (n === null || n === undefined) return "–";
  return new Intl.NumberFormat(lang || document.documentElement.lang || "en").format(n);
}

export function formatMoney(cents, currency, lang) {
  if (cents === null || cents === undefined) return "–";
  const locale = lang || document.documentElement.lang || "en";
  const digits = { minimumFractionDigits: cents % 100 ? 2 : 0, maximumFractionDigits: 2 };
  try {
    return new Intl.NumberFormat(locale, { style: "currency", currency: currency || "EUR", ...digits }).format(cents / 100);
  } catch (e) {
    // A code the browser refuses (stored before currencies were checked): the number and the code.
    return `${new Intl.NumberFormat(locale, digits).format(cents / 100)} ${currency}`;
  }
}

// A newer board wins: boards carry the version of the tournament's event log they were read at,
// and one from another server process may arrive after a newer one.
export function applyBoard(snapshot, board, lang) {
  if (!board || (snapshot.version != null && board.version != null && board.version < snapshot.version)) return false;
  const { results_by_language: byLang, ...rest } = board;
  Object.assign(snapshot, rest);
  if (byLang) {
    const mine = (lang || document.documentElement.lang || "en").slice(0, 2);
    snapshot.results = byLang[mine] || rest.results;
  }
  return true;
}

// Once the draw is out every phone and tablet asks for its seat: spread over a few seconds so a
// room of thousands does not ask in the same instant.
export function soonSpread(fn, spreadMs = 3000) { setTimeout(fn, Math.random() * spreadMs); }

// A live feed: websocket with reconnect and ping-based offset sync; polling while it is down.
export class Feed {
  constructor({ wsUrl, snapshotUrl, clock, onSnapshot, onEvent, onStatus, pollMs = 5000 }) {
    Object.assign(this, { wsUrl, snapshotUrl, clock, onSnapshot, onEvent, onStatus, pollMs });
    this.retry = 500;
    this.pollTimer = null;
    this.ws = null;
    this.refetchTimer = null;
  }
  start() {
    this.refresh();
    this.connect();
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") { this.clock.reset(); this.syncWs(); this.refresh(); }
    });
    window.addEventListener("online", () => this.connect());
  }
  async refresh() {
    try {
      const r = await fetch(this.snapshotUrl, { cache: "no-store" });
      if (r.ok) this.onSnapshot(await r.json());
    } catch (e) { /* offline: keep the last known state */ }
  }
  refetchSoon() {
    clearTimeout(this.refetchTimer);
    this.refetchTimer = setTimeout(() => this.refresh(), 250);
  }
  startPolling() {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => { this.refresh(); this.clock.syncHttp(2); }, this.pollMs);
    this.clock.syncHttp(4);
  }
  stopPolling() { clearInterval(this.pollTimer); this.pollTimer = null; }
  syncWs() {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
    for (let i = 0; i < SYNC_SAMPLES; i++) {
      setTimeout(() => {
        if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ type: "ping", t0: Date.now() }));
      }, i * 120);
    }
  }
  connect() {
    if (this.ws && (this.ws.readyState === WebSocket.OPEN || this.ws.readyState === WebSocket.CONNECTING)) return;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    try { ws = new WebSocket(`${proto}//${location.host}${this.wsUrl}`); } catch (e) { this.scheduleReconnect(); return; }
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.stopPolling();
      this.onStatus && this.onStatus("live");
      this.clock.reset();
      this.syncWs();
      this.refresh();
    };
    ws.onmessage = (m) => {
      const t1 = Date.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if (msg.type === "pong") { this.clock.addSample(msg.t0, msg.server_ms, t1); return; }
      // Events carry what the screen shows (live/catalogue.py): the screen applies them
      // and asks for nothing. A snapshot is fetched only on (re)connect.
      if (msg.type === "event" && msg.data) this.onEvent && this.onEvent(msg.event, msg.data);
    };
    ws.onclose = (e) => {
      this.onStatus && this.onStatus("offline");
      // 4404: the tournament or the link is no more (tournament/consumers.py); trying again would
      // find nothing. The page keeps what it shows.
      if (e.code === 4404) { this.stopPolling(); return; }
      this.startPolling();
      this.scheduleReconnect();
    };
  }
  scheduleReconnect() {
    setTimeout(() => this.connect(), this.retry);
    this.retry = Math.min(this.retry * 2, 5000);
  }
}

// Keep the screen awake while the clock is shown: the Screen Wake Lock where the browser has it,
// else (plain HTTP on the LAN) NoSleep.js after a first touch, with the page's button for it
// (static/floor/awake.js, templates/includes/awake.html).
export { keepAwake } from "../floor/awake.js";

// Short tones with Web Audio: one minute left, level change, break.
export class Sounds {
  constructor(key = "floor-muted") { this.key = key; this.ctx = null; }
  get muted() { return localStorage.getItem(this.key) === "1"; }
  set muted(v) { localStorage.setItem(this.key, v ? "1" : "0"); }
  tone(freq, start, dur) {
    const ctx = this.ctx; const o = ctx.createOscillator(); const g = ctx.createGain();
    o.frequency.value = freq; o.type = "sine"; o.connect(g); g.connect(ctx.destination);
    g.gain.setValueAtTime(0.0001, ctx.currentTime + start);
    g.gain.exponentialRampToValueAtTime(0.4, ctx.currentTime + start + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + dur);
    o.start(ctx.currentTime + start); o.stop(ctx.currentTime + start + dur + 0.05);
  }
  play(kind) {
    if (this.muted) return;
    try {
      this.ctx = this.ctx || new (window.AudioContext || window.webkitAudioContext)();
      if (kind === "minute") { this.tone(880, 0, 0.25); this.tone(880, 0.35, 0.25); }
      else if (kind === "break") { this.tone(523, 0, 0.4); this.tone(659, 0.45, 0.4); this.tone(784, 0.9, 0.6); }
      else { this.tone(784, 0, 0.3); this.tone(988, 0.35, 0.3); this.tone(1175, 0.7, 0.5); }
    } catch (e) { /* audio not available */ }
  }
}
