// Live charts (core/charts.py): a chart is an <img> of its own SVG document. When the page learns
// that its figures changed (counts, busts, standings), its live script calls floorCharts.refresh():
// every img[data-chart-live] is asked for again, at most once every two seconds, and the new
// picture replaces the old only once it has loaded, so the page never blanks or waits on it.
(function () {
  "use strict";
  const QUIET_MS = 2000;
  let last = 0;
  let timer = null;

  function bump(img) {
    const url = new URL(img.getAttribute("src"), window.location.href);
    url.searchParams.set("v", String(Date.now()));
    const next = new Image();
    next.onload = function () { img.src = next.src; };
    next.src = url.pathname + url.search;
  }

  function redraw(root) {
    last = Date.now();
    timer = null;
    (root || document).querySelectorAll("img[data-chart-live]").forEach(bump);
  }

  function refresh(root) {
    if (timer) return;
    const wait = Math.max(0, last + QUIET_MS - Date.now());
    timer = window.setTimeout(function () { redraw(root); }, wait);
  }

  // Set one chart to another address (playback: the same chart up to another level).
  function show(img, params) {
    const url = new URL(img.getAttribute("src"), window.location.href);
    Object.keys(params).forEach(function (key) {
      if (params[key] === null) url.searchParams.delete(key);
      else url.searchParams.set(key, String(params[key]));
    });
    const next = new Image();
    next.onload = function () { img.src = next.src; };
    next.src = url.pathname + url.search;
  }

  window.floorCharts = { refresh: refresh, show: show };
})();
