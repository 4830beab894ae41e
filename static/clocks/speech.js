// Spoken announcements on a big screen (?sound=1): a queue, a chime before each, the browser's
// speech synthesis in the page's language, and a caption on the screen for every announcement
// (also where no voice exists or the sound is off). Where the browser has no voice of the
// language, the server speaks it (espeak-ng): the screen fetches the announcement's clip by its
// kind and figures, never its words (clocks/audio_views.py), and plays it after the chime.
//
// The clock's announcements (levels, breaks, the colour-up a level ahead, late registration)
// are worked out here from two successive looks at the clock: the same rules as
// clocks/domain/announcements.py (a test runs both on the same clocks). The floor's (table
// breaks and moves, hand-for-hand, the bubble, the final table, a test) arrive as the live
// message `announce` with their words; new texts for the clock's own, and a new end of late
// registration, as the live message `speech`.

export const LATE_REGISTRATION_WARNING_MS = 5 * 60000;
export const BREAK_ENDING_WARNING_MS = 60000;
// A row's start is said only this soon after it: a screen that wakes up later is silent.
export const ROW_START_GRACE_MS = 30000;

// A row: { number, after_level, is_break, minutes, small_blind, big_blind, ante, big_blind_ante,
// color_up } (tournament/live.py level_rows). A look: { index, remainingMs, running }.

export function closingRow(levels, untilLevel) {
  if (untilLevel == null) return null;
  for (let i = 0; i < levels.length; i++) {
    const row = levels[i];
    if (!row.is_break && row.number != null && row.number > untilLevel) return i;
  }
  return null;
}

export function msUntilRow(levels, look, row) {
  if (row <= look.index) return 0;
  let ms = look.remainingMs;
  for (let i = look.index + 1; i < row; i++) ms += levels[i].minutes * 60000;
  return ms;
}

function nextBreak(levels, index) {
  return index + 1 < levels.length && levels[index + 1].is_break ? index + 1 : null;
}

const due = (kind, params, row) => ({ kind, params, row });

export function rowStart(levels, index, untilLevel) {
  const row = levels[index];
  const out = [];
  if (row.is_break) out.push(due("break_start", { level: row.after_level, minutes: row.minutes }, index));
  else if (row.ante || row.big_blind_ante) {
    const ante = row.big_blind_ante ? row.big_blind : row.ante;
    out.push(due("level_start_ante", { level: row.number, small_blind: row.small_blind, big_blind: row.big_blind, ante }, index));
  } else out.push(due("level_start", { level: row.number, small_blind: row.small_blind, big_blind: row.big_blind }, index));
  if (index === closingRow(levels, untilLevel)) out.push(due("late_registration_closed", { level: untilLevel }, index));
  const following = nextBreak(levels, index);
  if (!row.is_break && following != null) {
    const brk = levels[following];
    out.push(due("last_level_before_break", { level: row.number, minutes: brk.minutes }, index));
    if (brk.color_up && brk.color_up.length) out.push(due("colour_up_ahead", { chips: brk.color_up.join(", ") }, index));
  }
  if (!row.is_break && untilLevel != null && row.number === untilLevel && closingRow(levels, untilLevel) != null) {
    out.push(due("late_registration_last_level", { level: row.number }, index));
  }
  return out;
}

// What became due between two successive looks at the clock, in the order it is said.
export function announcementsDue(levels, before, after, untilLevel) {
  if (!after.running || !levels.length) return [];
  const out = [];
  const startedAgo = levels[after.index].minutes * 60000 - after.remainingMs;
  if (after.index !== before.index && startedAgo <= ROW_START_GRACE_MS) out.push(...rowStart(levels, after.index, untilLevel));
  const close = closingRow(levels, untilLevel);
  if (close != null && after.index < close) {
    const was = msUntilRow(levels, before, close), now = msUntilRow(levels, after, close);
    if (before.index <= after.index && was > LATE_REGISTRATION_WARNING_MS && LATE_REGISTRATION_WARNING_MS >= now && now > 0) {
      out.push(due("late_registration_closing", { minutes: LATE_REGISTRATION_WARNING_MS / 60000, level: untilLevel }, close));
    }
  }
  const row = levels[after.index];
  if (row.is_break && after.index === before.index && after.index + 1 < levels.length
      && before.remainingMs > BREAK_ENDING_WARNING_MS && BREAK_ENDING_WARNING_MS >= after.remainingMs && after.remainingMs > 0) {
    out.push(due("break_ending", { minutes: BREAK_ENDING_WARNING_MS / 60000, level: levels[after.index + 1].number }, after.index));
  }
  return out;
}

