// Rummy 500's lay-offs: cards laid on a meld already on the table. Which meld they joined
// decides whether a laid-off ace counts low. Pure (no DOM): unit-tested with Node.

/** The melds entered this hand that a lay-off may have joined (every player's, but not the
 * lay-off itself nor another lay-off), as [player index, meld index, cards]. */
export function layoffTargets(players, active, meld) {
  const out = [];
  players.forEach((q, j) => {
    (q.melds || []).forEach((m, k) => {
      if (m.length && !m.on && !(j === active && k === meld)) out.push([j, k, m]);
    });
  });
  return out;
}

/** A stored hand's melds for its details: {melds: [cards], laidOff: [{cards, on}]}. */
export function splitLayoffs(melds) {
  const out = { melds: [], laidOff: [] };
  for (const m of melds || []) {
    if (Array.isArray(m)) out.melds.push(m);
    else if (m?.on?.length) out.laidOff.push({ cards: m.cards || [], on: m.on });
    else out.melds.push(m?.cards || []);
  }
  return out;
}
