// The screen's view editor: show only the fields the chosen kind uses, and the next empty view
// once the one before it has a kind. Without this script every field shows and still works.
const form = document.getElementById("assign-form");

function refresh() {
  if (!form) return;
  const steps = [...form.querySelectorAll("[data-step]")];
  const used = steps.filter((s) => s.querySelector("[data-kind]").value).length;
  let previousUsed = true;
  steps.forEach((step, i) => {
    const kind = step.querySelector("[data-kind]").value;
    step.hidden = i > 0 && !kind && !previousUsed;
    previousUsed = Boolean(kind);
    step.querySelectorAll("[data-for]").forEach((field) => {
      const wanted = field.dataset.for.split(" ");
      field.hidden = wanted.includes("rotation") ? used < 2 || !kind : !wanted.includes(kind);
    });
  });
}

if (form) {
  form.addEventListener("change", refresh);
  refresh();
}
