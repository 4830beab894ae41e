// A season's standings on a big screen (templates/leagues/screen.html). The rows that do not
// fit are shown in pages that rotate every `pageSeconds`; the standings are fetched again every
// `refreshSeconds` with the ETag last seen (304: nothing changed). Names are public names and
// are set with textContent, never read as markup.

const cfg = JSON.parse(document.getElementById("league-screen-config").textContent);
const t = cfg.texts;
const $ = (id) => document.getElementById(id);
const lang = document.documentElement.lang || "en";
const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
const MEDALS = { 1: ["gold", t.gold], 2: ["silver", t.silver], 3: ["bronze", t.bronze] };

let standings = cfg.snapshot;
let etag = cfg.etag;
let pageIndex = 0;
let perPage = 0;

function fill(template, values) {
  return Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template);
}
function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

function rowOf(r) {
  const tr = el("tr");
  const medal = MEDALS[r.rank];
  if (medal) tr.className = medal[0];
  tr.append(el("td", "ls-rank", `${r.rank}.`));
  const who = el("div", "ls-who");
  who.append(el("span", "ls-n", r.name));
  if (medal) who.append(el("span", "ls-medal", medal[1]));
  const name = el("td", "ls-player");
  name.append(who);
  tr.append(name, el("td", "ls-num ls-points", number.format(Number(r.points))));
  tr.append(el("td", "ls-num ls-count", String(r.counted)), el("td", "ls-num ls-count", String(r.played)));
  return tr;
}

// How many rows fit: the board's height less the head, over one row's height (measured with a
// real row, so the fonts and the screen's size decide).
function measure() {
  const body = $("ls-rows");
  const board = $("ls-board");
  if (!standings.rows.length) return 1;
  body.replaceChildren(rowOf(standings.rows[0]));
  const row = body.firstElementChild.getBoundingClientRect().height;
  const style = getComputedStyle(board);
  const inner = board.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
  const head = $("ls-table").tHead.getBoundingClientRect().height;
  return Math.max(1, Math.floor((inner - head - 1) / row));
}

// The rows shown: all, or the first `top` (?top=N; a tie at the edge is shown whole).
function rows() {
  if (!cfg.top || standings.rows.length <= cfg.top) return standings.rows;
  const edge = standings.rows[cfg.top - 1].rank;
  return standings.rows.filter((r, i) => i < cfg.top || r.rank === edge);
}
function pages() { return Math.max(1, Math.ceil(rows().length / perPage)); }

function drawPage() {
  const n = pages();
  if (pageIndex >= n) pageIndex = 0;
  const shown = rows().slice(pageIndex * perPage, (pageIndex + 1) * perPage);
  $("ls-rows").replaceChildren(...shown.map(rowOf));
  $("ls-page").textContent = n > 1 ? fill(t.page, { k: pageIndex + 1, n }) : "";
  $("ls-board").dataset.page = String(pageIndex + 1);
  $("ls-board").dataset.pages = String(n);
}

function draw() {
  const s = standings;
  $("ls-title").textContent = s.league;
  $("ls-season").textContent = s.season;
  $("ls-after").textContent = fill(t.after, { finished: s.finished, total: s.tournaments });
  $("ls-best").textContent = s.best_n ? ` · ${fill(t.bestN, { n: s.best_n })}` : "";
  $("ls-table").hidden = !s.rows.length;
  $("ls-empty").hidden = !!s.rows.length;
  $("ls-board").dataset.version = etag; // which standings are shown (tests read it)
  // Full pages; but when the last would hold less than a third of a page, the pages are filled
  // evenly instead (34 rows, 11 fit: 9, 9, 9, 7 rather than 11, 11, 11, 1).
  const table = $("ls-table");
  table.style.setProperty("--grow", "1");
  const fit = measure();
  const n = Math.max(1, Math.ceil(rows().length / fit));
  const last = rows().length - (n - 1) * fit;
  perPage = n > 1 && last < fit / 3 ? Math.ceil(rows().length / n) : fit;
  const showing = Math.min(pageIndex, n - 1);
  pageIndex = 0; // the fullest page decides how far the rows may grow
  drawPage();
  // Fewer rows than fit: they grow to fill the board, as far as it holds them.
  if (perPage < fit) {
    let grow = Math.min(1.3, fit / perPage);
    for (let i = 0; i < 12 && grow > 1; i++, grow -= 0.03) {
      table.style.setProperty("--grow", grow.toFixed(2));
      if (!overflows()) break;
    }
    if (overflows()) table.style.setProperty("--grow", "1");
  }
  pageIndex = showing;
  drawPage();
}

// Does the page shown reach below the board's padding (a row that would be cut off)?
function overflows() {
  const board = $("ls-board");
  const bottom = board.getBoundingClientRect().bottom - parseFloat(getComputedStyle(board).paddingBottom);
  return $("ls-table").getBoundingClientRect().bottom > bottom + 0.5;
}

async function refresh() {
  try {
    const r = await fetch(cfg.url, { cache: "no-store", headers: { "If-None-Match": etag } });
    $("ls-status").hidden = r.ok || r.status === 304;
    if (r.status === 304 || !r.ok) return;
    standings = await r.json();
    etag = r.headers.get("ETag") || "";
    draw();
    if (window.floorCharts) window.floorCharts.refresh(); // the race follows (static/floor/charts.js)
  } catch (e) {
    $("ls-status").textContent = t.offline; // keep the last standings shown
    $("ls-status").hidden = false;
  }
}

$("ls-status").textContent = t.offline;
$("ls-full").addEventListener("click", () => {
  const root = $("league-screen");
  if (!document.fullscreenElement) root.requestFullscreen && root.requestFullscreen();
  else document.exitFullscreen();
});
let resizeTimer = null;
window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(draw, 150); });
draw();
if (document.fonts && document.fonts.ready) document.fonts.ready.then(draw);
setInterval(() => { pageIndex = (pageIndex + 1) % pages(); drawPage(); }, cfg.pageSeconds * 1000);
setInterval(refresh, cfg.refreshSeconds * 1000);
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") refresh(); });
