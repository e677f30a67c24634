// Seers Catalog, SCOUT, Seals and Haggis page: plain JavaScript, no build step. The server's engine decides
// everything; this page draws the state it sends, offers the legal plays it lists, and paces the agents'
// plays. This file is the shell (lobby, game chooser, pacing, replay, scores, history) and Seers Catalog's
// table; the other games' tables are their own modules (scout.js, ScoutView; seals.js, SealsView;
// haggis.js, HaggisView).
"use strict";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const kid of kids) if (kid != null) e.append(kid);
  return e;
};

// words as people read them: "1 card", "2 cards"; "−6" with a minus sign; "a, b and c"
const plural = (n, word, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
const scoreText = (v) => (v < 0 ? `\u2212${-v}` : String(v));
const joinWords = (items, conj = "and") =>
  (items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")} ${conj} ${items[items.length - 1]}`);

// artifact cards: [abbreviation, name shown on the card]; the full name and timing are in the tooltip
const ARTIFACT_SHORT = {
  go_first: ["1st", "Go First"], rod_of_reincarnation: ["Rod", "Rod of Rein."],
  gift_of_fate: ["Gift", "Gift of Fate"], cauldron_of_sorcery: ["±1", "Cauldron"],
  suit_changer: ["Suit", "Suit Changer"], half_step: ["½", "Half Step"],
  highest_single: ["Top", "Highest Single"],
};

const ui = {
  meta: null, view: "play", game: "seers_catalog", id: null, state: null, selected: [], answers: {},
  paused: false, timer: null, busy: false, replayFile: null, replayTimer: null, ready: false,
};
window.__seers = ui;  // for tests and curious people

// --- server calls ------------------------------------------------------------------------------------
async function api(method, path, body, raw = false) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.body = raw ? body : JSON.stringify(body);
    opts.headers["Content-Type"] = "application/json";
  }
  const res = await fetch(path, opts);
  let data = null;
  try { data = await res.json(); } catch (e) { data = null; }
  if (!res.ok) {
    const msg = (data && (data.error || JSON.stringify(data.detail))) || `${res.status} ${res.statusText}`;
    const err = new Error(msg); err.status = res.status; throw err;
  }
  return data;
}

function showError(msg) {
  const box = $("#error");
  if (!msg) { box.hidden = true; box.textContent = ""; return; }
  box.textContent = msg; box.hidden = false;
}

async function guarded(fn) {
  try { showError(""); await fn(); } catch (err) { showError(err.message); }
}

// --- cards ---------------------------------------------------------------------------------------------
function cardEl(id, known = false) {
  const c = ui.meta.cards[id];
  let e;
  if (c.kind === "suited") {
    e = el("div", { class: `card suit-${c.suit}`, title: c.name },
      el("span", { class: "v", text: String(c.value) }), el("span", { class: "s", text: c.suit_name }));
  } else if (c.kind === "wild") {
    e = el("div", { class: "card wild", title: "wild: stands for any value" },
      el("span", { class: "v", text: "W" }), el("span", { class: "s", text: "wild" }));
  } else {
    const [short, name] = ARTIFACT_SHORT[c.key] || [c.name.slice(0, 3), c.name];
    e = el("div", { class: "card artifact", title: `${c.name} (${short}): played ${c.timing}` },
      el("span", { class: "v", text: short }), el("span", { class: "s", text: name }),
      el("span", { class: "n", text: c.name }));  // the full name: on the small cards of others and the trick
  }
  e.dataset.card = id;
  if (known) e.classList.add("known");
  return e;
}

function cardRow(ids, mini = true, known = []) {
  const left = [...known];
  const row = el("div", { class: mini ? "cards mini" : "cards" });
  for (const id of ids) {
    const i = left.indexOf(id);
    if (i >= 0) left.splice(i, 1);
    row.append(cardEl(id, i >= 0));
  }
  return row;
}

const seatName = (s, st) => (st.names[s] ? `player ${s} (${st.names[s]})` : `player ${s}`);

