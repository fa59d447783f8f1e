// Small DOM helpers shared by Dragon Poker's table modules.

// An element with attributes (aria-*, data-* and role as attributes; the rest as properties) and children.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("aria-") || key.startsWith("data-") || key === "role") node.setAttribute(key, value);
    else node[key] = value;
  }
  node.append(...children);
  return node;
}

export const SLOP = 10;  // a press that moves less than this (CSS px) is a tap

// `act()` on a tap (finger, mouse or pen: a press released where it began) and on the keyboard's or an
// assistive technology's click. Taps are taken from the pointer itself, not from the click the browser
// may or may not synthesise after a touch (Chrome drops the first one after a touch drag).
// `accept(event)` may refuse a press that began on a child.
export function onPress(node, act, accept = () => true) {
  let down = null;
  node.addEventListener("pointerdown", (event) => {
    down = accept(event) && event.isPrimary && (event.pointerType !== "mouse" || event.button === 0)
      ? { id: event.pointerId, x: event.clientX, y: event.clientY } : null;
  });
  node.addEventListener("pointerup", (event) => {
    if (!down || event.pointerId !== down.id || !accept(event)) return;
    const tap = Math.hypot(event.clientX - down.x, event.clientY - down.y) < SLOP;
    down = null;
    if (tap && !node.disabled) act(event);
  });
  node.addEventListener("pointercancel", () => { down = null; });
  node.addEventListener("click", (event) => {  // the keyboard's (a click of no pointer press)
    if (event.detail === 0 && !node.disabled && accept(event)) act(event);
  });
}
