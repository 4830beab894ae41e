// Seating chart: refresh when the floor's feed says the tables changed; poll while it is down.
const chart = document.getElementById("chart");
let timer = null;
let ws = null;
let retry = 500;

function refresh() {
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (document.querySelector("#chart form:focus-within input:not([type=hidden])")) return;
    if (window.htmx) window.htmx.ajax("GET", chart.dataset.url + location.search, { target: "#chart", swap: "innerHTML" });
  }, 300);
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  ws = new WebSocket(`${proto}//${location.host}${chart.dataset.ws}`);
  ws.onopen = () => { retry = 500; clearInterval(window.__poll); };
  ws.onmessage = (m) => {
    let msg;
    try { msg = JSON.parse(m.data); } catch (e) { return; }
    if (msg.type === "event" && msg.event !== "clock") refresh();
  };
  ws.onclose = () => {
    clearInterval(window.__poll);
    window.__poll = setInterval(refresh, 10000);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 10000);
  };
}
connect();
