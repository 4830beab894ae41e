// Chip counts on a big screen (templates/counts/screen.html). The counted players, largest
// stack first, in pages that rotate every `pageSeconds` (as many rows as the screen holds);
// the counts are fetched again every `refreshSeconds` with the ETag last seen (304: nothing
// changed), and at once (spread over two seconds) when the tournament's socket says counts
// were recorded or players went out (static/counts/live.js). Names are public names, set with
// textContent, never read as markup.
import { watchCounts } from "./live.js";
import { setupPlayback } from "./playback.js";

const cfg = JSON.parse(document.getElementById("counts-screen-config").textContent);
const t = cfg.texts;
const $ = (id) => document.getElementById(id);
const lang = document.documentElement.lang || "en";
const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
const clock = new Intl.DateTimeFormat(lang, {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: cfg.timeZone || undefined,
});

let data = cfg.snapshot;
let etag = cfg.etag;
let pageIndex = 0;
let perPage = 1;

function fill(template, values) {
  return Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template);
}
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}
function age(iso) {
  if (!iso) return "";
  const minutes = Math.floor((Date.now() - Date.parse(iso)) / 60000);
  return minutes < 1 ? t.now : fill(t.ago, { m: minutes });
}
// 100 big blinds and more without the tenth: the column stays narrow on a portrait screen.
function bigBlinds(bb) { return bb >= 100 ? whole.format(Math.round(bb)) : number.format(bb); }
function counted() { return data.players.filter((r) => r.counted); }

function rowOf(r) {
  const tr = el("tr");
  tr.append(el("td", "ls-rank", `${r.rank}.`));
  const who = el("div", "ls-who");
  who.append(el("span", "ls-n", r.name));
  who.append(el("span", "cs-age", age(r.counted_at)));
  const name = el("td", "ls-player");
  name.append(who);
  const seat = r.table ? `${r.table}/${r.seat}` : "–";
  tr.append(name, el("td", "cs-seat", seat), el("td", "ls-num cs-chips", number.format(r.chips)));
  tr.append(el("td", "ls-num cs-bb", r.big_blinds === null ? "–" : bigBlinds(r.big_blinds)));
  return tr;
}

function measure() {
  const rows = counted();
  const board = $("cs-board");
  if (!rows.length) return 1;
  $("cs-rows").replaceChildren(rowOf(rows[0]));
  const row = $("cs-rows").firstElementChild.getBoundingClientRect().height;
  const style = getComputedStyle(board);
  const inner = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const head = $("cs-table").tHead.getBoundingClientRect().height;
  return Math.max(1, Math.floor((inner - head - 1) / row));
}
function pages() { return Math.max(1, Math.ceil(counted().length / perPage)); }

function drawPage() {
  const n = pages();
  if (pageIndex >= n) pageIndex = 0;
  const shown = counted().slice(pageIndex * perPage, (pageIndex + 1) * perPage);
  $("cs-rows").replaceChildren(...shown.map(rowOf));
  $("cs-page").textContent = n > 1 ? fill(t.page, { k: pageIndex + 1, n }) : "";
  $("cs-board").dataset.page = String(pageIndex + 1);
  $("cs-board").dataset.pages = String(n);
}

function draw() {
  const a = data.average;
  $("cs-title").textContent = data.name;
  $("cs-left").textContent = data.players_left === 1 ? t.leftOne : fill(t.left, { n: data.players_left });
  let avg = fill(t.average, { chips: number.format(a.chips) });
  if (a.big_blinds !== null) avg += ` (${fill(t.bb, { n: number.format(a.big_blinds) })})`;
  $("cs-avg").textContent = `${avg} · ${fill(t.counted, { k: a.counted, n: a.players })}`;
  $("cs-updated").textContent = a.newest ? `${t.counts}: ${clock.format(new Date(a.newest))}` : "";
  const any = counted().length > 0;
  $("cs-table").hidden = !any;
  $("cs-empty").hidden = any;
  $("cs-board").dataset.version = etag; // which counts are shown (tests read it)
  const fit = measure();
  const rows = counted().length;
  const n = Math.max(1, Math.ceil(rows / fit));
  const last = rows - (n - 1) * fit;
  // The last page never holds less than a third of a page: the pages are filled evenly then.
  perPage = n > 1 && last < fit / 3 ? Math.ceil(rows / n) : fit;
  drawPage();
}

async function refresh() {
  try {
    const r = await fetch(cfg.url, { cache: "no-store", headers: { "If-None-Match": etag } });
    $("cs-status").hidden = r.ok || r.status === 304;
    if (r.status === 304 || !r.ok) return;
    data = await r.json();
    etag = r.headers.get("ETag") || "";
    draw();
    if (window.floorCharts) window.floorCharts.refresh(); // the leaders' chart, redrawn
  } catch (e) {
    $("cs-status").hidden = false; // keep the last counts shown
  }
}

$("cs-status").textContent = t.offline;
$("cs-full").addEventListener("click", () => {
  const root = $("counts-screen");
  if (!document.fullscreenElement) root.requestFullscreen && root.requestFullscreen();
  else document.exitFullscreen();
});
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 150); });
draw();
// The leaders' chart plays the levels back by itself, holds the latest a while, and again.
const playback = document.querySelector(".cs-chart .playback");
if (playback) setupPlayback(playback, { loop: true, autoplay: true, holdMs: cfg.pageSeconds * 1000 });
if (document.fonts && document.fonts.ready) document.fonts.ready.then(draw);
setInterval(() => { pageIndex = (pageIndex + 1) % pages(); drawPage(); }, cfg.pageSeconds * 1000);
setInterval(refresh, cfg.refreshSeconds * 1000);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
watchCounts({ wsUrl: cfg.ws, version: cfg.snapshot.version, onChange: refresh, onStatus: (s) => { $("counts-screen").dataset.live = s; } });
