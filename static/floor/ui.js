// Small behaviours the pages ask for by data- attribute, so no page needs an inline script or an
// on...= handler (the Content-Security-Policy allows neither). Every listener sits on the
// document, so content that htmx swaps in later behaves the same.
//
//   <form data-confirm="Really?">        asks first; "Cancel" stops the submit
//   <button type=submit data-confirm=…>   the same, for that button only
//   <button data-print>                   prints the page
//   <select data-autosubmit>              submits its form when changed
//   <input data-filter-rows="#list tr">   hides the rows whose data-key lacks the typed text
//   <span data-colour="#2a6">             takes that colour as its background (a chip's colour:
//                                         set here, as the policy allows no style attribute)

// A form that is on its way is not sent again: a double click or a second Enter sends it once
// (the server also answers a repeated form with the first answer, by its key). After a few
// seconds it may go again, for a request that hangs. Only forms the browser itself sends (a
// POST that no script took over) are held: htmx and fetch forms stop the default themselves.
const SENT_MS = 4000;
function justSent(form) {
  return form && form.dataset.sentAt && Date.now() - Number(form.dataset.sentAt) < SENT_MS;
}

// Without a connection a form is not sent: the browser would put its own error page in place
// of this one and what was typed would be gone. The form stays as typed and says, in words,
// that it was not sent; when the connection is back it says so too, and the same button sends
// it. A request that got no answer (the connection dropped on the way: htmx's error, a script's
// fetch) may have been done: the form says to look first. Sending again is safe for a
// registration (its key) and for "Undo last bust" (it names its bust); docs/desk.md lists the
// rest. The words come from the page's <body> (templates/base.html).
function notSent(form, kind = "notSent") {
  if (!form) return;
  let note = form.querySelector(".not-sent");
  if (!note) {
    note = document.createElement("p");
    note.className = "not-sent";
    note.setAttribute("role", "alert");
    form.append(note);
  }
  note.dataset.kind = kind;
  note.textContent = document.body.dataset[kind] || "";
  delete form.dataset.sentAt;
}
// For the pages' own scripts (static/floor/phone.js), without importing this file a second time.
window.floorNotSent = notSent;
window.addEventListener("online", () => {
  document.querySelectorAll(".not-sent").forEach((note) => {
    note.dataset.kind = "backOnline";
    note.textContent = document.body.dataset.backOnline || "";
  });
});
const isPost = (form) => form && (form.getAttribute("method") || "").toLowerCase() === "post";
// A search or a list fetched as one types (GET) changes nothing: only what posts is said.
function noAnswer(e) {
  const config = e.detail.requestConfig;
  if (config && config.verb !== "get") notSent(e.detail.elt.closest("form"), "noAnswer");
}
document.addEventListener("htmx:sendError", noAnswer);
document.addEventListener("htmx:timeout", noAnswer);

// Capture phase on window: the question comes before any other submit listener (htmx's too).
// A submit button may carry its own question (a form with a harmless and a lasting button).
window.addEventListener("submit", (e) => {
  const form = e.target.closest("form");
  if (justSent(form)) {
    e.preventDefault();
    e.stopPropagation();
    return;
  }
  if (navigator.onLine === false && isPost(form)) {
    e.preventDefault();
    e.stopPropagation();
    notSent(form);
    return;
  }
  const question = (e.submitter && e.submitter.dataset.confirm) || (form && form.dataset.confirm);
  if (question && !window.confirm(question)) {
    e.preventDefault();
    e.stopPropagation();
  }
}, true);
// Bubble phase, after every other listener: only a submit nobody stopped is marked as sent.
window.addEventListener("submit", (e) => {
  const form = e.target;
  if (e.defaultPrevented || !(form instanceof HTMLFormElement)) return;
  // Read as attributes: a field named "method" or "target" hides the form's own properties.
  const target = form.getAttribute("target");
  if ((form.getAttribute("method") || "").toLowerCase() !== "post" || (target && target !== "_self")) return;
  form.dataset.sentAt = String(Date.now());
});
// Back to a page kept by the browser: its forms may be sent again at once.
window.addEventListener("pageshow", (e) => {
  if (e.persisted) document.querySelectorAll("form[data-sent-at]").forEach((f) => delete f.dataset.sentAt);
});

document.addEventListener("click", (e) => {
  if (e.target.closest("[data-print]")) window.print();
});

// A keyboard user steps through the options with the arrow keys: the form waits for Enter or
// for the focus to leave the list (WCAG 3.2.2), a pointer's choice submits at once.
let keyedAt = 0;
document.addEventListener("keydown", (e) => {
  const select = e.target.closest && e.target.closest("select[data-autosubmit]");
  if (!select) return;
  if (e.key === "Enter" && select.dataset.pending) { e.preventDefault(); select.form.submit(); return; }
  keyedAt = Date.now();
});
document.addEventListener("change", (e) => {
  const select = e.target.closest("[data-autosubmit]");
  if (!select || !select.form) return;
  if (Date.now() - keyedAt < 800) { select.dataset.pending = "1"; return; }
  select.form.submit();
});
document.addEventListener("focusout", (e) => {
  const select = e.target.closest && e.target.closest("select[data-autosubmit]");
  if (select && select.dataset.pending && select.form) select.form.submit();
});

document.addEventListener("input", (e) => {
  const box = e.target.closest("[data-filter-rows]");
  if (!box) return;
  const q = box.value.toLowerCase();
  document.querySelectorAll(box.dataset.filterRows).forEach((row) => {
    row.hidden = !(row.dataset.key || "").includes(q);
  });
});

// A table that scrolls sideways (a phone, a zoomed page) can be scrolled from the keyboard:
// the scrolling box takes the focus and is named after its heading (WCAG 2.1.1).
function focusableScrollers() {
  document.querySelectorAll(".table-wrap").forEach((box) => {
    const scrolls = box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    if (!scrolls || box.hasAttribute("tabindex")) return;
    box.tabIndex = 0;
    if (!box.getAttribute("role")) box.setAttribute("role", "region");
    const title = box.querySelector("h2, h3, caption") || box.closest(".card")?.querySelector("h2, h3");
    if (title && !box.hasAttribute("aria-label") && !box.hasAttribute("aria-labelledby")) {
      box.setAttribute("aria-label", title.textContent.trim());
    }
  });
}
focusableScrollers();
window.addEventListener("resize", focusableScrollers);
document.addEventListener("htmx:afterSettle", focusableScrollers);

// A chip's colour comes from the chip set (data): set through the CSSOM, which the policy allows
// (a style attribute in the markup it does not). An unknown colour is simply ignored.
function paintColours(root) {
  root.querySelectorAll("[data-colour]").forEach((el) => { el.style.background = el.dataset.colour; });
}
paintColours(document);
document.addEventListener("htmx:afterSwap", (e) => paintColours(e.target));
