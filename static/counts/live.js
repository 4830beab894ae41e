// Live chip counts: the counts pages listen on the tournament's socket (/ws/t/<id>/) and fetch
// the public counts again when counts are recorded or players go out. The message says only
// that something changed (live/catalogue.py `counts`): every page waits a random moment
// of up to `spreadMs` first, so a room of phones does not ask in the same instant (the server
// keeps one copy of the counts per change). After a reconnect the page fetches once; on the
// first connection too when the socket's hello names a newer event-log version than the one the
// page was rendered at (`version`: a number, or a `data-version` attribute as it is; empty or
// absent, no comparison): a change between the page and its socket came on no message.
const CHANGES = new Set(["counts", "bust", "bust_undo"]);

export function watchCounts({ wsUrl, onChange, onStatus = () => {}, spreadMs = 2000, version = null }) {
  version = version === null || version === undefined || version === "" ? null : Number(version);
  let retry = 500;
  let timer = null;
  let everOpen = false;
  const soon = () => {
    if (timer) return; // one fetch for a burst of messages
    timer = setTimeout(() => { timer = null; onChange(); }, Math.random() * spreadMs);
  };
  const connect = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    let ws;
    const url = version === null ? wsUrl : `${wsUrl}?hello=1`; // the hello only when compared
    try { ws = new WebSocket(`${proto}//${location.host}${url}`); } catch (e) { later(); return; }
    ws.onopen = () => {
      retry = 500;
      onStatus("live");
      if (everOpen) soon(); // what was missed while the socket was down
      everOpen = true;
    };
    ws.onmessage = (m) => {
      let msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if (msg.type === "event" && CHANGES.has(msg.event)) soon();
      else if (msg.type === "hello" && version !== null && msg.version > version) {
        version = msg.version;
        soon();
      }
    };
    ws.onclose = (e) => {
      onStatus("offline");
      if (e.code !== 4404) later();
    };
  };
  const later = () => { setTimeout(connect, retry); retry = Math.min(retry * 2, 10000); };
  connect();
  window.addEventListener("online", () => soon());
}