// --- setup forms ---------------------------------------------------------------------------------------
function agentInputs(prefix) {
  const n = Number($(`#${prefix}-players`).value);
  const box = $(`#${prefix}-agents`);
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  let seat = null;
  if (prefix === "play") {
    const sel = $("#play-seat");
    const keep = Number(sel.value || 0);
    sel.innerHTML = "";
    for (let s = 0; s < n; s++) sel.append(el("option", { value: s, text: `player ${s}` }));
    sel.value = String(Math.min(keep, n - 1));
    seat = Number(sel.value);
  }
  box.innerHTML = "";
  let k = 0;
  for (let s = 0; s < n; s++) {
    if (s === seat) continue;
    const input = el("input", { list: "spec-list", value: old[k] || "heuristic", id: `${prefix}-agent-${s}`,
      "aria-label": `agent at player ${s}` });
    box.append(el("label", {}, `player ${s}`, input));
    k++;
  }
}

function readForm(prefix) {
  const seedText = $(`#${prefix}-seed`).value.trim();
  const roundsText = $(`#${prefix}-rounds`).value.trim();
  const body = {
    game: ui.game, mode: prefix, players: Number($(`#${prefix}-players`).value),
    rounds: roundsText === "" && ui.game !== "seers_catalog" ? null : Number(roundsText),
    agents: [...$(`#${prefix}-agents`).querySelectorAll("input")].map((i) => i.value.trim()),
    seed: seedText === "" ? null : Number(seedText),
  };
  if (ui.game === "seers_catalog") body.artifacts = $(`#${prefix}-artifacts`).checked;  // the others have none
  if (ui.game === "haggis") body.target = Number($(`#${prefix}-target`).value);
  if (prefix === "play") body.seat = Number($("#play-seat").value);
  return body;
}

const GAME_TITLES = { seers_catalog: "Seers Catalog", scout: "SCOUT", seals: "Seals", haggis: "Haggis" };
// the tables drawn by their own modules, and the players each game allows (Seals: 2..4; Haggis: 2..3)
const GAME_VIEWS = { scout: () => window.ScoutView, seals: () => window.SealsView, haggis: () => window.HaggisView };
const MAX_PLAYERS = { seers_catalog: 5, scout: 5, seals: 4, haggis: 3 };
const ROUNDS_HINT = { scout: "as the rules say", seals: "5 (round counter)", haggis: "to the target" };

// the game chooser: the forms, the heading and the page title follow the chosen game
function chooseGame(game) {
  if (!(game in GAME_TITLES)) game = "seers_catalog";
  const changed = ui.game !== game;
  ui.game = game;
  $("#game-choice").value = game;
  $("#title").textContent = GAME_TITLES[game];
  document.title = GAME_TITLES[game];
  for (const e of document.querySelectorAll(".seers-only")) e.hidden = game !== "seers_catalog";
  for (const e of document.querySelectorAll(".haggis-only")) e.hidden = game !== "haggis";
  for (const p of ["play", "watch"]) {
    const r = $(`#${p}-rounds`);
    r.placeholder = ROUNDS_HINT[game] || "";
    if (changed) r.value = game === "seers_catalog" ? "4" : "";
    const players = $(`#${p}-players`);
    for (const o of players.options) o.hidden = o.disabled = Number(o.value) > MAX_PLAYERS[game];
    if (Number(players.value) > MAX_PLAYERS[game]) { players.value = String(MAX_PLAYERS[game]); agentInputs(p); }
  }
}

async function startGame(prefix) {
  await guarded(async () => {
    const st = await api("POST", "/api/games", readForm(prefix));
    openState(st);
  });
}

async function openReplay(gameIndex = 0) {
  await guarded(async () => {
    const file = $("#replay-file").files[0] || ui.replayFile;
    if (!file) throw new Error("choose a saved game file first");
    ui.replayFile = file;
    const st = await api("POST", `/api/replays?game=${gameIndex}`, await file.text(), true);
    openState(st);
  });
}

// --- views ---------------------------------------------------------------------------------------------
function setView(view) {
  ui.view = view;
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.view === view);
  for (const v of ["play", "watch", "replay"]) $(`#setup-${v}`).hidden = !(v === view && !boardFor(v));
  $("#board").hidden = !boardFor(view);
}
const boardFor = (view) => ui.state && ui.state.mode === view;

function openState(st) {
  stopTimers();
  ui.state = st; ui.id = st.id; ui.selected = []; ui.answers = {}; ui.paused = false;
  chooseGame(st.game);
  location.hash = `#/game/${st.id}`;
  try { localStorage.setItem("seers-last-game", st.id); } catch (e) { /* private mode */ }
  setView(st.mode);
  render();
  refreshGames();
  schedule();
}

