// What this seat may do now, read from the decision the server sends (view.decision: the
// engine's decision kind and its facts, a play in turn too; none for a spectator, for a seat
// asked nothing, once the hand is over). The page works none of it out again from whose turn
// it is, the phase or the legal list: those it only shows.

/** The decision seat ``me`` (null: watching) is asked in ``view`` now, or null. */
export function asked(view, me) {
  return me !== null && view && !view.is_over && view.decision ? view.decision : null;
}

/** Whether the table waits for this decision: one on turn, not a chop out of turn (the
 * table never waits for that one: it is taken whenever it comes). */
export const waited = (d) => Boolean(d && !d.out_of_turn);

/** Whether Play (the selected cards) answers it: a play in turn, or a chop out of turn. */
export const mayPlay = (d) => Boolean(d && (d.kind === "play" || d.out_of_turn));

/** Whether Pass answers it: a play in turn where passing is legal (a chop out of turn is let
 * go by making no move). */
export const mayPass = (d) => Boolean(d && d.may_pass);
