// SCOUT on the page: the table, the hand and the play controls (rules: docs/scout_rules.md). Plain
// JavaScript, no build step. The shell (app.js: lobby, pacing, replay, scores, history) calls
// ScoutView.render(state, shell); the server's legal plays decide what can be sent, this module only
// turns clicks into one of them.
"use strict";

const ScoutView = (() => {
  // what the person has picked so far; dropped whenever the game moves on
  const pick = { key: null, first: null, last: null, scout: null, pending: null, scoutShow: false };

  const reset = () => Object.assign(pick, { first: null, last: null, scout: null, pending: null, scoutShow: false });
  const KIND = { KEEP: 0, ROTATE: 1, SHOW: 2, SCOUT: 3, SCOUT_SHOW: 4, STOP: 5 };

  // a card: its top number (its value) large, the bottom one small and upside down, as printed
  function cardEl(sh, c, extra = "") {
    const e = sh.el("div", { class: `scard n${c.top} ${extra}`.trim(), title: `${c.top} on top, ${c.bottom} below`
      + (c.scouted ? " (scouted this round)" : "") },
    sh.el("span", { class: "top", text: String(c.top) }), sh.el("span", { class: "bottom", text: String(c.bottom) }));
    e.dataset.top = c.top; e.dataset.bottom = c.bottom; e.dataset.card = c.card;
    if (c.scouted) e.classList.add("scouted");
    return e;
  }
  const flipped = (c) => ({ ...c, top: c.bottom, bottom: c.top });
  const row = (sh, cards, cls = "") => {
    const r = sh.el("div", { class: `scards ${cls}`.trim() });
    for (const c of cards) r.append(cardEl(sh, c));
    return r;
  };
  const values = (cards) => cards.map((c) => c.top).join(" ");

  function legalOf(st) {
    const legal = st.legal || [];
    const keys = new Set(legal.map((p) => p.join(",")));
    return { legal, has: (p) => keys.has(p.join(",")), any: (k) => legal.some((p) => p[0] === k) };
  }

  // the hand after scouting `card` into `position`
  const inserted = (hand, card, position) => [...hand.slice(0, position), { ...card, scouted: true, fresh: true },
    ...hand.slice(position)];

  // the legal Scout & Show giving the same table as scouting (end, flip) into `position` and showing
  // hand[start..start+length-1] of the new hand: the engine lists one play per outcome (canonical form)
  function scoutShowPlay(st, L, hand, end, flip, position, start, length) {
    const card = st.active[end === 0 ? 0 : st.active.length - 1];
    const taken = flip ? flipped(card) : card;
    const outcome = (pos, s, len) => {
      const h = inserted(hand, taken, pos);
      const shown = h.slice(s, s + len).map((c) => `${c.card}:${c.top}`).join(" ");
      const kept = [...h.slice(0, s), ...h.slice(s + len)].map((c) => `${c.card}:${c.top}`).join(" ");
      return `${shown}|${kept}`;
    };
    const want = outcome(position, start, length);
    return L.legal.find((p) => p[0] === KIND.SCOUT_SHOW && p[1] === end && p[2] === flip
      && outcome(p[3], p[4], p[5]) === want) || null;
  }

  function status(st, sh) {
    let line = `SCOUT · round ${st.round + 1}/${st.n_rounds}`;
    if (st.mode === "replay") line += ` · play ${st.step}/${st.steps}`;
    if (!st.game_over) {
      const who = st.current === st.human ? "your" : `${sh.seatName(st.current, st)}'s`;
      line += st.phase === "rotate" ? ` · ${who} keep-or-rotate decision` : ` · ${who} turn`;
    }
    return line;
  }

  function renderSeats(st, sh, box) {
    const seats = sh.el("div", { id: "scout-seats" });
    for (let s = 0; s < st.n_players; s++) {
      const flags = sh.el("div", { class: "flags" });
      const flag = (cls, text) => flags.append(sh.el("span", { class: `flag ${cls}`, text }));
      if (!st.game_over && s === st.current) flag("act", st.phase === "rotate" ? "deciding" : "to act");
      if (s === st.start_player && !st.game_over) flag("seer", "start player");
      if (s === st.active_owner) flag("owner", "owns the Active Set");
      if (st.rotated[s]) flag("passed", "rotated");
      if (st.scout_show_used[s]) flag("bonus", "Scout & Show used");
      if (st.game_over && st.winners.includes(s)) flag("winner", "winner");
      const stats = `${sh.plural(st.hand_sizes[s], "card")} · pile ${st.pile_sizes[s]} · `
        + `${sh.plural(st.chips[s], "chip")} · total ${sh.scoreText(st.totals[s])}`;
      const seat = sh.el("div", { class: "seat" + (!st.game_over && s === st.current ? " to-act" : ""), id: `scout-seat-${s}` },
        sh.el("div", { class: "name", text: s === st.human ? `player ${s} (you)` : sh.seatName(s, st) }),
        sh.el("div", { class: "stats", text: stats }), flags);
      const hand = st.hands[String(s)];
      if (hand && s !== st.human) seat.append(row(sh, hand, "mini"));
      seats.append(seat);
    }
    box.append(seats);
  }

  function renderActive(st, sh, box, L, mine) {
    const panel = sh.el("div", { class: "panel", id: "scout-active-box" });
    const owner = st.active_owner >= 0 ? ` (shown by ${st.active_owner === st.human ? "you" : sh.seatName(st.active_owner, st)})` : "";
    panel.append(sh.el("h3", { text: st.active.length ? `Active Set${owner}` : "Active Set: none yet, any valid set may be shown" }));
    const r = sh.el("div", { class: "scards", id: "scout-active" });
    const canScout = mine && !pick.pending && (L.any(KIND.SCOUT) || L.any(KIND.SCOUT_SHOW));
    st.active.forEach((c, i) => {
      const end = i === 0 ? 0 : i === st.active.length - 1 ? 1 : null;
      const chosen = pick.scout && end !== null && pick.scout.end === end;
      const e = cardEl(sh, chosen && pick.scout.flip ? flipped(c) : c, chosen ? "chosen" : "");
      if (canScout && end !== null) {
        e.dataset.end = String(end);
        e.classList.add("scoutable");
        e.tabIndex = 0;
        e.setAttribute("role", "button");
        e.title += ` · click to scout this ${end ? "right" : "left"} end card`;
        const choose = () => {
          pick.scout = pick.scout && pick.scout.end === end ? null : { end, flip: 0 };
          pick.first = pick.last = null;
          pick.scoutShow = pick.scout ? pick.scoutShow && L.any(KIND.SCOUT_SHOW) : false;
          sh.rerender();
        };
        e.addEventListener("click", choose);
        e.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); choose(); } });
      }
      r.append(e);
    });
    panel.append(r);
    if (pick.pending) panel.append(sh.el("p", { class: "hint", text: "Scouted: now choose the cards to show." }));
    box.append(panel);
  }

  function segment() {
    if (pick.first === null) return null;
    const start = Math.min(pick.first, pick.last), end = Math.max(pick.first, pick.last);
    return { start, length: end - start + 1 };
  }

  function renderHand(st, sh, box, L, mine) {
    const panel = sh.el("div", { class: "panel", id: "scout-hand-box" });
    let hand = st.hands[String(st.human)] || [];
    const info = sh.el("div", { id: "scout-info" });
    const buttons = sh.el("div", { class: "buttons" });
    const button = (id, text, onclick, primary = false) => {
      const b = sh.el("button", { id, text, class: primary ? "primary" : "" });
      b.addEventListener("click", onclick);
      buttons.append(b);
      return b;
    };
    panel.append(sh.el("h3", { text: `Your hand (${sh.plural(hand.length, "card")})` }));
    if (mine && st.phase === "rotate") {  // section 2: keep the hand or turn it around, once per round
      panel.append(row(sh, hand, "hand-row"));
      panel.append(sh.el("p", { class: "hint", text: "Rotated, it would read:" }));
      panel.append(row(sh, [...hand].reverse().map(flipped), "mini rotated-preview"));
      info.textContent = "Round start: keep your hand as dealt, or rotate it (every card turns over and the order reverses).";
      button("scout-keep", "Keep hand", () => sh.sendPlay({ play: [KIND.KEEP, 0, 0, 0, 0, 0] }), true);
      button("scout-rotate", "Rotate hand", () => sh.sendPlay({ play: [KIND.ROTATE, 0, 0, 0, 0, 0] }));
      panel.append(info, buttons);
      box.append(panel);
      return;
    }
    const taken = pick.scout && st.active.length
      ? (() => { const c = st.active[pick.scout.end === 0 ? 0 : st.active.length - 1]; return pick.scout.flip ? flipped(c) : c; })()
      : null;
    if (pick.pending) hand = inserted(hand, taken, pick.pending.position);
    const r = sh.el("div", { class: "scards hand-row" + (mine ? "" : " locked"), id: "scout-hand" });
    const seg = segment();
    const gaps = mine && taken && !pick.pending;
    const gap = (i) => {
      const g = sh.el("button", { class: "gap", title: `insert the scouted card here (position ${i})`, text: "+" });
      g.dataset.gap = String(i);
      g.addEventListener("click", () => {
        if (pick.scoutShow) { pick.pending = { ...pick.scout, position: i }; pick.first = pick.last = null; sh.rerender(); return; }
        const p = [KIND.SCOUT, pick.scout.end, pick.scout.flip, i, 0, 0];
        if (L.has(p)) sh.sendPlay({ play: p });
      });
      return g;
    };
    hand.forEach((c, pos) => {
      if (gaps) r.append(gap(pos));
      const inSeg = seg && pos >= seg.start && pos < seg.start + seg.length;
      const e = cardEl(sh, c, (inSeg ? "selected" : "") + (c.fresh ? " fresh" : ""));
      e.dataset.pos = String(pos);
      if (mine && (!taken || pick.pending)) {
        e.tabIndex = 0;
        e.setAttribute("role", "button");
        const click = () => {  // first click: a segment of one card; a second one ends it there
          if (pick.first === null || pick.first !== pick.last) { pick.first = pick.last = pos; } else if (pos === pick.first) {
            pick.first = pick.last = null;
          } else { pick.last = pos; }
          sh.rerender();
        };
        e.addEventListener("click", click);
        e.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); click(); } });
      }
      r.append(e);
    });
    if (gaps) r.append(gap(hand.length));
    panel.append(r);
    if (!mine) {
      info.textContent = st.game_over ? "" : `Waiting for ${sh.seatName(st.current, st)}...`;
      panel.append(info);
      box.append(panel);
      return;
    }
    // the play the current picks make, if legal
    let play = null;
    if (seg && pick.pending) {
      play = scoutShowPlay(st, L, st.hands[String(st.human)], pick.pending.end, pick.pending.flip,
        pick.pending.position, seg.start, seg.length);
    } else if (seg) {
      const p = [KIND.SHOW, 0, 0, 0, seg.start, seg.length];
      play = L.has(p) ? p : null;
    }
    if (taken && !pick.pending) {
      info.textContent = `Scouting ${taken.top} (${taken.bottom} below): flip it if you like, then click a gap (+) in your hand to insert it`
        + (pick.scoutShow ? ", then choose the cards to show (Scout & Show)." : ".");
      button("scout-flip", `Flip to ${taken.bottom}`, () => { pick.scout.flip ^= 1; sh.rerender(); });
      if (L.any(KIND.SCOUT_SHOW)) {
        const ss = button("scout-ss", pick.scoutShow ? "Scout & Show: on" : "Scout & Show", () => { pick.scoutShow = !pick.scoutShow; sh.rerender(); });
        ss.classList.toggle("on", pick.scoutShow);
        ss.title = "scout, then show in the same turn (once per round)";
      }
      button("scout-cancel", "Cancel", () => { reset(); sh.rerender(); });
    } else {
      const shownNow = seg ? values(hand.slice(seg.start, seg.start + seg.length)) : "";
      if (!seg) {
        const ways = [];
        if (L.any(KIND.SHOW) || pick.pending) ways.push("click the first and last card of a run of adjacent cards to Show them");
        if (!pick.pending && (L.any(KIND.SCOUT) || L.any(KIND.SCOUT_SHOW))) ways.push("click an end card of the Active Set to Scout it");
        info.textContent = ways.length ? `Your turn: ${sh.joinWords(ways, "or")}.` : "Your turn.";
        if (!L.any(KIND.SHOW) && !pick.pending && st.active.length) info.textContent += " None of your sets beats the Active Set.";
      } else {
        info.textContent = play ? `Show ${shownNow}.` : `${shownNow}: not a Show that beats the Active Set; click other cards.`;
      }
      const show = button("scout-show-btn", pick.pending ? `Scout & Show: show ${shownNow || "..."}` : `Show ${shownNow || "..."}`,
        () => { if (play) sh.sendPlay({ play }); }, true);
      show.disabled = !play;
      if (seg || pick.pending) button("scout-cancel", "Cancel", () => { reset(); sh.rerender(); });
      if (L.any(KIND.STOP) && !pick.pending) button("scout-stop", "Stop the round", () => sh.sendPlay({ play: [KIND.STOP, 0, 0, 0, 0, 0] }));
    }
    panel.append(info, buttons);
    box.append(panel);
  }

  function render(st, sh) {
    const key = `${st.id}:${st.move}`;
    if (pick.key !== key) { reset(); pick.key = key; }
    const box = sh.$("#scout-board");
    box.innerHTML = "";
    const L = legalOf(st);
    const mine = st.mode === "play" && !!st.legal;
    renderSeats(st, sh, box);
    if (st.phase !== "rotate" || st.game_over) renderActive(st, sh, box, L, mine && st.phase === "play");
    if (st.mode === "play") renderHand(st, sh, box, L, mine);
    if (st.last_round) {
      box.append(sh.el("div", { class: "panel", id: "scout-last-round",
        text: `Round ${st.last_round.round + 1} ended: ${st.last_round.reason_text}; scores `
          + st.last_round.scores.map((v, s) => `${s === st.human ? "you" : `player ${s}`} ${sh.scoreText(v)}`).join(", ") }));
    }
  }

  return { render, status, reset };
})();
window.ScoutView = ScoutView;