// A text with its {placeholders} filled (numbers in the page's way of writing them).
export function render(text, params, lang) {
  const filled = text.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name) => {
    const v = params[name];
    if (v == null) return "";
    return typeof v === "number" ? v.toLocaleString(lang) : String(v);
  });
  return filled.split(/\s+/).filter(Boolean).join(" ");
}

// The spoken fallback's address of an announcement: its kind, the page's language and its
// figures (the server fills the venue's text with them; null figures stay out, and empty).
export function clipUrl(base, lang, kind, params) {
  const query = new URLSearchParams({ kind, lang });
  for (const [name, value] of Object.entries(params || {})) {
    if (value != null) query.append(name, String(value));
  }
  return `${base}?${query}`;
}

// --- The speaker --------------------------------------------------------------------------------

const CHIME_MS = 900;
// A clip that failed (the server cannot speak, or refuses for a while): captions only for as long.
const CLIP_PAUSE_MS = 5 * 60000;

export class Speaker {
  // cfg: { lang, texts (the clock's announcements), lateUntil, words: { allow, queued },
  // audioUrl (the spoken fallback, null where the server has none), floorFigures (the figures
  // of each of the floor's announcements) };
  // nodes: the caption box, its text, the queue count and the "tap to allow sound" button.
  constructor(cfg, nodes, { muted = () => false } = {}) {
    this.cfg = cfg;
    this.nodes = nodes;
    this.muted = muted;
    this.queue = [];
    this.current = null;
    this.log = []; // what was announced (tests, and a look back)
    this.prev = null;
    this.ctx = null;
    this.synth = window.speechSynthesis || null;
    this.voice = null;
    this.clipsPausedUntil = 0;
    this.pickVoice();
    if (this.synth && this.synth.addEventListener) this.synth.addEventListener("voiceschanged", () => this.pickVoice());
    this.unlockSoon();
  }

  pickVoice() {
    if (!this.synth || !this.synth.getVoices) return;
    const lang = (this.cfg.lang || "en").toLowerCase();
    const voices = this.synth.getVoices() || [];
    const same = voices.filter((v) => (v.lang || "").toLowerCase().replace("_", "-").split("-")[0] === lang);
    this.voice = same.find((v) => v.localService) || same[0] || null;
  }

  // Browsers keep audio off until someone touches the page: say so, and unlock on the first tap.
  unlockSoon() {
    try {
      this.ctx = new (window.AudioContext || window.webkitAudioContext)();
    } catch (e) { this.ctx = null; }
    const blocked = () => this.ctx && this.ctx.state !== "running";
    const hint = this.nodes.hint;
    const unlock = () => {
      if (this.ctx && this.ctx.state !== "running") this.ctx.resume().catch(() => {});
      if (this.synth && this.voice) { try { const u = new SpeechSynthesisUtterance(""); this.synth.speak(u); } catch (e) { /* no voice */ } }
      // Shown only while audio is still blocked (a tap on an unlocked screen must not show it).
      setTimeout(() => { if (hint) hint.hidden = !blocked(); }, 100);
    };
    if (hint) {
      hint.hidden = !blocked();
      hint.addEventListener("click", unlock);
    }
    document.addEventListener("pointerdown", unlock, { once: false, passive: true });
    document.addEventListener("keydown", unlock);
    if (this.ctx && this.ctx.addEventListener) {
      this.ctx.addEventListener("statechange", () => { if (hint) hint.hidden = !blocked(); });
    }
  }

  // Called with every look at the clock (each frame): announce what became due since the last.
  watch(levels, look) {
    const before = this.prev;
    this.prev = look;
    this.levels = levels;
    if (!before || !levels.length) return;
    for (const d of announcementsDue(levels, before, look, this.cfg.lateUntil)) {
      const text = this.cfg.texts[d.kind];
      if (text) this.say(d.kind, render(text, d.params, this.cfg.lang), d.params);
    }
  }

  // The live message `speech`: the venue's texts of the clock's announcements (edited in the
  // console) and the end of late registration (closed or reopened by hand, or moved), taken
  // without a reload. Registration closed by hand before the clock closed it is said once.
  update(data) {
    const texts = data.texts && (data.texts[this.cfg.lang] || data.texts.en);
    if (texts) this.cfg.texts = { ...this.cfg.texts, ...texts };
    if (!("late_until" in data)) return;
    const was = this.cfg.lateUntil;
    this.cfg.lateUntil = data.late_until;
    if (was == null || data.late_until != null || !this.prev || !this.levels) return;
    const close = closingRow(this.levels, was);
    if (close == null || this.prev.index >= close) return; // the clock closed it already
    const text = this.cfg.texts.late_registration_closed;
    if (text) this.say("late_registration_closed", render(text, { level: was }, this.cfg.lang), { level: was });
  }

