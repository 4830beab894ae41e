// The playback of a leaders' chart (templates/counts/_playback.html): the slider picks the level
// the chart is drawn up to (the picture's `upto`), the button plays the levels one after another
// from the first (or from where the slider stands) to the last. The slider is a native range:
// arrow keys, Home and End move it; its value is read out as "Level 5" (aria-valuetext).
// At the last level the chart's address has no `upto`: it shows the latest, and the page's live
// refresh (floorCharts.refresh) keeps it so as counts arrive.
const STEP_MS = 1400;

function label(box, level) {
  return level > 0 ? box.dataset.textLevel.replace("%(n)s", String(level)) : box.dataset.textStart;
}

export function setupPlayback(box, { loop = false, autoplay = false, holdMs = 8000 } = {}) {
  const range = box.querySelector(".playback-range");
  const play = box.querySelector(".playback-play");
  const output = box.querySelector(".playback-level");
  const img = document.querySelector(`#${box.dataset.chart} img`);
  let timer = null;

  function show(level) {
    const last = Number(range.max);
    range.value = String(level);
    const text = label(box, level);
    range.setAttribute("aria-valuetext", text);
    if (output) output.textContent = text;
    if (img && window.floorCharts) window.floorCharts.show(img, { upto: level >= last ? null : level });
    box.dataset.level = String(level); // tests wait for it
  }
  function stop() {
    if (timer) window.clearTimeout(timer);
    timer = null;
    if (play) play.textContent = box.dataset.textPlay;
    box.dataset.playing = "false";
  }
  function tick() {
    const level = Number(range.value);
    if (level >= Number(range.max)) {
      if (!loop) { stop(); return; }
      timer = window.setTimeout(() => { show(Number(range.min)); timer = window.setTimeout(tick, STEP_MS); }, holdMs);
      return;
    }
    show(level + 1);
    timer = window.setTimeout(tick, STEP_MS);
  }
  function start() {
    if (Number(range.value) >= Number(range.max)) show(Number(range.min));
    if (play) play.textContent = box.dataset.textPause;
    box.dataset.playing = "true";
    timer = window.setTimeout(tick, STEP_MS);
  }
  range.addEventListener("input", () => { stop(); show(Number(range.value)); });
  if (play) play.addEventListener("click", () => { if (timer) stop(); else start(); });
  // The levels grow as the night goes on: the page's live update tells the new last level.
  box.addEventListener("playback:last", (e) => {
    const atEnd = Number(range.value) >= Number(range.max);
    range.max = String(e.detail);
    if (atEnd && !timer) show(Number(e.detail));
  });
  if (autoplay) start();
  return { show, stop, start };
}

for (const box of document.querySelectorAll(".playback")) if (!box.closest(".cs-chart")) setupPlayback(box);
