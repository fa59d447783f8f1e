// The board: a square track of 40 spaces round a centre panel (the round, the dice, the card drawn and
// what is happening now), drawn as DOM in an 11 x 11 grid. Go is the bottom-right corner; play runs left
// along the bottom, up the left side, right along the top and down the right side (as on the cabinet).
import { boardMoney, deckName, shortName } from "./words.js";

export const GROUP_COLOURS = {
  purple: "#7a3c96", light_blue: "#8cc8f0", pink: "#dc50a0", brown: "#96582a", red: "#d22828",
  yellow: "#f0d228", green: "#1e9646", dark_blue: "#1e3ca0",
};
const DIE_FACES = ["", "⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const HOTEL = 5;
const ABBREVIATIONS = { chance: "?", community_chest: "Chest", income_tax: "Tax", luxury_tax: "Tax" };  // phone

function gridPlace(index) {
  const side = Math.floor(index / 10);
  const step = index % 10;
  if (side === 0) return [11, 11 - step];
  if (side === 1) return [11 - step, 1];
  if (side === 2) return [1, 1 + step];
  return [1 + step, 11];
}

function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export class Track {
  constructor(parent, spaces, names, onSelect) {
    this.names = names;
    this.spaces = spaces;
    this.root = make("div", "prop-board");
    this.root.setAttribute("role", "group");
    this.root.setAttribute("aria-label", "Board");
    this.cells = spaces.map((space, index) => {
      const cell = make("div", `prop-cell side-${Math.floor(index / 10)}${index % 10 ? "" : " corner"}`);
      const [row, col] = gridPlace(index);
      cell.style.gridArea = `${row} / ${col}`;
      cell.dataset.space = index;
      cell.setAttribute("role", "img");
      const band = make("span", "band");
      if (space.group) band.style.background = GROUP_COLOURS[space.group] || "#ccc";
      const text = make("span", "txt");
      text.append(make("span", "name", shortName(space.name)));
      if (space.price) text.append(make("span", "price", `$${space.price}`));
      else if (ABBREVIATIONS[space.kind]) text.append(make("span", "abbr", ABBREVIATIONS[space.kind]));
      cell.append(space.group ? band : make("span", "band none"), text, make("span", "tokens"));
      cell.addEventListener("click", () => onSelect(index));
      this.root.append(cell);
      return cell;
    });
    this.centre = make("div", "prop-centre");
    this.round = make("p", "prop-round");
    this.dice = make("p", "prop-dice");
    this.card = make("div", "prop-card");
    this.card.setAttribute("aria-label", "Card drawn");
    this.caption = make("p", "prop-caption");
    this.caption.setAttribute("aria-live", "polite");  // the machine's turn, read out as it plays
    this.centre.append(make("p", "prop-title", "PROPERTY"), this.round, this.dice, this.card, this.caption);
    this.root.append(this.centre);
    parent.append(this.root);
  }

  // Owners, buildings, mortgages and the selection, as the view holds them now.
  drawBoard(table, selected) {
    this.spaces.forEach((space, index) => {
      const cell = this.cells[index];
      const owner = table.owner[index];
      const houses = table.houses[index];
      cell.dataset.owner = owner >= 0 ? owner : "";
      cell.classList.toggle("mortgaged", Boolean(table.mortgaged[index]));
      cell.classList.toggle("selected", index === selected);
      const band = cell.querySelector(".band");
      band.replaceChildren(...(houses === HOTEL ? [make("i", "hotel")]
        : Array.from({ length: houses }, () => make("i", "house"))));
      const parts = [space.name];
      if (space.price) parts.push(boardMoney(space.price));
      if (owner >= 0) parts.push(`held by ${this.names[owner]}`);
      if (houses) parts.push(houses === HOTEL ? "a hotel" : `${houses} house${houses > 1 ? "s" : ""}`);
      if (table.mortgaged[index]) parts.push("mortgaged");
      cell.dataset.label = parts.join(", ");
    });
    this.round.textContent = table.final ? "Game over" : `Round ${table.round} of ${table.rounds}`;
  }

  // The tokens at `positions` (one per seat; null: off the board), and each cell's spoken label.
  drawTokens(positions, seats) {
    const here = this.cells.map(() => []);
    positions.forEach((position, seat) => {
      if (position !== null && !seats[seat].bankrupt) here[position].push(seat);
    });
    here.forEach((seatsHere, index) => {
      const cell = this.cells[index];
      cell.querySelector(".tokens").replaceChildren(...seatsHere.map((seat) => {
        const token = make("span", `token seat-${seat}${seats[seat].in_jail ? " jailed" : ""}`);
        token.textContent = this.names[seat][0];
        return token;
      }));
      const who = seatsHere.map((seat) => `${this.names[seat]} here${seats[seat].in_jail ? " (in jail)" : ""}`);
      cell.setAttribute("aria-label", [cell.dataset.label, ...who].join(", "));
    });
  }

  showDice(dice) {
    this.dice.textContent = dice ? `${DIE_FACES[dice[0]]} ${DIE_FACES[dice[1]]}` : "";
    this.dice.setAttribute("aria-label", dice ? `Dice: ${dice[0]} and ${dice[1]}` : "");
  }

  showCard(event) {
    this.card.hidden = !event;
    if (!event) return;
    this.card.dataset.deck = event.deck;
    this.card.replaceChildren(make("b", "", deckName(event.deck)), make("span", "", event.text));
  }

  say(text, space) {
    this.caption.textContent = text;
    this.cells.forEach((cell, index) => cell.classList.toggle("flash", index === space));
  }
}
