// Pyramid Solitaire in the browser. This page holds no game rule: it sends protocol
// requests (docs/protocol.md) over the WebSocket and draws the whole `state` each response
// carries, with the `messages` the session wrote in its language. What a tap does, which
// cards are free, the score, the end of the game: all come from the server.
"use strict";

// ---- the page's words: LABELS (by language) comes from /labels.js, which the server
// writes from the session layer's one list of labels (pyramid_solitaire.session.labels)
const SUIT = {s: "♠", h: "♥", d: "♦", c: "♣"};
const RED = new Set(["h", "d"]);

// ---- small helpers -------------------------------------------------------------------
const $ = (id) => document.getElementById(id);
const store = {
  get(key) { try { return localStorage.getItem("pyramid." + key); } catch { return null; } },
  set(key, value) { try { localStorage.setItem("pyramid." + key, value); } catch { /* private mode */ } },
  remove(key) { try { localStorage.removeItem("pyramid." + key); } catch { /* private mode */ } },
};
function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}
// a target as the protocol spells it: a pyramid index (a number) or a name
const targetOf = (s) => (/^\d+$/.test(s) ? Number(s) : s);
function clockText(seconds) {
  const s = Math.floor(seconds), h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

// ---- what the page knows -------------------------------------------------------------
let ws = null, nextId = 1, retry = 0;
const pending = new Map();              // request id -> request
let state = null;                        // the last state the server sent
let defaults = {profile: "pyramide", lang: "en"};
let lang = store.get("lang") || null;    // the chosen language (labels and new games)
// The table is an ARIA grid (rows: the pyramid's seven, then the talon's piles) with one
// roving tab stop: `cursor` is the key of the cell that has it (a target as the protocol
// spells it, or "foundation"), `cursorAt` its row and column, to keep a place when it goes.
let cursor = null, cursorAt = null;
let hinted = [];                         // cards (or "stock") of the last hint
let clock = {base: 0, at: 0, running: false};
let drag = null, suppressClick = false;
let hiddenPause = false, pendingNote = null;   // paused because the tab was hidden
let nextProfile = null;                  // a game type chosen during a game, for the next deal
let gameNames = {};                      // the game types' names, by language (from hello)

const L = () => LABELS[lang || defaults.lang] || LABELS.en;

function browserLang() {
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (base in LABELS) return base;
  }
  return null;
}

// ---- the connection ------------------------------------------------------------------
function connect() {
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws";
  ws = new WebSocket(url);
  ws.onopen = () => {
    retry = 0;
    send({op: "hello"});
    send({op: "attach", game: store.get("game") || null});
  };
  ws.onmessage = (event) => {
    let response;
    try { response = JSON.parse(event.data); } catch { return; }
    onResponse(response);
  };
  ws.onclose = () => {
    ws = null;
    pending.clear();
    showText(L().disconnected, true);
    retry = Math.min(retry + 1, 6);
    setTimeout(connect, 500 * retry);
  };
}

function send(request) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  request.id = nextId++;
  pending.set(request.id, request);
  ws.send(JSON.stringify(request));
  return true;
}

function onResponse(r) {
  if (r.pushed) {                       // another tab of this game changed it: redraw
    if (r.state) render(r.state);
    if (r.messages && r.messages.length) showMessages(r.messages);   // the server's own news
    return;
  }
  const request = pending.get(r.id) || {};
  pending.delete(r.id);
  if (!r.ok) {
    if (request.op === "attach" && r.error.code === "bad_game") {   // an id this server does not know
      store.remove("game");
      send({op: "attach", game: null});
      return;
    }
    showText(r.error.code === "rate_limited" ? L().rate_limited : (r.error.text || r.error.message), true);
    if (r.state) render(r.state);
    return;
  }
  switch (r.op) {
    case "hello":
      gameNames = r.game_names || {};
      offeredLevels = r.difficulties || {};
      fillProfiles(r.profiles);
      syncLevels();
      return;
    case "attach":
      store.set("game", r.game);
      defaults = r.defaults || defaults;
      // no language chosen yet: a resumed game's, else the browser's (en or vi), else the
      // server's default
      if (!lang) setLang(r.state ? r.state.lang : (browserLang() || defaults.lang), false);
      // the game chosen for the next deal (kept across reloads), else the game's own
      $("profile").value = store.get("profile") || (r.state ? r.state.profile : defaults.profile);
      if (r.state && r.state.status === "playing" && $("profile").value !== r.state.profile)
        nextProfile = $("profile").value;           // chosen during this game: for the next
      if (r.state) { render(r.state); showMessages(r.messages || []); }
      syncFairHints(r.state);
      if (r.state && r.state.paused && store.get("hidden_pause"))   // (a reload or a page
        resumeHidden(store.get("hidden_pause") === "left");          // left: said nothing of)
      if (r.state && r.state.status !== "playing")       // a finished game says how it ended
        showEnd(r.state.status === "won" ? "end_won" : "end_no_moves");
      if (!playLinkedDeal(r.state) && !r.state) newDeal();
      $("welcome").hidden = Boolean(store.get("seen_howto"));   // a first visit: offered
      return;
    case "stats":
      if (request.forEnd) showBest(r.stats); else showScores(r.stats);
      return;
    case "stats_reset":
      showScores(r.stats);
      showText(fill(L().reset_done, {n: r.deleted}));
      return;
    case "howto":
      showHowto(r.howto);
      return;
    default: {
      if (r.op === "new" && r.checked) {            // a deal that can be played: ask, play
        if (mayLeave("replace_game")) playCode(request.text);
        return;
      }
      if (r.op === "new") {
        nextProfile = null;
        if (r.state) store.set("profile", r.state.profile);
        syncFairHints(r.state);
      }   // (the game type
      // chosen is played now; a first game is told the player's choice of hints)
      hinted = hintOf(r.messages);
      const before = state;
      if (r.state) render(r.state);
      if ((r.op === "tap" || r.op === "drag") && before && r.state && r.state.moves === before.moves
          && !r.state.selection && r.messages.length) sound("refuse");
      showMessages(r.messages);
      if (pendingNote && r.op === "resume") { showText(pendingNote); pendingNote = null; }
      const ended = before && before.status === "playing" && r.state && r.state.status !== "playing";
      if (ended && r.state.status === "won") winCascade(() => showEnd("end_won"));
      else if (ended) showEnd("end_no_moves");
      else if (r.messages.some((m) => m.code === "no_chance")) showEnd("end_no_chance");
    }
  }
}

