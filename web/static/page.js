"use strict";
// The game and the words come in data blocks: the policy runs no inline script.
let game = JSON.parse(document.getElementById("game").textContent);
const events = document.body.dataset.events;
const playButton = document.getElementById("play");
const cell = 40, band = 24, NS = "http://www.w3.org/2000/svg";
const svg = document.getElementById("board");
let discs = [], dots = [], ply = 0, timer = null;

function el(name, attrs, parent) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  parent.appendChild(e);
  return e;
}

// A player's page: the side they play ("X", "O"; "" to watch), where
// their actions go, the squares' labels, and a move made or queued.
let me = document.body.dataset.me;
const act = document.body.dataset.act;
const words = JSON.parse(document.getElementById("words").textContent);
const squares = document.getElementById("squares"), note = document.getElementById("note");
let buttons = [], pending = -1, premove = -1, resignArmed = null;

function squareName(i) {
  return String.fromCharCode(97 + i % game.size) + (Math.floor(i / game.size) + 1);
}

function build() {
  const n = game.size, side = band + n * cell + 8;
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.textContent = "";
  discs = []; dots = [];
  // Every square is a button over the drawing, named by data-square.
  const pct = v => (100 * v / side) + "%";
  Object.assign(squares.style, {left: pct(band), top: pct(band), width: pct(n * cell), height: pct(n * cell),
    gridTemplateColumns: `repeat(${n}, 1fr)`});
  squares.textContent = "";
  buttons = [];
  for (let i = 0; i < n * n; i++) {
    const b = document.createElement("button");
    b.dataset.square = squareName(i);
    b.onclick = () => clicked(i);
    squares.appendChild(b);
    buttons.push(b);
  }
  for (let i = 0; i < n; i++) {
    el("text", {x: band + i * cell + cell / 2, y: band / 2, class: "label"}, svg).textContent = String.fromCharCode(97 + i);
    el("text", {x: band / 2, y: band + i * cell + cell / 2, class: "label"}, svg).textContent = i + 1;
  }
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) {
    const x = band + c * cell, y = band + r * cell;
    el("rect", {x, y, width: cell, height: cell, class: "felt"}, svg);
    discs.push(el("circle", {cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.42, class: "disc none"}, svg));
    dots.push(el("circle", {cx: x + cell / 2, cy: y + cell / 2, r: cell * 0.09, class: "last", display: "none"}, svg));
  }
}

// cellsAt is the board after k plies.
function cellsAt(k) {
  const b = game.start.split("");
  for (let i = 0; i < k; i++) {
    const p = game.plies[i];
    if (p.index < 0) continue;
    b[p.index] = p.color;
    for (const f of p.flips) b[f] = p.color;
  }
  return b;
}

function lastIndex(k) {
  for (let i = k - 1; i >= 0; i--) if (game.plies[i].index >= 0) return game.plies[i].index;
  return -1;
}

// show draws the board after k plies; one step forward animates the move.
function show(k) {
  k = Math.max(0, Math.min(k, game.plies.length));
  const step = k === ply + 1 ? game.plies[k - 1] : null;
  const b = cellsAt(k), last = lastIndex(k);
  b.forEach((v, i) => {
    const d = discs[i];
    d.setAttribute("class", "disc " + (v === "-" ? "none" : v));
    dots[i].setAttribute("display", i === last ? "inline" : "none");
  });
  if (step && step.index >= 0) {
    void svg.getBoundingClientRect(); // restart the animations
    discs[step.index].classList.add("land");
    for (const f of step.flips) discs[f].classList.add("turn" + step.color);
  }
  ply = k;
  mark(b);
  const total = game.plies.length;
  document.getElementById("counter").textContent = game.captions[k];
  document.body.dataset.ply = k;
  document.body.dataset.total = total;
  document.getElementById("first").disabled = document.getElementById("prev").disabled = k === 0;
  document.getElementById("next").disabled = document.getElementById("last").disabled = k === total;
}

// mine says whether the reader may move now: their turn, at the latest
// position, nothing on its way.
function mine() {
  return me !== "" && game.status === "active" && game.toMove === me && ply === game.plies.length && pending < 0;
}

// mark labels the squares and marks the legal moves (when the reader is
// to move), the move on its way and the premove.
function mark(b) {
  const legal = mine() ? new Set(game.legal) : new Set();
  buttons.forEach((btn, i) => {
    const label = b[i] === "X" ? words.black : b[i] === "O" ? words.white : words.empty;
    btn.setAttribute("aria-label", label.replace("{square}", squareName(i)));
    btn.classList.toggle("legal", legal.has(i));
    btn.classList.toggle("premove", i === premove);
    btn.classList.toggle("pending", i === pending);
  });
  if (pending >= 0) discs[pending].setAttribute("class", "disc pending " + me);
}

function say(text) { note.textContent = text || ""; }

// send asks the server to act for the reader; the board changes when the
// game does (the event stream), a refusal is said in the note.
async function send(kind, square) {
  try {
    const headers = {"Content-Type": "application/json"};
    // In the Discord Activity the session is a token the Activity keeps
    // (a framed page's cookies belong to a third party there).
    const session = sessionStorage.getItem("othello-session");
    if (session) headers.Authorization = "Bearer " + session;
    const r = await fetch(act, {method: "POST", credentials: "same-origin", headers,
      body: JSON.stringify({kind, square: square || "", ply: game.plies.length})});
    const out = await r.json();
    if (out.next) { location.href = out.next + location.search; return; } // a sibling page: g/NEXT
    say(out.note);
    if (!out.changed) { pending = -1; show(ply); }
  } catch (e) {
    pending = -1; show(ply);
  }
}

