// The console's announcements page: "Listen" speaks a preview in this browser (speech synthesis,
// in the texts' language), so a director hears a text before the room does.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-say]");
  if (!button) return;
  const synth = window.speechSynthesis;
  if (!synth) return;
  const lang = button.dataset.lang || document.documentElement.lang || "en";
  const voices = synth.getVoices();
  const voice = voices.find((v) => (v.lang || "").toLowerCase().startsWith(lang)) || null;
  const u = new SpeechSynthesisUtterance(button.dataset.say);
  if (voice) { u.voice = voice; u.lang = voice.lang; } else u.lang = lang;
  synth.cancel();
  synth.speak(u);
});
