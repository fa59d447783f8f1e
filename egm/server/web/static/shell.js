// The table shell: it loads the game's own table module (or the generic one), starts rounds, sends
// decisions, and redraws the round from the server's snapshot (bar.js: the clock, the balance, the
// net position, the websocket and the reality-check dialog). A game's module draws the
// round's view and calls ctx.decide(); everything about requests, retries and refusals is here.
//
// The module contract (docs/web.md, "A game's table"):
//   export function mount(root, ctx) -> { update(view, info), destroy() }
//   update may answer a Promise that settles once the table has shown the round's end (a reveal):
//   the shell says the result after it.
//   info: { complete, winCents, stakeCents, denomCents }
//   ctx.decide(decision) -> Promise of the new view; rejects (a Refused with .sentence) when the server
//     refused it (the shell has already shown the sentence; the module snaps its piece back).
//   ctx.say(text), ctx.money(credits), ctx.cents(cents), ctx.credits(n), ctx.words(snake_case),
//   ctx.reducedMotion, ctx.busy() (a request is on its way: ignore presses).
import { call, money, Refused, requestId, send } from "./api.js";
import { showBalance, showNotSent, showRealityCheck } from "./bar.js";

const shell = document.getElementById("shell");
const gameId = shell.dataset.game;
const el = (id) => document.getElementById(id);
const state = { game: null, round: null, denomCents: 1, pending: false, table: null };

function say(text, kind = "") {
  el("say").textContent = text;
  el("say").dataset.kind = kind;
}

function words(name) {
  return String(name).replaceAll("_", " ");
}

function credits(n) {
  return `${n.toLocaleString("en-US")} credit${n === 1 ? "" : "s"}`;
}

// The wager form or AUTO, and AUTO disabled while a request is on its way (the table is not redrawn).
function drawControls() {
  const round = state.round;
  const open = round && !round.complete;
  el("wager").hidden = Boolean(open);
  const auto = el("auto");
  auto.hidden = !(open && round.view.decision_awaited);
  auto.disabled = state.pending;
}

function drawRound() {
  drawControls();
  const round = state.round;
  if (!round) return;
  const shown = state.table.update(round.view, { complete: round.complete, winCents: round.win_cents,
                                                 stakeCents: round.stake_cents, denomCents: state.denomCents });
  if (round.complete) {  // said once the table has shown the end (update may answer a Promise: a reveal)
    Promise.resolve(shown).then(() => {
      if (state.round !== round) return;
      const win = round.win_cents || 0;
      say(win > 0 ? `WIN ${money(win)}. ${round.view.result_text}` : `No win. ${round.view.result_text}`,
          "result");
    });
  }
}

async function refused(error) {
  if (!(error instanceof Refused)) throw error;
  if (error.status === 423) {
    showRealityCheck(error.message);
  } else if (error.status === 409 && error.reply.view) {  // a stale step: redraw what the server holds
    Object.assign(state.round, { step_no: error.reply.step_no, view: error.reply.view });
    drawRound();
  } else {
    say(error.message, "refused");
  }
  throw error;
}

async function decide(decision) {
  if (state.pending || !state.round || state.round.complete) {
    throw new Refused(0, { sentence: "Wait for the table." });
  }
  const round = state.round;
  const body = { request_id: requestId("d"), step_no: round.step_no, decision };
  state.pending = true;
  drawControls();
  try {
    const reply = await send(`/api/v1/rounds/${round.round_id}/decisions`, body, showNotSent);
    Object.assign(round, { step_no: reply.step_no, view: reply.view, complete: reply.complete,
                           win_cents: reply.win_cents });
    showBalance(reply.balance_cents);
    say("");
    return reply.view;
  } catch (error) {
    return refused(error);
  } finally {
    state.pending = false;
    drawRound();
  }
}