// The player's choice of hints that never look at the face-down stock, kept in the browser:
// a game attached (resumed or not) is told it when it differs.
function syncFairHints(s) {
  const wanted = store.get("fair_hints") === "1";
  if (s && s.fair_hints !== wanted) send({op: "fair_hints", on: wanted});
}

// ---- requests ------------------------------------------------------------------------
const tap = (target) => send({op: "tap", target});
// A game under way (moves played, not over) is left only when the player says so: New deal,
// Restart, a pasted code, a linked deal. It then counts as abandoned in the statistics.
function mayLeave(what) {
  return !(state && state.under_way) || window.confirm(L()[what]);   // the session says
}
// a random deal: of the difficulty chosen (winnable by its nature), else winnable unless
// that is turned off
function newDeal() {
  const level = $("level").value;
  send({op: "new", random: level ? {difficulty: level} : {winnable_only: $("winnable").checked},
        profile: $("profile").value || defaults.profile, lang: lang || defaults.lang});
}
// today's daily deal of the chosen game type: the date is the player's own (local)
function today() {
  const d = new Date(), two = (n) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
}
function dailyDeal() {
  send({op: "new", daily: today(), profile: $("profile").value || defaults.profile,
        lang: lang || defaults.lang});
}
// the difficulties the chosen game type offers (hello's difficulties: classic only hard)
let offeredLevels = {};
function syncLevels() {
  const offered = offeredLevels[$("profile").value] || ["easy", "medium", "hard"];
  for (const o of $("level").options) o.disabled = Boolean(o.value) && !offered.includes(o.value);
  if ($("level").selectedOptions[0] && $("level").selectedOptions[0].disabled) $("level").value = "";
  $("winnable").disabled = Boolean($("level").value);   // a difficulty is a winnable deal
}
function playCode(text, check) {
  text = text.trim();
  if (!text) return;
  const request = {op: "new", lang: lang || defaults.lang};
  // a card list is played under the chosen game; a code under the game its letter names
  if (/\s/.test(text)) {
    request.cards = text;
    request.profile = $("profile").value || defaults.profile;
  } else request.code = text;
  if (check) request.check = true;
  if (send(request) && check) pending.get(request.id).text = text;
}
// A pasted or linked deal: read by the server first (a bad one is refused at once), and
// only then, for a game under way, the question whether to leave it.
function playAsked(text) {
  if (state && state.under_way) playCode(text, true); else playCode(text);
}
// a deal named by the page's address (#deal=CODE: `play --web CODE` opens it), played once
function playLinkedDeal(current) {
  const m = /(?:^#|&)deal=([^&]+)/.exec(location.hash);
  if (!m) return false;
  history.replaceState(null, "", location.pathname + location.search);   // once only
  const code = decodeURIComponent(m[1]).trim();
  if (current && current.code === code) return true;                     // already playing it
  playAsked(code);
  return true;
}
// the game was paused because its tab was hidden (or closed): go on, and say so
function resumeHidden(silently) {
  hiddenPause = false;
  store.remove("hidden_pause");
  if (send({op: "resume"}) && !silently) pendingNote = L().was_hidden;
}
function togglePause() {
  if (state) send({op: state.paused ? "resume" : "pause"});
}

// Share the deal: a link that opens it (#deal=CODE, or the 52 cards of a card list), or
// its code, copied to the clipboard (where there is none, the page shows what to copy).
function share(link) {
  const deal = state && (state.code || state.cards);   // (cards: a card list's 52)
  if (!deal) return;
  const text = link ? `${location.origin}${location.pathname}#deal=${encodeURIComponent(deal)}` : deal;
  const said = (key) => showText(fill(L()[key], {text}));
  if (navigator.clipboard && navigator.clipboard.writeText)
    navigator.clipboard.writeText(text).then(() => said("copied"), () => said("copy_this"));
  else said("copy_this");
}

// ---- drawing -------------------------------------------------------------------------
const fill = (text, args) => text.replace(/\{(\w+)\}/g, (_, k) => String(args[k]));
// a card as a screen reader says it: "King of diamonds" ("Già rô")
function cardName(token) {
  const rank = token[0] === "T" ? "10" : token[0], l = L();
  return fill(l.card_name, {rank: l["rank_" + rank] || rank, suit: l["suit_" + token[1]]});
}
function cardElement(token, target, classes) {
  const e = el("div", "card " + (classes || ""));
  if (target !== null) e.dataset.target = String(target);
  if (token) {
    const rank = token[0] === "T" ? "10" : token[0], suit = token[1];
    e.dataset.card = token;
    if (RED.has(suit)) e.classList.add("red");
    const corner = el("span", "corner", rank + SUIT[suit]), pip = el("span", "pip", SUIT[suit]);
    corner.setAttribute("aria-hidden", "true");     // the cell's name says it in words
    pip.setAttribute("aria-hidden", "true");
    e.append(corner, pip);
  }
  return e;
}
// a cell of the table's grid: its key, its name (what it is, then its state)
function cell(e, key, name) {
  e.setAttribute("role", "gridcell");
  e.dataset.cell = String(key);
  e.tabIndex = -1;
  e.setAttribute("aria-label", name);
  return e;
}

function mark(e, target, s) {
  const key = String(target), l = L(), states = [];
  if (e.classList.contains("free")) states.push(l.card_free);
  else if (e.classList.contains("blocked")) states.push(l.card_blocked);
  if (s.selection && String(s.selection.target) === key) {
    e.classList.add("selected");
    e.setAttribute("aria-selected", "true");         // for screen readers too
    states.push(l.card_selected);
  }
  if (e.dataset.card && hinted.includes(e.dataset.card)) {
    e.classList.add("hinted");
    states.push(l.card_hinted);
  }
  return states;
}

function render(s) {
  const prev = state;
  state = s;
  const before = where();
  const targets = new Set(s.targets.map(String));
  const over = s.status !== "playing";                // an ended game has no playable card
  const l = L(), hadFocus = $("board").contains(document.activeElement);
  const named = (...parts) => parts.filter(Boolean).join(", ");

  const pyramid = $("pyramid");
  pyramid.replaceChildren();
  for (let row = 0, i = 0; row < 7; row++) {
    const line = el("div", "prow");
    let cells = 0;
    for (let k = 0; k <= row; k++, i++) {
      const p = s.pyramid[i];
      let e;
      if (p.card === null) e = cardElement(null, null, "empty");
      else {
        e = cardElement(p.card, p.index, p.free && !over ? "free" : "blocked");
        cell(e, p.index, named(cardName(p.card), ...mark(e, p.index, s)));
        cells++;
      }
      line.append(e);
    }
    line.setAttribute("role", cells ? "row" : "none");  // a row cleared holds no cell
    pyramid.append(line);
  }

  const talon = $("talon");
  talon.replaceChildren();
  const stock = el("div", "pile");
  let deck;
  if (s.stock > 0) deck = cardElement(null, "stock", "back");
  else deck = cardElement(null, "stock", "slot");
  if (s.stock === 0) deck.textContent = targets.has("stock") ? "↻" : "";
  const redeals = s.show_redeals && s.redeals_left !== null;
  cell(deck, "stock", named(`${l.stock}: ${s.stock} ${s.stock === 1 ? l.n_card : l.n_cards}`,
                            redeals && `${l.redeals_left} ${s.redeals_left}`,
                            s.stock === 0 && targets.has("stock") && l.turn_over,
                            ...mark(deck, "stock", s)));
  if (hinted.includes("stock")) deck.classList.add("hinted");
  stock.append(deck, el("span", "count", `${l.stock} ${s.stock}`));
  if (redeals)                                       // seed 002: the redeals left, under it
    stock.append(el("span", "count redeals-left", `${l.redeals_left} ${s.redeals_left}`));
  if (s.stock === 0 && targets.has("stock")) deck.title = l.turn_over;
  talon.append(stock);
  if (s.stock_top !== null) {
    const top = el("div", "pile");
    const e = cardElement(s.stock_top, "stock:top", over ? "blocked" : "free");
    cell(e, "stock:top", named(`${l.stock_top}: ${cardName(s.stock_top)}`, ...mark(e, "stock:top", s)));
    top.append(e, el("span", "count", l.stock_top));  // (not "Stock" twice: its top card)
    talon.append(top);
  }
  const piles = el("div", "waste-piles");
  s.waste.forEach((pile, i) => {
    const name = s.waste.length > 1 ? `waste:${i}` : "waste";
    const box = el("div", "pile");
    const token = s.waste_tops[i];
    const size = `${pile.length} ${pile.length === 1 ? l.n_card : l.n_cards}`;
    const title = s.waste.length > 1 ? `${l.waste} ${i + 1}` : l.waste;
    let e;
    if (token) {
      e = cardElement(token, name, targets.has(name) && !over ? "free" : "");
      cell(e, name, named(`${cardName(token)} ${l.on_waste}`, size, ...mark(e, name, s)));
    } else e = cell(cardElement(null, null, "slot"), name, named(title, l.pile_empty));
    box.append(e, el("span", "count", `${l.waste} ${pile.length}`));
    piles.append(box);
  });
  const foundation = el("div", "pile foundation");     // the cards removed, the last on top
  const gone = s.foundation ? cardElement(s.foundation, null, "gone") : cardElement(null, null, "slot");
  cell(gone, "foundation", named(`${l.removed} ${s.removed}/${s.to_remove}`,
                                 s.foundation && cardName(s.foundation)));
  foundation.append(gone, el("span", "count", `${l.removed} ${s.removed}/${s.to_remove}`));
  talon.append(piles, foundation);
  for (const count of talon.querySelectorAll(".count")) count.setAttribute("aria-hidden", "true");
  rove(hadFocus);

  $("score").textContent = s.score;
  $("score-figure").hidden = !s.points;              // seed 003's game has no points
  $("moves").textContent = s.moves;
  $("removed").textContent = `${s.removed}/${s.to_remove}`;
  motion(prev, s, before);
  $("redeals").textContent = s.redeals_left === null ? L().unlimited : s.redeals_left;
  $("difficulty").textContent = s.difficulty.text;
  $("deal-code").textContent = s.code || L().card_list;
  if (!nextProfile) $("profile").value = s.profile;   // the selector follows the game played
  $("status").textContent = L()[s.status] || s.status;
  $("assisted").hidden = !s.assisted;
  $("not-saved").hidden = !s.not_saved;               // the server cannot save this game
  $("not-saved").textContent = s.not_saved ? s.not_saved.text : "";
  $("assisted").textContent = L().assisted;
  $("daily-badge").hidden = !s.daily;                  // a daily deal says whose day it is
  $("daily-badge").textContent = s.daily ? fill(L().daily_badge, {date: s.daily}) : "";
  $("undo").disabled = !s.can_undo || s.paused;       // while paused the table is hidden:
  $("redo").disabled = !s.can_redo || s.paused;       // no play until it is resumed
  // Hint, Draw, Chance and Pause would only answer "the game is over" once it is: off then
  $("hint").disabled = $("draw").disabled = $("chance").disabled = s.paused || over;
  $("pause").disabled = over && !s.paused;
  // the rest needs no choice (the session's can_finish): offered until it is taken
  $("finish").hidden = !s.can_finish || over || s.paused;
  $("fair-hints").checked = s.fair_hints;
  $("pause").textContent = s.paused ? L().resume : L().pause;
  $("paused").hidden = !s.paused;
  clock = {base: s.seconds, at: performance.now(), running: !s.paused && s.status === "playing"};
  tick();
}

// Motion that helps (all of it off under prefers-reduced-motion, in style.css): a short
// deal when a new deal or a restart begins, the card going to the foundation, a cascade
// on a win.
function motion(prev, s, before) {
  const board = $("board");
  const fresh = !prev || prev.code !== s.code || (s.moves === 0 && prev.moves > 0);
  if (fresh && s.moves === 0) {
    $("pyramid").querySelectorAll(".card[data-card]").forEach((c, i) => c.style.setProperty("--i", i));
    restartAnimation(board, "dealing");
  } else if (prev && prev.code === s.code && s.removed > prev.removed) {
    fly(before, where());
    sound(s.status === "won" ? "win" : "remove");
  } else if (prev && prev.code === s.code && s.moves > prev.moves) sound("draw");
}

// where each card in play is on the screen now (token -> rectangle)
function where() {
  const out = new Map();
  for (const c of document.querySelectorAll("#pyramid .card[data-card], #talon .card[data-target][data-card]"))
    out.set(c.dataset.card, c.getBoundingClientRect());
  return out;
}
// the cards a move removed fly from their place to the foundation (none under reduced motion)
function fly(before, after) {
  const to = document.querySelector(".foundation .card");
  if (reducedMotion() || !to || !Element.prototype.animate) return;
  const end = to.getBoundingClientRect();
  for (const [token, box] of before) {
    if (after.has(token)) continue;
    const card = cardElement(token, null, "flying");
    Object.assign(card.style, {left: `${box.left}px`, top: `${box.top}px`,
                               width: `${box.width}px`, height: `${box.height}px`});
    card.setAttribute("aria-hidden", "true");
    document.body.append(card);
    const dx = end.left - box.left, dy = end.top - box.top;
    card.animate([{transform: "none"}, {transform: `translate(${dx}px, ${dy}px) scale(${end.width / box.width})`}],
                 {duration: 320, easing: "ease-in"}).finished.then(() => card.remove(), () => card.remove());
  }
}

// Sounds, off unless the player turns them on: short tones made in the page (no file).
let audio = null;
const TONES = {remove: [660, 880], draw: [330], refuse: [170], win: [523, 659, 784, 1047]};
function sound(name) {
  if (store.get("sounds") !== "1") return;
  document.body.dataset.sound = name;            // the last one played (what tests read)
  try { audio = audio || new AudioContext(); } catch { return; }
  const t0 = audio.currentTime;
  TONES[name].forEach((frequency, i) => {
    const o = audio.createOscillator(), g = audio.createGain(), t = t0 + i * 0.09;
    o.type = "triangle";
    o.frequency.value = frequency;
    g.gain.setValueAtTime(0.0001, t);
    g.gain.exponentialRampToValueAtTime(0.12, t + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, t + 0.15);
    o.connect(g).connect(audio.destination);
    o.start(t);
    o.stop(t + 0.16);
  });
}

// A win: the 52 cards leap from the foundation one after another and bounce down the
// page, then the end dialog opens (at once under prefers-reduced-motion; a click or a key
// cuts the cascade short).
const reducedMotion = () => Boolean(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
let cascadeDone = null;
function winCascade(then) {
  const from = document.querySelector(".foundation .card");
  if (reducedMotion() || !from || !Element.prototype.animate) { then(); return; }
  const layer = el("div", "cascade");
  layer.id = "cascade";
  layer.setAttribute("aria-hidden", "true");
  document.body.append(layer);
  const skip = el("p", "skip-cascade", L().skip_cascade);   // (it runs for seconds)
  skip.id = "skip-cascade";
  skip.setAttribute("role", "status");
  document.body.append(skip);
  const box = from.getBoundingClientRect(), floor = innerHeight - box.bottom;
  let last = 0, n = 0;
  for (const rank of "KQJT98765432A") for (const suit of "shdc") {
    const card = cardElement(rank + suit, null, "flying");
    card.removeAttribute("role");
    Object.assign(card.style, {left: `${box.left}px`, top: `${box.top}px`,
                               width: `${box.width}px`, height: `${box.height}px`});
    layer.append(card);
    // x at a steady speed, y under gravity; each bounce on the page's foot keeps 70%
    let x = 0, y = 0, vy = -2 - Math.random() * 7;
    const vx = (Math.random() < 0.5 ? -1 : 1) * (2 + Math.random() * 5), frames = [];
    for (let t = 0; t < 240 && Math.abs(x) < innerWidth; t++) {
      vy += 0.6; x += vx; y += vy;
      if (y > floor) { y = floor; vy *= -0.7; }
      if (t % 3 === 0) frames.push({transform: `translate(${x}px, ${y}px)`});
    }
    frames.push({transform: `translate(${x}px, ${y}px)`, opacity: 0});
    const delay = n++ * 70, duration = frames.length * 50;
    card.animate(frames, {duration, delay, fill: "both", easing: "linear"});
    last = Math.max(last, delay + duration);
  }
  let timer = null;
  const done = (event) => {
    if (cascadeDone !== done) return;
    if (event && event.type === "keydown") {     // the key that skips is spent on it: an
      event.preventDefault();                    // Escape would close the dialog it opens
      event.stopImmediatePropagation();
    }
    cascadeDone = null;
    clearTimeout(timer);
    removeEventListener("pointerdown", done, true);
    removeEventListener("keydown", done, true);
    layer.remove();
    skip.remove();
    then();
  };
  cascadeDone = done;
  timer = setTimeout(done, last);
  addEventListener("pointerdown", done, true);
  addEventListener("keydown", done, true);
}
function restartAnimation(e, name) {
  e.classList.remove(name);
  void e.offsetWidth;                     // a new start of the same animation
  e.classList.add(name);
  setTimeout(() => e.classList.remove(name), 1500);
}

function tick() {
  const seconds = clock.base + (clock.running ? (performance.now() - clock.at) / 1000 : 0);
  $("clock").textContent = clockText(seconds);
}

function showText(text, error) {
  const m = $("messages");
  m.textContent = text;
  m.classList.toggle("error", Boolean(error));
}
function showMessages(messages) {
  showText(messages.map((m) => m.text).join(" · "));
}
// the cards a hint names, to ring them ("Tc+3s", "Kd"; "draw" and "recycle" are the stock)
function hintOf(messages) {
  const hint = messages.find((m) => m.code === "hint");
  if (!hint || !hint.args || typeof hint.args.move !== "string") return [];
  const move = hint.args.move;
  return move === "draw" || move === "recycle" ? ["stock"] : move.split("+");
}

function fillProfiles(names) {
  const select = $("profile"), chosen = select.value || store.get("profile") || defaults.profile;
  const shown = gameNames[lang || defaults.lang] || {};
  select.replaceChildren(...names.map((n) => { const o = el("option", "", shown[n] || n); o.value = n; return o; }));
  select.value = names.includes(chosen) ? chosen : names[0];
}

// ---- the end of a game: how it ended, the figures, the best of this game type ------------
function showEnd(titleKey) {
  const l = L(), s = state, panel = $("end-panel");
  $("end-title").textContent = l[titleKey];
  panel.dataset.ending = titleKey;
  const figures = $("end-figures");
  figures.replaceChildren();
  const rows = [[l.moves, s.moves], [l.time, clockText(s.seconds)]];
  if (s.points) rows.unshift([l.score, s.score]);            // a game without points: none
  for (const [name, value] of rows) figures.append(el("dt", "", name), el("dd", "", String(value)));
  $("end-best").textContent = "";
  $("end-undo").disabled = !s.can_undo;
  const request = {op: "stats", profile: s.profile};
  if (send(request)) pending.get(request.id).forEnd = true;
  if (!panel.open) panel.showModal();
}
function showBest(stats) {
  // the best of this game type, as the session writes it whatever the end (best_of's text)
  if (stats.best_of) $("end-best").textContent = stats.best_of.text;
}
function endChoice(what) {
  $("end-panel").close();
  if (what === "new") newDeal();
  else if (what === "replay") send({op: "restart"});
  else if (what === "undo") send({op: "undo"});
}

// the rules page of the game type, as the server writes it (docs/session.md "How to play")
function askHowto() {
  send({op: "howto", profile: $("profile").value || (state ? state.profile : defaults.profile),
        lang: lang || defaults.lang});
}
function showHowto(page) {
  $("howto-title").textContent = page.title;
  const box = $("howto-text");
  box.replaceChildren();
  for (const section of page.sections) {
    box.append(el("h3", "", section.title));
    for (const text of section.paragraphs) box.append(el("p", "", text));
  }
  store.set("seen_howto", "1");
  $("welcome").hidden = true;
  if (!$("howto-panel").open) $("howto-panel").showModal();
}
const LEVELS = ["easy", "medium", "hard", "very_hard", "expert", "unwinnable"];
const percent = (rate) => (rate === null || rate === undefined ? "–" : `${Math.round(rate * 100)}%`);
function rowOf(cells, classes) {
  const tr = el("tr");
  cells.forEach((c, i) => {
    const td = el("td", (classes && classes[i]) || "");
    if (c instanceof Node) td.append(c); else td.textContent = String(c);
    tr.append(td);
  });
  return tr;
}
function fillBody(id, rows, columns, empty) {
  const body = $(id);
  body.replaceChildren(...rows);
  if (!rows.length) {
    const tr = el("tr"), td = el("td", "", empty);
    td.colSpan = columns;
    tr.append(td);
    body.append(tr);
  }
}
function summaryList(id, shown) {
  const l = L(), list = $(id);
  list.replaceChildren();
  for (const [key, value] of Object.entries(shown)) list.append(el("dt", "", l[key]), el("dd", "", String(value)));
}
// the statistics of the game type: figures, the daily deals', by difficulty (a chart and
// its table), the high scores (with the hints taken), the recent games; Reset asks first
function showScores(stats) {
  const l = L();
  const points = stats.points !== false;           // a game without points: no score shown
  $("scores-panel").classList.toggle("no-points", !points);
  const shown = {
    games: stats.games, wins: stats.wins, win_rate: percent(stats.win_rate),
    best_score: stats.best_score ?? "–", fewest_moves: stats.fewest_moves ?? "–",
    fastest_win: stats.fastest_win === null ? "–" : clockText(stats.fastest_win),
    current_streak: stats.current_streak, best_streak: stats.best_streak,
  };
  if (!points) delete shown.best_score;
  summaryList("summary", shown);
  const daily = stats.daily || {played: 0, won: 0, current_streak: 0, best_streak: 0};
  summaryList("daily-summary", {daily_played: daily.played, daily_won: daily.won,
                                daily_streak: daily.current_streak, daily_best_streak: daily.best_streak});
  // by difficulty: a bar of the win rate for each level played, the table beside it says
  // the same in words (the chart's name says it too)
  const levels = LEVELS.filter((k) => stats.by_difficulty && stats.by_difficulty[k] && stats.by_difficulty[k].games);
  const chart = $("chart");
  chart.replaceChildren();
  const name = (k) => l["level_" + k];
  chart.setAttribute("aria-label", fill(l.win_rate_chart, {
    rates: levels.map((k) => `${name(k)} ${percent(stats.by_difficulty[k].win_rate)}`).join(", ") || "–"}));
  for (const k of levels) {
    const d = stats.by_difficulty[k], bar = el("div", "bar");
    const fillPart = el("span", "fill");
    fillPart.style.width = `${Math.round((d.win_rate || 0) * 100)}%`;
    bar.append(el("span", "name", name(k)), el("span", "track"), el("span", "value", percent(d.win_rate)));
    bar.querySelector(".track").append(fillPart);
    chart.append(bar);
  }
  fillBody("by-difficulty", levels.map((k) => {
    const d = stats.by_difficulty[k];
    return rowOf([name(k), d.games, d.wins, percent(d.win_rate)]);
  }), 4, l.no_games);
  const code = (c) => el("code", "", c || l.card_list);
  fillBody("high-scores", stats.high_scores.map((h, i) => rowOf(
    [i + 1, h.score, h.moves, clockText(h.seconds), h.hints ?? 0, (h.finished_at || "").slice(0, 10), code(h.code)],
    ["", "score-cell"])), 7, l.no_scores);
  fillBody("history", (stats.history || []).map((h) => rowOf(
    [(h.finished_at || "").slice(0, 10), l["result_" + h.result] || h.result, h.score, h.moves,
     clockText(h.seconds), h.difficulty ? name(h.difficulty) : "–", h.hints ?? 0, code(h.code)],
    ["", "", "score-cell"])), 8, l.no_games);
  $("scores-panel").dataset.profile = stats.profile || "";
  const panel = $("scores-panel");
  if (!panel.open) panel.showModal();
}
function resetStats() {
  const profile = $("scores-panel").dataset.profile || $("profile").value || defaults.profile;
  const game = (gameNames[lang || defaults.lang] || {})[profile] || profile;
  if (window.confirm(fill(L().reset_ask, {game}))) send({op: "stats_reset", profile});
}

// ---- languages and themes ------------------------------------------------------------
function setLang(value, remember) {
  lang = value;
  if (remember) store.set("lang", value);
  $("lang").value = value;
  document.documentElement.lang = value;
  const l = L();
  for (const e of document.querySelectorAll("[data-label]")) {
    if (typeof l[e.dataset.label] === "string") e.textContent = l[e.dataset.label];
  }
  for (const e of document.querySelectorAll("[data-label-aria]")) {
    if (typeof l[e.dataset.labelAria] === "string") e.setAttribute("aria-label", l[e.dataset.labelAria]);
  }
  document.title = l.title === "Pyramid" ? "Pyramid Solitaire" : l.title;
  for (const o of $("profile").options) o.textContent = (gameNames[value] || {})[o.value] || o.value;
  setTheme(document.documentElement.dataset.theme, false);
  if (state) render(state);
}

function setTheme(theme, remember) {
  document.documentElement.dataset.theme = theme;
  if (remember) store.set("theme", theme);
  $("theme").textContent = theme === "dark" ? L().light : L().dark;   // what a click gives
}

// ---- the table's grid: one tab stop that moves with the arrow keys (the ARIA grid pattern)
// the grid's rows, top to bottom: [{id, cells}] (the pyramid's rows 0..6 still holding a
// card, then the talon's, id 7)
function gridRows() {
  const rows = [];
  $("pyramid").querySelectorAll(".prow").forEach((row, id) => {
    const cells = [...row.querySelectorAll("[role=gridcell]")];
    if (cells.length) rows.push({id, cells});
  });
  const talon = [...$("talon").querySelectorAll("[role=gridcell]")];
  if (talon.length) rows.push({id: 7, cells: talon});
  return rows;
}
// Give the tab stop to the cursor's cell (or, when its card went, to the cell now nearest
// its place; at first, the first free card), and the focus too when the table had it.
function rove(focus) {
  const rows = gridRows();
  if (!rows.length) { cursor = null; return; }
  const all = rows.flatMap((r) => r.cells);
  let target = cursor === null ? null : all.find((c) => c.dataset.cell === String(cursor));
  if (!target && cursorAt) {
    const [id, col] = cursorAt;
    const row = rows.reduce((a, b) => (Math.abs(b.id - id) < Math.abs(a.id - id) ? b : a));
    target = row.cells[Math.min(col, row.cells.length - 1)];
  }
  if (!target) target = all.find((c) => c.classList.contains("free")) || all[0];
  for (const c of all) {
    c.tabIndex = c === target ? 0 : -1;
    c.classList.toggle("cursor", c === target);
  }
  cursor = target.dataset.cell;
  const row = rows.find((r) => r.cells.includes(target));
  cursorAt = [row.id, row.cells.indexOf(target)];
  if (focus) target.focus({preventScroll: false});
}
function focusCell(e) {
  if (!e) return;
  cursor = e.dataset.cell;
  rove(true);
}
// arrows: left and right along a row (no wrapping), up and down to the nearest cell of the
// row above or below on the screen; Home and End: a row's ends (with Ctrl: the grid's)
function moveInGrid(key, ctrl) {
  const rows = gridRows();
  if (!rows.length) return;
  let r = rows.findIndex((row) => row.cells.some((c) => c.dataset.cell === String(cursor)));
  if (r < 0) { rove(true); return; }
  const row = rows[r].cells, c = row.findIndex((e) => e.dataset.cell === String(cursor));
  if (key === "ArrowLeft") focusCell(row[Math.max(0, c - 1)]);
  else if (key === "ArrowRight") focusCell(row[Math.min(row.length - 1, c + 1)]);
  else if (key === "Home") focusCell(ctrl ? rows[0].cells[0] : row[0]);
  else if (key === "End") focusCell(ctrl ? rows[rows.length - 1].cells.at(-1) : row[row.length - 1]);
  else {
    r += key === "ArrowUp" ? -1 : 1;
    if (r < 0 || r >= rows.length) return;
    const a = row[c].getBoundingClientRect(), x = a.left + a.width / 2;
    const centre = (e) => { const b = e.getBoundingClientRect(); return b.left + b.width / 2; };
    focusCell(rows[r].cells.reduce((p, q) => (Math.abs(centre(q) - x) < Math.abs(centre(p) - x) ? q : p)));
  }
}

// The game's keys reach it while the focus is on the table (or on nothing: the page); a
// focused control (a button, a box, a field, a dialog) keeps its own keys.
function onKey(event) {
  if (event.ctrlKey && (event.key === "Home" || event.key === "End")) {
    if (!$("board").contains(document.activeElement)) return;
  } else if (event.ctrlKey || event.metaKey || event.altKey) return;
  const focused = document.activeElement;
  const inTable = $("board").contains(focused);
  if (!inTable && focused && focused !== document.body) return;
  if ($("scores-panel").open || $("howto-panel").open || $("end-panel").open) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (state && state.paused && key !== "p") return;
  const keyboard = () => document.body.classList.add("keyboard");
  switch (key) {
    case "ArrowLeft": case "ArrowRight": case "ArrowUp": case "ArrowDown": case "Home": case "End":
      keyboard();
      if (inTable) moveInGrid(key, event.ctrlKey); else rove(true);   // into the table
      break;
    case "Enter": case " ":
      keyboard();
      if (!inTable) rove(true);
      else if (cursor !== null && cursor !== "foundation") tap(targetOf(cursor));
      break;
    case "z": send({op: "undo"}); break;
    case "r": send({op: "redo"}); break;
    case "d": if (!$("draw").disabled) tap("stock"); break;   // (off once the game is over)
    case "h": if (!$("hint").disabled) send({op: "hint"}); break;
    case "w": if (!$("chance").disabled) send({op: "chance"}); break;
    case "f": if (!$("finish").hidden) send({op: "finish"}); break;
    case "p": if (!$("pause").disabled) togglePause(); break;
    case "n": if (mayLeave("leave_for_new")) newDeal(); break;
    case "?": askHowto(); break;
    default: return;
  }
  event.preventDefault();
}

// ---- taps and drags (pointer events: mouse, pen and touch alike) ---------------------
function onClick(event) {
  const e = event.target.closest(".card[data-target]");
  if (!e || suppressClick) return;
  document.body.classList.remove("keyboard");
  if (e.dataset.cell !== undefined) cursor = e.dataset.cell;   // the tab stop follows
  tap(targetOf(e.dataset.target));
}
function onPointerDown(event) {
  if (event.button !== 0) return;
  const e = event.target.closest(".card[data-target]");
  if (!e || !e.dataset.card) return;
  drag = {el: e, target: e.dataset.target, x: event.clientX, y: event.clientY,
          pointer: event.pointerId, moving: false, ghost: null, over: null};
}
// the cards a card pairs with now, read from the state's legal moves ("Tc+3s")
function partnersOf(token) {
  const out = new Set();
  for (const move of (state && state.legal_moves) || []) {
    const cards = move.split("+");
    if (cards.length === 2 && cards.includes(token)) out.add(cards[0] === token ? cards[1] : cards[0]);
  }
  return out;
}
function dropTarget(event) {
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const e = under && under.closest(".card[data-target]");
  return e && e !== drag.el && e.dataset.card ? e : null;
}
function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.pointer) return;
  if (!drag.moving) {
    if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 6) return;
    drag.moving = true;
    drag.ghost = drag.el.cloneNode(true);
    drag.ghost.classList.remove("selected", "cursor", "hinted");
    drag.ghost.classList.add("ghost");
    document.body.append(drag.ghost);
    drag.el.classList.add("dragging");
    // only the cards it can go with light up: the partners in the session's legal moves
    const partners = partnersOf(drag.el.dataset.card);
    document.body.classList.add("dragging-card");
    for (const c of document.querySelectorAll("#board .card[data-card]"))
      if (partners.has(c.dataset.card)) c.classList.add("partner");
  }
  drag.ghost.style.left = `${event.clientX}px`;
  drag.ghost.style.top = `${event.clientY}px`;
  const over = dropTarget(event);
  if (over !== drag.over) {
    if (drag.over) drag.over.classList.remove("drop");
    if (over) over.classList.add("drop");
    drag.over = over;
  }
  event.preventDefault();
}
function endDrag(event, dropped) {
  if (!drag || event.pointerId !== drag.pointer) return;
  const d = drag;
  const over = dropped && d.moving ? dropTarget(event) : null;
  drag = null;
  if (!d.moving) return;                         // a click: onClick taps
  d.ghost.remove();
  d.el.classList.remove("dragging");
  document.body.classList.remove("dragging-card");
  for (const c of document.querySelectorAll(".card.partner")) c.classList.remove("partner");
  if (d.over) d.over.classList.remove("drop");
  suppressClick = true;
  setTimeout(() => { suppressClick = false; }, 0);
  if (over) send({op: "drag", from: targetOf(d.target), to: targetOf(over.dataset.target)});
}

