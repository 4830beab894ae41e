// The public page of one table (the QR on the table card): who sits where, live. The table's
// messages carry its seats (live/catalogue.py PublicTableView): applied, no request. A
// snapshot is taken when the socket (re)connects, and after a draw (every table's page of the
// room asks once, spread out).
import { Feed, ServerClock, soonSpread } from "../clocks/clock.js";

const cfg = JSON.parse(document.getElementById("table-config").textContent);
const list = document.getElementById("public-seats");
const closed = document.getElementById("table-closed");
let version = cfg.version || 0;

function draw(view) {
  // A view read before one already shown (another server process's, late) is not put back.
  if (view.version != null && view.version < version) return;
  version = view.version || version;
  closed.hidden = view.open;
  list.replaceChildren(...view.seats.map((s) => {
    const li = document.createElement("li");
    const n = document.createElement("span");
    n.className = "n";
    n.textContent = s.n;
    const who = document.createElement("span");
    if (s.name == null) {
      const empty = document.createElement("span");
      empty.className = "muted";
      empty.textContent = cfg.empty;
      who.append(empty);
    } else {
      who.textContent = s.name;
    }
    li.append(n, who);
    return li;
  }));
}

const feed = new Feed({
  wsUrl: cfg.ws,
  snapshotUrl: cfg.json,
  clock: new ServerClock("/api/time"),
  onSnapshot: draw,
  onEvent: (event, data) => {
    if (event === "seats" && data.seats) draw(data);
    else if (event === "seating" && data.draw) soonSpread(() => feed.refresh());
  },
});
feed.start();
window.floorTable = { get version() { return version; } };
