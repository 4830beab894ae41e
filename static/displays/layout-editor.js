// The clock layout editor's live preview (templates/displays/layout.html): the figures in the
// chosen order, the arrangement, the colours (as CSS custom properties: the page allows no
// style attribute) and a logo chosen but not saved yet. The contrast is checked as the server
// checks it (displays/domain/layouts.py) and said in words; the server decides on saving.
const form = document.getElementById("layout-form");
const preview = document.getElementById("le-preview");
const side = document.getElementById("lp-side");
const note = document.getElementById("le-contrast");
const $ = (id) => document.getElementById(id);
const WHITE = "#ffffff", WARN = "#ffcc66";

function rgb(hex) { const v = parseInt(hex.slice(1), 16); return [(v >> 16) & 255, (v >> 8) & 255, v & 255]; }
function lum(hex) {
  const [r, g, b] = rgb(hex).map((c) => { const s = c / 255; return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4; });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); }
function blend(base, over, share) {
  const o = rgb(over);
  return "#" + rgb(base).map((c, i) => Math.round(c + (o[i] - c) * share).toString(16).padStart(2, "0")).join("");
}
function fill(template, values) { return Object.entries(values).reduce((s, [k, v]) => s.split(`%(${k})s`).join(v), template); }
const lang = document.documentElement.lang || "en";
const round = (x) => (Math.floor(x * 100) / 100).toLocaleString(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const plain = (x) => x.toLocaleString(lang);

function colours() {
  const bg = $("le-background").value, accent = $("le-accent").value;
  const panel = blend(bg, WHITE, 0.05), line = blend(bg, WHITE, 0.12);
  let label = WHITE;
  for (let s = 70; s <= 100; s += 2) {
    const c = blend(panel, WHITE, s / 100);
    if (Math.min(contrast(c, panel), contrast(c, bg)) >= 4.5) { label = c; break; }
  }
  const props = { "--p-bg": bg, "--p-accent": accent, "--p-panel": panel, "--p-line": line, "--p-label": label };
  for (const [k, v] of Object.entries(props)) preview.style.setProperty(k, v);
  const text = Math.min(contrast(WHITE, bg), contrast(WHITE, panel));
  const acc = Math.min(contrast(accent, bg), contrast(accent, panel));
  const textMin = Number(note.dataset.textMin), largeMin = Number(note.dataset.largeMin);
  let message;
  if (text < textMin) message = fill(note.dataset.badText, { text: round(text), need: plain(textMin) });
  else if (acc < largeMin) message = fill(note.dataset.badAccent, { accent: round(acc), need: plain(largeMin) });
  else message = fill(note.dataset.ok, { text: round(text), accent: round(acc) });
  note.textContent = message;
  note.classList.toggle("bad", text < textMin || acc < largeMin || Math.min(contrast(WARN, bg), contrast(WARN, panel)) < largeMin);
}

function figures() {
  const rows = [...document.querySelectorAll("#le-rows tr[data-figure]")];
  const order = rows.map((r, i) => ({ figure: r.dataset.figure, shown: r.querySelector("input[type=checkbox]").checked, pos: Number(r.querySelector("[data-pos]").value), i }))
    .sort((a, b) => a.pos - b.pos || a.i - b.i);
  for (const o of order) {
    const box = side.querySelector(`.lp-box[data-figure="${o.figure}"]`);
    box.hidden = !o.shown;
    side.append(box);
  }
}

function arrangement() {
  const value = $("le-arrangement").value;
  preview.className = preview.className.replace(/\blp-(standard|clock_only|portrait|logo)\b/g, "").trim() + ` lp-${value}`;
}

function logo() {
  const input = $("le-logo");
  const file = input.files && input.files[0];
  const remove = $("le-remove-logo");
  const imgs = [$("lp-logo-small"), $("lp-logo-big")];
  if (file && /^image\/(png|jpeg)$/.test(file.type)) {
    const reader = new FileReader();
    reader.onload = () => imgs.forEach((img) => { img.src = reader.result; img.hidden = false; });
    reader.readAsDataURL(file);
  } else if (remove && remove.checked) {
    imgs.forEach((img) => { img.hidden = true; });
  } else if (remove) {
    imgs.forEach((img) => { img.hidden = !img.getAttribute("src"); });
  }
}

// Places stay one each: the figure that held the chosen place takes the changed one's old place.
function swapPlaces(select) {
  const was = select.dataset.was;
  for (const other of document.querySelectorAll("#le-rows [data-pos]")) {
    if (other !== select && other.value === select.value) { other.value = was; other.dataset.was = was; }
  }
  select.dataset.was = select.value;
}
document.querySelectorAll("#le-rows [data-pos]").forEach((s) => { s.dataset.was = s.value; s.addEventListener("change", () => swapPlaces(s)); });

function draw() { colours(); figures(); arrangement(); }
if (form && preview) {
  form.addEventListener("input", draw);
  form.addEventListener("change", (e) => { draw(); if (e.target.id === "le-logo" || e.target.id === "le-remove-logo") logo(); });
  draw();
}
