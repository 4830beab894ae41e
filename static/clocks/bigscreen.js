import { Feed, ServerClock, Sounds, applyBoard, everySecond, formatChips, formatMoney, formatTime, keepAwake, project, setText as write } from "./clock.js";
import { Speaker } from "./speech.js";

const root = document.getElementById("bigscreen");
const cfg = JSON.parse(document.getElementById("bigscreen-config").textContent);
const t = cfg.texts;
const $ = (id) => document.getElementById(id);
const clock = new ServerClock(cfg.timeUrl);
const sounds = new Sounds();
let snapshot = cfg.snapshot;
let payload = snapshot.clock;
let lastIndex = null;
let warnedFor = null;
// Spoken announcements on the screens chosen for sound (?sound=1: the template sends the config).
const speechNode = document.getElementById("speech-config");
const speaker = speechNode ? new Speaker(JSON.parse(speechNode.textContent), { box: $("bs-caption"), text: $("bs-caption-text"), queued: $("bs-caption-queue"), hint: $("bs-allow-sound") }, { muted: () => sounds.muted }) : null;

function levelLine(lv) {
  if (!lv) return "";
  if (lv.is_break) return t.breakWord;
  let s = `${formatChips(lv.small_blind)} / ${formatChips(lv.big_blind)}`;
  return s;
}
function anteLine(lv) {
  if (!lv || lv.is_break) return "";
  if (lv.big_blind_ante) return `${t.bbAnte} ${formatChips(lv.big_blind)}`;
  if (lv.ante) return `${t.ante} ${formatChips(lv.ante)}`;
  return "";
}
function levelNumber(index) {
  // The server numbers the levels (breaks are not levels); every screen shows its number.
  const lv = snapshot.levels[index];
  if (lv && lv.number != null) return lv.number;
  return snapshot.levels.slice(0, index + 1).filter((l) => !l.is_break).length;
}
function secondsToBreak(p, index) {
  if (!p.running && !p.started) return null;
  let ms = p.remainingMs;
  for (let i = index + 1; i < snapshot.levels.length; i++) {
    if (snapshot.levels[i].is_break) return ms;
    ms += snapshot.levels[i].minutes * 60000;
  }
  return null;
}

// A figure's text, and its length for the style sheet: a long figure (big blinds, a prize pool
// in the millions) is set smaller so that it still fits its box (bigscreen.css, --chars).
function show(id, text) {
  const node = $(id);
  write(node, text);
  const chars = String(Math.max(text.length, 1));
  if (node.style.getPropertyValue("--chars") !== chars) node.style.setProperty("--chars", chars);
}

// The end: the winner and the final results (public display names only), built with
// textContent so a name is never read as markup.
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function fill(template, values) {
  return Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template);
}
const BIG_SCREEN_PLACES = 9;
function drawResults() {
  const finished = snapshot.status === "finished" && !!snapshot.results;
  document.body.classList.toggle("finished", finished);
  const label = $("bs-players-label");
  if (label) label.textContent = finished ? label.dataset.finished : label.dataset.running;
  const link = $("results-link"); // the public page links the results page at the end
  if (link) link.hidden = !finished;
  const box = $("bs-results");
  if (!box || !finished) return;
  const r = snapshot.results;
  const money = (cents) => formatMoney(cents, snapshot.currency);
  const bigScreen = root.classList.contains("bs");
  const c = (name) => (bigScreen ? "bs-" : "r-") + name; // the big screen's sizes or the phone's
  const parts = [el("div", c("over"), t.over)];
  const winners = r.winners;
  if (winners.length) {
    parts.push(el("div", c("winner-k"), winners.length > 1 ? t.winners : t.winner));
    const names = el("div", `${c("winner")}${winners.length > 1 ? " several" : ""}`, winners.map((w) => w.name).join(" · "));
    names.id = "bs-winner";
    parts.push(names);
    if (winners.length === 1 && winners[0].prize) parts.push(el("div", c("winner-prize"), money(winners[0].prize)));
  }
  if (r.deal) {
    let text = fill(t.deal, { n: r.deal.players, method: r.deal.method });
    if (r.deal.play_for) text += " " + fill(t.playedFor, { amount: money(r.deal.play_for) });
    parts.push(el("p", c("deal"), text));
  }
  const rest = r.places.filter((p) => winners.length !== 1 || p.place !== 1);
  const shown = bigScreen ? rest.slice(0, BIG_SCREEN_PLACES - 1) : rest;
  if (shown.length) {
    const list = el("ol", c("places"));
    list.id = "bs-places";
    list.setAttribute("aria-label", t.finalResults);
    for (const p of shown) {
      const li = el("li");
      li.append(el("span", "p", `${p.place}.`));
      const name = el("span", "n", p.name);
      if (p.deal) name.append(el("span", "tag", t.dealTag));
      if (p.won_seat) name.append(el("span", "tag", t.seatWon));
      li.append(name, el("span", "a", p.prize ? money(p.prize) : ""));
      list.append(li);
    }
    parts.push(list);
  }
  if (bigScreen && rest.length > shown.length) parts.push(el("div", "bs-more", fill(t.placesPaid, { n: r.places.length })));
  box.replaceChildren(...parts);
}