async function refreshGames() {
  try {
    const games = await api("GET", "/api/games");
    const sel = $("#games");
    sel.innerHTML = "";
    sel.append(el("option", { value: "", text: games.length ? "switch game..." : "(none)" }));
    for (const g of games) {
      const label = `${g.id} · ${GAME_TITLES[g.game] || g.game} · ${g.mode} · ${g.game_over && g.mode !== "replay" ? "over" : `round ${g.round + 1}${g.n_rounds ? `/${g.n_rounds}` : ""}`}`;
      sel.append(el("option", { value: g.id, text: label }));
    }
  } catch (e) { /* the list is a convenience */ }
}

async function loadGame(id) {
  const path = `/api/games/${encodeURIComponent(id)}`;
  let st = await api("GET", path);
  if ((st.mode !== "play" && $("#show-hands").checked) || (st.mode === "play" && st.game_over)) {
    st = await api("GET", `${path}?reveal=1`);
  }
  openState(st);
}

// --- rendering ----------------------------------------------------------------------------------------
function render() {
  const st = ui.state;
  if (!st) return;
  $("#game-id").textContent = st.id;
  $("#download").href = `/api/games/${st.id}/log`;
  $("#download").setAttribute("download", `seers-${st.id}.json`);
  const view = GAME_VIEWS[st.game] && GAME_VIEWS[st.game]();
  for (const id of ["#seats", "#trick-box", "#hand-box", "#last-round"]) $(id).hidden = !!view;
  $("#scout-board").hidden = st.game !== "scout";
  $("#seals-board").hidden = st.game !== "seals";
  $("#haggis-board").hidden = st.game !== "haggis";
  // the log deals the other hands (Seals: the pile), so it is offered once the game is over (else 403)
  $("#download").hidden = st.mode !== "replay" && !st.game_over && (st.game === "seals" || st.mode === "play");
  renderStatus(st);
  if (view) view.render(st, shell);
  else { renderSeats(st); renderTrick(st); renderHand(st); renderLastRound(st); }
  renderControls(st); renderScores(st); renderHistory(st);
}

function renderStatus(st) {
  let line = `Round ${st.round + 1}/${st.n_rounds} · suits ${(st.suits || []).join(", ")}`;
  if (st.mode === "replay") line += ` · play ${st.step}/${st.steps}`;
  if (!st.game_over) {
    line += st.current === st.human ? " · your turn" : ` · ${seatName(st.current, st)} to act`;
  }
  if (GAME_VIEWS[st.game]) line = GAME_VIEWS[st.game]().status(st, shell);
  $("#status-line").textContent = line;
  const over = $("#gameover");
  over.hidden = !st.game_over;
  if (st.game_over) {
    const who = joinWords(st.winners.map((s) => (s === st.human ? "you" : seatName(s, st))));
    over.textContent = `Game over. Final scores: ${st.totals.map((t, s) => `${seatName(s, st)} ${scoreText(t)}`).join(", ")}. `
      + `Winner${st.winners.length > 1 ? "s" : ""}: ${who}.`;
  }
}

function renderSeats(st) {
  const box = $("#seats");
  box.innerHTML = "";
  for (let s = 0; s < st.n_players; s++) {
    const flags = el("div", { class: "flags" });
    const flag = (cls, text) => flags.append(el("span", { class: `flag ${cls}`, text }));
    if (!st.game_over && s === st.current) flag("act", "to act");
    if (s === st.start_seer) flag("seer", "Start Seer");
    if (st.passed[s]) flag("passed", "passed");
    if (st.bonus[s]) flag("bonus", "Bonus");
    if (st.game_over && st.winners.includes(s)) flag("winner", "winner");
    const seat = el("div", { class: "seat" + (!st.game_over && s === st.current ? " to-act" : ""), id: `seat-${s}` },
      el("div", { class: "name", text: s === st.human ? `player ${s} (you)` : seatName(s, st) }),
      el("div", { class: "stats", text: `${plural(st.hand_sizes[s], "card")} · total ${scoreText(st.totals[s])}` }), flags);
    const hand = st.hands[String(s)];
    if (hand && s !== st.human) seat.append(cardRow(hand, true, st.known[String(s)] || []));
    box.append(seat);
  }
}

