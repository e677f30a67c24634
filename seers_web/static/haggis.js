// Haggis on the page: the table, the bet, the hand and the play controls (rules: docs/haggis_rules.md).
// Plain JavaScript, no build step. The shell (app.js: lobby, pacing, scores, history) calls
// HaggisView.render(state, shell); the server's legal plays decide what can be sent: this module turns
// clicked cards into one of them, and asks for the shape when the same cards make several plays.
"use strict";

const HaggisView = (() => {
  // the cards the person has picked (card ids); dropped whenever the game moves on
  const pick = { key: null, selected: [] };
  const KIND = { PASS: 0, BET: 1, SET: 2, SEQ: 3, BOMB: 4 };
  const key = (ids) => [...ids].sort((a, b) => a - b).join(",");

  // a card: its rank large, its suit small; J, Q, K (the wilds) gold, their points in the tooltip
  function cardEl(sh, c, extra = "") {
    const cls = c.wild ? "hcard wild" : `hcard hs-${c.suit}`;
    const tip = c.wild ? `${c.label} of player ${c.owner}: wild, stands for a rank up to ${c.rank}`
      : `${c.label} of ${c.suit_name}`;
    const e = sh.el("div", { class: `${cls} ${extra}`.trim(), title: `${tip} (${sh.plural(c.points, "point")})` },
      sh.el("span", { class: "v", text: c.label }), sh.el("span", { class: "s", text: c.wild ? "wild" : c.suit_name }));
    e.dataset.card = String(c.id);
    return e;
  }
  const row = (sh, cards, cls = "") => {
    const r = sh.el("div", { class: `hcards ${cls}`.trim() });
    for (const c of cards) r.append(cardEl(sh, c));
    return r;
  };
  const who = (s, st, sh) => (s === st.human ? "you" : sh.seatName(s, st));
  const betText = (b) => (b === null ? "bet: not yet" : b ? `bet ${b}` : "no bet");

  function status(st, sh) {
    let line = `Haggis · round ${st.round + 1}${st.n_rounds ? `/${st.n_rounds}` : ""}`
      + (st.n_rounds ? "" : ` · target ${st.target}`);
    if (st.mode === "replay") line += ` · play ${st.step}/${st.steps}`;
    if (!st.game_over) {
      const whose = st.current === st.human ? "your" : `${sh.seatName(st.current, st)}'s`;
      line += st.phase === "bet" ? ` · ${whose} bet` : ` · ${whose} turn`;
    }
    return line;
  }

  function renderSeats(st, sh, box) {
    const seats = sh.el("div", { id: "haggis-seats" });
    for (let s = 0; s < st.n_players; s++) {
      const flags = sh.el("div", { class: "flags" });
      const flag = (cls, text) => flags.append(sh.el("span", { class: `flag ${cls}`, text }));
      if (!st.game_over && s === st.current) flag("act", st.phase === "bet" ? "betting" : "to act");
      if (!st.game_over && s === st.round_leader) flag("seer", "led the round");
      const place = st.out.indexOf(s);
      if (place >= 0) flag("bonus", place === 0 ? "out first" : "out");
      if (!st.game_over) flag(st.bets[s] ? "owner" : "passed", betText(st.bets[s]));
      if (st.game_over && st.winners.includes(s)) flag("winner", "winner");
      const stats = `${sh.plural(st.hand_sizes[s], "card")} · captured ${st.captured_points[s]} · `
        + `total ${sh.scoreText(st.totals[s])}`;
      const seat = sh.el("div", { class: "seat" + (!st.game_over && s === st.current ? " to-act" : ""), id: `haggis-seat-${s}` },
        sh.el("div", { class: "name", text: s === st.human ? `player ${s} (you)` : sh.seatName(s, st) }),
        sh.el("div", { class: "stats", text: stats }), flags);
      const faces = sh.el("div", { class: "faces" }, sh.el("span", { class: "hint", text: "J/Q/K face up: " }));
      if (st.faces[s].length) faces.append(row(sh, st.faces[s], "mini"));
      else faces.append(sh.el("span", { class: "hint", text: "none left" }));
      seat.append(faces);
      const hand = st.hands[String(s)];
      if (hand && s !== st.human && hand.length) seat.append(row(sh, hand, "mini seat-hand"));
      seats.append(seat);
    }
    box.append(seats);
    const pile = sh.el("div", { class: "hint", id: "haggis-pile" });
    pile.append(`The Haggis: ${sh.plural(st.haggis_size, "card")}${st.haggis ? "" : " face down"}`
      + " (it goes to the first player out at the round's end).");
    if (st.haggis && st.haggis.length) pile.append(row(sh, st.haggis, "mini"));
    box.append(pile);
  }

  function renderTrick(st, sh, box) {
    const panel = sh.el("div", { class: "panel", id: "haggis-trick-box" });
    panel.append(sh.el("h3", { id: "haggis-trick-type", text: st.trick.length ? `Trick: ${st.trick_type}` : st.game_over ? "Trick: none (the game is over)" : "Trick: none yet" }));
    for (const m of st.trick) {
      const line = sh.el("div", { class: "meld" + (m.bomb ? " bomb" : "") },
        sh.el("span", { class: "who", text: who(m.seat, st, sh) }), row(sh, m.cards, "mini"),
        sh.el("span", { class: "text", text: m.text }));
      if (m.bomb) line.append(sh.el("span", { class: "flag bomb", text: "BOMB" }));
      panel.append(line);
    }
    if (st.trick.length) {
      panel.append(sh.el("div", { class: "hint", id: "haggis-passes",
        text: `${sh.plural(st.passes, "pass", "passes")} since the last combination` }));
    } else if (!st.game_over) {
      panel.append(sh.el("div", { class: "hint", text: `${who(st.current, st, sh) === "you" ? "You lead" : `${sh.seatName(st.current, st)} leads`}: any combination.` }));
    }
    box.append(panel);
  }

  function renderHand(st, sh, box, mine) {
    const panel = sh.el("div", { class: "panel", id: "haggis-hand-box" });
    const hand = st.hands[String(st.human)] || [];
    const legal = st.legal || [];
    const info = sh.el("div", { id: "haggis-info" });
    const choices = sh.el("div", { id: "haggis-choices" });
    const buttons = sh.el("div", { class: "buttons" });
    const button = (id, text, onclick, cls = "") => {
      const b = sh.el("button", { id, text, class: cls });
      b.addEventListener("click", onclick);
      buttons.append(b);
      return b;
    };
    panel.append(sh.el("h3", { text: `Your hand (${sh.plural(hand.length, "card")})` }));
    const betting = mine && st.phase === "bet";
    const combos = mine && !betting ? legal.map((p, i) => ({ ...p, index: i })).filter((p) => p.play[0] >= KIND.SET) : [];
    const sel = pick.selected.filter((id) => hand.some((c) => c.id === id));
    const withSel = combos.filter((p) => sel.every((id) => p.play[1].includes(id)));
    const open = new Set(withSel.flatMap((p) => p.play[1]));
    const r = sh.el("div", { class: "hcards hand-row" + (mine && !betting ? (sel.length ? " selecting" : "") : " locked"), id: "haggis-hand" });
    for (const c of hand) {
      const chosen = sel.includes(c.id);
      const e = cardEl(sh, c, chosen ? "selected" : mine && !betting ? (open.has(c.id) ? "playable" : "unplayable") : "");
      if (mine && !betting) {
        e.tabIndex = 0;
        e.setAttribute("role", "button");
        const click = () => {
          pick.selected = chosen ? sel.filter((x) => x !== c.id) : [...sel, c.id];
          sh.rerender();
        };
        e.addEventListener("click", click);
        e.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); click(); } });
      }
      r.append(e);
    }
    panel.append(r);
    if (!mine) {
      info.textContent = st.game_over ? "" : `Waiting for ${sh.seatName(st.current, st)}...`;
      panel.append(info);
      box.append(panel);
      return;
    }
    if (betting) {  // section 7: once a round, before the first own play
      info.textContent = "Your first turn of the round: bet first. A bet of 15 or 30 is won by going out first; "
        + "if another player goes out first, it goes to them and to every player who made no bet.";
      for (const p of legal.filter((x) => x.play[0] === KIND.BET)) {
        const amount = p.play[3];
        button(`haggis-bet-${amount}`, amount ? `Bet ${amount}` : "No bet", () => sh.sendPlay(p), amount ? "" : "primary");
      }
      panel.append(info, buttons);
      box.append(panel);
      return;
    }
    const passPlay = legal.find((p) => p.play[0] === KIND.PASS);
    const exact = combos.filter((p) => key(p.play[1]) === key(sel));
    const bombs = combos.filter((p) => p.play[0] === KIND.BOMB).length;
    if (!sel.length) {
      info.textContent = combos.length
        ? `Your turn: click cards to build a combination (${sh.plural(combos.length, "legal play")}`
          + `${bombs ? `, ${sh.plural(bombs, "bomb")} among them` : ""})${passPlay ? ", or pass" : ""}.`
          + " Dimmed cards are in no legal play."
        : "Your turn: nothing in your hand beats the trick, so pass.";
    } else if (exact.length === 1) {
      info.textContent = "These cards make one legal play:";
      const p = exact[0];
      const b = button("haggis-play-btn", `Play: ${p.text}${p.play[0] === KIND.BOMB ? " (BOMB)" : ""}`, () => sh.sendPlay(p), "primary");
      b.dataset.index = String(p.index);
    } else if (exact.length > 1) {  // the same cards as a set, sequences of different widths or a bomb
      info.textContent = `These cards make ${exact.length} legal plays: choose the shape.`;
      for (const p of exact) {
        const b = sh.el("button", { class: "haggis-choice" + (p.play[0] === KIND.BOMB ? " bomb" : ""),
          text: `${p.text}${p.play[0] === KIND.BOMB ? " (BOMB)" : ""}` });
        b.dataset.index = String(p.index);
        b.addEventListener("click", () => sh.sendPlay(p));
        choices.append(b);
      }
    } else {
      info.textContent = withSel.length
        ? "No legal play uses exactly these cards; the cards ringed in gold can complete one."
        : "No legal play uses these cards together: click a card again to take it back.";
    }
    if (passPlay) button("haggis-pass", "Pass", () => sh.sendPlay(passPlay));
    if (sel.length) button("haggis-clear", "Clear selection", () => { pick.selected = []; sh.rerender(); });
    panel.append(info, choices, buttons);
    box.append(panel);
  }

  function renderLastRound(st, sh, box) {
    const last = st.last_round;
    if (!last) return;
    const panel = sh.el("div", { class: "panel", id: "haggis-last-round" });
    panel.append(sh.el("h3", { text: `Round ${last.round + 1} over: ${who(last.first_out, st, sh)} went out first `
      + "and took the last hand and the Haggis" }));
    const t = sh.el("table", { class: "haggis-round" });
    t.append(sh.el("tr", {}, ...["", "going out", "captured", "bets", "round", "total"].map((h) => sh.el("th", { text: h }))));
    const totals = Array.from({ length: st.n_players }, (_, s) => st.round_scores.slice(0, last.round + 1)
      .reduce((a, r) => a + r[s], 0));
    for (let s = 0; s < st.n_players; s++) {
      t.append(sh.el("tr", {}, sh.el("td", { text: who(s, st, sh) }),
        ...[last.going_out[s], last.captured_points[s], last.bet_points[s], last.scores[s], totals[s]]
          .map((v) => sh.el("td", { text: sh.scoreText(v) }))));
    }
    panel.append(t);
    box.append(panel);
  }

  function render(st, sh) {
    const k = `${st.id}:${st.move}`;
    if (pick.key !== k) { pick.selected = []; pick.key = k; }
    const box = sh.$("#haggis-board");
    box.innerHTML = "";
    const mine = st.mode === "play" && !!st.legal;
    renderSeats(st, sh, box);
    renderTrick(st, sh, box);
    if (st.mode === "play") renderHand(st, sh, box, mine);
    renderLastRound(st, sh, box);
  }

  return { render, status };
})();
window.HaggisView = HaggisView;
