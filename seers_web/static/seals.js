// Seals on the page: the face-up row, every hand (hands are public), the pile, Marks and the take and
// declare controls (rules: docs/seals_rules.md). Plain JavaScript, no build step. The shell (app.js:
// lobby, pacing, replay, scores, history) calls SealsView.render(state, shell). Only what the server's
// legal mask allows (state.actions, the action ids of the engine's legal_mask()) is clickable.
"use strict";

const SealsView = (() => {
  const N_COLOURS = 5;  // action ids 0..4 take a colour, 5..15 a symbol, 16 + declaration (seals/plays.py)
  const N_TAKES = 16;
  const hover = { action: null };  // the take the pointer is on: its cards are ringed in the row

  const legalOf = (st) => {
    const allowed = new Set(st.actions || []);
    const byAction = new Map((st.legal || []).filter((p) => allowed.has(p.action)).map((p) => [p.action, p]));
    return { allowed, byAction };
  };

  // a card: its symbol large, its colour's name small, in its colour
  function cardEl(sh, c, extra = "") {
    const e = sh.el("div", { class: `lcard c${c.colour} ${c.rank} ${extra}`.trim(), title: c.name },
      sh.el("span", { class: "sym", text: c.symbol === 10 ? "\u25CE" : c.symbol_name }),
      sh.el("span", { class: "col", text: c.symbol === 10 ? `${c.colour_name} Coin` : c.colour_name }));
    e.dataset.card = c.card; e.dataset.colour = c.colour; e.dataset.symbol = c.symbol;
    return e;
  }

  // a hand by symbol (1..10, then the Coins), a small gap between symbols; a symbol held four times or
  // more is marked (four of a kind, section 4)
  function handEl(sh, cards, id) {
    const box = sh.el("div", { class: "lhand", id });
    for (let s = 0; s <= 10; s++) {
      const these = cards.filter((c) => c.symbol === s);
      if (!these.length) continue;
      const group = sh.el("div", { class: "lgroup" + (these.length >= 4 ? " four" : ""),
        title: `${these.length} \u00D7 ${these[0].symbol_name}` });
      for (const c of these) group.append(cardEl(sh, c, "mini"));
      box.append(group);
    }
    if (!cards.length) box.append(sh.el("span", { class: "hint", text: "no cards" }));
    return box;
  }

  const runHeld = (cards) => [...Array(10).keys()].every((s) => cards.some((c) => c.symbol === s));

  function status(st, sh) {
    let line = `Seals \u00B7 round ${st.round + 1} \u00B7 round counter ${st.counter}/${st.n_rounds}`;
    if (st.tie_breaks) line += ` \u00B7 tie-break ${st.tie_breaks}/${st.max_tie_break_rounds}`;
    if (st.mode === "replay") line += ` \u00B7 play ${st.step}/${st.steps}`;
    if (!st.game_over) {
      const who = st.current === st.human ? "your" : `${sh.seatName(st.current, st)}'s`;
      line += st.phase === "declare" ? ` \u00B7 ${who} declaration` : ` \u00B7 ${who} take`;
    }
    return line;
  }

  function renderSeats(st, sh, box) {
    const seats = sh.el("div", { id: "seals-seats" });
    for (let s = 0; s < st.n_players; s++) {
      const hand = st.hands[String(s)] || [];
      const flags = sh.el("div", { class: "flags" });
      const flag = (cls, text) => flags.append(sh.el("span", { class: `flag ${cls}`, text }));
      if (!st.game_over && s === st.current) flag("act", st.phase === "declare" ? "declaring" : "to take");
      if (!st.game_over && s === st.start_player) flag("seer", "started the round");
      if (!st.playing[s] && !st.game_over) flag("passed", "sits out (tie-break)");
      if (runHeld(hand)) flag("bonus", "holds a run");
      if (st.game_over && st.winners.includes(s)) flag("winner", "winner");
      const seat = sh.el("div", { class: "seat" + (!st.game_over && s === st.current ? " to-act" : ""), id: `seals-seat-${s}` },
        sh.el("div", { class: "name", text: s === st.human ? `player ${s} (you)` : sh.seatName(s, st) }),
        sh.el("div", { class: "stats", text: `${sh.plural(st.totals[s], "Mark")} of ${st.marks_to_win} \u00B7 ${sh.plural(hand.length, "card")}` }),
        flags, handEl(sh, hand, `seals-hand-${s}`));
      seats.append(seat);
    }
    box.append(seats);
  }

  function renderRow(st, sh, box, L, mine) {
    const panel = sh.el("div", { class: "panel", id: "seals-row-box" });
    panel.append(sh.el("h3", { text: `Face up (${sh.plural(st.row.length, "card")}) \u00B7 draw pile: ${sh.plural(st.pile_size, "card")} left` }));
    const taking = hover.action !== null && L.byAction.get(hover.action);
    const taken = new Set(taking ? taking.cards : []);
    const row = sh.el("div", { class: "lrow", id: "seals-row" });
    for (const c of st.row) {
      const e = cardEl(sh, c, taken.has(c.card) ? "taking" : "");
      if (mine) {  // a click on a card's colour band or its symbol takes that colour or that symbol
        for (const [part, action] of [[".col", c.colour], [".sym", N_COLOURS + c.symbol]]) {
          const p = L.byAction.get(action);
          const target = e.querySelector(part);
          if (!p) continue;
          target.classList.add("clickable");
          target.setAttribute("role", "button");
          target.tabIndex = 0;
          target.title = p.text;
          target.dataset.action = String(action);
          target.addEventListener("click", () => sh.sendPlay(p));
          target.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sh.sendPlay(p); } });
          target.addEventListener("mouseenter", () => setHover(action, st, sh));
          target.addEventListener("mouseleave", () => setHover(null, st, sh));
        }
      }
      row.append(e);
    }
    if (!st.row.length) row.append(sh.el("span", { class: "hint", text: "none" }));
    panel.append(row);
    if (mine) {
      const bar = (title, lo, hi) => {
        const b = sh.el("div", { class: "take-bar" }, sh.el("span", { text: title }));
        for (let a = lo; a < hi; a++) {
          const p = L.byAction.get(a);
          if (!p) continue;  // only the legal takes (the mask) are offered
          const label = a < N_COLOURS ? st.colours[a] : `${st.symbols[a - N_COLOURS]}s`;
          const btn = sh.el("button", { id: `seals-take-${a}`, class: a < N_COLOURS ? `take c${a}` : "take",
            text: `${label} (${p.cards.length})`, title: p.text });
          btn.dataset.action = String(a);
          btn.addEventListener("click", () => sh.sendPlay(p));
          btn.addEventListener("mouseenter", () => setHover(a, st, sh));
          btn.addEventListener("mouseleave", () => setHover(null, st, sh));
          b.append(btn);
        }
        return b;
      };
      panel.append(sh.el("p", { class: "hint", id: "seals-info",
        text: "Your turn: take every face-up card of one colour or of one symbol (click a colour or a symbol)." }));
      panel.append(bar("Colour:", 0, N_COLOURS), bar("Symbol:", N_COLOURS, N_TAKES));
    }
    box.append(panel);
  }

  function setHover(action, st, sh) {
    if (hover.action === action) return;
    hover.action = action;
    const p = action === null ? null : (st.legal || []).find((x) => x.action === action);
    const cards = new Set(p ? p.cards : []);
    for (const e of document.querySelectorAll("#seals-row .lcard")) e.classList.toggle("taking", cards.has(Number(e.dataset.card)));
  }

  function renderDeclare(st, sh, box, L) {
    const panel = sh.el("div", { class: "panel", id: "seals-declare-box" });
    panel.append(sh.el("h3", { text: "You hold a set: declare it to win the round, or keep collecting" }));
    const buttons = sh.el("div", { class: "buttons" });
    for (const p of st.legal) {
      if (!L.allowed.has(p.action)) continue;
      const text = p.value === 0 ? "Declare nothing (keep collecting)"
        : `Declare ${sh.joinWords(p.sets)} (${sh.plural(p.marks, "Mark")})`;
      const b = sh.el("button", { id: `seals-declare-${p.value}`, class: p.value ? "primary" : "", text });
      b.addEventListener("click", () => sh.sendPlay(p));
      buttons.append(b);
    }
    panel.append(sh.el("p", { class: "hint", text: "Laying down any set ends the round at once (section 5); each card counts in one set only." }), buttons);
    box.append(panel);
  }

  function renderLastRound(st, sh, box) {
    const r = st.last_round;
    if (!r) return;
    const who = (s) => (s === st.human ? "you" : sh.seatName(s, st));
    const why = r.winner >= 0
      ? `${who(r.winner)} declared ${sh.joinWords(r.declared.sets)} for ${sh.plural(r.declared.marks, "Mark")}`
      : `${r.reason_text}; nobody scores`;
    const panel = sh.el("div", { class: "panel", id: "seals-last-round" });
    panel.append(sh.el("h3", { text: `Round ${r.round + 1} ended: ${why}` }));
    panel.append(sh.el("div", { class: "hint", text: `Marks this round: ${r.scores.map((v, s) => `${who(s)} ${v}`).join(", ")}` }));
    if (r.winner >= 0) panel.append(sh.el("div", { class: "row" }, sh.el("span", { text: `${who(r.winner)}'s hand:` }),
      handEl(sh, r.hands[r.winner], "seals-last-hand")));
    box.append(panel);
  }

  function render(st, sh) {
    const box = sh.$("#seals-board");
    box.innerHTML = "";
    hover.action = null;
    const L = legalOf(st);
    const mine = st.mode === "play" && !!st.legal && !st.game_over;
    if (st.mode === "play" && !mine && !st.game_over) {
      box.append(sh.el("div", { class: "hint", id: "seals-wait", text: `Waiting for ${sh.seatName(st.current, st)}...` }));
    }
    if (mine && st.phase === "declare") renderDeclare(st, sh, box, L);
    renderRow(st, sh, box, L, mine && st.phase === "take");
    renderSeats(st, sh, box);
    renderLastRound(st, sh, box);
  }

  return { render, status };
})();
window.SealsView = SealsView;
