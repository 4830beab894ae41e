// Chip counts from a dealer tablet (templates/counts/dealer.html): the form goes through the
// tablet's queue (static/tables/tablet_queue.js) with a one-time key, at once or, without a
// connection, when it is back; the typed counts stay on the page meanwhile. Recorded, the page
// is drawn again with the confirmation and the new counts; refused, the reason shows above the
// form and the typed counts stay.
import { TabletQueue, formFields } from "../tables/tablet_queue.js";

const main = document.getElementById("dealer-counts");
const form = main && main.querySelector("form.dc-form");
const texts = JSON.parse(document.getElementById("tablet-texts").textContent);
const csrfInput = form && form.querySelector("input[name=csrfmiddlewaretoken]");

function say(message) {
  let box = main.querySelector(".messages");
  if (!box) {
    box = document.createElement("ul");
    box.className = "messages";
    main.querySelector(".dc-head").after(box);
  }
  const li = document.createElement("li");
  li.className = "error"; li.setAttribute("role", "alert"); li.textContent = message;
  box.replaceChildren(li);
}

const isCounts = (item) => new URL(item.url, location.href).pathname === location.pathname;
const queue = new TabletQueue({
  token: main.dataset.token,
  base: main.dataset.base,
  texts,
  csrf: csrfInput ? csrfInput.value : "",
  shows: (answer, item) => isCounts(item) && !!answer.message,
  onAnswer: (answer, item) => {
    if (!answer || !item || !isCounts(item)) return;
    if (answer.ok) location.assign(location.pathname);
    else if (!item.waited) say(answer.message);
  },
});

if (form) {
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const fields = formFields(form, e.submitter);
    const n = fields.filter(([k, v]) => k.startsWith("count_") && v.trim()).length;
    queue.add(location.pathname, fields, `${texts.q_counts} (${n})`);
  });
}
