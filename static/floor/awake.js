// Keeps the screen of a device that is left on awake: the big screens (clock, display manager,
// chip counts, league standings) and the dealer tablets.
//
// Where the Screen Wake Lock API exists (HTTPS, or localhost) the page holds a screen wake lock,
// taken again whenever it comes back into view (the browser lets it go when the page is hidden).
// On plain HTTP over the LAN the API is missing: then NoSleep.js (static/vendor/nosleep/) plays a
// tiny blank video in a loop, which keeps the screen on too. A browser plays it only after a
// person touched the page, so the page shows a "Keep this screen on" button; the first tap or
// key press anywhere (the button, a seat, a frame of the display manager) starts it, the button
// goes and a short line says that the screen stays on. Where neither works, one line says to
// switch off auto-lock in the device's settings.
//
// The words come from the page (templates/includes/awake.html: the button's text, the
// data-on and data-off texts of #awake). A page without that markup (the console's clock, the
// public tournament page, a clock inside a display's frame) only takes the wake lock, silently.
//
// State, for tests and a look in the console: `data-awake` on #awake-state and
// `window.floorAwake.state`: "lock" (wake lock held), "ask" (the button shows), "starting",
// "on" (NoSleep plays), "off" (neither works: the settings line shows), "" (not started).

const NOSLEEP_SRC = new URL("../vendor/nosleep/NoSleep.min.js", import.meta.url).href;
const ON_SHOWN_MS = 6000; // how long "The screen stays on" stays in view
const STARTING_MS = 5000; // how long a video may take to start before the button comes back
// Keys that move around the page rather than act: they do not count as the first touch, so the
// keyboard reaches the button before the page starts on its own.
const NOT_A_PRESS = new Set(["Tab", "Shift", "Control", "Alt", "Meta", "Escape", "CapsLock"]);

// One per page, even when the script is loaded twice under two names (the page's own tag, with
// the static files' hashed name in production, and an import from clocks/clock.js).
export function keepAwake() {
  if (!window.floorAwake) window.floorAwake = start();
  return window.floorAwake.ready;
}

function start() {
  const box = document.getElementById("awake");
  const button = box ? box.querySelector(".awake-ask") : null;
  const line = box ? box.querySelector(".awake-state") : null;
  const api = { state: "", ready: null };
  let lock = null;
  let noSleep = null;
  let pending = null;
  let fade = 0;

  function show(state) {
    if (api.state === state) return;
    api.state = state;
    if (!box) return;
    clearTimeout(fade);
    if (line.dataset.awake !== state) line.dataset.awake = state;
    button.hidden = state !== "ask";
    const text = state === "on" ? box.dataset.on : state === "off" ? box.dataset.off : "";
    if (line.textContent !== text) line.textContent = text;
    // "On" is said once, then leaves the screen to what it shows; "off" stays.
    if (state === "on") fade = setTimeout(() => { line.textContent = ""; }, ON_SHOWN_MS);
  }

  async function takeLock() {
    if (lock && !lock.released) return;
    try {
      lock = await navigator.wakeLock.request("screen");
      show("lock");
    } catch (e) {
      // Refused while hidden: asked again when the page is shown. Refused in view (a power
      // saving mode, a policy): the page says how to keep the screen on by hand.
      lock = null;
      if (document.visibilityState === "visible") show(box ? "off" : "");
    }
  }

  if ("wakeLock" in navigator) {
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") takeLock();
    });
    api.ready = takeLock();
    return api;
  }

  // No wake lock (plain HTTP). Without the page's markup there is nobody to ask: nothing to do.
  if (!box) {
    api.ready = Promise.resolve();
    return api;
  }

  // The first touch: NoSleep's play() must run inside it, so the library is loaded beforehand.
  // Once on, or once the video proved unplayable ("off"), a touch is only a touch.
  function play() {
    if (!noSleep || pending || api.state === "on" || api.state === "off") return;
    show("starting");
    const started = noSleep.enable().then(
      () => { if (pending === started) show("on"); },
      // Not allowed (no real touch yet, a key with a modifier): ask again. Anything else (the
      // video cannot play here): the settings line.
      (e) => { if (pending === started) show(e && e.name === "NotAllowedError" ? "ask" : "off"); },
    ).finally(() => { if (pending === started) pending = null; });
    pending = started;
    // A video that neither plays nor fails within a few seconds: the button again.
    setTimeout(() => { if (pending === started) { pending = null; show("ask"); } }, STARTING_MS);
  }
  const onPress = (e) => {
    if (e.type === "keydown" && (NOT_A_PRESS.has(e.key) || e.repeat)) return;
    play();
  };
  const listen = (doc) => {
    doc.addEventListener("pointerup", onPress, true);
    doc.addEventListener("keydown", onPress, true);
    doc.addEventListener("click", onPress, true);
  };
  listen(document);
  button.addEventListener("click", play);
  // The display manager shows its views in frames of this installation's own pages: a tap on a
  // frame is a tap on the screen too (and the browser counts it for this page as well).
  document.addEventListener("load", (e) => {
    if (e.target instanceof HTMLIFrameElement) {
      try { listen(e.target.contentDocument); } catch (err) { /* not ours: its taps stay its own */ }
    }
  }, true);
  // Back in view: the browser may have paused the video meanwhile. A page once touched may play
  // again without a new touch; where the browser says no, the button comes back.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible" && api.state === "on" && noSleep) {
      noSleep.enable().catch(() => show("ask"));
    }
  });

  api.ready = loadNoSleep().then(
    (NoSleep) => {
      noSleep = new NoSleep();
      // NoSleep's stand-in for iOS before 10 reloads the page every 15 seconds: not on a
      // dealer's tablet. Only its video is used.
      if (!noSleep.noSleepVideo) { noSleep = null; show("off"); return; }
      show("ask");
    },
    () => show("off"),
  );
  return api;
}

// NoSleep.js is a UMD bundle (window.NoSleep when run as a classic script), not a module.
function loadNoSleep() {
  if (window.NoSleep) return Promise.resolve(window.NoSleep);
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = NOSLEEP_SRC;
    script.addEventListener("load", () => (window.NoSleep ? resolve(window.NoSleep) : reject(new Error("NoSleep"))));
    script.addEventListener("error", reject);
    document.head.append(script);
  });
}

// A page that shows the markup starts at once; clocks/clock.js's keepAwake() is the same call.
if (document.getElementById("awake")) keepAwake();
