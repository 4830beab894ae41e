// The bag-and-tag page follows the tables live: a count recorded anywhere (a tablet, another
// chip counter) or a bust sends the tournament's `counts`/`bust` message (static/counts/live.js);
// the page then fetches itself once, spread over a second, and swaps in the parts that change —
// the figures, the flags and the tables — leaving the close-the-day form as it is.
import { watchCounts } from "../counts/live.js";

const root = document.getElementById("bagging-live");
const PARTS = ["fe-figures", "fe-flags", "fe-tables-card"];

async function refresh() {
  const response = await fetch(location.href, { headers: { "X-Requested-With": "fetch" } });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const id of PARTS) {
    const now = document.getElementById(id);
    const next = page.getElementById(id);
    if (now && next) now.replaceWith(next);
    else if (!now && next) (document.getElementById("fe-figures") || root).after(next);
    else if (now && !next) now.remove();
  }
}

if (root) {
  // The version the page was rendered at.
  watchCounts({ wsUrl: root.dataset.ws, version: root.dataset.version, onChange: refresh, spreadMs: 1000 });
}
