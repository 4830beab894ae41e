// The public counts page on a phone (templates/counts/public.html): when counts change it
// fetches itself again (the same page of the list) and swaps the parts marked `data-live`,
// keeping the reader's place and focus. No reload, no markup built here.
import { watchCounts } from "./live.js";
import { setupPlayback } from "./playback.js";

const root = document.getElementById("counts-public");

async function update() {
  let html;
  try {
    const r = await fetch(location.href, { cache: "no-store", headers: { "X-Floor-Live": "1" } });
    if (!r.ok) return;
    html = await r.text();
  } catch (e) { return; } // offline: keep what is shown
  const fresh = new DOMParser().parseFromString(html, "text/html");
  const focused = document.activeElement && document.activeElement.id;
  for (const part of root.querySelectorAll("[data-live]")) {
    const next = fresh.getElementById(part.id);
    if (next && next.innerHTML !== part.innerHTML) part.innerHTML = next.innerHTML;
  }
  // The charts: redrawn (floorCharts, debounced), their tables and the playback's last level
  // taken from the fresh page.
  for (const table of root.querySelectorAll("figure.chart .chart-data tbody")) {
    const id = table.closest("figure.chart").id;
    const next = fresh.querySelector(`#${id} .chart-data tbody`);
    if (next && next.innerHTML !== table.innerHTML) table.innerHTML = next.innerHTML;
  }
  const playback = root.querySelector(".playback");
  const nextPlayback = fresh.querySelector(".playback");
  if (playback && nextPlayback) {
    playback.dispatchEvent(new CustomEvent("playback:last", { detail: Number(nextPlayback.dataset.last) }));
  } else if (!playback && nextPlayback) {
    // The first counts: the chart and its playback appear.
    root.querySelector("#cl-graph").innerHTML = fresh.getElementById("cl-graph").innerHTML;
    setupPlayback(root.querySelector(".playback"));
  }
  if (window.floorCharts) window.floorCharts.refresh(root);
  if (focused && document.activeElement !== document.getElementById(focused)) {
    document.getElementById(focused)?.focus({ preventScroll: true });
  }
  root.dataset.updated = String(Date.now()); // tests wait for it
}

watchCounts({
  wsUrl: root.dataset.ws,
  version: root.dataset.version, // what the page shows
  onChange: update,
  onStatus: (s) => { root.dataset.live = s; },
});