function renderTrick(st) {
  const top = st.top && (st.top.size === 1 ? `${st.top.meld_type} at ${st.top.rank}`
    : `${st.top.meld_type} of ${st.top.size} at ${st.top.rank}`);
  $("#to-beat").textContent = st.game_over ? (st.trick.length ? "The last trick played:" : "")
    : top ? `To beat: ${top} (by ${seatName(st.top.seat, st)})`
      : `Empty trick: ${seatName(st.start_seer, st)} leads`;
  const box = $("#trick");
  box.innerHTML = "";
  for (const m of st.trick) {
    box.append(el("div", { class: "meld" }, el("span", { class: "who", text: seatName(m.seat, st) }),
      cardRow(m.cards), el("span", { class: "text", text: m.text })));
  }
}

function handCards(st) {
  return st.human != null ? st.hands[String(st.human)] || [] : [];
}

function renderHand(st) {
  const box = $("#hand-box");
  box.hidden = st.mode !== "play";
  if (box.hidden) return;
  const hand = handCards(st);
  $("#hand-count").textContent = `(${plural(hand.length, "card")})`;
  const row = $("#hand");
  row.innerHTML = "";
  const myTurn = !!st.legal;
  row.classList.toggle("locked", !myTurn);
  row.classList.toggle("selecting", myTurn && ui.selected.length > 0);
  const known = [...(st.known[String(st.human)] || [])];
  const open = myTurn ? stillPlayable(st, hand) : null;
  hand.forEach((id, pos) => {
    const i = known.indexOf(id);
    if (i >= 0) known.splice(i, 1);
    const c = cardEl(id, i >= 0);
    c.dataset.pos = pos;
    if (ui.selected.includes(pos)) c.classList.add("selected");
    else if (open) {  // bright: can take part in a legal play (with the selected cards, if any); dimmed: not
      const ok = open.has(id);
      c.classList.add(ok ? "playable" : "unplayable");
      if (!ok) c.title += ui.selected.length ? " · completes no legal play with the selected cards"
        : " · in no legal play now";
    }
    if (myTurn) {
      c.tabIndex = 0;
      c.setAttribute("role", "button");
      c.addEventListener("click", () => toggleCard(pos));
      c.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); toggleCard(pos); } });
    }
    row.append(c);
  });
  renderActions(st);
}

function toggleCard(pos) {
  const i = ui.selected.indexOf(pos);
  if (i >= 0) ui.selected.splice(i, 1); else ui.selected.push(pos);
  ui.answers = {};
  renderHand(ui.state);
}

const sortedKey = (ids) => [...ids].sort((a, b) => a - b).join(",");
// the cards of `big` left once those of `small` are taken out (copies counted), or null if not all are there
function without(big, small) {
  const left = [...big];
  for (const c of small) { const i = left.indexOf(c); if (i < 0) return null; left.splice(i, 1); }
  return left;
}
const contains = (big, small) => without(big, small) !== null;

// Card ids that can still take part in a legal play: with nothing selected, the cards of any legal play
// (the server's `playable` flags); with a selection, the other cards of the legal plays that use all the
// selected ones (a play of two wilds, one of them selected, leaves a wild).
function stillPlayable(st, hand) {
  const melds = (st.legal || []).filter((p) => p.kind !== "PASS");
  const ids = new Set();
  if (!ui.selected.length && st.playable) {
    hand.forEach((id, pos) => { if (st.playable[pos]) ids.add(id); });
    return ids;
  }
  const sel = ui.selected.map((p) => hand[p]);
  for (const p of melds) for (const id of without(p.cards, sel) || []) ids.add(id);
  return ids;
}

