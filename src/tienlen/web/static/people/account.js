// The account: in the header, who this browser is (a guest's name with "Sign in" and "Claim your
// name", or an account's name with "Sign out"), the dialogs that sign in, claim, recover and show
// recovery codes; on /me, the account's section (password, codes, sessions, deleting it).
import { $, h } from "../lib/dom.js";
import { lang, t } from "../lib/i18n.js";
import { api } from "../lib/net.js";

const MIN_PASSWORD = 8;
const MAX_PASSWORD = 128;

/** An input with its label (and a hint under it, read with the input). */
function field(id, key, type = "text", extra = {}) {
  const hint = extra.hint ? h("small.hint", { id: `${id}-hint`, text: t(extra.hint) }) : null;
  const input = h("input", {
    id, name: id, type, required: true, testid: id, autocomplete: extra.autocomplete || "off",
    minLength: extra.min, maxLength: extra.max, "aria-describedby": hint ? hint.id : undefined,
    autocapitalize: "off", spellcheck: false,
  });
  return h("label.field", { for: id }, h("span", { text: t(key) }), input, hint);
}

const passwordField = (id, key, autocomplete, isNew = false) => field(id, key, "password", isNew
  ? { autocomplete, min: MIN_PASSWORD, max: MAX_PASSWORD, hint: "web.account.password_hint" }
  : { autocomplete, max: MAX_PASSWORD });

