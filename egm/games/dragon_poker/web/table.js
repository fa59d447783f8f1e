// Dragon Poker's table in the player's browser (issue 28; the module contract: docs/web.md, "A game's
// table"). It draws `view.table` (egm/games/dragon_poker/game.py, `_table`) as DOM: always the jackpot,
// the scoreboard and the bonus cards (shown from the deal, patent Fig. 3a); then by step the four
// face-down hands to designate, the player's 13 cards to set into front, middle and back (setting.js),
// and the reveal in the patent's order with what was paid and why (reveal.js). HOUSE WAY is the
// shell's AUTO button.
import { cardNode } from "/static/web/cards.js";
import { h, onPress } from "./dom.js";
import { mountSetting } from "./setting.js";
import { Reveal, boardName } from "./reveal.js";

const HANDS = ["A", "B", "C", "D"];
const ROLES = ["player", "dealer", "dragon"];
const ROLE_WORDS = { player: "YOURS", dealer: "DEALER", dragon: "DRAGON" };
const ASK = { player: "Tap the hand that will be YOURS.", dealer: "Tap the hand for the DEALER.",
              dragon: "Tap the hand for the DRAGON." };

function linkStyle() {
  const href = new URL("table.css", import.meta.url).href;
  if (document.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement("link");
  Object.assign(link, { rel: "stylesheet", href });
  document.head.append(link);
}

export function mount(root, ctx) {
  linkStyle();
  root.replaceChildren();
  const top = h("div", { class: "dp-top" });
  const jackpot = h("p", { class: "dp-jackpot", "aria-label": "Dragon jackpot" });
  const board = h("ol", { class: "dp-board", "aria-label": "Scoreboard, newest first" });
  const bonus = h("div", { class: "dp-bonus", role: "group", "aria-label": "Bonus cards" });
  top.append(jackpot, h("div", { class: "dp-board-box" }, h("h3", {}, "SCOREBOARD"), board), bonus);
  const stage = h("div", { class: "dp-stage" });
  const felt = h("div", { class: "dp" }, top, stage);
  root.append(felt);

  const state = { step: null, chosen: [], reveal: null, hand: "" };  // hand: the cards being set

  function drawTop(view, settled) {
    const t = view.table;
    const pays = t.money || {};
    // During the reveal the meter keeps the jackpot as it stood before the hand, as the cabinet does.
    const cents = t.step === "complete" && !settled ? pays.pool_before_cents : t.jackpot_cents;
    jackpot.replaceChildren(h("span", {}, "DRAGON JACKPOT "), h("b", {}, ctx.cents(cents)));
    const codes = (t.scoreboard || []).slice(t.step === "complete" && !settled ? 1 : 0);
    board.replaceChildren(...codes.map((code) => h("li", { class: `dp-code dp-${code[0]}` },
                                                     boardName(code))));
    if (!codes.length) board.append(h("li", { class: "dp-code" }, "No hands yet"));
    const pair = t.pair_bonus || {};
    const cards = h("div", { class: "dp-cards" },
                    ...(t.bonus_cards || [null, null]).map((c) => cardNode(c)));
    const words = [];
    if (pair.bet_credits && !settled) words.push(`PAIR BONUS BET ${ctx.money(pair.bet_credits)}`);
    if (pair.bet_credits && settled) {
      words.push(pair.win_credits ? `PAIR BONUS: ${ctx.words(pair.hand).toUpperCase()} PAYS `
                                    + ctx.money(pair.win_credits)
                                  : `PAIR BONUS: NO PAIR, ${ctx.money(pair.bet_credits)} LOST`);
    }
    bonus.replaceChildren(h("h3", {}, "BONUS CARDS"), cards,
                          ...words.map((w) => h("p", { class: "dp-pair", "aria-label": "Pair bonus" }, w)));
  }

  function drawDesignate() {
    const next = ROLES[state.chosen.length];
    const hands = HANDS.map((label) => {
      const at = state.chosen.indexOf(label);
      const role = at >= 0 ? ROLES[at] : null;
      const discard = !role && state.chosen.length === 3;
      const tag = role ? ROLE_WORDS[role] : discard ? "DISCARD" : "";
      const fan = h("span", { class: "dp-fan", "aria-hidden": "true" },
                    ...Array.from({ length: 13 }, () => cardNode(null, { faceDown: true })));
      const button = h("button", { type: "button", class: `dp-hand ${role ? `dp-role-${role}` : ""}`,
                                   "aria-label": `Hand ${label}${tag ? `: ${tag.toLowerCase()}` : ""}`,
                                   "aria-pressed": String(Boolean(role)) },
                       h("b", { class: "dp-label" }, label), fan, h("span", { class: "dp-tag" }, tag));
      button.classList.toggle("dp-discard", discard);
      onPress(button, () => choose(label));
      return button;
    });
    const confirm = h("button", { type: "button", class: "dp-go", disabled: state.chosen.length < 3 },
                      "CONFIRM HANDS");
    onPress(confirm, designate);
    const clear = h("button", { type: "button", class: "dp-plain", disabled: !state.chosen.length }, "CLEAR");
    onPress(clear, () => { state.chosen = []; drawDesignate(); });
    const ask = next ? ASK[next] : "The fourth hand is discarded: CONFIRM HANDS.";
    stage.replaceChildren(h("h2", { class: "dp-step" }, "Choose the hands"),
                          h("p", { class: "dp-ask" }, ask),
                          h("div", { class: "dp-hands", role: "group", "aria-label": "The four hands" },
                            ...hands),
                          h("div", { class: "dp-actions" }, confirm, clear));
  }

  function choose(label) {
    if (ctx.busy()) return;
    const at = state.chosen.indexOf(label);
    if (at >= 0) state.chosen.splice(at, 1);  // tapping a chosen hand takes its role back
    else if (state.chosen.length < 3) state.chosen.push(label);
    drawDesignate();
  }

  function designate() {
    if (ctx.busy() || state.chosen.length < 3) return;
    const args = Object.fromEntries(ROLES.map((role, i) => [role, state.chosen[i]]));
    ctx.decide({ kind: "designate", args }).catch(() => {});
  }

  function playerCards(table) {
    const mine = Object.values(table.hands || {}).find((hand) => hand.role === "player");
    return mine?.cards || [];
  }

  return {
    update(view) {
      const t = view.table;
      const previous = state.step;
      if (t.step !== "complete" && state.reveal) {
        state.reveal.stop();
        state.reveal = null;
      }
      if (t.step === "designate") {
        if (previous !== "designate") state.chosen = [];
        state.hand = "";
        drawTop(view, false);
        drawDesignate();
      } else if (t.step === "set") {
        const cards = playerCards(t);
        if (state.hand !== cards.join(" ")) {  // a redraw of the same step keeps the cards where they are
          state.hand = cards.join(" ");
          mountSetting(stage, cards, ctx);
        }
        drawTop(view, false);
      } else {
        state.hand = "";
        // A hand seen settled on arrival (no set step before it here) is shown settled at once.
        const animate = previous === "set" && !ctx.reducedMotion;
        if (!state.reveal || state.reveal.view !== view) {
          state.reveal?.stop();
          state.reveal = new Reveal(stage, view, ctx, animate,
                                    (settled) => drawTop(view, settled));
        }
      }
      state.step = t.step;
      return state.reveal?.done;  // the round's end is said once the reveal has shown it
    },
    destroy() {
      state.reveal?.stop();
      root.replaceChildren();
    },
  };
}