// The plays among `cands` that agree with the answers given, and the next question that tells the rest
// apart (null when none does): questions come in the order of the plays' choices, asked one at a time.
function narrow(cands) {
  const answerOf = (p, q) => (p.choices.find((c) => c[0] === q) || [q, ""])[1];
  const done = new Set();
  let left = cands;
  const used = [];  // [question, answer] applied
  for (;;) {
    const order = [];
    for (const p of left) for (const [q] of p.choices) if (!order.includes(q)) order.push(q);
    const q = order.find((x) => !done.has(x) && new Set(left.map((p) => answerOf(p, x))).size > 1);
    if (q === undefined) return { left, question: null, used };
    done.add(q);
    const answers = [...new Set(left.map((p) => answerOf(p, q)))];
    if (q in ui.answers && answers.includes(ui.answers[q])) {
      left = left.filter((p) => answerOf(p, q) === ui.answers[q]);
      used.push([q, ui.answers[q]]);
      continue;
    }
    return { left, question: { q, answers }, used };
  }
}

function renderActions(st) {
  const info = $("#selection-info"), choices = $("#choices"), confirm = $("#confirm-play");
  const pass = $("#pass-btn"), clear = $("#clear-btn"), sugg = $("#suggestions");
  choices.innerHTML = ""; sugg.innerHTML = ""; confirm.hidden = true; pass.hidden = true; clear.hidden = true;
  if (!st.legal) {
    info.textContent = st.game_over ? "" : `Waiting for ${seatName(st.current, st)}...`;
    return;
  }
  const hand = handCards(st);
  const sel = ui.selected.map((p) => hand[p]);
  const passPlay = st.legal.find((p) => p.kind === "PASS");
  pass.hidden = !passPlay;
  clear.hidden = sel.length === 0;
  const melds = st.legal.filter((p) => p.kind !== "PASS");
  if (sel.length === 0) {
    const dimmed = st.playable && st.playable.some((ok) => !ok);
    info.textContent = melds.length
      ? `Your turn: click cards to build a play (${plural(melds.length, "legal play")}${passPlay ? ", or pass" : ""}).`
        + (dimmed ? " Dimmed cards are in no legal play." : "")
      : "Your turn: none of your plays beats the top meld, so pass.";
    return;
  }
  const key = sortedKey(sel);
  const exact = melds.filter((p) => sortedKey(p.cards) === key);
  const bigger = melds.filter((p) => p.cards.length > sel.length && contains(p.cards, sel));
  // fewest extra cards first, artifacts riding along last
  const extra = (p) => p.cards.length * 2 + (p.play.artifact >= 0 ? 1 : 0);
  bigger.sort((a, b) => extra(a) - extra(b));
  if (!exact.length) {
    info.textContent = bigger.length
      ? "No legal play uses exactly these cards; the cards ringed in gold can complete one. Plays that use them with more cards:"
      : "No legal play uses these cards.";
  } else {
    const { left: cands, question, used } = narrow(exact);
    const n = cands.length;
    const agree = used.length ? ` and your ${used.length === 1 ? "answer" : "answers"}` : "";
    info.textContent = `${plural(n, "legal play")} ${n === 1 ? "uses" : "use"} these cards${agree}`
      + (question ? "; answer to choose one:" : n > 1 ? "; choose one:" : ":");
    if (used.length) {
      choices.append(el("div", { class: "answered" }, `Your ${used.length === 1 ? "answer" : "answers"}: `
        + used.map(([q, a]) => `${q} ${a}`).join("; ") + " ",
      el("button", { class: "choice-reset", text: "Change", onclick: () => { ui.answers = {}; renderActions(ui.state); } })));
    }
    if (question) {  // ask the questions that tell the candidates apart, one at a time
      const row = el("div", { class: "question" }, el("span", { text: `${question.q}:` }));
      for (const a of question.answers) {
        row.append(el("button", { class: "choice", text: a, onclick: () => { ui.answers[question.q] = a; renderActions(ui.state); } }));
      }
      choices.append(row);
    }
    if (!question) {
      if (n === 1) {
        confirm.hidden = false;
        confirm.textContent = `Play: ${cands[0].text}`;
        confirm.onclick = () => sendPlay(cands[0]);
      } else {  // the same answers everywhere: list the plays themselves
        for (const p of cands) choices.append(el("button", { class: "choice", text: p.text, onclick: () => sendPlay(p) }));
      }
    }
  }
  if (exact.length && bigger.length) sugg.append(el("span", { class: "more", text: "Or with more cards:" }));
  for (const p of bigger.slice(0, 8)) {
    sugg.append(el("button", { class: "suggest", text: p.text, onclick: () => selectCards(p.cards) }));
  }
  if (bigger.length > 8) sugg.append(el("span", { class: "more", text: `(${bigger.length} such plays in all)` }));
}

