// The settled hand, revealed in the patent's order (claim 1; `reveal_order` in the view): your set
// hand; the dealer's hand turned over and set by the house way; you against the dealer, row by row;
// the Dragon's hand turned over and set; each row's winner against the Dragon; the points. Then what
// was paid and why, in money: each row, the ledger (a point is worth the bet), the stake's return, the
// jackpot and the pair bonus. Without motion (prefers-reduced-motion) it is shown settled at once.
import { cardNode } from "/static/web/cards.js";
import { h } from "./dom.js";

const ROWS = ["front", "middle", "back"];
const SEATS = [["player", "P", "YOU"], ["dealer", "H", "DEALER"], ["dragon", "D", "DRAGON"]];
const NAMES = { P: "you", H: "the dealer", D: "the Dragon" };
const TITLES = { P: "YOU", H: "DEALER", D: "DRAGON" };
const PHASE_MS = 900;

// A scoreboard code in words: P2 -> YOU 2, H3 -> DEALER 3, D2 -> DRAGON 2, S -> SPLIT.
export function boardName(code) {
  return TITLES[code[0]] ? `${TITLES[code[0]]} ${code.slice(1)}` : "SPLIT";
}

function capital(text) {
  return text[0].toUpperCase() + text.slice(1);
}

export class Reveal {
  constructor(stage, view, ctx, animate, settledTop) {
    Object.assign(this, { stage, view, ctx, settledTop, timer: null });
    this.order = view.table.reveal_order || [];
    this.phase = animate ? 0 : this.order.length - 1;
    this.done = new Promise((resolve) => { this.finished = resolve; });  // the shell's end line waits
    this.draw(animate);
    if (animate) this.timer = setInterval(() => this.next(), PHASE_MS);
    else this.finished();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.finished();
  }

  next() {
    this.phase += 1;
    if (this.phase >= this.order.length - 1) this.stop();
    this.draw(true);
  }

  at(name) {
    return this.phase >= this.order.indexOf(name);
  }

  draw(animate) {
    const t = this.view.table;
    const settled = this.at("points");
    const shown = { player: true, dealer: this.at("dealer_revealed"), dragon: this.at("dragon_revealed") };
    const turning = animate ? { dealer_revealed: "dealer", dragon_revealed: "dragon" }[this.order[this.phase]]
      : null;
    const seats = SEATS.map(([role, side, title]) => {
      const set = (t.settings || {})[side] || {};
      const bonus = (t.bonus_points || {})[side] || 0;
      const head = settled && bonus ? `${title} · BONUS ${this.points(bonus)}` : title;
      const rows = ROWS.map((row) => {
        const won = this.rowWinner(row) === side;
        const cards = (shown[role] ? set[row] : Array(row === "front" ? 3 : 5).fill(null))
          .map((code) => cardNode(code, { faceDown: !shown[role] }));
        if (turning === role) cards.forEach((c) => c.classList.add("dp-turn"));
        const words = shown[role] ? ((t.hand_descriptions || {})[side] || {})[row] || "" : "";
        return h("div", { class: `dp-seat-row${won ? " dp-won" : ""}`,
                          "aria-label": `${TITLES[side]} ${row}${words ? `: ${words}` : ""}${won ? ", wins" : ""}` },
                 h("span", { class: "dp-row-name" }, row.toUpperCase()), h("span", { class: "dp-cards" }, ...cards),
                 h("span", { class: "dp-desc" }, words), won ? h("b", { class: "dp-win" }, "WIN") : "");
      });
      return h("section", { class: `dp-seat dp-role-${role}`, "aria-label": title },
               h("h3", {}, head), ...rows);
    });
    const lines = this.at("player_vs_dealer") ? ROWS.map((row) => this.rowLine(row)) : [];
    this.stage.replaceChildren(
      h("h2", { class: "dp-step" }, settled ? "The hand is settled" : "The reveal"),
      h("div", { class: "dp-seats", "data-phase": this.order[this.phase] || "" }, ...seats),
      h("ul", { class: "dp-lines", "aria-label": "Rows" }, ...lines.map((line) => h("li", {}, line))),
      settled ? this.paid() : "");
    this.settledTop(settled);
    if (settled && animate) {  // the end of the reveal: what was paid comes into sight
      this.stage.querySelector(".dp-paid").scrollIntoView({ block: "nearest", behavior: "smooth" });
    }
  }