function clicked(i) {
  if (me === "" || game.status !== "active") return;
  if (mine() && game.legal.includes(i)) {
    pending = i; premove = -1; say("");
    show(ply);
    send("move", squareName(i));
    return;
  }
  // Not the reader's turn: an empty square is a premove (again: none).
  if (game.toMove !== me && cellsAt(game.plies.length)[i] === "-") {
    premove = premove === i ? -1 : i;
    say(premove >= 0 ? words.premove.replace("{square}", squareName(premove)) : "");
    show(ply);
  }
}

// playPremove plays a premove the moment the reader is to move, if it is
// legal there; otherwise it is dropped.
function playPremove() {
  if (premove < 0 || game.status === "active" && game.toMove !== me) return; // still the opponent's turn
  const i = premove;
  premove = -1; say("");
  if (mine() && game.legal.includes(i)) clicked(i);
  else show(ply); // dropped (not legal now, or the game ended): unmark it
}

function header() {
  document.getElementById("actions").hidden = me === "" || game.status !== "active";
  // Abort only while it is allowed; "click a marked square" only while
  // there is a move to make.
  document.getElementById("abort").hidden = !game.abortable;
  document.getElementById("you").hidden = me === "" || game.status !== "active";
  document.getElementById("after").hidden = me === "" || game.status === "active";
  document.getElementById("status").textContent = game.summary;
  document.getElementById("transcript").textContent = game.transcriptLine;
  document.getElementById("opening").textContent = game.opening;
  document.body.classList.toggle("live", game.status === "active");
  tick();
}

// The clocks as the game message writes them (timecontrol.Format): m:ss,
// h:mm:ss from an hour, tenths under ten seconds; the running side's counts
// down to its flag's time, the other stands.
function clockText(ms) {
  ms = Math.max(0, ms);
  const s = Math.floor(ms / 1000);
  if (ms < 10000) return `0:${String(s).padStart(2, "0")}.${Math.floor(ms % 1000 / 100)}`;
  const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

function tick() {
  const c = game.clock, box = document.getElementById("clocks");
  box.hidden = !c;
  if (!c) return;
  for (const side of ["X", "O"]) {
    const ms = c.running === side ? c.flagAt - Date.now() : (side === "X" ? c.black : c.white);
    const e = document.getElementById("clock-" + side);
    // The marker is a span of its own, coloured by the stylesheet: as
    // plain text it would take the page's light text colour.
    const mark = document.createElement("span");
    mark.className = "mark " + side;
    mark.textContent = side === "X" ? "⚫" : "⚪";
    e.replaceChildren(mark, " " + clockText(ms));
    e.classList.toggle("running", c.running === side);
  }
}
setInterval(tick, 100); // tenths under ten seconds

function stopPlaying() {
  if (timer) { clearInterval(timer); timer = null; }
  playButton.textContent = playButton.dataset.play;
}

document.getElementById("first").onclick = () => { stopPlaying(); show(0); };
document.getElementById("prev").onclick = () => { stopPlaying(); show(ply - 1); };
document.getElementById("next").onclick = () => { stopPlaying(); show(ply + 1); };
document.getElementById("last").onclick = () => { stopPlaying(); show(game.plies.length); };
playButton.onclick = () => {
  if (timer) { stopPlaying(); return; }
  if (ply === game.plies.length) show(0);
  playButton.textContent = playButton.dataset.pause;
  timer = setInterval(() => { if (ply >= game.plies.length) stopPlaying(); else show(ply + 1); }, 700);
};

const resignButton = document.getElementById("resign");
resignButton.onclick = () => {
  // Two clicks: the first asks, the second (within three seconds) resigns.
  if (resignArmed) { clearTimeout(resignArmed); resignArmed = null; resignButton.textContent = resignButton.dataset.label; send("resign"); return; }
  resignButton.textContent = resignButton.dataset.confirm;
  resignArmed = setTimeout(() => { resignArmed = null; resignButton.textContent = resignButton.dataset.label; }, 3000);
};
document.getElementById("abort").onclick = () => send("abort");
document.getElementById("rematch").onclick = () => send("rematch");

build();
header();
show(game.plies.length);

// In the Discord Activity the way back to its lobby carries the query
// Discord launched it with (the lobby's SDK needs it to talk to Discord's
// client again).
const launched = sessionStorage.getItem("othello-launch");
if (document.body.dataset.activity && launched) {
  const back = document.getElementById("lobby");
  back.href = "../" + launched;
  back.hidden = false;
}

// In the Discord Activity the page learns who reads it from the session
// the Activity keeps, then shows the player's controls.
if (document.body.dataset.activity && sessionStorage.getItem("othello-session")) {
  fetch(game.publicId + "/me", {headers: {Authorization: "Bearer " + sessionStorage.getItem("othello-session")}})
    .then(r => r.ok ? r.json() : {me: ""})
    .then(who => {
      if (!who.me) return;
      me = document.body.dataset.me = who.me;
      const you = document.getElementById("you");
      you.textContent = me === "X" ? words.youX : words.youO;
      you.hidden = false;
      header();
      show(ply);
    });
}

// A running game follows every move; the page at the latest position
// animates the new one, a page looking back stays where it is.
if (game.status === "active") {
  const source = new EventSource(events);
  source.addEventListener("game", e => {
    const atEnd = ply === game.plies.length;
    const next = JSON.parse(e.data);
    if (next.version <= game.version && next.plies.length === game.plies.length && next.status === game.status) return;
    game = next;
    pending = -1;
    header();
    if (atEnd && !timer) show(game.plies.length); else show(ply);
    playPremove();
    if (game.status !== "active") source.close();
  });
}
