// The admins' page (/admin, main#admin): open reports, bans (made and lifted), renames and the
// audit log. The server refuses every /api/admin route to anyone else; the page then says why.
import { $, h } from "../lib/dom.js";
import { t } from "../lib/i18n.js";
import { api } from "../lib/net.js";

const IDENTITY = /^i[0-9a-f]{24}$/;

/** A moment as the page shows it (UTC, the same in every language). */
const when = (at) => `${new Date(at * 1000).toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** Whom an admin typed: an identity's id (a guest, from a report) or an account's name. */
const whom = (text) => (IDENTITY.test(text.trim()) ? { identity: text.trim() } : { player: text.trim() });

function field(labelKey, input) {
  return h("label", {}, h("span", { text: t(labelKey) }), input);
}

function panel(titleKey, testid, ...children) {
  const id = `admin-${testid}-title`;
  return h("section.panel", { testid: `admin-${testid}`, "aria-labelledby": id },
    h("h2", { id, text: t(titleKey) }), ...children);
}

/** A form whose submit runs ``act`` and says its result (or its refusal) under it. */
function form(testid, children, act) {
  const status = h("p.admin-status", { testid: `${testid}-status`, role: "status" });
  const node = h("form.admin-form", {
    testid,
    onsubmit: async (ev) => {
      ev.preventDefault();
      status.classList.remove("error");
      try { status.textContent = await act(); } catch (err) { status.textContent = err.message; status.classList.add("error"); }
    },
  }, children, status);
  return node;
}

export async function admin() {
  const root = $("admin");
  root.hidden = false;
  const error = h("p.error", { testid: "admin-error", role: "alert" });
  root.replaceChildren(h("h1", { text: t("web.admin.title") }), error);
  try {
    await api("/api/admin/audit");
  } catch (err) {  // not an admin: the server's words, in the page's language
    error.textContent = err.message;
    return;
  }
  const reports = h("ul.admin-list", { testid: "reports" });
  const bans = h("ul.admin-list", { testid: "bans" });
  const audit = h("tbody", { testid: "audit" });

  const banWhom = h("input", { testid: "ban-whom", required: true, maxLength: 96, autocomplete: "off" });
  const amount = h("input", { testid: "ban-amount", type: "number", min: "1", step: "1", value: "24", required: true });
  const unit = h("select", { testid: "ban-unit", "aria-label": t("web.admin.ban_for") },
    h("option", { value: "hours", text: t("web.admin.hours") }), h("option", { value: "days", text: t("web.admin.days") }));
  const address = h("input", { testid: "ban-address", type: "checkbox" });
  const reason = h("input", { testid: "ban-reason", required: true, maxLength: 500 });
  const banForm = form("ban-form", [
    field("web.admin.whom", banWhom),
    h("label", {}, h("span", { text: t("web.admin.ban_for") }), h("span.admin-amount", {}, amount, unit)),
    h("label.check", {}, address, h("span", { text: t("web.admin.ban_address") })),
    field("web.admin.ban_reason", reason),
    h("button.primary", { type: "submit", testid: "ban-send", text: t("web.admin.ban") }),
  ], async () => {
    const made = await api("/api/admin/bans", {
      ...whom(banWhom.value), [unit.value]: Number(amount.value), reason: reason.value, address: address.checked,
    });
    await refresh();
    return t("web.admin.banned", { name: made.name, until: made.until_text });
  });

  const renameWhom = h("input", { testid: "rename-whom", required: true, maxLength: 96, autocomplete: "off" });
  const newName = h("input", { testid: "rename-to", required: true, maxLength: 24, autocomplete: "off" });
  const renameForm = form("rename-form", [
    field("web.admin.whom", renameWhom), field("web.admin.rename_to", newName),
    h("button.primary", { type: "submit", testid: "rename-send", text: t("web.admin.rename") }),
  ], async () => {
    const done = await api("/api/admin/rename", { ...whom(renameWhom.value), name: newName.value });
    await refresh();
    return t("web.admin.renamed", { name: done.name });
  });

  function reportItem(r) {
    const about = r.table ? (r.hand ? t("web.admin.about", { table: r.table, hand: r.hand }) : t("web.admin.about_table", { table: r.table })) : "";
    const line = t("web.admin.reported", { reported: r.reported, reporter: r.reporter });
    return h("li.admin-report", { testid: "report-item", dataset: { id: r.id } },
      h("p.admin-who", {}, r.profile ? h("a", { href: r.profile, text: line }) : h("b", { text: line })),
      h("p", {}, h("b", { text: t(`web.report.reason.${r.reason}`) }), " · ", h("span.muted", { text: when(r.at) })),
      r.text ? h("blockquote", { testid: "report-text", text: r.text }) : null,
      about ? h("p", {}, r.table_page ? h("a", { href: r.table_page, text: about }) : about,
        r.record ? [" · ", h("a", { href: r.record, testid: "report-record", text: t("web.admin.record") })] : null) : null,
      h("div.admin-actions", {},
        r.table && r.hand ? h("button.small", {
          type: "button", testid: "report-chat-show", text: t("web.admin.chat"),
          onclick: async (ev) => {  // what was said at that table during that hand, as text
            const lines = await api(`/api/admin/chat?table=${encodeURIComponent(r.table)}&hand=${r.hand}`);
            const words = (l) => (l.kind === "phrase" ? t(`chat.phrase.${l.text}`) : l.text);
            ev.target.closest("li").querySelector("[data-testid=report-chat]")?.remove();
            ev.target.closest("li").append(h("ol.admin-chat", { testid: "report-chat" }, lines.length
              ? lines.map((l) => h("li", { text: t("web.chat.line", { name: l.name || t("web.seat.numbered", { n: l.seat + 1 }), said: words(l) }) }))
              : h("li.muted", { text: t("web.admin.chat_none") })));
          },
        }) : null,
        h("button.small", {
          type: "button", testid: "report-ban", text: t("web.admin.ban_this", { name: r.reported }),
          onclick: () => { banWhom.value = r.reported_id; reason.focus(); },
        }),
        h("button.small", {
          type: "button", testid: "report-handled", text: t("web.admin.handled"),
          onclick: async () => { await api(`/api/admin/reports/${r.id}/handled`, {}); await refresh(); },
        })));
  }

  function banItem(b) {
    const words = t(b.address ? "web.admin.ban_line_address" : "web.admin.ban_line",
      { name: b.name || "", until: b.until_text, reason: b.reason });
    return h("li", { testid: "ban-item" }, h("span", { text: words }), " ",
      h("button.small", {
        type: "button", testid: "ban-lift", text: t("web.admin.lift"), "aria-label": t("web.admin.lift_label", { name: b.name || "" }),
        onclick: async () => { await api(`/api/admin/bans/${b.id}/lift`, {}); await refresh(); },
      }));
  }

  function auditRow(e) {
    const actor = e.actor === "command line" ? t("web.admin.command_line") : e.actor_name;
    return h("tr", { testid: "audit-row" },
      h("td", { text: when(e.at) }), h("td", { text: actor }),
      h("td", { text: t(`web.admin.action.${e.action}`) }), h("td", { text: e.target_name || e.target }),
      h("td", { text: e.detail }));
  }

  async function refresh() {
    const [r, b, a] = await Promise.all([api("/api/admin/reports"), api("/api/admin/bans"), api("/api/admin/audit")]);
    reports.replaceChildren(...(r.length ? r.map(reportItem) : [h("li.muted", { text: t("web.admin.no_reports") })]));
    bans.replaceChildren(...(b.length ? b.map(banItem) : [h("li.muted", { text: t("web.admin.no_bans") })]));
    audit.replaceChildren(...a.map(auditRow));
  }

  root.append(h("div.admin-grid", {},
    panel("web.admin.reports", "reports", reports),
    panel("web.admin.ban_title", "ban", banForm),
    panel("web.admin.bans", "bans", bans),
    panel("web.admin.rename_title", "rename", renameForm),
    panel("web.admin.audit", "audit", h("div.admin-scroll", {}, h("table.admin-audit", {},
      h("thead", {}, h("tr", {}, ["audit_when", "audit_who", "audit_what", "audit_whom", "audit_detail"]
        .map((k) => h("th", { scope: "col", text: t(`web.admin.${k}`) })))), audit)))));
  try { await refresh(); } catch (err) { error.textContent = err.message; }
}
