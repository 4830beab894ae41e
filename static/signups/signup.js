// The sign-up form: a second tap while the first is on its way sends nothing more (the server
// makes one sign-up of a form sent twice anyway, by its nonce).
const form = document.getElementById("signup-form");
if (form) {
  form.addEventListener("submit", (e) => {
    if (form.dataset.sent) { e.preventDefault(); return; }
    form.dataset.sent = "1";
    const button = document.getElementById("signup-submit");
    if (button) button.setAttribute("aria-disabled", "true");
  });
}
window.addEventListener("pageshow", () => {
  if (!form) return;
  delete form.dataset.sent;
  document.getElementById("signup-submit")?.removeAttribute("aria-disabled");
});
