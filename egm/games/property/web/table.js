// Property's table in the browser (docs/property.md, "In the browser"): the board, the dice, the card
// drawn, each seat's cash, net worth and titles, the decision the round awaits as buttons (roll, buy or
// decline, a sealed bid, the jail's choices), a chosen space's deed with its actions (build, sell,
// mortgage, lift, trade), the log in a player's words, and the end: who won by how much board money
// and what the pay table paid for it. The machine's turn plays out on the board, event by event, unless
// the player prefers reduced motion. Board money (the game's) is always "board $"; real money is ctx's.
import { Track, GROUP_COLOURS } from "./track.js";
import { boardMoney, describe, groupName, reasonWords, seatNames } from "./words.js";

const HOTEL = 5;
const STEP_MS = 90; // a token's step from one space to the next
const EVENT_MS = 650; // an event's line on the board before the next

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function lastOf(events, test) {
  for (let i = events.length - 1; i >= 0; i -= 1) if (test(events[i], i)) return i;
  return -1;
}

export function mount(root, ctx) {
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = new URL("table.css", import.meta.url).href;
  document.head.append(css);
  root.innerHTML = `
    <div class="prop">
      <div class="prop-play"></div>
      <div class="prop-side">
        <section class="prop-decide" aria-label="Your decision"><p class="prop-prompt"></p>
          <div class="prop-choices"></div></section>
        <section class="prop-end" aria-label="Result" hidden></section>
        <section class="prop-detail" aria-label="Space" hidden></section>
        <section class="prop-seats" aria-label="Players"></section>
        <details class="prop-spaces"><summary>All 40 spaces</summary><ul></ul></details>
        <section class="prop-log-box"><h2>What happened</h2><ul class="prop-log" aria-label="What happened, latest first"></ul></section>
      </div>
    </div>`;
  const $ = (selector) => root.querySelector(selector);
  const state = { view: null, info: null, track: null, names: [], selected: null, animating: false,
                  generation: 0, hiddenLog: 0, shownCash: null, lastKind: "" };

  function press(decision) {
    if (ctx.busy() || state.animating) return;
    state.lastKind = decision.kind;
    ctx.decide(decision).catch(() => {});  // a refusal: the shell has said why; nothing moved
  }

  function button(label, decision, className = "") {
    const node = make("button", className, label);
    node.type = "button";
    node.disabled = ctx.busy();
    node.onclick = () => press(decision);
    return node;
  }

  function table() {
    return state.view.table;
  }

  function myDecision() {
    const t = table();
    return Boolean(state.view.decision_awaited && !state.info.complete && t.waiting && t.waiting.seat === 0);
  }

  function select(index) {
    state.selected = state.selected === index ? null : index;
    state.track.drawBoard(table(), state.selected);
    drawSeats();
    drawDetail();
    if (state.selected !== null) $(".prop-detail").scrollIntoView({ block: "nearest" });
  }

  // -- the decision awaited ------------------------------------------------------------------------
  function drawDecision() {
    const t = table();
    const prompt = $(".prop-prompt");
    const choices = $(".prop-choices");
    choices.replaceChildren();
    $(".prop-decide").hidden = state.info.complete;
    if (state.animating) {
      prompt.textContent = "The table is playing…";
      const skip = make("button", "", "SKIP TO NOW");
      skip.type = "button";
      skip.onclick = settle;
      choices.append(skip);
      return;
    }
    if (!myDecision()) {
      prompt.textContent = "";
      return;
    }
    const cash = t.seats[0].cash;
    const space = t.spaces[t.waiting.space];
    if (t.decision === "turn") {
      prompt.textContent = "Your turn. Before you roll you may build, mortgage or trade: choose a space.";
      choices.append(button("ROLL THE DICE", { kind: "roll" }));
    } else if (t.decision === "jail") {
      prompt.textContent = "You are in jail: roll for doubles, pay the fine, or use a Get out of Jail Free card.";
      choices.append(button("ROLL FOR DOUBLES", { kind: "roll" }), button("PAY THE FINE", { kind: "pay_fine" }));
      if (t.seats[0].jail_cards) choices.append(button("USE YOUR CARD", { kind: "use_card" }));
    } else if (t.decision === "buy") {
      const short = cash < space.price ? " Mortgage or sell to raise it (choose a space), or decline." : "";
      prompt.textContent = `Buy ${space.name} for ${boardMoney(space.price)}? You have ${boardMoney(cash)}.${short}`;
      if (cash >= space.price) choices.append(button(`BUY FOR ${boardMoney(space.price)}`, { kind: "buy" }));
      choices.append(button("DECLINE: AUCTION IT", { kind: "decline" }));
    } else if (t.decision === "auction") {
      drawBid(t, space, cash, prompt, choices);
    }
  }

  function drawBid(t, space, cash, prompt, choices) {
    const lot = t.waiting.lot;
    const floor = lot === "property" ? 1 : space.house_cost;
    const suggested = Math.min(lot === "property" ? space.price : space.house_cost, cash);
    prompt.textContent = lot === "property"
      ? `Auction of ${space.name} (price ${boardMoney(space.price)}): your sealed bid. You have ${boardMoney(cash)}.`
      : `Auction of a scarce ${lot} for ${space.name}: bids open at ${boardMoney(floor)}. You have ${boardMoney(cash)}.`;
    const label = make("label", "prop-amount", "Your bid in board $ ");
    const input = make("input");
    Object.assign(input, { type: "number", min: "0", max: String(cash), step: "1", value: String(suggested),
                           inputMode: "numeric" });
    label.append(input);
    const bid = button("", { kind: "bid" });
    const amount = () => Number(input.value);
    const relabel = () => { bid.textContent = `BID ${boardMoney(amount() || 0)}`; };
    input.oninput = relabel;
    relabel();
    bid.onclick = () => {
      const value = amount();
      if (!Number.isInteger(value) || value < 0 || value > cash || input.value.trim() === "") {
        ctx.say(`A bid is a whole number of board dollars from 0 to your ${boardMoney(cash)}.`);
        return;
      }
      press({ kind: "bid", args: { amount: value } });
    };
    choices.append(label, bid, button("PASS", { kind: "bid", args: { amount: 0 } }));
  }

  // -- the seats and their titles ------------------------------------------------------------------
  function titleButton(index) {
    const t = table();
    const space = t.spaces[index];
    const houses = t.houses[index];
    const marks = [t.mortgaged[index] ? "mortgaged" : "",
                   houses === HOTEL ? "hotel" : houses ? `${houses} house${houses > 1 ? "s" : ""}` : ""];
    const node = make("button", "prop-title-chip", [space.name, ...marks.filter(Boolean)].join(", "));
    node.type = "button";
    node.style.borderLeftColor = GROUP_COLOURS[space.group] || "#bbb";
    node.setAttribute("aria-pressed", String(state.selected === index));
    node.onclick = () => select(index);
    return node;
  }

  function drawSeats() {
    const t = table();
    const cash = state.shownCash || t.seats.map((s) => s.cash);
    $(".prop-seats").replaceChildren(...t.seats.map((seat, index) => {
      const box = make("div", `prop-seat seat-${index}`);
      const status = [seat.bankrupt ? "BANKRUPT" : "", seat.in_jail ? "IN JAIL" : "",
                      seat.jail_cards ? `${seat.jail_cards} Get out of Jail Free card${seat.jail_cards > 1 ? "s" : ""}` : ""];
      const head = make("h2", "", [state.names[index], ...status.filter(Boolean)].join(" · "));
      const money = make("p", "prop-money");
      money.append(make("span", "", `Cash ${boardMoney(cash[index])}`),
                   make("span", "", `Net worth ${boardMoney(seat.net_worth)}`));
      money.setAttribute("aria-label", `${state.names[index]}: cash ${boardMoney(cash[index])}, net worth ${boardMoney(seat.net_worth)}`);
      const titles = make("div", "prop-titles");
      titles.setAttribute("aria-label", `${state.names[index]}'s titles`);
      t.owner.forEach((owner, space) => { if (owner === index) titles.append(titleButton(space)); });
      box.append(head, money, titles);
      return box;
    }));
  }

  // -- a chosen space: its deed and what may be done with it -------------------------------------------
  function deedLines(t, space) {
    const s = t.spaces[space];
    const lines = [];
    if (s.group) lines.push(`${groupName(s.group)} group`.replace(/^./, (c) => c.toUpperCase()));
    if (s.price) lines.push(`Price ${boardMoney(s.price)}, mortgage value ${boardMoney(s.mortgage)}`);
    if (s.kind === "property") {
      const [base, ...built] = s.rents;
      lines.push(`Rent ${boardMoney(base)} (twice that with the whole group); with 1 to 4 houses `
                 + `${built.slice(0, 4).map(boardMoney).join(", ")}; with a hotel ${boardMoney(built[4])}`);
      lines.push(`A house costs ${boardMoney(s.house_cost)}`);
    } else if (s.kind === "railroad") {
      lines.push(`Rent ${s.rents.map(boardMoney).join(", ")} with 1 to 4 railroads held`);
    } else if (s.kind === "utility") {
      lines.push(`Rent ${s.rents[0]} times the dice, ${s.rents[1]} times with both utilities`);
    }
    const owner = t.owner[space];
    if (s.price) lines.push(owner >= 0 ? `Held by ${state.names[owner]}` : "With the Bank");
    const houses = t.houses[space];
    if (houses) lines.push(houses === HOTEL ? "A hotel stands here" : `${houses} house${houses > 1 ? "s" : ""} here`);
    if (t.mortgaged[space]) lines.push("Mortgaged");
    return lines;
  }

  function drawDetail() {
    const box = $(".prop-detail");
    const space = state.selected;
    box.hidden = space === null;
    if (space === null) return;
    const t = table();
    box.replaceChildren(make("h2", "", t.spaces[space].name),
                        ...deedLines(t, space).map((line) => make("p", "", line)));
    if (state.animating || !myDecision() || !["turn", "jail", "buy"].includes(t.decision)) return;
    const actions = make("div", "prop-choices");
    const legal = t.legal || {};
    const offered = (kind) => t.choices.includes(kind) && (legal[kind] || []).includes(space);
    const houses = t.houses[space];
    const cost = boardMoney(t.spaces[space].house_cost || 0);
    if (offered("build")) {
      actions.append(button(houses === 4 ? `BUILD A HOTEL (${cost})` : `BUILD A HOUSE (${cost})`,
                            { kind: "build", args: { space } }));
    }
    if (offered("sell_building")) {
      actions.append(button(houses === HOTEL ? "SELL THE HOTEL" : "SELL A HOUSE", { kind: "sell_building", args: { space } }));
    }
    if (offered("mortgage")) {
      actions.append(button(`MORTGAGE FOR ${boardMoney(t.spaces[space].mortgage)}`, { kind: "mortgage", args: { space } }));
    }
    if (offered("unmortgage")) {
      actions.append(button("LIFT THE MORTGAGE", { kind: "unmortgage", args: { space } }));
    }
    if (t.choices.includes("trade")) drawTrade(t, space, actions);
    box.append(actions);
  }

  function drawTrade(t, space, actions) {
    const owner = t.owner[space];
    const s = t.spaces[space];
    const built = (s.group && t.spaces.some((o, i) => o.group === s.group && t.houses[i])) || false;
    const machine = t.seats.findIndex((seat, i) => i > 0 && !seat.bankrupt);
    if (!s.price || owner < 0 || built || machine < 0) return;
    const label = make("label", "prop-amount", "Trade price in board $ ");
    const input = make("input");
    Object.assign(input, { type: "number", min: "0", step: "1", value: String(s.price), inputMode: "numeric" });
    label.append(input);
    const buying = owner > 0;
    const other = buying ? owner : machine;
    const offer = make("button", "", "");
    offer.type = "button";
    offer.disabled = ctx.busy();
    const relabel = () => {
      const price = boardMoney(Number(input.value) || 0);
      offer.textContent = buying ? `OFFER ${price} FOR IT` : `OFFER IT TO ${state.names[other]} FOR ${price}`;
    };
    input.oninput = relabel;
    relabel();
    offer.onclick = () => {
      const price = Number(input.value);
      if (!Number.isInteger(price) || price < 0 || input.value.trim() === "") {
        ctx.say("A trade price is a whole number of board dollars.");
        return;
      }
      const payer = buying ? 0 : other;  // the engine's own refusal would name the payer by seat number
      if (price > t.seats[payer].cash) {
        ctx.say(`${state.names[payer] === "YOU" ? "You have" : `${state.names[payer]} has`} only `
                + `${boardMoney(t.seats[payer].cash)} in cash.`);
        return;
      }
      press({ kind: "trade", args: { with: other, give: buying ? [] : [space], get: buying ? [space] : [],
                                     cash: buying ? price : -price } });
    };
    actions.append(label, offer);
  }

  function drawSpaces() {
    const t = table();
    $(".prop-spaces ul").replaceChildren(...t.spaces.map((space, index) => {
      const item = make("li");
      const held = t.owner[index] >= 0 ? `, held by ${state.names[t.owner[index]]}` : "";
      const node = make("button", "prop-space-row", `${space.name}${space.price ? `, ${boardMoney(space.price)}` : ""}${held}`);
      node.type = "button";
      node.style.borderLeftColor = GROUP_COLOURS[space.group] || "transparent";
      node.onclick = () => select(index);
      item.append(node);
      return item;
    }));
  }

  // -- the log, the card, the end -------------------------------------------------------------------
  function drawLog() {
    const t = table();
    const shown = t.log.slice(0, t.log.length - state.hiddenLog);
    $(".prop-log").replaceChildren(...shown.reverse().map((event) => {
      const item = make("li", `seat-${event.seat}`, describe(event, t.spaces, state.names));
      return item;
    }));
  }

  // The card drawn stays on the board until YOU throw again (or it is in the events just played).
  function currentCard(events, upTo, recentFrom) {
    const at = lastOf(events.slice(0, upTo), (e) => e.kind === "card" && e.text);
    if (at < 0) return null;
    const rolledSince = events.slice(at + 1, upTo).some((e) => e.kind === "roll" && e.seat === 0);
    return rolledSince && at < recentFrom ? null : events[at];
  }

  function drawEnd() {
    const t = table();
    const box = $(".prop-end");
    box.hidden = !(state.info.complete && t.final);
    if (box.hidden) return;
    const margin = t.final.margin;
    const winner = margin > 0 ? "YOU WIN" : margin < 0 ? `${state.names[1]} WINS` : "A TIE";
    const head = make("h2", "", margin ? `${winner} BY ${boardMoney(margin)}` : `${winner}: the same net worth`);
    const worth = make("p", "", `Net worth: ${t.seats.map((s, i) => `${state.names[i]} ${boardMoney(s.net_worth)}`).join(", ")}`);
    const pays = make("ul", "prop-pays");
    for (const [text, units] of t.pays || []) {
      pays.append(make("li", "", `${reasonWords(text)}: ${ctx.money(units * state.view.bet_credits)}`));
    }
    const total = make("p", "prop-paid",
                       `Paid ${ctx.cents(state.info.winCents || 0)} for a stake of ${ctx.cents(state.info.stakeCents)}`);
    box.replaceChildren(head, worth, pays, total);
  }

  // -- the machine's turn, played out ------------------------------------------------------------------
  function drawAll() {
    const t = table();
    state.track.drawBoard(t, state.selected);
    drawSeats();
    drawDetail();
    drawSpaces();
    drawLog();
    drawEnd();
    drawDecision();
  }

  function settle() {
    state.generation += 1;
    state.animating = false;
    state.hiddenLog = 0;
    state.shownCash = null;
    const t = table();
    const rolls = t.log.filter((e) => e.kind === "roll");
    drawAll();
    state.track.drawTokens(t.seats.map((s) => s.position), t.seats);
    state.track.showDice(rolls.length ? rolls[rolls.length - 1].dice : null);
    state.track.showCard(currentCard(t.log, t.log.length, t.log.length - t.recent.length));
    state.track.say("", -1);
  }

  async function playOut() {
    const generation = ++state.generation;
    const t = table();
    const recent = t.recent;
    const positions = t.seats.map((s) => s.position);
    for (const event of [...recent].reverse()) {
      if ((event.kind === "move" || event.kind === "jail") && Number.isInteger(event.from)) positions[event.seat] = event.from;
    }
    state.animating = true;
    state.hiddenLog = Math.min(recent.length, t.log.length);
    state.shownCash = recent.length ? t.seats.map((_, i) => (recent[0].cash_after[i] ?? 0)) : null;
    const wait = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });
    const gone = () => generation !== state.generation;
    drawAll();
    state.track.drawTokens(positions, t.seats);
    for (const [k, event] of recent.entries()) {
      if (event.kind === "roll") state.track.showDice(event.dice);
      if (event.kind === "card" && event.text) state.track.showCard(event);
      const line = describe(event, t.spaces, state.names);
      state.track.say(line, Number.isInteger(event.space) ? event.space : -1);
      if ((event.kind === "move" || event.kind === "jail") && Number.isInteger(event.to)) {
        const ahead = (event.to - positions[event.seat] + 40) % 40;
        const steps = ahead <= 12 && event.kind === "move" ? ahead : 0;
        for (let i = 1; i <= steps; i += 1) {
          positions[event.seat] = (positions[event.seat] + 1) % 40;
          state.track.drawTokens(positions, t.seats);
          await wait(STEP_MS);
          if (gone()) return;
        }
        positions[event.seat] = event.to;
        state.track.drawTokens(positions, t.seats);
      }
      state.shownCash = event.cash_after;
      state.hiddenLog = Math.min(t.log.length, recent.length - k - 1);  // the log holds the latest events
      drawSeats();
      drawLog();
      await wait(EVENT_MS);
      if (gone()) return;
    }
    settle();
  }

  return {
    update(view, info) {
      const fresh = view !== state.view;
      const first = state.view === null;
      state.view = view;
      state.info = info;
      const t = view.table;
      if (!state.track) {
        state.names = seatNames(t.seats.length);
        state.track = new Track($(".prop-play"), t.spaces, state.names, select);
      }
      if (!fresh) {  // a request went out or came back with this same view: only the buttons change
        if (!state.animating) drawDecision();
        drawDetail();
        return;
      }
      const answered = state.lastKind === "trade" && t.last_trade;
      if (answered) {
        ctx.say(`${state.names[t.last_trade.with]} ${t.last_trade.accepted ? "accepted" : "refused"} your trade.`);
      }
      state.lastKind = "";
      const moves = t.recent.some((e) => e.kind === "move" || e.kind === "roll");
      if (first || ctx.reducedMotion || !moves) settle();
      else playOut();
    },
    destroy() {
      state.generation += 1;
      css.remove();
      root.innerHTML = "";
    },
  };
}
