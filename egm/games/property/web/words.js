// Property in a player's words: the seats' names (YOU, MACHINE), board money ("board $1,500": the
// game's play money, never the player's real money), the log's lines for the table's events
// (egm/games/property/table.py names them) and the end's reasons.

export function seatNames(count) {
  return ["YOU", ...Array.from({ length: count - 1 }, (_, i) => (count > 2 ? `MACHINE ${i + 1}` : "MACHINE"))];
}

export function boardMoney(n) {
  return `board $${Math.abs(n).toLocaleString("en-US")}`;
}

export function words(name) {
  return String(name ?? "").replaceAll("_", " ");
}

export function groupName(group) {
  return words(group);
}

// A short name for a board cell; the full name is in the space's detail and the list of spaces.
export function shortName(name) {
  return name.replace("Avenue", "Ave.").replace("Railroad", "R.R.").replace("North Carolina", "N. Carolina")
    .replace("Community Chest", "Comm. Chest").replace("Electric Company", "Electric Co.")
    .split(" ").map((w) => (w.length >= 9 ? `${w.slice(0, Math.ceil(w.length / 2))}\u00ad${w.slice(Math.ceil(w.length / 2))}` : w))
    .join(" ");
}

const YOU_SAY = { pays: "pay", gets: "get", buys: "buy", wins: "win", builds: "build", sells: "sell",
  mortgages: "mortgage", lifts: "lift", trades: "trade", is: "are", collects: "collect", moves: "move",
  draws: "draw", goes: "go", throws: "throw", uses: "use" };

const DECKS = { chance: "Chance", community_chest: "Community Chest" };

export function deckName(deck) {
  return DECKS[deck] || words(deck);
}

// One line of the log for one event; `names` the seats' names, `spaces` the board.
export function describe(event, spaces, names) {
  const seat = event.seat;
  const who = names[seat] ?? `MACHINE ${seat}`;
  const does = (verb) => (seat === 0 ? YOU_SAY[verb] || verb : verb);
  const party = (p) => (Number.isInteger(p) ? names[p] ?? `MACHINE ${p}` : "THE BANK");
  const pays = (payer) => (payer === 0 ? "pay" : "pays");
  const space = Number.isInteger(event.space) && spaces[event.space] ? spaces[event.space].name : "";
  const amount = boardMoney(event.amount || 0);
  switch (event.kind) {
    case "roll": {
      const why = { order: " for the order of play", "utility card": " for the utility's rent" }[event.purpose] || "";
      return `${who} ${does("throws")} ${event.dice[0]} + ${event.dice[1]}${event.in_jail ? " in jail" : why}`;
    }
    case "move":
      return `${who} ${does("moves")} to ${spaces[event.to].name}`;
    case "salary":
      return `${who} ${does("collects")} ${amount} salary`;
    case "buy":
      return event.quick_start ? `${who} ${does("is")} dealt ${space}`
        : `${who} ${does("buys")} ${space} for ${boardMoney(event.price ?? event.amount)}`;
    case "auction":
      if (event.winner === null || event.winner === undefined) {
        return event.lot === "property" ? `No bid for ${space}: it stays with the Bank` : `No bid for the ${event.lot}`;
      }
      return event.lot === "property" ? `${who} ${does("wins")} ${space} at auction for ${boardMoney(event.price)}`
        : `${who} ${does("wins")} a ${event.lot} at auction for ${boardMoney(event.price)}`;
    case "rent":
      return `${who} ${does("pays")} ${amount} rent to ${party(event.payee)} for ${space}`;
    case "tax":
      return `${who} ${does("pays")} ${amount} ${space || "tax"}`;
    case "card":
      if (event.text) return `${who} ${does("draws")} ${deckName(event.deck)}: ${event.text}`;
      return `${party(event.payer)} ${pays(event.payer)} ${amount} to ${party(event.payee)} (the card)`;
    case "jail":
      if (event.fine) return `${who} ${does("pays")} the ${amount} fine and ${seat === 0 ? "leave" : "leaves"} jail`;
      if (event.released) return `${who} ${does("uses")} a Get out of Jail Free card`;
      return `${who} ${does("goes")} to jail${{ card: " (a card)", "three doubles": " (three doubles)" }[event.reason] || ""}`;
    case "build":
      return `${who} ${does("builds")} a ${event.building} on ${space} for ${boardMoney(event.price ?? event.amount)}`;
    case "sell_building":
      return `${who} ${does("sells")} the ${event.building} on ${space} back for ${amount}`;
    case "mortgage":
      return event.interest ? `${who} ${does("pays")} ${amount} interest on ${space}`
        : `${who} ${does("mortgages")} ${space} for ${amount}`;
    case "unmortgage":
      return `${who} ${does("lifts")} the mortgage on ${space} for ${amount}`;
    case "trade": {
      const titles = (list) => (list || []).map((s) => spaces[s].name).join(" and ") || "nothing";
      const cash = event.amount ? `; ${party(event.payer)} ${pays(event.payer)} ${amount}` : "";
      return `${who} ${does("trades")} with ${party(event.with)}: ${titles(event.give)} for ${titles(event.get)}${cash}`;
    }
    case "bankrupt":
      return `${who} ${does("is")} bankrupt: ${amount} goes to ${party(event.payee)}`;
    default:
      return `${who}: ${words(event.kind)}`;
  }
}

// The end's margin line: the pay table's words name board money with a bare "$".
export function reasonWords(text) {
  return text.startsWith("Margin ") ? `Margin in board money ${text.slice(7)}` : text;
}
