// Small behaviours the pages ask for by data- attribute, so no page needs an inline script or an
// on...= handler (the Content-Security-Policy allows neither). Every listener sits on the
// document, so content that htmx swaps in later behaves the same.
//
//   <form data-confirm="Really?">        asks first; "Cancel" stops the submit
//   <button data-print>                   prints the page
//   <select data-autosubmit>              submits its form when changed
//   <input data-filter-rows="#list tr">   hides the rows whose data-key lacks the typed text

// Capture phase on window: the question comes before any other submit listener (htmx's too).
window.addEventListener("submit", (e) => {
  const form = e.target.closest("form[data-confirm]");
  if (form && !window.confirm(form.dataset.confirm)) {
    e.preventDefault();
    e.stopPropagation();
  }
}, true);

document.addEventListener("click", (e) => {
  if (e.target.closest("[data-print]")) window.print();
});

document.addEventListener("change", (e) => {
  const select = e.target.closest("[data-autosubmit]");
  if (select && select.form) select.form.submit();
});

document.addEventListener("input", (e) => {
  const box = e.target.closest("[data-filter-rows]");
  if (!box) return;
  const q = box.value.toLowerCase();
  document.querySelectorAll(box.dataset.filterRows).forEach((row) => {
    row.hidden = !(row.dataset.key || "").includes(q);
  });
});
