// Registration desk: "/" jumps to the search, "n" to a new player; a tapped match fills the form.
const name = document.getElementById("id_name");
const existing = document.getElementById("existing-player");

document.addEventListener("keydown", (e) => {
  if (["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName)) {
    if (e.key === "Escape") document.activeElement.blur();
    return;
  }
  if (e.key === "/") { e.preventDefault(); document.getElementById("q").focus(); }
  if (e.key === "n") { e.preventDefault(); name.focus(); }
});
document.addEventListener("click", (e) => {
  const b = e.target.closest("[data-player]");
  if (!b) return;
  existing.value = b.dataset.player;
  name.value = b.dataset.name;
  document.getElementById("id_display_name").value = b.dataset.display;
  document.getElementById("player-matches").innerHTML = "";
});
name.addEventListener("input", () => { existing.value = ""; });