  // Who holds the row at this phase: you or the dealer until the Dragon is compared, then the winner.
  rowWinner(row) {
    if (!this.at("player_vs_dealer")) return "";
    const t = this.view.table;
    return this.at("winners_vs_dragon") ? t.rows?.[row]?.winner : t.player_vs_dealer?.[row];
  }

  rowLine(row) {
    const t = this.view.table;
    const pvd = t.player_vs_dealer[row];
    const text = `${capital(row)}: ${capital(NAMES[pvd])} over ${NAMES[pvd === "P" ? "H" : "P"]}`;
    if (!this.at("winners_vs_dragon")) return text;
    return `${text}; the row goes to ${NAMES[t.rows[row].winner]}.`;
  }

  // Points in money: a point is worth the bet (credits), shown in the denomination in force.
  points(n) {
    const sign = n < 0 ? "-" : "+";
    return `${sign}${this.ctx.money(Math.abs(n) * this.view.bet_credits)}`;
  }

  paid() {
    const { ctx, view } = this;
    const t = view.table;
    const led = t.ledger || {};
    const pays = t.money || {};
    const pair = t.pair_bonus || {};
    const lines = [];
    if (led.winner === "split") lines.push(["A split: you pay the house", this.points(-led.split_payment)]);
    else if (led.winner === "P") lines.push([`You win ${led.rows_won} rows: the dealer pays`, this.points(led.win_points)]);
    else if (led.winner === "H") lines.push([`The dealer wins ${led.rows_won} rows: you pay`, this.points(-led.win_points)]);
    else lines.push([`The Dragon wins ${led.rows_won} rows`, ""]);
    if (led.bonus_exchange > 0) lines.push(["Your bonuses, less the dealer's", this.points(led.bonus_exchange)]);
    if (led.bonus_exchange < 0) lines.push(["The dealer's bonuses, less yours", this.points(led.bonus_exchange)]);
    if (led.player_to_jackpot) {
      lines.push([`Into the jackpot for the Dragon's ${led.dragon_points} points`, this.points(-led.player_to_jackpot)]);
    }
    if (led.jackpot_won_by === "H" && led.jackpot_won) lines.push(["The dealer takes the jackpot", ""]);
    lines.push(["Your net", this.points(led.player_net)]);
    const stake = view.stake_credits - (pair.bet_credits || 0);  // the pair bonus is its own bet
    const paid = [[`Your stake ${ctx.money(stake)} comes back as`, ctx.money(pays.stake_return_credits)]];
    if (pays.jackpot_credits) paid.push(["THE DRAGON JACKPOT", ctx.money(pays.jackpot_credits)]);
    if (pair.bet_credits) {
      paid.push(pair.win_credits ? [`Pair bonus: ${ctx.words(pair.hand)}`, ctx.money(pair.win_credits)]
                                 : ["Pair bonus: no pair", ctx.money(0)]);
    }
    paid.push(["Paid", ctx.money(pays.win_credits)]);
    const table = (rows, label) => h("table", { class: "dp-ledger", "aria-label": label },
      h("tbody", {}, ...rows.map(([what, amount]) => h("tr", {}, h("th", { scope: "row" }, what),
                                                      h("td", {}, amount)))));
    return h("div", { class: "dp-paid" }, h("h3", {}, view.result_text),
             table(lines, "Ledger"), table(paid, "What was paid"));
  }
}