function selectCards(ids) {
  const hand = handCards(ui.state);
  const taken = [];
  for (const id of ids) {
    const pos = hand.findIndex((c, i) => c === id && !taken.includes(i));
    if (pos >= 0) taken.push(pos);
  }
  ui.selected = taken; ui.answers = {};
  renderHand(ui.state);
}

async function sendPlay(p) {
  if (ui.busy) return;
  ui.busy = true;
  try {
    showError("");
    const st = await api("POST", `/api/games/${ui.id}/play`, { play: p.play, move: ui.state.move });
    ui.selected = []; ui.answers = {};
    await afterState(st);
  } catch (err) {
    showError(err.message);
    if (err.status === 409) {  // stale page: show the game as it is now
      try { ui.selected = []; ui.answers = {}; await afterState(await api("GET", `/api/games/${ui.id}`)); } catch (e) { /* keep */ }
    }
  }
  ui.busy = false;
  schedule();
}

async function afterState(st) {
  ui.state = st;
  if (st.mode === "play" && st.game_over && Object.keys(st.hands).length < st.n_players) {
    try { ui.state = await api("GET", `/api/games/${ui.id}?reveal=1`); } catch (e) { /* keep st */ }
  }
  render();
}

function renderControls(st) {
  const replay = st.mode === "replay";
  $("#replay-controls").hidden = !replay;
  $("#pace-controls").hidden = replay;
  $("#show-hands-label").hidden = st.mode === "play" || st.game === "seals";  // Seals: hands are public
  $("#pace-label").textContent = `${(Number($("#pace").value) / 1000).toFixed(1)} s`;
  $("#pause").hidden = st.mode === "play";
  $("#pause").textContent = ui.paused ? "Resume" : "Pause";
  $("#step").hidden = st.mode === "play";
  $("#step").disabled = st.game_over || st.waiting_for !== "agent";
  if (replay) {
    const r = $("#rp-range");
    r.max = String(st.steps); r.value = String(st.step);
    $("#rp-step").textContent = `${st.step} / ${st.steps}`;
    $("#rp-prev").disabled = $("#rp-first").disabled = st.step === 0;
    $("#rp-next").disabled = $("#rp-last").disabled = st.step === st.steps;
    $("#rp-auto").textContent = ui.replayTimer ? "Stop" : "Play";
    const sel = $("#rp-game");
    sel.hidden = !(st.source && st.source.kind === "tournament");
    if (!sel.hidden && sel.options.length !== st.source.games.length) {
      sel.innerHTML = "";
      for (const g of st.source.games) {
        sel.append(el("option", { value: g.index, text: `game ${g.index}: deal ${g.deal}, rotation ${g.rotation}` }));
      }
    }
    if (!sel.hidden) sel.value = String(st.source.game);
  }
}

function renderScores(st) {
  const t = el("table");
  const head = el("tr", {}, el("th", { text: "" }));
  for (let s = 0; s < st.n_players; s++) {
    head.append(el("th", { text: s === st.human ? "you" : `player ${s}`, title: seatName(s, st) }));
  }
  t.append(head);
  st.round_scores.forEach((r, i) => {
    const tr = el("tr", {}, el("td", { text: `round ${i + 1}` }));
    for (const v of r) tr.append(el("td", { text: scoreText(v) }));
    t.append(tr);
  });
  const tot = el("tr", { class: "totals" }, el("th", { text: "total" }));
  st.totals.forEach((v, s) => tot.append(el("th", { text: scoreText(v), "data-seat": s })));
  t.append(tot);
  const box = $("#scores");
  box.innerHTML = "";
  box.append(t);
}

function renderHistory(st) {
  const ol = $("#history");
  ol.innerHTML = "";
  for (const line of st.history) ol.append(el("li", { text: line }));
  ol.scrollTop = ol.scrollHeight;
}

function renderLastRound(st) {
  const box = $("#last-round");
  box.hidden = !st.last_round;
  if (!st.last_round) return;
  box.innerHTML = "";
  box.append(el("h3", { text: `Round ${st.last_round.round + 1}: cards left at its end (scores: ${st.last_round.scores.map(scoreText).join(", ")})` }));
  st.last_round.hands.forEach((h, s) => box.append(el("div", { class: "row" },
    el("span", { text: `${s === st.human ? "you" : seatName(s, st)}: ${scoreText(st.last_round.scores[s])}` }), cardRow(h))));
}

