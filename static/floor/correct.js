// Entry corrections: a known player picked from the list fills the "another person" form.
const form = document.getElementById("person-form");
if (form) {
  const player = document.getElementById("person-player");
  const name = document.getElementById("person-name");
  form.addEventListener("click", (e) => {
    const b = e.target.closest("[data-player]");
    if (!b) return;
    player.value = b.dataset.player;
    name.value = b.dataset.name;
    document.getElementById("person-matches").innerHTML = "";
    name.focus();
  });
  name.addEventListener("input", () => { player.value = ""; });
}
