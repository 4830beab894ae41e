// The lobby: several tournaments at once, each with its clock and figures, live from its own
// feed (the same websocket and snapshot as the big screen: static/clocks/clock.js).
import { Feed, ServerClock, applyBoard, formatChips, formatMoney, formatTime, project, setText } from "../clocks/clock.js";

const cfg = JSON.parse(document.getElementById("lobby-config").textContent);
const t = cfg.texts;
const clock = new ServerClock(cfg.timeUrl);
const cards = [];

function set(card, field, text) {
  setText(card.querySelector(`[data-f="${field}"]`), text);
}

function draw(c) {
  const s = c.snapshot;
  if (!s) return;
  const lang = document.documentElement.lang;
  const p = project(c.payload, s.levels || [], clock.now());
  const lv = (s.levels || [])[p.index];
  let level = t.notStarted;
  if (s.status === "finished") level = t.ended;
  else if (p.started && lv) level = lv.is_break ? t.breakWord : `${t.level} ${lv.number}`;
  if (p.started && !p.running && s.status !== "finished") level += ` · ${t.paused}`;
  set(c.node, "level", level);
  set(c.node, "time", s.status === "finished" ? "" : formatTime(p.remainingMs));
  let blinds = "";
  if (lv && !lv.is_break) {
    blinds = `${formatChips(lv.small_blind, lang)} / ${formatChips(lv.big_blind, lang)}`;
    if (lv.big_blind_ante) blinds += ` · ${t.bbAnte} ${formatChips(lv.big_blind, lang)}`; // the big blind, as the big screen
    else if (lv.ante) blinds += ` · ${t.ante} ${formatChips(lv.ante, lang)}`;
  }
  set(c.node, "blinds", blinds || "\u00a0");
  // Registering with registration closed (a Day 2 once drawn) says so, as the pages do.
  const closed = s.status === "registering" && s.registration_closed;
  set(c.node, "status", closed ? t.registrationClosed : t.status[s.status] || s.status);
  const num = (v) => (v === null || v === undefined ? "–" : formatChips(v, lang));
  set(c.node, "players", num(s.players_left));
  set(c.node, "entries", num(s.entries));
  set(c.node, "average", num(s.average_stack));
  set(c.node, "pool", s.prize_pool === null || s.prize_pool === undefined ? "–" : formatMoney(s.prize_pool, c.node.dataset.currency, lang));
}

for (const node of document.querySelectorAll("[data-lobby]")) {
  const id = node.dataset.lobby;
  const c = { node, snapshot: null, payload: null };
  cards.push(c);
  const feed = new Feed({
    wsUrl: `/ws/t/${id}/`,
    snapshotUrl: `/t/${id}/clock.json`,
    clock,
    onSnapshot: (s) => { c.snapshot = s; c.payload = s.clock; draw(c); },
    onEvent: (kind, data) => {
      if (!c.snapshot) return;
      if (kind === "clock" || kind === "level") c.payload = data;
      if (data.board) applyBoard(c.snapshot, data.board);
      if (kind === "structure" && data.levels) c.snapshot.levels = data.levels;
      draw(c);
    },
  });
  feed.start();
}
clock.syncHttp();
setInterval(() => cards.forEach(draw), 250);