/** A form that sends its values to ``act`` and says a refusal in its role=alert line. */
function form(testid, fields, submitKey, act, cancel = null) {
  const error = h("p.error", { role: "alert", testid: `${testid}-error` });
  const submit = h("button.primary", { type: "submit", testid: `${testid}-submit`, text: t(submitKey) });
  const node = h("form.account-form", { testid, novalidate: true }, fields, error,
    h("div.account-actions", {}, cancel, submit));
  node.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const invalid = [...node.elements].find((el) => el.willValidate && !el.checkValidity());
    if (invalid) {
      error.textContent = invalid.validationMessage;
      invalid.focus();
      return;
    }
    const values = Object.fromEntries(new FormData(node));
    submit.disabled = true;
    try {
      await act(values, node);
    } catch (err) {
      error.textContent = err.message;
      node.querySelector("input")?.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return node;
}

/** A modal <dialog> titled by ``titleKey``; focus goes back to where it was when it closes. */
function dialog(testid, titleKey, ...body) {
  const title = h("h2", { id: `${testid}-title`, text: t(titleKey) });
  const node = h("dialog.account-dialog", { testid, "aria-labelledby": title.id }, title, ...body);
  node.addEventListener("close", () => {
    node.remove();
    node.opener?.focus();
  });
  document.body.append(node);
  node.opener = document.activeElement;
  node.showModal();
  node.querySelector("input, button.primary")?.focus();
  return node;
}

const cancelButton = (close) => h("button", { type: "button", testid: "cancel", onclick: close, text: t("web.account.cancel") });

function signInDialog() {
  let node = null;
  const close = () => node.close();
  node = dialog("signin-dialog", "web.account.signin_title",
    form("signin-form", [field("signin-name", "web.account.name", "text", { autocomplete: "username", max: 96 }),
      passwordField("signin-password", "web.account.password", "current-password")],
    "web.account.signin_submit", async (v) => {
      await api("/api/account/signin", { name: v["signin-name"], password: v["signin-password"] });
      location.reload();
    }, cancelButton(close)),
    h("p.aside", {}, h("button.link", {
      type: "button", testid: "forgot", text: t("web.account.forgot"),
      onclick: () => { const opener = node.opener; node.close(); recoverDialog(opener); },
    })));
}

function recoverDialog(opener) {
  let node = null;
  node = dialog("recover-dialog", "web.account.recover_title",
    h("p.lede", { text: t("web.account.recover_why") }),
    form("recover-form", [field("recover-name", "web.account.name", "text", { autocomplete: "username", max: 96 }),
      field("recover-code", "web.account.code", "text", { max: 40 }),
      passwordField("recover-password", "web.account.new_password", "new-password", true)],
    "web.account.recover_submit", async (v) => {
      await api("/api/account/recover", { name: v["recover-name"], code: v["recover-code"],
        new_password: v["recover-password"] });
      location.reload();
    }, cancelButton(() => node.close())));
  if (opener) node.opener = opener;
}

function claimDialog(me) {
  let node = null;
  node = dialog("claim-dialog", "web.account.claim_title",
    h("p.lede", { text: t("web.account.claim_why") }),
    form("claim-form", [field("claim-name", "web.account.name", "text", { autocomplete: "username", max: 96 }),
      passwordField("claim-password", "web.account.password", "new-password", true)],
    "web.account.claim_submit", async (v) => {
      const done = await api("/api/account/claim", { name: v["claim-name"], password: v["claim-password"] });
      node.close();
      codesDialog(done.recovery_codes, () => location.reload());
    }, cancelButton(() => node.close())));
  const name = node.querySelector("#claim-name");
  name.value = (me && me.name) || localStorage.getItem("tienlen-name") || "";
  name.select();
}

/** The recovery codes, shown once: the player closes the dialog by saying they kept them. */
const BROWSERS = [["Edg/", "Edge"], ["OPR/", "Opera"], ["Firefox/", "Firefox"], ["Chrome/", "Chrome"],
  ["Safari/", "Safari"]];
const SYSTEMS = [["Android", "Android"], ["iPhone", "iPhone"], ["iPad", "iPad"], ["Windows", "Windows"],
  ["Mac OS X", "macOS"], ["CrOS", "ChromeOS"], ["Linux", "Linux"]];

/** "Chrome · Linux" for a browser's User-Agent (the whole of it in the element's title). */
function browserName(agent) {
  if (!agent) return "";
  const found = (list) => (list.find(([mark]) => agent.includes(mark)) || [null, ""])[1];
  return [found(BROWSERS), found(SYSTEMS)].filter(Boolean).join(" · ") || agent.slice(0, 40);
}

export function codesDialog(codes, then) {
  const copied = h("span.muted", { role: "status", testid: "codes-copied" });
  const text = codes.join("\n");
  let node = null;
  const done = h("button.primary", { type: "button", testid: "codes-done", text: t("web.account.codes_done"),
    onclick: () => node.close() });
  node = dialog("codes-dialog", "web.account.codes_title",
    h("p.lede", { text: t("web.account.codes_why") }),
    h("ol.codes", { testid: "recovery-codes", lang: "en" }, codes.map((c) => h("li", {}, h("code", { text: c })))),
    h("div.account-actions", {},
      h("button", { type: "button", testid: "codes-copy", text: t("web.account.codes_copy"), onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          copied.textContent = t("web.account.codes_copied");
        } catch {
          getSelection().selectAllChildren(node.querySelector(".codes"));
          copied.textContent = t("web.account.codes_select");
        }
      } }), copied, done));
  node.addEventListener("cancel", (ev) => ev.preventDefault());  // Escape does not lose them
  node.addEventListener("close", () => then && then());
  done.focus();
}

/** The header's account area (right before the language switch). */
function area(me) {
  const root = $("account");
  root.setAttribute("aria-label", t("web.account.area"));
  root.replaceChildren();
  if (me.account) {
    root.append(h("a.account-name", { href: "/me", testid: "account-name", text: me.name }),
      h("button.small", { type: "button", testid: "sign-out", text: t("web.account.sign_out"), onclick: signOut }));
    return;
  }
  if (me.name) root.append(h("span.account-name.muted", { testid: "account-name", text: me.name }));
  root.append(h("button.small", { type: "button", testid: "sign-in", text: t("web.account.sign_in"), onclick: signInDialog }),
    h("button.small.primary", { type: "button", testid: "claim", text: t("web.account.claim"), onclick: () => claimDialog(me) }));
}

async function signOut() {
  await api("/api/account/signout", {});
  location.reload();
}

const when = (s) => new Date(s * 1000).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });

/** A section of the account page, titled. */
const part = (testid, titleKey, ...body) => h("section.panel.account-part", { testid, "aria-labelledby": `${testid}-title` },
  h("h2", { id: `${testid}-title`, text: t(titleKey) }), ...body);

