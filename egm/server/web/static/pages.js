// The forms of the server-rendered pages. Each sends one request to the JSON API (the API's guards and
// sentences), then asks htmx to redraw the fragment it changed. Money requests carry a request_id made
// once per press and are retried with the same id while the connection is lost (api.js `send`).
import { call, centsOf, money, Refused, requestId, send } from "./api.js";

const say = (form, text, kind = "") => {
  const line = form.querySelector(".say") || document.getElementById("say");
  if (!line) return;  // the page was replaced (a break started)
  line.textContent = text;
  line.dataset.kind = kind;
};
const redraw = (event) => document.body.dispatchEvent(new Event(event));
const pending = new WeakSet();  // forms whose request is on its way: a second press is ignored

// Submit `form` by `act` (async, returns the sentence to show) once at a time.
function handle(form, act) {
  if (!form) return;
  form.querySelector("button[type=submit]").disabled = false;  // wired: a press is handled here
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (pending.has(form)) return;
    pending.add(form);
    form.querySelector("button[type=submit]").disabled = true;
    try {
      say(form, await act(new FormData(form)), "done");
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      say(form, error.message, "refused");
    } finally {
      pending.delete(form);
      form.querySelector("button[type=submit]").disabled = false;
    }
  });
}

const refuse = (sentence) => { throw new Refused(0, { sentence }); };
const notSent = async (offline) => (await import("./bar.js")).showNotSent(offline);

handle(document.getElementById("credentials"), async (fields) => {
  const form = document.getElementById("credentials");
  await call("POST", `/api/v1/auth/${form.dataset.action}`,
             { login: fields.get("login"), password: fields.get("password") });
  location.assign(form.dataset.next || "/");
  return "Logged in.";
});

for (const form of document.querySelectorAll("form.money")) {
  handle(form, async (fields) => {
    const kind = form.dataset.kind;
    const cents = centsOf(fields.get("amount"));
    if (cents === null || cents < 1) refuse("Enter an amount in dollars, e.g. 25 or 25.50.");
    const reply = await send(`/api/v1/wallet/${kind}`, { request_id: requestId(kind[0]), amount_cents: cents },
                             notSent);
    form.reset();
    redraw("egm-money");
    (await import("./bar.js")).showBalance(reply.balance_cents);
    return `${kind === "deposit" ? "Deposited" : "Withdrew"} ${money(cents)}. `
      + `Your balance is ${money(reply.balance_cents)}.`;
  });
}

handle(document.getElementById("set-limit"), async (fields) => {
  const typed = String(fields.get("amount")).trim();
  const cents = typed === "" ? null : centsOf(typed);
  if (typed !== "" && (cents === null || cents < 1)) refuse("Enter a limit in dollars, e.g. 50, or leave it empty to remove it.");
  const kind = fields.get("kind");
  await call("PUT", "/api/v1/limits", { [kind]: { [fields.get("period")]: cents } });
  redraw("egm-limits");
  return "Your limits are saved. A raise or a removal waits for its cooling-off, then for your confirmation.";
});

handle(document.getElementById("reality-form"), async (fields) => {
  const every = fields.get("every");
  await call("PUT", "/api/v1/limits", { reality_check_min: every === "" ? null : Number(every) });
  redraw("egm-limits");
  return every === "" ? "The reality check is off." : `You will be reminded every ${every} minutes.`;
});

handle(document.getElementById("exclusion-form"), async (fields) => {
  const period = fields.get("period");
  (await import("./bar.js")).endingSession();
  const reply = await call("POST", "/api/v1/self-exclusion",
                           period === "permanent" ? { permanent: true } : { days: Number(period) });
  const main = document.getElementById("main");
  main.replaceChildren(Object.assign(document.createElement("p"), { textContent: reply.sentence }));
  main.append(Object.assign(document.createElement("a"), { href: "/", textContent: "Back to the games" }));
  return reply.sentence;
});

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.confirm-limit");
  if (!button) return;
  button.disabled = true;
  try {
    await call("POST", `/api/v1/limits/${button.dataset.limit}/confirm`);
    say(document, "The new limit is in force.", "done");
  } catch (error) {
    say(document, error.message, "refused");
  }
  redraw("egm-limits");
});
