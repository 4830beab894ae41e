// "My seat": the player's own page. Live over the websocket, polling while it is down, and the
// last known seat kept on the phone so a dead connection still shows where to sit.
import { Feed, ServerClock, formatMoney, soonSpread } from "../clocks/clock.js";

const cfg = JSON.parse(document.getElementById("seat-config").textContent);
const t = cfg.texts;
const body = document.getElementById("seat-body");
const notice = document.getElementById("notice");
const conn = document.getElementById("seat-conn");
const storeKey = `floor-seat:${cfg.json}`;
let last = null;
try { last = JSON.parse(localStorage.getItem(storeKey) || "null"); } catch (e) { last = null; }

function esc(s) { return String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c])); }

function draw(seat) {
  if (seat.status === "active" && seat.place === 1) {
    // The tournament is over and this player is its winner (or won a satellite seat).
    const prize = seat.prize ? ` ${t.prize}: ${formatMoney(seat.prize, cfg.currency)}` : "";
    body.innerHTML = `<div class="notice final-note" id="seat-won">${seat.won_seat ? t.wonSeat : t.won + prize}</div>`;
  } else if (seat.status === "active" && seat.table) {
    body.innerHTML = `<div class="where"><div><div class="k">${t.table}</div><div class="v" id="seat-table">${seat.table}</div></div><div><div class="k">${t.seat}</div><div class="v" id="seat-seat">${seat.seat}</div></div></div>` +
      (seat.area ? `<div class="area">${esc(seat.area)}</div>` : "") + (seat.must_wait ? `<div class="notice wait">${t.wait}</div>` : "");
  } else if (seat.status === "active") {
    body.innerHTML = `<p class="area">${t.notDrawn}</p>`;
  } else if (seat.status === "alternate") {
    body.innerHTML = `<p class="area">${t.waiting} ${seat.alternate_position}</p>`;
  } else if (seat.status === "busted") {
    body.innerHTML = `<p class="area">${t.busted} ${seat.place}.` + (seat.prize ? ` ${t.prize}: ${formatMoney(seat.prize, cfg.currency)}` : "") + `</p>`;
  }
}

function showMove(seat) {
  notice.innerHTML = `<div class="notice move"><div>${t.moved}</div><div class="big">${t.table} ${seat.table} · ${t.seat} ${seat.seat}</div>${seat.area ? `<div>${esc(seat.area)}</div>` : ""}</div>`;
  if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
}

function update(seat) {
  const moved = last && last.status === "active" && seat.status === "active" && seat.table &&
    last.table && (last.table !== seat.table || last.seat !== seat.seat);
  if (moved) showMove(seat);
  if (seat.status === "busted" && (!last || last.status !== "busted")) {
    notice.innerHTML = `<div class="notice bust">${t.busted} ${seat.place}.${seat.prize ? ` ${t.prize}: ${formatMoney(seat.prize, cfg.currency)}` : ""}</div>`;
  }
  last = seat;
  localStorage.setItem(storeKey, JSON.stringify(seat));
  draw(seat);
}

// A late entry pushes every place given so far down by one (place = entries + 1 - rank): a
// player who is out follows it from the board every screen gets.
let boardVersion = 0;
function movePlace(board) {
  if (board.version != null && board.version < boardVersion) return;
  boardVersion = board.version || boardVersion;
  if (!last || last.status !== "busted" || !last.rank || !board.entries) return;
  const place = board.entries + 1 - last.rank;
  if (place !== last.place && place >= 1) {
    last = { ...last, place };
    localStorage.setItem(storeKey, JSON.stringify(last));
    draw(last);
  }
}

if (last) draw(last);
const feed = new Feed({
  wsUrl: cfg.ws,
  snapshotUrl: cfg.json,
  clock: new ServerClock("/api/time"),
  onSnapshot: update,
  // The player's own messages carry the seat (tournament/live.py): shown at once, no request.
  // Only a draw, sent to the whole room at once, makes the phone ask, once, spread out.
  onEvent: (event, data) => {
    if (data.seat) update(data.seat);
    else if (event === "seating" && data.draw) soonSpread(() => feed.refresh());
    else if (data.board) movePlace(data.board);
  },
  onStatus: (s) => { conn.textContent = s === "live" ? `● ${t.live}` : t.offline; },
});
feed.start();
window.floorSeat = { get last() { return last; } };