// The figures' labels are read whole ("DURCHSCHNITTSSTACK" beside six figures): they wrap
// between words, and when a word is still wider than its panel every label is set smaller
// together, just enough for the widest (--k-fit on the column of figures, bigscreen.css). Drawn
// again when the column changes size or a label its words.
const side = root.querySelector(".bs-side");
function fitLabels() {
  if (!side) return;
  side.style.setProperty("--k-fit", "1");
  let fit = 1;
  for (const k of side.querySelectorAll(".bs-box .k")) {
    if (k.clientWidth && k.scrollWidth > k.clientWidth) fit = Math.min(fit, k.clientWidth / k.scrollWidth);
  }
  if (fit < 1) side.style.setProperty("--k-fit", String(Math.floor(fit * 1000) / 1000));
}
if (side) {
  const sizes = new ResizeObserver(fitLabels);
  sizes.observe(side);
  for (const box of side.querySelectorAll(".bs-box")) sizes.observe(box); // the chip leaders show late
  document.fonts.ready.then(fitLabels);
}

function drawNumbers() {
  drawResults();
  fitLabels();
  const finished = snapshot.status === "finished";
  show("bs-players", finished && document.body.classList.contains("bigscreen") ? formatChips(snapshot.entries) : `${formatChips(snapshot.players_left)} / ${formatChips(snapshot.entries)}`);
  show("bs-avg", formatChips(snapshot.average_stack));
  if ($("bs-entries")) show("bs-entries", formatChips(snapshot.entries)); // a figure of the clock layout
  show("bs-pool", formatMoney(snapshot.prize_pool, snapshot.currency));
  const rows = snapshot.payouts.map((a, i) => `<tr><td>${i + 1}.</td><td>${formatMoney(a, snapshot.currency)}</td></tr>`).join("");
  $("bs-payouts").innerHTML = rows || `<tr><td colspan="2">–</td></tr>`;
}

// Drawn when a shown second may turn (clock.js everySecond), and written only where a shown
// value changed.
const setText = (id, text) => write($(id), text);
function setData(node, key, value) {
  if (node.dataset[key] !== value) node.dataset[key] = value;
}