// what a game's own module (scout.js) may use of the shell
const shell = {
  $, el, plural, scoreText, joinWords, seatName, ui,
  sendPlay: (p) => sendPlay(p),
  rerender: () => render(),
};

// --- pacing of agents' plays ------------------------------------------------------------------------
function stopTimers() {
  if (ui.timer) clearTimeout(ui.timer);
  if (ui.replayTimer) clearTimeout(ui.replayTimer);
  ui.timer = null; ui.replayTimer = null;
}

function schedule() {
  if (ui.timer) { clearTimeout(ui.timer); ui.timer = null; }
  const st = ui.state;
  if (!st || st.mode === "replay" || st.game_over || st.waiting_for !== "agent") return;
  if (st.mode === "watch" && ui.paused) return;
  ui.timer = setTimeout(() => { ui.timer = null; advance(); }, Number($("#pace").value));
}

async function advance() {
  if (ui.busy || !ui.state) return;
  ui.busy = true;
  const id = ui.id;
  try {
    const reveal = ui.state.mode === "watch" && $("#show-hands").checked ? 1 : 0;
    const st = await api("POST", `/api/games/${id}/advance?reveal=${reveal}`, { move: ui.state.move });
    if (id === ui.id) await afterState(st);
  } catch (err) {
    ui.busy = false;
    if (err.status === 409 && id === ui.id) {  // moved on elsewhere (another tab): catch up, go on
      try { await afterState(await api("GET", `/api/games/${id}?reveal=${ui.state.mode === "watch" && $("#show-hands").checked ? 1 : 0}`)); schedule(); return; } catch (e) { /* fall through */ }
    }
    showError(err.message);
    return;  // no retry loop on other errors
  }
  ui.busy = false;
  if (id === ui.id) schedule();
}

async function seek(step) {
  const st = ui.state;
  if (!st || st.mode !== "replay") return;
  step = Math.max(0, Math.min(st.steps, step));
  await guarded(async () => {
    const reveal = $("#show-hands").checked ? 1 : 0;
    ui.state = await api("POST", `/api/games/${ui.id}/seek?reveal=${reveal}`, { step });
    render();
  });
}

function replayAuto() {
  if (ui.replayTimer) { clearTimeout(ui.replayTimer); ui.replayTimer = null; renderControls(ui.state); return; }
  const tick = async () => {
    if (!ui.state || ui.state.mode !== "replay" || ui.state.step >= ui.state.steps) { ui.replayTimer = null; renderControls(ui.state); return; }
    await seek(ui.state.step + 1);
    ui.replayTimer = setTimeout(tick, Math.max(150, Number($("#pace").value)));
    renderControls(ui.state);
  };
  ui.replayTimer = setTimeout(tick, 0);
}