// The side bets chosen in the wager form (those above 0 credits), as POST /api/v1/rounds takes them.
function sideBets() {
  const chosen = {};
  for (const select of el("wager").querySelectorAll("select[data-side-bet]")) {
    if (Number(select.value) > 0) chosen[select.dataset.sideBet] = Number(select.value);
  }
  return chosen;
}

function fillWager() {
  const offer = state.game;
  const options = (select, values, text) => {
    select.replaceChildren(...values.map((v) => new Option(text(v), String(v))));
  };
  options(el("denom"), offer.denominations_cents, (c) => (c < 100 ? `${c}¢` : money(c)));
  options(el("bet"), offer.bets_credits, credits);
  const stake = () => {
    const bet = Number(el("bet").value);
    const denom = Number(el("denom").value);
    const sides = Object.values(sideBets()).reduce((sum, n) => sum + n, 0);
    el("stake").textContent = `Stake ${money((bet * offer.stake_bets + sides) * denom)}`;
  };
  for (const select of el("wager").querySelectorAll("select")) select.onchange = stake;
  stake();
}

async function start(event) {
  event.preventDefault();
  if (state.pending) return;
  const denom = Number(el("denom").value);
  const body = { request_id: requestId("r"), game_id: gameId, denom_cents: denom,
                 bet_credits: Number(el("bet").value), side_bets: sideBets() };
  state.pending = true;
  el("start").disabled = true;
  try {
    const reply = await send("/api/v1/rounds", body, showNotSent);
    state.denomCents = denom;
    state.round = { round_id: reply.round_id, step_no: reply.step_no, view: reply.view, complete: false,
                    win_cents: null, stake_cents: reply.view.stake_credits * denom };
    showBalance(reply.balance_cents);
    say("");
  } catch (error) {
    await refused(error).catch(() => {});
  } finally {
    state.pending = false;
    el("start").disabled = false;
    drawRound();
  }
}

async function boot() {
  const [games, session, module] = await Promise.all([  // at once: the page is ready after the slowest
    call("GET", "/api/v1/games"), call("GET", "/api/v1/session"), import(shell.dataset.module)]);
  state.game = games.find((g) => g.id === gameId);
  showBalance(session.balance_cents);
  fillWager();
  const ctx = {
    decide, say, words, credits,
    money: (n) => money(n * state.denomCents),
    cents: money,
    reducedMotion: matchMedia("(prefers-reduced-motion: reduce)").matches,
    busy: () => state.pending,
  };
  state.table = module.mount(el("table"), ctx);
  el("auto").textContent = shell.dataset.autoLabel || "AUTO";
  el("auto").onclick = () => decide({ kind: "auto" }).catch(() => {});
  el("wager").onsubmit = start;
  el("start").disabled = false;  // the page's PLAY works only once the shell has wired it
  const open = session.open_round;
  if (open && open.game_id === gameId) {
    adopt(open);
  } else if (open) {
    const title = games.find((g) => g.id === open.game_id)?.title || "other";
    say(`Your ${title} round is still open: finish it first.`, "refused");
  }
  drawRound();
  document.addEventListener("egm:snapshot", (event) => heal(event.detail).catch(() => {}));
}

// The round as the server holds it (GET /api/v1/session's open_round, or GET /api/v1/rounds/{id}).
function adopt(round) {
  state.round = round;
  state.denomCents = round.stake_cents / round.view.stake_credits;
}

// A snapshot (a reconnect, a push) shows the round moved without this page (another tab, a reply lost
// with the connection): redraw what the server holds.
async function heal(snapshot) {
  if (state.pending || !state.table) return;
  const open = snapshot.open_round;
  const mine = state.round;
  // a round only moves forward: a snapshot behind this page's own answer is older news, not a heal
  if (open && open.game_id === gameId && (!mine || mine.round_id !== open.round_id
                                          || open.step_no > mine.step_no)) {
    adopt(open);
  } else if (!open && mine && !mine.complete) {
    adopt(await call("GET", `/api/v1/rounds/${mine.round_id}`));
  } else {
    return;
  }
  drawRound();
}

boot();
