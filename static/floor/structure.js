// Structure editor: add a level or a break (blinds doubled from the last level), remove a row,
// and keep the level numbers (and the BB-ante checkboxes' values) in order. Breaks are not
// levels: they get no number, and the level after a break goes on from the one before it.
// New rows are copied from the page's <template id="level-row">, which carries the labels.
const table = document.getElementById("levels");
const body = table.querySelector("tbody");

// Each row's inputs are named with their row ("Small blind, level 3"), so a screen reader says
// which level a field belongs to; the words come from the page (translated).
function nameRow(tr, isBreak, number) {
  const words = isBreak
    ? (number ? table.dataset.rowBreak : table.dataset.rowFirstBreak)
    : table.dataset.rowLevel;
  const row = (words || "").replace("{n}", String(number));
  tr.querySelectorAll("input:not([type=hidden]), select, button[data-remove-row]").forEach((el) => {
    if (!el.dataset.label) el.dataset.label = el.getAttribute("aria-label") || "";
    el.setAttribute("aria-label", row ? `${el.dataset.label}, ${row}` : el.dataset.label);
  });
}

function rowIsBreak(tr) {
  const k = tr.querySelector("[name=kind]");
  return !!k && k.value === "break";
}

function renumber() {
  let number = 0;
  body.querySelectorAll("tr").forEach((tr, i) => {
    const isBreak = rowIsBreak(tr);
    if (!isBreak) number += 1;
    tr.cells[0].textContent = isBreak ? "" : String(number);
    nameRow(tr, isBreak, number);
    if (!tr.classList.contains("past") && !tr.classList.contains("current")) tr.classList.toggle("break", isBreak);
    // The BB-ante box names its row (1-based position in the table), as the server reads it.
    const c = tr.querySelector("input[name=bb_ante]");
    if (c && c.type === "checkbox") c.value = i + 1;
  });
}

body.addEventListener("change", (e) => { if (e.target.matches("select[name=kind]")) renumber(); });

function addRow(kind) {
  const last = [...body.querySelectorAll("tr")].reverse().find((r) => {
    const k = r.querySelector("[name=kind]");
    return k && k.value === "level";
  });
  const sb = last ? +last.querySelector("[name=small_blind]").value * 2 : 100;
  const bb = last ? +last.querySelector("[name=big_blind]").value * 2 : 200;
  const tr = document.getElementById("level-row").content.firstElementChild.cloneNode(true);
  const isBreak = kind === "break";
  if (isBreak) tr.className = "break";
  tr.querySelector("[name=kind]").value = kind;
  tr.querySelector("[name=small_blind]").value = isBreak ? 0 : sb;
  tr.querySelector("[name=big_blind]").value = isBreak ? 0 : bb;
  tr.querySelector("[name=minutes]").value = isBreak ? 15 : 20;
  body.appendChild(tr);
  renumber();
}

document.addEventListener("click", (e) => {
  const add = e.target.closest("[data-add-row]");
  if (add) { addRow(add.dataset.addRow); return; }
  const remove = e.target.closest("[data-remove-row]");
  if (remove && body.contains(remove)) { remove.closest("tr").remove(); renumber(); }
});

renumber();
