// The placement board, shared by the grid games' tables (Poker Grid, Poker Tiles, Prism Words): a grid
// of squares, the player's pieces (a hand or a rack), and putting a piece on a square by dragging it
// (mouse, finger or pen: Pointer Events with pointer capture, never HTML5 drag and drop) or by tapping
// it and then a square. It knows nothing of cards or words: the game's table fills the squares and the
// pieces with its own nodes and decides what a drop means.
//
//   const board = createBoard(host, {
//     rows, cols, label,                // the grid's size and accessible name ("Board")
//     drop(pieceId, row, col),          // a piece was put on a square: return a Promise; a rejected one
//                                       //   (or one resolving to false) snaps the piece back to the hand
//     tap(row, col),                    // optional: a square was pressed with no piece chosen
//     refuse(pieceId, row, col),        // optional: a drop refused here (the square holds a piece)
//     busy(),                           // optional: true while a request is on its way (presses ignored)
//     reducedMotion,                    // skip the snap-back and the machine's move animations
//   });
//   board.squares(fill)     fill(row, col) -> { node?, label?, classes?: [..], taken?: bool }: redraws
//                           every square (label: what it holds, in words; taken: refuse drops locally)
//   board.pieces(list)      [{ id, node, label, classes?: [..] }]: the hand, drawn under the board
//   board.legal(list)       [[row, col], ...]: the squares lit as legal (other empty squares still
//                           take a drop, so the game's own sentence says why it is refused)
//   board.reveal(list)      [[row, col], ...]: the machine's move, square by square (hidden, placed,
//                           highlighted, settled); a Promise. A press while it runs finishes it at once.
//   board.choose(id|null), board.chosen: the piece picked by a tap
//   board.destroy()
//   styled(tableCssUrl) -> Promise: the board's and the table's style sheets loaded (show the table then)
//
// Squares smaller than 44 CSS px (a 13 x 13 board on a 390 px phone has ~28 px squares): a tap on the
// board with a piece chosen opens the lens, a magnified window of the squares around the tap with
// 44 px targets ("Place at row 4, column 7"); a drag shows a loupe above the finger naming the square
// the piece will land on. Rows and columns are counted from 1 in every name, as players count them.

const MIN_TARGET = 44;   // CSS px: the smallest touch target
const LENS = 5;          // squares across the lens and the loupe
const DRAG_START = 6;    // px of movement before a press becomes a drag
const STEP_MS = 320;     // a machine square's arrival
const CLICK_AFTER_MS = 800;  // a click this soon after a pointerup belongs to it

const BOARD_CSS = new URL("board.css", import.meta.url).href;

