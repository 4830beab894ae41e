import { Feed, ServerClock, Sounds, formatChips, formatMoney, formatTime, keepAwake, project } from "./clock.js";

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

function drawNumbers() {
  $("bs-players").textContent = `${formatChips(snapshot.players_left)} / ${formatChips(snapshot.entries)}`;
  $("bs-avg").textContent = formatChips(snapshot.average_stack);
  $("bs-pool").textContent = formatMoney(snapshot.prize_pool, snapshot.currency);
  const rows = snapshot.payouts.map((a, i) => `<tr><td>${i + 1}.</td><td>${formatMoney(a, snapshot.currency)}</td></tr>`).join("");
  $("bs-payouts").innerHTML = rows || `<tr><td colspan="2">–</td></tr>`;
}

function frame() {
  const now = clock.now();
  const p = project(payload, snapshot.levels, now);
  const index = Math.min(p.index, snapshot.levels.length - 1);
  const lv = snapshot.levels[index];
  const next = snapshot.levels[index + 1];
  document.body.classList.toggle("on-break", !!(lv && lv.is_break));
  $("bs-level").textContent = !p.started ? t.notStarted : lv.is_break ? t.breakWord : `${t.level} ${levelNumber(index)}`;
  const timeEl = $("bs-time");
  timeEl.textContent = formatTime(p.remainingMs);
  timeEl.dataset.remainingMs = String(Math.round(p.remainingMs));
  timeEl.dataset.levelIndex = String(index);
  timeEl.dataset.localAt = String(Date.now());
  if (lastIndex !== null && index !== lastIndex) timeEl.dataset.switchedAt = String(Date.now());
  timeEl.classList.toggle("paused", p.started && !p.running);
  timeEl.classList.toggle("warn", p.running && p.remainingMs <= 60000);
  $("bs-paused").textContent = p.started && !p.running ? t.paused : "";
  $("bs-blinds").textContent = lv && !lv.is_break ? levelLine(lv) : "";
  $("bs-ante").textContent = anteLine(lv);
  $("bs-next").textContent = next ? `${t.next}: ${next.is_break ? `${t.breakWord} ${next.minutes} ${t.min}` : `${levelLine(next)}${anteLine(next) ? " · " + anteLine(next) : ""}`}` : t.lastLevel;
  const toBreak = secondsToBreak(p, index);
  $("bs-break").textContent = toBreak != null && !(lv && lv.is_break) ? formatTime(toBreak) : "–";
  const colorUp = lv && lv.is_break && lv.color_up && lv.color_up.length ? `${t.colorUp}: ${lv.color_up.map((c) => formatChips(c)).join(", ")}` : "";
  $("bs-colorup").textContent = colorUp;
  if (lastIndex !== null && index !== lastIndex && p.running) sounds.play(lv.is_break ? "break" : "level");
  if (p.running && p.remainingMs <= 60000 && p.remainingMs > 59000 && warnedFor !== index) { warnedFor = index; sounds.play("minute"); }
  lastIndex = index;
  requestAnimationFrame(frame);
}

const feed = new Feed({
  wsUrl: cfg.wsUrl,
  snapshotUrl: cfg.snapshotUrl,
  clock,
  onSnapshot: (s) => { snapshot = s; payload = s.clock; drawNumbers(); },
  onEvent: (kind, data) => { payload = data; },
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
requestAnimationFrame(frame);
window.floorClock = { clock, project: () => project(payload, snapshot.levels, clock.now()) };
