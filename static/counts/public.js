// The public counts page on a phone (templates/counts/public.html): when counts change it
// fetches itself again (the same page of the list) and swaps the parts marked `data-live`,
// keeping the reader's place and focus. No reload, no markup built here.
import { watchCounts } from "./live.js";

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
