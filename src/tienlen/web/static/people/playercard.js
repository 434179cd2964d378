// A player's card, opened from their seat's ⋯ menu: who they are (an account's page linked; a
// guest has no page, so the card is how strangers look each other up), their ratings and hands,
// and what they are to you, with the one friend action that applies now. Acting keeps the card
// open and says what changed; it never offers again what was just done.
import { h } from "../lib/dom.js";
import { familyName, t } from "../lib/i18n.js";
import { api } from "../lib/net.js";
import { ratingText } from "../lib/numbers.js";

const ID = "player-card";

/** Open the card of the player at ``seat`` of table ``tableId`` (``name``: as the page shows
 * it). */
export async function openPlayerCard(tableId, seat, name) {
  document.getElementById(ID)?.remove();
  const body = h("div.player-card-body", {}, h("p.muted", { text: t("web.card.loading") }));
  const dialog = h("dialog.dialog.player-card", { id: ID, testid: ID, "aria-labelledby": `${ID}-name` },
    h("h2", { id: `${ID}-name`, text: name }), body,
    h("p.dialog-actions", {}, h("button", { type: "button", testid: "player-card-close", text: t("web.friends.close"),
      onclick: () => dialog.close() })));
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  let player;
  try {
    player = await api(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/player`);
  } catch (err) {
    body.replaceChildren(h("p.error", { role: "alert", text: err.message }));
    return;
  }
  const friendLine = h("p.player-card-friend", { testid: "player-card-friend", role: "status" });
  const showRelation = (relation, said = "") => {
    friendLine.replaceChildren();
    if (said) friendLine.append(said);
    else if (relation === "friend") friendLine.append(t("web.card.friends"));
    else if (relation === "asked") friendLine.append(t("web.friends.sent", { name: player.name }));
    if (relation === null || relation === "asking") {
      friendLine.append(h("button.small", { type: "button", testid: "player-card-add",
        text: t(relation === "asking" ? "web.card.accept" : "web.friends.add"),
        onclick: async (ev) => {
          ev.currentTarget.disabled = true;
          try {
            const done = await api("/api/friends", { table: tableId, seat });
            showRelation(done.state, t(done.state === "friend" ? "web.friends.now" : "web.friends.sent", { name: player.name }));
          } catch (err) {
            showRelation(relation, err.message);
          }
        } }));
    }
  };
  const ratings = player.ratings.length ? h("ul.player-card-ratings", { testid: "player-card-ratings" },
    player.ratings.map((r) => h("li", {}, h("span", { text: `${familyName(r.family)}: ` }),
      h("b", { text: ratingText(r.rating, r.provisional) }), ` · ${t("web.profile.rated_hands", { n: r.hands, firsts: r.firsts })}`)))
    : h("p.muted", { text: t("web.card.no_ratings") });
  body.replaceChildren(...[
    h("p.muted", {}, h("span.badge", { text: player.account ? t("web.profile.account") : t("web.profile.guest") }), " ",
      t("web.card.hands", { hands: player.hands, firsts: player.firsts })),
    ratings,
    player.profile ? h("p", {}, h("a", { href: player.profile, testid: "player-card-page", text: t("web.card.page") })) : null,
    player.relation === "self" ? null : friendLine].filter(Boolean));
  showRelation(player.relation);
}