// ---- start ---------------------------------------------------------------------------
function start() {
  const dark = window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  setTheme(store.get("theme") || (dark ? "dark" : "light"), false);
  setLang(lang || "en", false);
  if (!store.get("lang")) lang = null;           // until the server says its default
  $("winnable").checked = store.get("winnable") !== "0";   // winnable deals unless turned off
  showText(L().connecting);

  const board = $("board");
  board.addEventListener("click", onClick);
  board.addEventListener("pointerdown", onPointerDown);
  window.addEventListener("pointermove", onPointerMove, {passive: false});
  window.addEventListener("pointerup", (e) => endDrag(e, true));
  window.addEventListener("pointercancel", (e) => endDrag(e, false));
  board.addEventListener("dragstart", (e) => e.preventDefault());
  document.addEventListener("keydown", onKey);

  const button = (id, fn) => $(id).addEventListener("click", (e) => { e.currentTarget.blur(); fn(); });
  button("undo", () => send({op: "undo"}));
  button("redo", () => send({op: "redo"}));
  button("hint", () => send({op: "hint"}));
  button("chance", () => send({op: "chance"}));
  button("draw", () => tap("stock"));
  button("finish", () => send({op: "finish"}));
  button("pause", togglePause);
  button("resume", togglePause);
  button("restart", () => { if (mayLeave("leave_for_restart")) send({op: "restart"}); });
  button("new", () => { if (mayLeave("leave_for_new")) newDeal(); });
  button("scores", () => send({op: "stats", profile: $("profile").value || defaults.profile}));
  button("close-scores", () => $("scores-panel").close());
  button("reset-stats", resetStats);
  button("daily", () => { if (mayLeave("leave_for_new")) dailyDeal(); });
  $("level").value = store.get("level") || "";
  $("level").addEventListener("change", (e) => {
    giveBack(e);
    store.set("level", e.target.value);
    syncLevels();
  });
  button("howto", askHowto);
  button("end-new", () => endChoice("new"));
  button("end-replay", () => endChoice("replay"));
  button("end-undo", () => endChoice("undo"));
  button("end-close", () => $("end-panel").close());
  button("welcome-howto", askHowto);
  button("welcome-close", () => { store.set("seen_howto", "1"); $("welcome").hidden = true; });
  button("close-howto", () => $("howto-panel").close());
  button("copy-link", () => share(true));
  button("copy-code", () => share(false));
  $("sounds").checked = store.get("sounds") === "1";   // off unless turned on
  $("sounds").addEventListener("change", (e) => {
    giveBack(e);
    store.set("sounds", e.target.checked ? "1" : "0");
  });
  button("theme", () => setTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark", true));
  $("paste").addEventListener("submit", (e) => {
    e.preventDefault();
    // the game's keys are the game's again: Enter pressed after this never plays it twice
    document.activeElement.blur();
    playAsked($("code-input").value);
  });
  // a box or a list changed with the mouse gives the keys back to the game; one changed
  // from the keyboard keeps the focus where the player is
  let byPointer = false;
  addEventListener("pointerdown", () => { byPointer = true; }, true);
  addEventListener("keydown", () => { byPointer = false; }, true);
  const giveBack = (e) => { if (byPointer) e.target.blur(); };
  $("lang").addEventListener("change", (e) => {
    giveBack(e);
    setLang(e.target.value, true);
    if (state) send({op: "lang", lang: e.target.value});   // the session's messages too
  });
  $("profile").addEventListener("change", (e) => {
    giveBack(e);
    store.set("profile", e.target.value);
    syncLevels();
    if (state && state.moves === 0) newDeal();
    else { nextProfile = e.target.value; showText(L().next_profile); }
  });
  $("fair-hints").addEventListener("change", (e) => {
    giveBack(e);
    store.set("fair_hints", e.target.checked ? "1" : "0");
    if (state) send({op: "fair_hints", on: e.target.checked});
  });
  $("winnable").addEventListener("change", (e) => {
    giveBack(e);
    store.set("winnable", e.target.checked ? "1" : "0");
  });
  // the table's tab stop follows the focus (a click, a tap, Tab)
  board.addEventListener("focusin", (e) => {
    const c = e.target.closest("[data-cell]");
    if (c && c.dataset.cell !== String(cursor)) { cursor = c.dataset.cell; rove(false); }
  });
  // a hidden tab pauses the game (its clock stops) and says so when it is seen again
  // (the page going away, a reload, pauses it too: the next page resumes it without a word)
  let leaving = false;
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") {
      if (state && state.status === "playing" && !state.paused && send({op: "pause"})) {
        hiddenPause = true;
        store.set("hidden_pause", leaving ? "left" : "1");   // a reload or a new tab resumes it
      }
    } else if (hiddenPause) {
      resumeHidden(false);
    }
  });
  addEventListener("pagehide", () => {
    leaving = true;
    if (store.get("hidden_pause")) store.set("hidden_pause", "left");
    else if (state && state.status === "playing" && !state.paused && send({op: "pause"}))
      store.set("hidden_pause", "left");
  });
  setInterval(tick, 250);
  connect();
}

start();
