// Friends in the page: "Add friend" on a profile, the friends on /me (online, at which table;
// accept a request, remove), "Invite a friend" at a table, and the invitations a player is
// sent, shown on every page (looked for every little while) and notified where allowed.
import { notify } from "../lib/attention.js";
import { $, h } from "../lib/dom.js";
import { t, tableTitle } from "../lib/i18n.js";
import { api } from "../lib/net.js";

const POLL_MS = 10000;  // how often a page looks for new invitations
const SHOWN = "tienlen-invitations-shown";

const friendsNow = () => api("/api/friends").catch(() => []);

/** "Add friend" (or where the asking stands) for the player ``target`` ({player} or {table, seat})
 * called ``name``. */
export async function friendButton(target, name) {
  const known = (await friendsNow()).find((f) => f.name === name);
  const words = { friend: "web.friends.are", asked: "web.friends.asked", asking: "web.friends.accept" };
  const button = h("button.small", { type: "button", testid: "add-friend" });
  const status = h("span.report-done", { role: "status", testid: "friend-done" });
  const show = (state) => {
    button.textContent = t(state ? words[state] : "web.friends.add");
    button.disabled = state === "friend" || state === "asked";
  };
  show(known && known.state);
  button.addEventListener("click", async () => {
    try {
      const done = await api("/api/friends", target);
      show(done.state);
      status.textContent = t(done.state === "friend" ? "web.friends.now" : "web.friends.sent", { name });
    } catch (err) { status.textContent = err.message; }
  });
  return h("span.report-buttons", {}, button, status);
}

function friendLine(f, refresh) {
  const where = f.state !== "friend" ? t(`web.friends.state.${f.state}`)
    : f.tables.length ? t("web.friends.at", { table: tableTitle(f.tables[0]) })
    : t(f.online ? "web.friends.online" : "web.friends.offline");
  const remove = h("button.small", { type: "button", testid: "remove-friend", text: t("web.friends.remove"),
    "aria-label": t("web.friends.remove_label", { name: f.name }),
    onclick: async () => { await api(`/api/friends/${encodeURIComponent(f.id)}/remove`, {}); refresh(); } });
  const accept = f.state === "asking" ? h("button.small.primary", { type: "button", testid: "accept-friend",
    text: t("web.friends.accept"), onclick: async () => { await api("/api/friends", { player: f.name }).catch(() => null); refresh(); } }) : null;
  return h("li.friend", { testid: "friend", dataset: { state: f.state } },
    h(f.online ? "span.friend-dot.on" : "span.friend-dot", { "aria-hidden": "true" }),
    f.profile ? h("a", { href: f.profile, text: f.name }) : h("span", { text: f.name }),
    h("span.muted", { text: where }),
    f.state === "friend" && f.tables.length ? h("a.small", { href: f.tables[0].url, text: t("web.friends.join") }) : null,
    accept, remove);
}

/** /me's friends: the friends first (online, at which table), then the requests. */
export async function friendsSection() {
  const box = $("me-friends");
  if (!box) return;
  const refresh = async () => {
    const list = await friendsNow();
    box.replaceChildren(h("section.panel", {}, h("h2", { text: t("web.friends.title") }),
      list.length ? h("ul.friends", { testid: "friends" }, list.map((f) => friendLine(f, refresh)))
        : h("p.muted", { testid: "no-friends", text: t("web.friends.none") })));
  };
  await refresh();
}

/** The table's "Invite a friend": a dialog of the friends, each with its Invite button. */
export function mountInvite(tableId) {
  const open = $("invite-friend");
  if (!open) return;
  open.addEventListener("click", async () => {
    const old = $("invite-dialog");
    if (old) old.remove();
    const friends = (await friendsNow()).filter((f) => f.state === "friend");
    const status = h("p", { role: "status", testid: "invite-status" });
    const rows = friends.map((f) => h("li", {}, h("span", { text: f.name }),
      h("span.muted", { text: t(f.online ? "web.friends.online" : "web.friends.offline") }),
      h("button.small.primary", { type: "button", testid: "invite", text: t("web.friends.invite"),
        onclick: async () => {
          try { await api("/api/invitations", { friend: f.id, table: tableId }); status.textContent = t("web.friends.invited", { name: f.name }); }
          catch (err) { status.textContent = err.message; }
        } })));
    const dialog = h("dialog.dialog", { id: "invite-dialog", testid: "invite-dialog", "aria-labelledby": "invite-title" },
      h("h2", { id: "invite-title", text: t("web.friends.invite_title") }),
      rows.length ? h("ul.friends", {}, rows) : h("p.muted", { text: t("web.friends.none_to_invite") }),
      status,
      h("button", { type: "button", text: t("web.friends.close"), onclick: () => dialog.close() }));
    document.body.append(dialog);
    dialog.showModal();
  });
  open.hidden = false;
}

function showInvitation(inv) {
  const bar = $("invitations");
  if (!bar) return;
  bar.hidden = false;
  const said = t("web.friends.invites_you", { name: inv.from, table: tableTitle(inv.table_title) });
  bar.append(h("p.invitation", { testid: "invitation" },
    h("span", { text: said }), " ", h("a.button.small.primary", { href: inv.url, text: t("web.friends.join") })));
  notify(t("web.friends.invitation_title"), said);
}

/** Look for invitations now and every little while; each is shown once in this tab's life. */
export function watchInvitations() {
  const shown = new Set(JSON.parse(sessionStorage.getItem(SHOWN) || "[]"));
  const look = async () => {
    const found = await api("/api/invitations").catch(() => []);
    for (const inv of found.reverse()) {
      if (shown.has(inv.id) || location.pathname === inv.url) continue;
      shown.add(inv.id);
      showInvitation(inv);
    }
    sessionStorage.setItem(SHOWN, JSON.stringify([...shown]));
  };
  look();
  setInterval(look, POLL_MS);
}
