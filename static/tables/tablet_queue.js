// A dealer tablet through a Wi-Fi drop (docs/seating.md, "Through a Wi-Fi drop").
//
// Every action the dealer taps (hand done, a bust, a time call, the shot clock, chip counts)
// goes into this queue with a one-time key of its own and is sent from there, one at a time, in
// the order tapped. Online the queue is empty again within a moment. Without a connection (the
// browser says it is offline, or a request fails on the way) the actions stay, in localStorage
// per table link, so a reload keeps them too: the tablet says it is offline and lists them as
// waiting, and sends them when the connection is back (the browser's "online", the table's
// socket live again, or a try every few seconds). The server keeps each key's first answer
// (tables/services/tablet_keys.py): an action whose answer was lost and is sent again counts
// once.
//
// An action that waited and is refused when it arrives (the floor busted the player meanwhile,
// the table was broken) is not tried again: it stays on the tablet as "not applied", with the
// server's reason, until the dealer dismisses it; the server has told the floor. Nothing is
// dropped silently.
//
// The page gives the words (`texts`, tables/dealer_view.py queue_texts) and the box
// (templates/tables/_tablet_queue.html).

const RETRY_MS = 5000;
const REQUEST_MS = 10000;
const SAME_TAP_MS = 1500; // the same form with the same fields again this soon: a double tap

const fill = (template, values) =>
  Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template);

// A key of our own making: a random UUID (crypto.randomUUID only exists on HTTPS; a tablet on
// the venue's plain HTTP has getRandomValues).
export function newKey() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// localStorage where the browser allows it, else the open page's memory.
function store(name) {
  let memory = null;
  return {
    read() {
      try {
        const raw = window.localStorage.getItem(name);
        if (raw) return JSON.parse(raw);
      } catch (e) { /* no storage, or a damaged entry: start empty */ }
      return memory || { items: [], conflicts: [] };
    },
    write(data) {
      memory = data;
      try { window.localStorage.setItem(name, JSON.stringify(data)); } catch (e) { /* memory only */ }
    },
  };
}

export class TabletQueue {
  // token: the table link's token; base: the tablet's own path ("/d/<token>/"); texts: the
  // words; csrf: the page's token; now(): the server's time in ms; onSend(item) before a
  // request and onAnswer(answer, item) after it (the page swaps in the table it sends).
  // shows(answer, item): whether the page shows a refusal of an action sent at once itself
  // (the dealer's table with its message); one it does not show stays as "not applied".
  constructor({ token, base, texts, csrf, now, onSend, onAnswer, onChange, shows }) {
    this.base = base;
    this.texts = texts;
    this.csrf = csrf;
    this.now = now || (() => Date.now());
    this.onSend = onSend || (() => {});
    this.onAnswer = onAnswer || (() => {});
    this.onChange = onChange || (() => {});
    this.shows = shows || ((answer) => !!answer.html);
    this.store = store(`floor.tablet.${token}`);
    this.sending = false;
    this.offline = navigator.onLine === false;
    this.lastTap = { sig: "", at: 0 };
    this.timer = 0;
    this.box = document.getElementById("tq");
    window.addEventListener("online", () => { this.offline = false; this.render(); this.pump(); });
    window.addEventListener("offline", () => { this.offline = true; this.render(); });
    // Another page of the same tablet (the table and its chip counts) changed the queue.
    window.addEventListener("storage", (e) => { if (e.key === `floor.tablet.${token}`) this.render(); });
    document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") this.pump(); });
    if (this.box) {
      this.box.addEventListener("click", (e) => {
        const b = e.target.closest("button[data-dismiss]");
        if (b) this.dismiss(b.dataset.dismiss);
      });
    }
    this.render();
    this.pump();
  }

  get items() { return this.store.read().items; }

  // Whether a form posts to one of this tablet's actions.
  owns(path) { return path.startsWith(this.base) && path !== this.base; }

  // The dealer tapped: the action joins the queue (after any that wait) and is sent.
  add(url, fields, what) {
    const sig = `${url}?${new URLSearchParams(fields)}`;
    const now = Date.now();
    if (sig === this.lastTap.sig && now - this.lastTap.at < SAME_TAP_MS) return false;
    this.lastTap = { sig, at: now };
    const data = this.store.read();
    const waited = this.offline || navigator.onLine === false || data.items.some((i) => i.waited);
    data.items.push({ key: newKey(), url, fields, what, at: now, tapped: Math.round(this.now()), waited });
    this.store.write(data);
    this.render();
    this.pump();
    return true;
  }

  dismiss(key) {
    const data = this.store.read();
    data.conflicts = data.conflicts.filter((c) => c.key !== key);
    this.store.write(data);
    this.render();
  }

