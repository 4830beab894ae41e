// Registration desk: "/" jumps to the search, "n" to a new player; a tapped match fills the form.
// (A Day 2's desk has no form: its players come from the flights' bags.)
const name = document.getElementById("id_name");
const existing = document.getElementById("existing-player");

document.addEventListener("keydown", (e) => {
  if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) {
    if (e.key === "Escape") document.activeElement.blur();
    return;
  }
  if (e.key === "/") { e.preventDefault(); document.getElementById("q").focus(); }
  if (e.key === "n" && name) { e.preventDefault(); name.focus(); }
});
document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-player]");
  if (!b) return;
  if (!b.closest("#register-form")) return;
  existing.value = b.dataset.player;
  name.value = b.dataset.name;
  document.getElementById("id_display_name").value = b.dataset.display;
  document.getElementById("player-matches").innerHTML = "";
  reentry(b.dataset.reentry === "1");
  name.focus();
});
if (name) name.addEventListener("input", () => { existing.value = ""; reentry(false); });

// A player who was out of this tournament enters again: the button says so.
const label = document.querySelector("#register-button .register-label");
const registerText = label ? label.textContent : "";
function reentry(on) {
  if (!label) return;
  label.textContent = on ? document.getElementById("register-button").dataset.reentryLabel : registerText;
}

// After each registration the cursor is back in the name field.
if (name && document.querySelector(".last-entry") && !document.getElementById("name-warning")) name.focus();
