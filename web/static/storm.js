// Puzzle Storm, Streak and Racer on the page. The server holds the run
// and its rules (the same as the chat's move menu): this script shows
// what it sends and posts the square clicked, with the puzzle and step
// the page showed, so an answer from a page that fell behind is refused.
// The clock counts down from the time left the server sent, measured
// from its arrival, never against this device's clock. In the Activity,
// where a framed page's cookies are a third party's, the session goes as
// a Bearer token. Every address is relative: the pages work at the root
// and under the Activity's /.proxy/ alike.
"use strict";

const body = document.body.dataset;
const words = JSON.parse(document.getElementById("words").textContent);
const lang = "lang=" + encodeURIComponent(body.lang || "");
const note = document.getElementById("note");
const here = location.pathname.split("/").pop();

function headers(json) {
  const h = {};
  if (json) h["Content-Type"] = "application/json";
  if (body.activity) {
    const s = sessionStorage.getItem("othello-session");
    if (s) h.Authorization = "Bearer " + s;
  }
  return h;
}

// call fetches a JSON answer (GET, or POST with payload); a refusal is
// an answer too, with its words.
async function call(url, payload) {
  const init = payload === undefined ? {headers: headers(false), credentials: "same-origin"}
    : {method: "POST", headers: headers(true), credentials: "same-origin", body: JSON.stringify(payload)};
  try {
    const r = await fetch(url, init);
    return await r.json();
  } catch (e) {
    return {refused: note.dataset.offline || "…"};
  }
}

function say(text) {
  note.textContent = text || "";
  body.refused = text || "";
}

// start deals a new run and opens its page; prefix is where runs are,
// relative to this page.
async function start(mode, prefix) {
  const out = await call(prefix + "start?" + lang, {mode});
  if (out.id && !out.refused) {
    location.href = prefix + out.id + "?" + lang;
    return;
  }
  say(out.refused || out.note);
}

// clock shows a time left: minutes and seconds, tenths under ten seconds.
function clockText(ms) {
  ms = Math.max(0, ms);
  if (ms < 10000) return (ms / 1000).toFixed(1);
  const s = Math.ceil(ms / 1000);
  return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
}

let run = null, received = 0, asking = false;

function board(v) {
  const el = document.getElementById("sboard");
  if (el.childElementCount !== v.size * v.size) {
    el.textContent = "";
    el.style.gridTemplateColumns = "repeat(" + v.size + ", 1fr)";
    for (let i = 0; i < v.size * v.size; i++) {
      const b = document.createElement("button");
      const name = String.fromCharCode(97 + (i % v.size)) + (Math.floor(i / v.size) + 1);
      b.dataset.square = name;
      b.dataset.index = i;
      b.appendChild(document.createElement("span"));
      b.onclick = () => answer(name, i);
      el.appendChild(b);
    }
  }
  const legal = new Set(v.legal);
  el.querySelectorAll("button").forEach(b => {
    const i = Number(b.dataset.index), c = v.cells[i];
    b.firstChild.className = c === "-" ? "" : "disc " + c;
    b.classList.toggle("legal", legal.has(i) && !v.over);
    b.classList.toggle("last", i === v.last);
    const label = c === "X" ? words.black : c === "O" ? words.white : words.empty;
    b.setAttribute("aria-label", label.replace("{square}", b.dataset.square));
    b.disabled = !legal.has(i) || v.over;
  });
}

function list(id, lines) {
  const ul = document.getElementById(id);
  ul.textContent = "";
  (lines || []).forEach(l => {
    const li = document.createElement("li");
    li.textContent = l;
    ul.appendChild(li);
  });
}

function show(v) {
  if (!v || !v.id) {
    say(v && (v.refused || v.note));
    return;
  }
  run = v;
  received = performance.now();
  document.getElementById("title").textContent = v.title;
  document.title = v.title;
  list("notes", v.notes);
  body.score = v.score;
  body.index = v.index;
  body.step = v.step;
  body.over = v.over ? "1" : "";
  document.getElementById("run").hidden = v.over;
  document.getElementById("result").hidden = !v.over;
  if (v.over) {
    list("result-lines", v.result);
    document.getElementById("again").hidden = !v.again;
    const race = document.getElementById("race-link");
    race.hidden = !v.race;
    if (v.race) race.href = v.race;
  } else {
    document.getElementById("score").textContent = v.score;
    document.getElementById("misses").textContent = v.misses;
    document.getElementById("combo").textContent = v.comboLine;
    document.getElementById("stakes").textContent = v.stakes;
    document.getElementById("footer").textContent = v.footer;
    board(v);
  }
  tick();
  body.ready = "1";
}

async function answer(square) {
  if (!run || run.over || asking) return;
  asking = true;
  const out = await call(here + "/answer?" + lang, {index: run.index, step: run.step, square});
  asking = false;
  say(out.refused || out.note);
  if (out.id) show(out);
}

async function refresh() {
  const out = await call(here + "/state?" + lang);
  if (out.id) show(out);
  else say(out.refused || out.note);
}

function tick() {
  const el = document.getElementById("clock");
  if (!run || run.leftMs < 0) {
    el.hidden = true;
    return;
  }
  const left = run.leftMs - (performance.now() - received);
  el.hidden = run.over;
  el.textContent = "⏱ " + clockText(left);
  el.classList.toggle("low", left < 10000);
  if (left <= 0 && !run.over && !asking) {
    run.leftMs = -1; // asked once: the server says how it ended
    refresh();
  }
}

// race polls a race's track once a second while it runs.
async function race() {
  let out;
  try {
    out = await (await fetch(here + "/state?" + lang)).json();
  } catch (e) {
    setTimeout(race, 2000);
    return;
  }
  document.getElementById("head").textContent = out.head;
  body.status = out.status;
  const ol = document.getElementById("track");
  ol.textContent = "";
  const lead = Math.max(1, ...out.lines.map(l => l.score));
  out.lines.forEach(l => {
    const li = document.createElement("li");
    const text = document.createElement("span");
    text.textContent = l.text;
    const bar = document.createElement("span");
    bar.className = "lane";
    const car = document.createElement("span");
    car.style.width = (100 * l.score / lead) + "%";
    bar.appendChild(car);
    li.append(bar, text);
    li.dataset.score = l.score;
    ol.appendChild(li);
  });
  body.racers = out.lines.length;
  body.ready = "1";
  if (out.status === "lobby" || out.status === "racing") setTimeout(race, 1000);
}

switch (body.kind) {
case "start":
  document.querySelectorAll("[data-mode]").forEach(b => { b.onclick = () => start(b.dataset.mode, "storm/"); });
  break;
case "run":
  document.getElementById("again").onclick = () => start(run.again, "");
  setInterval(tick, 100);
  refresh();
  break;
case "race":
  race();
  break;
}