async function sessionsPart() {
  const list = h("ul.sessions", { testid: "sessions" });
  const said = h("p.muted", { role: "status", testid: "sessions-status" });
  const fill = async () => {
    const sessions = await api("/api/account/sessions");
    list.replaceChildren(...sessions.map((s) => h("li.session", { testid: "session" },
      h("span.session-agent", { text: browserName(s.agent) || t("web.account.session_unknown"), title: s.agent }),
      h("small.muted", {}, t("web.account.session_seen", { when: when(s.seen) })),
      s.this ? h("strong.session-this", { testid: "session-this", text: t("web.account.session_this") })
        : h("button.small", { type: "button", testid: "session-end", text: t("web.account.session_end"),
          onclick: async () => { await api(`/api/account/sessions/${s.id}/end`, {}); await fill(); } }))));
  };
  await fill();
  return part("account-sessions", "web.account.sessions", list,
    h("div.account-actions", {}, h("button", { type: "button", testid: "sign-out-others", text: t("web.account.sign_out_others"),
      onclick: async () => {
        const { ended } = await api("/api/account/signout-others", {});
        said.textContent = t("web.account.ended", { n: ended });
        await fill();
      } })), said);
}

async function accountPage(me) {
  const root = $("me-account");
  if (!me.account) {
    root.replaceChildren(part("account-guest", "web.account.heading_guest",
      h("p.lede", { text: me.name ? t("web.account.guest_why", { name: me.name }) : t("web.account.nobody_why") }),
      h("div.account-actions", {},
        h("button.primary", { type: "button", testid: "me-claim", text: t("web.account.claim"), onclick: () => claimDialog(me) }),
        h("button", { type: "button", testid: "me-sign-in", text: t("web.account.sign_in"), onclick: signInDialog }))));
    return;
  }
  const changed = h("p.muted", { role: "status", testid: "password-status" });
  const password = form("password-form", [passwordField("old-password", "web.account.current_password", "current-password"),
    passwordField("new-password", "web.account.new_password", "new-password", true)],
  "web.account.change_submit", async (v, node) => {
    const { ended } = await api("/api/account/password", { password: v["old-password"], new_password: v["new-password"] });
    node.reset();
    changed.textContent = t("web.account.changed", { n: ended });
  });
  const codes = form("codes-form", [passwordField("codes-password", "web.account.current_password", "current-password")],
    "web.account.codes_renew", async (v, node) => {
      const { recovery_codes: fresh } = await api("/api/account/codes", { password: v["codes-password"] });
      node.reset();
      codesDialog(fresh, null);
    });
  const remove = form("delete-form", [passwordField("delete-password", "web.account.current_password", "current-password")],
    "web.account.delete_submit", async (v) => {
      await api("/api/account/delete", { password: v["delete-password"] });
      location.assign("/");
    });
  remove.querySelector("button.primary").className = "danger";
  root.replaceChildren(
    h("h1.account-heading", { testid: "account-heading", text: t("web.account.heading", { name: me.name }) }),
    part("account-password", "web.account.change_password", password, changed),
    part("account-codes", "web.account.codes_section", h("p.lede", { text: t("web.account.codes_renew_why") }), codes),
    await sessionsPart(),
    part("account-delete", "web.account.delete", h("p.lede", { text: t("web.account.delete_why") }), remove));
}

/** Mount the account: the header's area on every page, and on /me the account's section. */
export async function account(path) {
  const me = await api("/api/me");
  area(me);
  if (me.name) {  // the name fields say who sits: an account's own name, a guest's last one
    for (const id of ["name", "join-name"]) {
      const field = document.getElementById(id);
      // (known: the page's own default, set when its module loads, does not replace it)
      if (field) { field.value = me.name; field.readOnly = me.account; field.dataset.known = "1"; }
    }
    document.dispatchEvent(new CustomEvent("tienlen-me", { detail: me }));
  }
  if (path === "/me") {
    document.title = t("web.account.title");
    $("me").hidden = false;
    await accountPage(me);
  }
}
