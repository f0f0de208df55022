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
  currentMove(k);
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

const baseTitle = document.title;
// The players' ratings come with the page's first copy of the game only
// (the moves do not change them).
const ratings = game.ratings || ["", ""];
// Their avatars likewise; the Activity's frame may load nothing from
// outside it, so there the boxes go without.
const avatars = document.body.dataset.activity ? ["", ""] : game.avatars || ["", ""];

function header() {
  // The tab says when it is the reader's move, seen from another tab.
  const turn = me !== "" && game.status === "active" && game.toMove === me;
  document.title = turn ? `${words.yourTurn} · ${baseTitle}` : baseTitle;
  document.body.classList.toggle("myturn", turn);
  boxes();
  // For the Activity's script: the game as it now stands.
  window.othelloGame = game;
  document.dispatchEvent(new CustomEvent("othello-game", {detail: game}));
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

// boxes fills the players' boxes and puts the reader's own below the
// board (a spectator sees black above, as the title names them).
function boxes() {
  const col = document.getElementById("boardcol"), board = document.getElementById("boardbox");
  const top = document.getElementById(me === "X" ? "box-O" : "box-X");
  const bottom = document.getElementById(me === "X" ? "box-X" : "box-O");
  col.insertBefore(top, board);
  col.insertBefore(bottom, board.nextSibling);
  ["X", "O"].forEach((side, i) => {
    const box = document.getElementById("box-" + side);
    box.querySelector(".name").textContent = side === "X" ? game.black : game.white;
    const r = box.querySelector(".rating");
    r.textContent = ratings[i];
    r.hidden = !ratings[i];
    r.classList.toggle("provisional", ratings[i].endsWith("?"));
    const pic = box.querySelector(".avatar");
    if (avatars[i] && pic.getAttribute("src") !== avatars[i]) pic.src = avatars[i];
    pic.hidden = !avatars[i];
    box.classList.toggle("tomove", game.status === "active" && game.toMove === side);
  });
}

// The running clock counts down from the page's own receipt of the
// server's state (flagAt less sentAt, both the server's clock), against
// performance.now(), which no device clock setting moves: a phone whose
// clock is off shows the same time as the server.
let flagLocal = 0, flagKey = "";
function received(data, at) {
  const c = data.clock;
  if (!c || !c.running) { flagKey = ""; return; }
  const local = at + (c.flagAt - (data.sentAt || Date.now()));
  const key = data.version + c.running;
  // Every copy took some time to arrive, so none puts the flag earlier
  // than it is: of two copies of the same turn, the earlier flag is truer.
  flagLocal = key === flagKey ? Math.min(flagLocal, local) : local;
  flagKey = key;
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

let lastTick = -1;
function tick() {
  const c = game.clock;
  for (const side of ["X", "O"]) {
    const e = document.getElementById("clock-" + side);
    e.hidden = !c;
    if (!c) continue;
    const running = c.running === side && flagKey !== "";
    const ms = Math.max(0, running ? flagLocal - performance.now() : (side === "X" ? c.black : c.white));
    e.textContent = clockText(ms);
    e.dataset.ms = Math.round(ms);
    e.classList.toggle("running", running);
    e.classList.toggle("low", ms < 10000);
    // Under ten seconds the reader's own running clock ticks each second.
    if (running && side === me && ms < 10000 && ms > 0) {
      const s = Math.ceil(ms / 1000);
      if (s !== lastTick) { lastTick = s; sound("tick"); }
    }
  }
}
setInterval(tick, 100); // tenths under ten seconds

// Sounds are made here (no files to fetch): a disc set down, the discs
// it turns, and the tick of the reader's last ten seconds. Off by the
// switch, remembered on this device.
const soundButton = document.getElementById("sound");
let soundOn = true, audio = null;
try { soundOn = localStorage.getItem("othello-sound") !== "off"; } catch (e) { /* storage refused: on */ }
function soundSwitch() {
  soundButton.setAttribute("aria-pressed", String(soundOn));
  soundButton.title = soundOn ? soundButton.dataset.on : soundButton.dataset.off;
  soundButton.classList.toggle("off", !soundOn);
}
soundButton.onclick = () => {
  soundOn = !soundOn;
  try { localStorage.setItem("othello-sound", soundOn ? "on" : "off"); } catch (e) { /* kept for this page only */ }
  soundSwitch();
};
soundSwitch();

function sound(kind, count) {
  if (!soundOn) return;
  // What sounded, for whoever checks the page (its tests among them).
  document.body.dataset.sounds = (document.body.dataset.sounds || "") + kind + " ";
  try {
    audio = audio || new AudioContext();
    if (audio.state === "suspended") audio.resume();
    const tone = (freq, type, start, length, volume) => {
      const o = audio.createOscillator(), g = audio.createGain(), t = audio.currentTime + start;
      o.type = type; o.frequency.value = freq;
      g.gain.setValueAtTime(volume, t);
      g.gain.exponentialRampToValueAtTime(0.001, t + length);
      o.connect(g).connect(audio.destination);
      o.start(t); o.stop(t + length);
    };
    if (kind === "move") tone(170, "triangle", 0, 0.09, 0.4);
    if (kind === "capture") for (let i = 0; i < Math.min(count, 6); i++) tone(900 + 60 * i, "square", 0.06 + 0.035 * i, 0.025, 0.05);
    if (kind === "tick") tone(1250, "sine", 0, 0.04, 0.15);
  } catch (e) { /* no audio here: the board is enough */ }
}

// The board's colours: the reader's choice, remembered on the device —
// per Discord user in the Activity (people may share a device), per
// browser on the web.
const themes = ["green", "blue", "wood", "grey"], themeSelect = document.getElementById("theme");
function themeKey() {
  let user = "";
  try { user = sessionStorage.getItem("othello-user") || ""; } catch (e) { /* none */ }
  return "othello-theme" + (user ? ":" + user : "");
}
function useTheme(name) {
  if (!themes.includes(name)) name = "green";
  themes.forEach(t => document.body.classList.toggle("theme-" + t, t === name));
  themeSelect.value = name;
}
themeSelect.onchange = () => {
  useTheme(themeSelect.value);
  try { localStorage.setItem(themeKey(), themeSelect.value); } catch (e) { /* for this page only */ }
};
try { useTheme(localStorage.getItem(themeKey()) || "green"); } catch (e) { useTheme("green"); }

// The move list: moves numbered as players count them (passes are
// passes, not moves), each a button that steps the board there.
const moveList = document.getElementById("moves");
let listed = -1;
function listMoves() {
  if (listed === game.plies.length) return;
  listed = game.plies.length;
  moveList.textContent = "";
  let n = 0;
  if (game.plies.length && game.plies[0].color === "O") moveList.appendChild(document.createElement("li")); // black's column
  game.plies.forEach((p, i) => {
    const li = document.createElement("li"), b = document.createElement("button");
    b.dataset.ply = i + 1;
    b.className = "mv " + p.color;
    if (p.index < 0) {
      b.textContent = words.pass;
      b.classList.add("pass");
    } else {
      n++;
      b.textContent = `${n}. ${p.move}`;
    }
    b.onclick = () => { stopPlaying(); show(i + 1); };
    li.appendChild(b);
    moveList.appendChild(li);
  });
}

// currentMove marks the move shown and keeps it in the list's view
// (scrolling the list, never the page).
function currentMove(k) {
  listMoves();
  let cur = null;
  for (const b of moveList.querySelectorAll("button")) {
    const on = Number(b.dataset.ply) === k;
    b.classList.toggle("current", on);
    if (on) { b.setAttribute("aria-current", "step"); cur = b; } else b.removeAttribute("aria-current");
  }
  if (cur && (cur.offsetTop < moveList.scrollTop || cur.offsetTop + cur.offsetHeight > moveList.scrollTop + moveList.clientHeight)) {
    moveList.scrollTop = cur.offsetTop - moveList.clientHeight / 2;
  }
}

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

// The page's first copy arrived with the page's first byte.
const nav = performance.getEntriesByType("navigation")[0];
received(game, nav && nav.responseStart > 0 ? nav.responseStart : performance.now());
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
      lastTick = -1;
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
    const at = performance.now();
    const atEnd = ply === game.plies.length;
    const next = JSON.parse(e.data);
    received(next, at);
    if (next.version <= game.version && next.plies.length === game.plies.length && next.status === game.status) return;
    const was = game.plies.length;
    game = next;
    if (game.plies.length === was + 1) {
      const p = game.plies[was];
      if (p.index >= 0) { sound("move"); if (p.flips.length) sound("capture", p.flips.length); }
    }
    pending = -1;
    header();
    if (atEnd && !timer) show(game.plies.length); else show(ply);
    playPremove();
    if (game.status !== "active") source.close();
  });
}