  // Send the first waiting action; on an answer, the next one.
  pump() {
    clearTimeout(this.timer);
    if (this.sending) return;
    const item = this.items[0];
    if (!item) { this.render(); return; }
    if (navigator.onLine === false) { this.offline = true; this.later(); return; }
    this.sending = true;
    this.onSend(item);
    const body = new URLSearchParams(item.fields);
    body.set("csrfmiddlewaretoken", this.csrf);
    const headers = { "Idempotency-Key": item.key, "X-CSRFToken": this.csrf, Accept: "application/json" };
    if (item.waited) headers["X-Floor-Queued"] = String(item.tapped);
    const abort = new AbortController();
    const stop = setTimeout(() => abort.abort(), REQUEST_MS);
    fetch(item.url, { method: "POST", body, headers, credentials: "same-origin", signal: abort.signal })
      .then(async (r) => {
        let answer = null;
        try { answer = await r.json(); } catch (e) { answer = null; }
        return { r, answer };
      })
      .then(({ r, answer }) => {
        clearTimeout(stop);
        this.sending = false;
        // The server is there but cannot answer now (a restart, too many requests), or its
        // answer was cut off on the way (the page left while reading it): later, with the same
        // key, which gives the same answer.
        const json = (r.headers.get("Content-Type") || "").includes("application/json");
        if (r.status >= 500 || r.status === 429 || (json && !answer)) { this.failed(); return; }
        this.offline = false;
        if (!answer) {
          answer = { ok: r.ok, status: r.status, message: fill(this.texts.qRefused, { n: r.status }), html: "" };
        }
        this.done(item, answer);
      })
      .catch(() => { clearTimeout(stop); this.sending = false; this.failed(); });
  }

  // No answer (no network, a timeout): every waiting action has now waited; try again later.
  failed() {
    this.offline = true;
    const data = this.store.read();
    for (const i of data.items) i.waited = true;
    this.store.write(data);
    this.onAnswer(null, null);
    this.later();
  }

  later() {
    this.render();
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.pump(), RETRY_MS);
  }

  done(item, answer) {
    const data = this.store.read();
    data.items = data.items.filter((i) => i.key !== item.key);
    // A refusal of an action that waited (or one the page cannot show) stays on the tablet
    // with its reason; a refusal of a fresh tap shows in the page's own message.
    if (!answer.ok && (item.waited || !this.shows(answer, item))) {
      data.conflicts.push({ key: item.key, what: item.what, at: item.at, reason: answer.message, reported: !!answer.reported });
    }
    this.store.write(data);
    this.onAnswer(answer, item);
    this.render();
    this.pump();
  }

  // The banner, the waiting actions and the ones not applied.
  render() {
    const { items, conflicts } = this.store.read();
    this.onChange(items);
    if (!this.box) return;
    const t = this.texts;
    const offline = this.offline || navigator.onLine === false;
    this.box.hidden = !offline && !items.length && !conflicts.length;
    this.box.classList.toggle("offline", offline);
    const banner = this.box.querySelector("#tq-banner");
    let text = "";
    if (offline && items.length) text = fill(items.length === 1 ? t.qOfflineOne : t.qOfflineMany, { n: items.length });
    else if (offline) text = t.qOffline;
    else if (items.length) text = fill(items.length === 1 ? t.qSendingOne : t.qSendingMany, { n: items.length });
    if (banner.textContent !== text) banner.textContent = text;
    banner.hidden = !text;
    const list = this.box.querySelector("#tq-list");
    list.replaceChildren(...items.map((i) => {
      const li = document.createElement("li");
      const what = document.createElement("span");
      what.className = "tq-what"; what.textContent = i.what;
      const when = document.createElement("span");
      when.className = "tq-when"; when.textContent = clockTime(i.at);
      const state = document.createElement("span");
      state.className = "tq-state"; state.textContent = t.qWaiting;
      li.append(what, when, state);
      return li;
    }));
    list.hidden = !items.length;
    const box = this.box.querySelector("#tq-conflicts");
    box.replaceChildren(...conflicts.map((c) => {
      const div = document.createElement("div");
      div.className = "tq-conflict";
      const head = document.createElement("p");
      head.className = "tq-c-head";
      const strong = document.createElement("strong");
      strong.textContent = t.qNotApplied;
      head.append(strong, ` ${c.what} · ${clockTime(c.at)}`);
      const why = document.createElement("p");
      why.className = "tq-c-why"; why.textContent = c.reason;
      div.append(head, why);
      if (c.reported) {
        const told = document.createElement("p");
        told.className = "tq-c-told"; told.textContent = t.qFloorTold;
        div.append(told);
      }
      const b = document.createElement("button");
      b.type = "button"; b.className = "btn tq-dismiss"; b.dataset.dismiss = c.key;
      b.textContent = t.qDismiss;
      b.setAttribute("aria-label", `${t.qDismiss}: ${c.what}`);
      div.append(b);
      return div;
    }));
    box.hidden = !conflicts.length;
  }
}

function clockTime(ms) {
  const d = new Date(ms);
  return `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}:${String(d.getSeconds()).padStart(2, "0")}`;
}

// The fields of a submitted form, with the button that sent it (its name and value), without
// the CSRF token (the queue sends the page's own when it sends).
export function formFields(form, submitter) {
  const data = new FormData(form, submitter || undefined);
  const fields = [];
  for (const [k, v] of data.entries()) if (k !== "csrfmiddlewaretoken" && typeof v === "string") fields.push([k, v]);
  return fields;
}

export { fill };
