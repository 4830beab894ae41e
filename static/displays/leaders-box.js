// The chip leaders beside the big-screen clock (a figure of the clock layout): the public
// counts (the counts screen's JSON, with its ETag) read again every 20 seconds; the box shows
// when counts exist. Names are public names, set with textContent.
const box = document.getElementById("bs-leaders-box");
const list = document.getElementById("bs-leaders");
const TOP = 5;
const lang = document.documentElement.lang || "en";
const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });
let etag = "";

function draw(leaders) {
  const rows = leaders.slice(0, TOP).map((r) => {
    const li = document.createElement("li");
    const name = document.createElement("span");
    name.className = "n";
    name.textContent = r.name;
    const chips = document.createElement("span");
    chips.className = "c";
    chips.textContent = number.format(r.chips);
    li.append(name, chips);
    return li;
  });
  list.replaceChildren(...rows);
  box.hidden = rows.length === 0;
}

async function refresh() {
  try {
    const r = await fetch(box.dataset.url, { cache: "no-store", headers: etag ? { "If-None-Match": etag } : {} });
    if (r.status === 304 || !r.ok) return;
    etag = r.headers.get("ETag") || "";
    draw((await r.json()).leaders || []);
  } catch (e) { /* keep the leaders shown */ }
}

if (box && box.dataset.url) {
  refresh();
  setInterval(refresh, 20000);
}