  // The live message `announce`: its words in the page's language (and its figures, if it
  // carries them, for the spoken fallback).
  fromFloor(data) {
    const text = data.texts[this.cfg.lang] || data.texts.en || Object.values(data.texts)[0];
    if (text) this.say(data.kind, text, this.floorParams(data));
  }

  // The figures of a floor announcement for the spoken fallback: only when the message has every
  // one its kind speaks (or the kind has none); otherwise the caption and the chime are all.
  floorParams(data) {
    const names = (this.cfg.floorFigures || {})[data.kind];
    if (!names) return null;
    const given = data.params || {};
    if (!names.every((name) => given[name] != null)) return null;
    return Object.fromEntries(names.map((name) => [name, given[name]]));
  }

  say(kind, text, params = null) {
    this.queue.push({ kind, text, params });
    this.draw();
    if (!this.current) this.next();
  }

  draw() {
    const { box, text, queued } = this.nodes;
    box.hidden = !this.current;
    box.dataset.kind = this.current ? this.current.kind : "";
    text.textContent = this.current ? this.current.text : "";
    queued.textContent = this.queue.length ? this.cfg.words.queued.replace("%(n)s", String(this.queue.length)) : "";
    box.dataset.queue = String(this.queue.length);
  }

  next() {
    this.current = this.queue.shift() || null;
    this.draw();
    if (!this.current) return;
    const item = this.current;
    const sound = !this.muted();
    // No voice: the server's clip, loading while the chime plays.
    const clip = sound && !(this.synth && this.voice) ? this.clip(item) : null;
    this.log.push({ kind: item.kind, text: item.text, at: Date.now(), voice: this.voice ? this.voice.name : null, clip: clip ? clip.src : null });
    let finished = false;
    const done = () => {
      if (finished) return;
      finished = true;
      setTimeout(() => { this.current = null; this.next(); }, 1200);
    };
    if (sound) this.chime();
    setTimeout(() => {
      if (sound && this.synth && this.voice) {
        const u = new SpeechSynthesisUtterance(item.text);
        u.voice = this.voice;
        u.lang = this.voice.lang;
        u.rate = 0.95;
        u.onend = done;
        u.onerror = done;
        // A voice that never reports its end must not hold the queue.
        setTimeout(done, 4000 + item.text.length * 120);
        this.synth.speak(u);
      } else if (clip) {
        this.playClip(clip, item, done);
      } else {
        // No voice (or sound off): the caption stays long enough to be read.
        setTimeout(done, Math.max(4000, item.text.length * 70));
      }
    }, sound ? CHIME_MS : 0);
  }

  // An Audio for the announcement's clip, or null (no fallback on this server, no figures for it,
  // or clips paused after a failure).
  clip(item) {
    if (!this.cfg.audioUrl || item.params == null || Date.now() < this.clipsPausedUntil) return null;
    const audio = new Audio(clipUrl(this.cfg.audioUrl, this.cfg.lang, item.kind, item.params));
    audio.preload = "auto";
    return audio;
  }

  // Play the clip; the queue goes on when it ends. A clip that fails leaves the caption up for as
  // long as it takes to read and pauses clips for a while (no request after request to a server
  // that cannot speak); a clip the browser blocks (no tap yet) does the same without the pause.
  playClip(audio, item, done) {
    const readMs = Math.max(4000, item.text.length * 70);
    let over = false;
    const finish = (waitMs) => {
      if (over) return;
      over = true;
      clearTimeout(guard);
      audio.pause(); // never two at once, even after the guard
      setTimeout(done, waitMs);
    };
    // A clip that never reports its end must not hold the queue either.
    const guard = setTimeout(() => finish(0), 4000 + item.text.length * 120);
    audio.addEventListener("ended", () => finish(0));
    audio.addEventListener("error", () => {
      this.clipsPausedUntil = Date.now() + CLIP_PAUSE_MS;
      finish(readMs);
    });
    let playing = null;
    try { playing = audio.play(); } catch (e) { finish(readMs); }
    if (playing && playing.catch) playing.catch(() => finish(readMs));
  }

  // Two soft tones, like a venue's gong (Web Audio, as the clock's other sounds).
  chime() {
    const ctx = this.ctx;
    if (!ctx || ctx.state !== "running") return;
    const tone = (freq, start, dur) => {
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.type = "sine"; o.frequency.value = freq; o.connect(g); g.connect(ctx.destination);
      g.gain.setValueAtTime(0.0001, ctx.currentTime + start);
      g.gain.exponentialRampToValueAtTime(0.35, ctx.currentTime + start + 0.02);
      g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + dur);
      o.start(ctx.currentTime + start); o.stop(ctx.currentTime + start + dur + 0.05);
    };
    tone(659, 0, 0.45); tone(523, 0.4, 0.6);
  }
}
