// The replay of a completed round: the game's own table (or the generic one) draws the view the player
// saw after each step, rebuilt by the server from the step's record (GET /history/<round id>/steps).
// BACK and NEXT walk the steps; the table takes no decisions here.
import { call, money, Refused } from "./api.js";

const table = document.getElementById("table");
const words = (name) => String(name).replaceAll("_", " ");
const credits = (n) => `${n.toLocaleString("en-US")} credit${n === 1 ? "" : "s"}`;
const replay = await call("GET", `/history/${table.dataset.round}/steps`);
const say = (text) => { document.getElementById("say").textContent = text; };
const ctx = {
  decide: () => Promise.reject(new Refused(0, { sentence: "This is a replay: the round is over." })),
  say, words, credits,
  money: (n) => money(n * replay.denom_cents),
  cents: money,
  reducedMotion: true,
  busy: () => true,
};
const drawn = (await import(table.dataset.module)).mount(table, ctx);
const last = replay.steps.length - 1;
let at = 0;

function stepName(step) {
  if (step.step_no === 0) return "The deal";
  const decision = step.decision || {};
  return `Step ${step.step_no}: ${words(decision.kind || "play")}`;
}

function show(index) {
  at = Math.max(0, Math.min(last, index));
  const step = replay.steps[at];
  const complete = at === last;
  drawn.update(step.view, { complete, winCents: complete ? replay.win_cents : null,
                            stakeCents: replay.stake_cents, denomCents: replay.denom_cents });
  document.getElementById("step-name").textContent = `${stepName(step)} (${at + 1} of ${last + 1})`;
  say(complete ? `${replay.win_cents ? `WIN ${money(replay.win_cents)}.` : "No win."} ${step.view.result_text || ""}` : "");
  document.getElementById("step-back").disabled = at === 0;
  document.getElementById("step-next").disabled = at === last;
  for (const [i, item] of document.querySelectorAll("#steps button").entries()) {
    item.setAttribute("aria-current", i === at ? "step" : "false");
  }
}

document.getElementById("steps").replaceChildren(...replay.steps.map((step, i) => {
  const item = document.createElement("li");
  const button = Object.assign(document.createElement("button"), { type: "button", className: "quiet",
                                                                   textContent: stepName(step) });
  button.onclick = () => show(i);
  item.append(button);
  return item;
}));
document.getElementById("step-back").onclick = () => show(at - 1);
document.getElementById("step-next").onclick = () => show(at + 1);
show(last);
