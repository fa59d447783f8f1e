// The generic table: for a game that ships no table of its own. It shows the step and the result;
// the shell's AUTO button plays each step by the game's reference decision.
export function mount(root, ctx) {
  root.innerHTML = `<div class="generic"><h2 class="step">Choose your bet, then PLAY.</h2>`
    + `<p class="result"></p></div>`;
  const step = root.querySelector(".step");
  const result = root.querySelector(".result");
  return {
    update(view, info) {
      step.textContent = info.complete ? "Round over" : `Step: ${ctx.words(view.step)}`;
      result.textContent = view.result_text || "";
    },
    destroy() { root.innerHTML = ""; },
  };
}
