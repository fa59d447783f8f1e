// Playing cards as players write them: "Kc" is K♣, "Td" is 10♦, "JK" the joker.
const SUITS = { c: ["♣", "clubs"], d: ["♦", "diamonds"], h: ["♥", "hearts"], s: ["♠", "spades"] };
const RANKS = { T: ["10", "ten"], J: ["J", "jack"], Q: ["Q", "queen"], K: ["K", "king"], A: ["A", "ace"],
  2: ["2", "two"], 3: ["3", "three"], 4: ["4", "four"], 5: ["5", "five"], 6: ["6", "six"],
  7: ["7", "seven"], 8: ["8", "eight"], 9: ["9", "nine"] };

export function isJoker(code) { return code === "JK" || code === "W"; }

export function cardText(code) {
  if (isJoker(code)) return "JOKER";
  return RANKS[code[0]][0] + SUITS[code[1]][0];
}

export function cardName(code) {
  if (isJoker(code)) return "joker";
  return `${RANKS[code[0]][1]} of ${SUITS[code[1]][1]}`;
}

// A card face (a span; `face_down` draws its back). Red suits carry the class "red".
export function cardNode(code, { faceDown = false } = {}) {
  const node = document.createElement("span");
  node.className = "card";
  if (faceDown || !code) {
    node.classList.add("back");
    node.setAttribute("aria-label", "face-down card");
    return node;
  }
  node.dataset.card = code;
  node.setAttribute("aria-label", cardName(code));
  if (isJoker(code)) {
    node.classList.add("joker");
    node.textContent = "★";
  } else {
    node.classList.toggle("red", code[1] === "d" || code[1] === "h");
    node.innerHTML = `<b>${RANKS[code[0]][0]}</b><i>${SUITS[code[1]][0]}</i>`;
  }
  return node;
}