// --- wiring -------------------------------------------------------------------------------------------
async function init() {
  // the tabs and forms work at once; what needs the server's cards and specs waits for /api/meta
  for (const b of document.querySelectorAll(".tab")) {
    b.addEventListener("click", () => {  // a tab shows its form; open games stay in the Games menu
      if (ui.state) { stopTimers(); ui.state = null; ui.id = null; location.hash = ""; }
      setView(b.dataset.view);
    });
  }
  for (const p of ["play", "watch"]) agentInputs(p);
  let saved = null;
  try { saved = localStorage.getItem("seers-game"); } catch (e) { /* no storage */ }
  chooseGame(new URLSearchParams(location.search).get("game") || saved || "seers_catalog");
  $("#game-choice").addEventListener("change", (ev) => {
    if (ui.state) { stopTimers(); ui.state = null; ui.id = null; location.hash = ""; }
    chooseGame(ev.target.value);
    try { localStorage.setItem("seers-game", ui.game); } catch (e) { /* no storage */ }
    setView(ui.view);
  });
  setView(ui.view);
  ui.meta = await api("GET", "/api/meta");
  const dl = $("#spec-list");
  for (const s of ui.meta.specs) dl.append(el("option", { value: s }));
  const lim = ui.meta.limits;
  for (const h of document.querySelectorAll(".spec-hint")) {
    const searches = ui.meta.specs.includes("learned") ? "ismcts or learned+search" : "ismcts";
    h.textContent = `Agents: ${ui.meta.specs.join(", ")}; or ${searches} with a budget: `
      + `:<1..${lim.max_ismcts_iterations}> iterations per move, or :<seconds>s up to `
      + `${lim.max_ismcts_seconds} s per move (ismcts:200, ismcts:0.5s).`;
  }
  for (const p of ["play", "watch"]) {
    agentInputs(p);  // again: the players chosen meanwhile
    $(`#${p}-players`).addEventListener("change", () => agentInputs(p));
    $(`#start-${p}`).addEventListener("click", () => startGame(p));
  }
  $("#play-seat").addEventListener("change", () => agentInputs("play"));
  $("#show-hands").checked = true;
  $("#replay-open").addEventListener("click", () => openReplay(0));
  $("#rp-game").addEventListener("change", (ev) => openReplay(Number(ev.target.value)));
  $("#games").addEventListener("change", (ev) => { if (ev.target.value) guarded(() => loadGame(ev.target.value)); });
  $("#pass-btn").addEventListener("click", () => {
    const p = ui.state && ui.state.legal && ui.state.legal.find((x) => x.kind === "PASS");
    if (p) sendPlay(p);
  });
  $("#clear-btn").addEventListener("click", () => { ui.selected = []; ui.answers = {}; renderHand(ui.state); });
  try { const saved = localStorage.getItem("seers-pace"); if (saved !== null) $("#pace").value = saved; } catch (e) { /* no storage */ }
  $("#pace").addEventListener("input", () => {
    try { localStorage.setItem("seers-pace", $("#pace").value); } catch (e) { /* no storage */ }
    if (ui.state) renderControls(ui.state);
    schedule();
  });
  $("#pause").addEventListener("click", () => { ui.paused = !ui.paused; renderControls(ui.state); schedule(); });
  $("#step").addEventListener("click", () => { if (ui.timer) clearTimeout(ui.timer); ui.timer = null; advance(); });
  $("#show-hands").addEventListener("change", () => guarded(async () => {
    const st = ui.state;
    if (!st || st.mode === "play") return;
    ui.state = await api("GET", `/api/games/${ui.id}?reveal=${$("#show-hands").checked ? 1 : 0}`);
    render();
  }));
  $("#rp-first").addEventListener("click", () => seek(0));
  $("#rp-prev").addEventListener("click", () => seek(ui.state.step - 1));
  $("#rp-next").addEventListener("click", () => seek(ui.state.step + 1));
  $("#rp-last").addEventListener("click", () => seek(ui.state.steps));
  $("#rp-range").addEventListener("change", (ev) => seek(Number(ev.target.value)));
  $("#rp-auto").addEventListener("click", replayAuto);
  $("#close-game").addEventListener("click", () => guarded(async () => {
    const view = ui.state ? ui.state.mode : ui.view;
    stopTimers();
    await api("DELETE", `/api/games/${ui.id}`);
    ui.state = null; ui.id = null; location.hash = "";
    setView(view); refreshGames();
  }));
  document.addEventListener("keydown", (ev) => {  // replay: arrow keys step, Home/End jump
    const st = ui.state;
    if (!st || st.mode !== "replay" || ev.target.closest("input, select, textarea")) return;
    const to = { ArrowLeft: st.step - 1, ArrowRight: st.step + 1, Home: 0, End: st.steps }[ev.key];
    if (to !== undefined) { ev.preventDefault(); seek(to); }
  });
  const fromHash = async () => {  // #/game/<id>: open that game, or say why not and show a form
    const m = location.hash.match(/^#\/game\/([A-Za-z0-9_-]+)$/);
    if (!m || m[1] === ui.id) return;
    try { showError(""); await loadGame(m[1]); } catch (err) {
      stopTimers(); ui.state = null; ui.id = null;
      showError(err.message);
      setView(ui.view);
    }
  };
  window.addEventListener("hashchange", fromHash);
  setView(ui.view);
  await fromHash();
  refreshGames();
  ui.ready = true;  // for tests: every control is wired
}

init().catch((err) => showError(`the page could not start: ${err.message}`));