function frame() {
  const now = clock.now();
  const p = project(payload, snapshot.levels, now);
  const index = Math.min(p.index, snapshot.levels.length - 1);
  const lv = snapshot.levels[index];
  const next = snapshot.levels[index + 1];
  document.body.classList.toggle("on-break", !!(lv && lv.is_break));
  setText("bs-level", !p.started ? t.notStarted : lv.is_break ? t.breakWord : `${t.level} ${levelNumber(index)}`);
  const timeEl = $("bs-time");
  setText("bs-time", formatTime(p.remainingMs));
  timeEl.classList.toggle("long", timeEl.textContent.length > 5);
  setData(timeEl, "levelIndex", String(index));
  if (lastIndex !== null && index !== lastIndex) timeEl.dataset.switchedAt = String(Date.now());
  timeEl.classList.toggle("paused", p.started && !p.running);
  timeEl.classList.toggle("warn", p.running && p.remainingMs <= 60000);
  setText("bs-paused", payload && payload.stopped ? t.ended : p.started && !p.running ? t.paused : "");
  show("bs-blinds", lv && !lv.is_break ? levelLine(lv) : "");
  setText("bs-ante", anteLine(lv));
  setText("bs-next", next ? `${t.next}: ${next.is_break ? `${t.breakWord} ${next.minutes} ${t.min}` : `${levelLine(next)}${anteLine(next) ? " · " + anteLine(next) : ""}`}` : t.lastLevel);
  const toBreak = secondsToBreak(p, index);
  show("bs-break", toBreak != null && !(lv && lv.is_break) && !payload.stopped ? formatTime(toBreak) : "–");
  const colorUp = lv && lv.is_break && lv.color_up && lv.color_up.length ? `${t.colorUp}: ${lv.color_up.map((c) => formatChips(c)).join(", ")}` : "";
  setText("bs-colorup", colorUp);
  if (speaker) speaker.watch(snapshot.levels, { index, remainingMs: p.remainingMs, running: p.running && !(payload && payload.stopped) });
  else if (lastIndex !== null && index !== lastIndex && p.running) sounds.play(lv.is_break ? "break" : "level");
  if (p.running && p.remainingMs <= 60000 && p.remainingMs > 59000 && warnedFor !== index) { warnedFor = index; sounds.play("minute"); }
  lastIndex = index;
  return [p.running && !(payload && payload.stopped) ? p.remainingMs : null];
}

// The night's story on the public page (static/floor/charts.js): its charts are drawn again
// when the figures change (a bust, an entry), at most once every two seconds.
const storyRedraw = () => { if (window.floorCharts) window.floorCharts.refresh(); };
let redraw = () => {};
const feed = new Feed({
  wsUrl: cfg.wsUrl,
  snapshotUrl: cfg.snapshotUrl,
  clock,
  onSnapshot: (s) => { snapshot = s; payload = s.clock; drawNumbers(); redraw(); storyRedraw(); },
  onEvent: (kind, data) => {
    if (kind === "clock" || kind === "level") { payload = data; redraw(); return; }
    if (kind === "announce") { if (speaker) speaker.fromFloor(data); return; }
    if (kind === "speech") { if (speaker) speaker.update(data); return; }
    let changed = false;
    if (data.levels) { snapshot.levels = data.levels; changed = true; redraw(); }
    if (data.board) changed = applyBoard(snapshot, data.board) || changed;
    if (changed) { drawNumbers(); storyRedraw(); }
  },
  onStatus: (s) => { const el = $("bs-status"); el.textContent = s === "live" ? t.live : t.offline; el.classList.toggle("offline", s !== "live"); },
});

const SPEAKER = '<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9h4l5-4v14l-5-4H4z"/>';
const drawMute = () => {
  $("bs-mute").innerHTML = SPEAKER + (sounds.muted ? '<path d="M17 9l5 6M22 9l-5 6"/></svg>' : '<path d="M16.5 8.5a5 5 0 0 1 0 7M19 6a8.5 8.5 0 0 1 0 12"/></svg>');
};
$("bs-mute").addEventListener("click", () => { sounds.muted = !sounds.muted; drawMute(); sounds.play("minute"); });
drawMute();
$("bs-full").addEventListener("click", () => { if (!document.fullscreenElement) root.requestFullscreen && root.requestFullscreen(); else document.exitFullscreen(); });

drawNumbers();
clock.syncHttp(6);
feed.start();
keepAwake();
redraw = everySecond(frame);
window.floorClock = { clock, speaker, project: () => project(payload, snapshot.levels, clock.now()) };