// A style sheet linked once (the page's CSP allows no inline style); resolves once it has loaded.
export function linkStyle(href) {
  let link = document.querySelector(`link[href="${href}"]`);
  if (!link) {
    link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = href;
    document.head.append(link);
  }
  if (link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

// The board's style and a table's own: a table shows itself once both have loaded, so nothing is
// pressed (or measured) where an unstyled board stood.
export function styled(tableCss) {
  return Promise.all([linkStyle(BOARD_CSS), linkStyle(tableCss)]);
}

export function squareName(row, col) {
  return `row ${row + 1}, column ${col + 1}`;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function createBoard(host, options) {
  linkStyle(BOARD_CSS);
  const { rows, cols } = options;
  const busy = options.busy || (() => false);
  const root = document.createElement("div");
  root.className = "pb";
  const grid = document.createElement("div");
  grid.className = "pb-grid";
  grid.setAttribute("role", "group");
  grid.setAttribute("aria-label", options.label || "Board");
  grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
  const hand = document.createElement("div");
  hand.className = "pb-hand";
  hand.setAttribute("role", "group");
  hand.setAttribute("aria-label", options.handLabel || "Your hand");
  root.append(grid, hand);
  host.append(root);

  const cells = [];  // row-major: the square buttons
  const taken = new Set();
  let legal = new Set();
  let chosen = null;
  let lens = null;
  let revealing = null;  // { hurry() } while the machine's move is shown
  const key = (row, col) => row * cols + col;

  for (let row = 0; row < rows; row += 1) {
    for (let col = 0; col < cols; col += 1) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "pb-sq";
      cell.dataset.row = row;
      cell.dataset.col = col;
      cell.onclick = () => pressSquare(row, col, cell);
      cells.push(cell);
    }
  }
  grid.append(...cells);

  function squareSize() {
    return grid.getBoundingClientRect().width / cols;
  }

  function squareAt(x, y) {
    const box = grid.getBoundingClientRect();
    if (x < box.left || y < box.top || x >= box.right || y >= box.bottom) return null;
    const row = Math.floor(((y - box.top) / box.height) * rows);
    const col = Math.floor(((x - box.left) / box.width) * cols);
    return row >= 0 && row < rows && col >= 0 && col < cols ? [row, col] : null;
  }

  function pieceButton(id) {
    return hand.querySelector(`[data-piece="${CSS.escape(String(id))}"]`);
  }

  function choose(id) {
    chosen = id;
    for (const button of hand.children) button.setAttribute("aria-pressed", String(button.dataset.piece === String(id)));
    if (id === null) closeLens();
  }

  // Put the chosen (or dragged) piece on a square: refused here when the square holds a piece,
  // otherwise the game decides; the piece waits on the square until it does, or snaps back.
  async function place(id, row, col, from) {
    closeLens();
    choose(null);
    if (taken.has(key(row, col))) {
      options.refuse?.(id, row, col);
      await snapBack(id, from);
      return;
    }
    const cell = cells[key(row, col)];
    const piece = pieceButton(id);
    const held = [...cell.childNodes];
    if (piece) {
      cell.replaceChildren(...[...piece.childNodes].map((n) => n.cloneNode(true)));
      cell.classList.add("waiting");
      piece.classList.add("lifted");
    }
    let accepted = false;
    try {
      accepted = (await options.drop(id, row, col)) !== false;
    } catch {
      accepted = false;
    }
    if (accepted) return;  // the game redraws the board and the hand
    if (cell.classList.contains("waiting")) {
      cell.classList.remove("waiting");
      cell.replaceChildren(...held);
    }
    await snapBack(id, cell.getBoundingClientRect());
  }

  // The piece flies back from `from` (a rect) to its place in the hand.
  async function snapBack(id, from) {
    const piece = pieceButton(id);
    if (!piece) return;
    if (from && !options.reducedMotion) {
      const to = piece.getBoundingClientRect();
      const ghost = ghostOf(piece);
      const dx = to.left + to.width / 2 - (from.left + from.width / 2);
      const dy = to.top + to.height / 2 - (from.top + from.height / 2);
      moveGhost(ghost, from.left + from.width / 2, from.top + from.height / 2);
      await ghost.animate([{ translate: "0 0" }, { translate: `${dx}px ${dy}px` }],
                          { duration: 180, easing: "ease-in" }).finished.catch(() => {});
      ghost.remove();
    }
    piece.classList.remove("lifted");
  }

  function ghostOf(piece) {
    const ghost = document.createElement("div");
    ghost.className = "pb-ghost";
    ghost.setAttribute("aria-hidden", "true");
    ghost.append(...[...piece.childNodes].map((n) => n.cloneNode(true)));
    document.body.append(ghost);
    return ghost;
  }

  function moveGhost(ghost, x, y) {
    ghost.style.left = `${x}px`;
    ghost.style.top = `${y}px`;
  }

  function pressSquare(row, col, cell) {
    if (revealing) revealing.hurry();
    if (busy()) return;
    if (chosen === null) {
      options.tap?.(row, col);
    } else if (squareSize() < MIN_TARGET && !lens) {
      openLens(row, col);
    } else {
      place(chosen, row, col, cell.getBoundingClientRect());
    }
  }

  // The squares around (row, col), LENS across, kept on the board: copies of the board's squares.
  function around(row, col) {
    const top = Math.max(0, Math.min(rows - LENS, row - Math.floor(LENS / 2)));
    const left = Math.max(0, Math.min(cols - LENS, col - Math.floor(LENS / 2)));
    const out = [];
    for (let r = top; r < Math.min(rows, top + LENS); r += 1) {
      for (let c = left; c < Math.min(cols, left + LENS); c += 1) out.push([r, c]);
    }
    return { out, across: Math.min(cols, LENS) };
  }

  function copySquare(row, col, tag) {
    const source = cells[key(row, col)];
    const copy = document.createElement(tag);
    copy.className = source.className.replace(/\b(target|hide|waiting)\b/g, "");
    copy.append(...[...source.childNodes].map((n) => n.cloneNode(true)));
    return copy;
  }

  function openLens(row, col) {
    closeLens();
    const { out, across } = around(row, col);
    lens = document.createElement("div");
    lens.className = "pb-lens";
    lens.setAttribute("role", "group");
    lens.setAttribute("aria-label", "Lens");
    lens.style.gridTemplateColumns = `repeat(${across}, 48px)`;
    for (const [r, c] of out) {
      const square = copySquare(r, c, "button");
      square.type = "button";
      square.dataset.row = r;
      square.dataset.col = c;
      square.setAttribute("aria-label", `Place at ${squareName(r, c)}`);
      square.onclick = () => {
        if (!busy() && chosen !== null) place(chosen, r, c, square.getBoundingClientRect());
      };
      lens.append(square);
    }
    const close = document.createElement("button");
    close.type = "button";
    close.className = "pb-close";
    close.textContent = "Close the lens";
    close.onclick = closeLens;
    lens.append(close);
    lens.onkeydown = (event) => {
      if (event.key === "Escape") closeLens();
    };
    root.append(lens);
    // Over the tapped square, kept inside the board.
    const box = root.getBoundingClientRect();
    const size = squareSize();
    const width = lens.offsetWidth;
    const height = lens.offsetHeight;
    const x = Math.max(0, Math.min(box.width - width, (col + 0.5) * size - width / 2));
    const y = Math.max(0, Math.min(grid.offsetHeight - height, (row + 0.5) * size - height / 2));
    lens.style.left = `${x}px`;
    lens.style.top = `${y}px`;
    lens.querySelector(`[data-row="${row}"][data-col="${col}"]`)?.focus();
  }

  function closeLens() {
    lens?.remove();
    lens = null;
  }

  // A drag: the piece follows the pointer (captured once it moves, so it is ours until lifted), the square
  // under it is outlined (and named in the loupe when squares are small); a drop off the board, or a
  // cancelled pointer, snaps it back.
  function drag(piece, down) {
    const id = piece.dataset.piece;
    let ghost = null;
    let loupe = null;
    let over = null;
    let dragged = false;

    const target = (square) => {
      if (over) cells[key(...over)].classList.remove("target");
      over = square;
      if (over) cells[key(...over)].classList.add("target");
    };
    const showLoupe = (x, y) => {
      if (!over || squareSize() >= MIN_TARGET) {
        loupe?.remove();
        loupe = null;
        return;
      }
      if (!loupe) {
        loupe = document.createElement("div");
        loupe.className = "pb-lens pb-loupe";
        loupe.setAttribute("aria-hidden", "true");
        document.body.append(loupe);
      }
      const { out, across } = around(...over);
      loupe.style.gridTemplateColumns = `repeat(${across}, 40px)`;
      loupe.replaceChildren(...out.map(([r, c]) => copySquare(r, c, "div")));
      loupe.children[out.findIndex(([r, c]) => r === over[0] && c === over[1])].classList.add("target");
      const width = loupe.offsetWidth;
      loupe.style.left = `${Math.max(0, Math.min(innerWidth - width, x - width / 2))}px`;
      loupe.style.top = `${Math.max(0, y - loupe.offsetHeight - 48)}px`;
    };
    const move = (event) => {
      if (event.pointerId !== down.pointerId) return;
      if (!dragged) {
        if (Math.hypot(event.clientX - down.clientX, event.clientY - down.clientY) < DRAG_START) return;
        dragged = true;
        piece.setPointerCapture(down.pointerId);  // only now: a captured tap would lose its click
        choose(null);
        ghost = ghostOf(piece);
        piece.classList.add("lifted");
      }
      moveGhost(ghost, event.clientX, event.clientY);
      const square = squareAt(event.clientX, event.clientY);
      if (String(square) !== String(over)) target(square);
      showLoupe(event.clientX, event.clientY);
    };
    const end = (event) => {
      if (event.pointerId !== down.pointerId) return;
      removeEventListener("pointermove", move);
      removeEventListener("pointerup", end);
      removeEventListener("pointercancel", end);
      loupe?.remove();
      // Handled here, the click that may follow is not a tap (Chrome drops the click of a tap made
      // just after a drag, so a tap is taken from its pointerup).
      piece.dataset.handled = String(event.timeStamp);
      if (!dragged) {
        if (event.type === "pointerup") toggle(id);
        return;
      }
      const square = event.type === "pointerup" ? over : null;
      const from = ghost.getBoundingClientRect();
      ghost.remove();
      target(null);
      if (square) place(id, square[0], square[1], from);
      else snapBack(id, from);
    };
    // On the window: a mouse is not captured until it has moved, and may leave the piece at once.
    addEventListener("pointermove", move);
    addEventListener("pointerup", end);
    addEventListener("pointercancel", end);
  }

  function toggle(id) {
    if (!busy()) choose(chosen === id ? null : id);
  }

  function pieces(list) {
    closeLens();
    hand.replaceChildren(...list.map((item) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = ["pb-piece", ...(item.classes || [])].join(" ");
      button.dataset.piece = item.id;
      button.setAttribute("aria-label", item.label);
      button.setAttribute("aria-pressed", "false");
      button.append(item.node);
      button.onpointerdown = (event) => {
        if (revealing) revealing.hurry();
        if (busy() || event.button > 0) return;
        drag(button, event);
      };
      button.onclick = (event) => {  // a key press, or a tap's click not handled at its pointerup
        if (event.timeStamp - Number(button.dataset.handled || -1e9) > CLICK_AFTER_MS) toggle(item.id);
      };
      return button;
    }));
    if (chosen !== null && !list.some((item) => item.id === chosen)) choose(null);
    else choose(chosen);
  }

  function squares(fill) {
    closeLens();
    taken.clear();
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        const cell = cells[key(row, col)];
        const square = fill(row, col) || {};
        cell.className = ["pb-sq", ...(square.classes || [])].join(" ");
        cell.classList.toggle("legal", legal.has(key(row, col)));
        cell.replaceChildren(...(square.node ? [square.node] : []));
        const name = squareName(row, col);
        cell.setAttribute("aria-label", square.label ? `${name}: ${square.label}` : name);
        if (square.taken) taken.add(key(row, col));
      }
    }
  }

  function setLegal(list) {
    legal = new Set(list.map(([row, col]) => key(row, col)));
    cells.forEach((cell, i) => cell.classList.toggle("legal", legal.has(i)));
  }

  // The machine's move: its squares hidden, then placed one at a time and highlighted; a press (or
  // reduced motion) shows them all at once.
  async function reveal(list) {
    revealing?.hurry();
    const shown = list.map(([row, col]) => cells[key(row, col)]);
    if (options.reducedMotion || !shown.length) return;
    let hurried = false;
    const run = { hurry() { hurried = true; } };
    revealing = run;
    shown.forEach((cell) => cell.classList.add("hide"));
    for (const cell of shown) {
      if (hurried) break;
      cell.classList.remove("hide");
      cell.classList.add("arrived");
      cell.animate([{ transform: "scale(1.6)", opacity: 0.2 }, { transform: "scale(1)", opacity: 1 }],
                   { duration: STEP_MS * 0.8, easing: "ease-out" });
      await sleep(STEP_MS);
    }
    shown.forEach((cell) => cell.classList.remove("hide", "arrived"));
    if (revealing === run) revealing = null;
  }

  return {
    squares, pieces, reveal, choose,
    legal: setLegal,
    get chosen() { return chosen; },
    destroy() {
      revealing?.hurry();
      closeLens();
      root.remove();
    },
  };
}
