// The Discord Activity's lobby. Discord's client frames this page; the
// Embedded App SDK talks to it by postMessage. authorize gives a code,
// our server exchanges it for the player's token and a session of its own
// (POST token), authenticate hands the token to Discord's client, and the
// session goes with every request the pages make (a framed page's cookies
// belong to a third party). Then the lobby: the player's games, challenges
// for them here, the others in this Activity to challenge, a game against
// the bot, and the server's live games to watch. Every address is
// relative: the Activity works at its mapping's root and under /.proxy/.
import {DiscordSDK} from "@discord/embedded-app-sdk";

const body = document.body.dataset;
const words = JSON.parse(document.getElementById("words").textContent);
const state = document.getElementById("state");
const lang = "lang=" + encodeURIComponent(body.lang);
let sdk, session, me;

function item(ul, text, button, onclick, data) {
  const li = document.createElement("li");
  if (onclick) {
    li.append(text + " ");
    const b = document.createElement("button");
    b.textContent = button;
    b.onclick = onclick;
    Object.assign(b.dataset, data);
    li.appendChild(b);
  } else {
    const a = document.createElement("a");
    a.href = "g/" + data.game + "?" + lang;
    a.textContent = text;
    Object.assign(a.dataset, data);
    li.appendChild(a);
  }
  ul.appendChild(li);
}

function fill(id, entries, add) {
  const ul = document.getElementById(id);
  ul.textContent = "";
  if (entries.length === 0) {
    const li = document.createElement("li");
    li.textContent = words.none;
    ul.appendChild(li);
  }
  entries.forEach(e => add(ul, e));
}

function where() {
  return {guild_id: sdk.guildId || "", channel_id: sdk.channelId || ""};
}

// launch asks our server to start something; a game that starts opens.
async function launch(what) {
  const r = await fetch("launch?" + lang, {method: "POST",
    headers: {"Content-Type": "application/json", Authorization: "Bearer " + session},
    body: JSON.stringify({...where(), ...what})});
  const out = await r.json();
  if (out.next) {
    location.href = "g/" + out.next + "?" + lang;
    return;
  }
  state.textContent = out.note || "";
  await lobby();
}

// lobby lists what the player may do here. Asked first, right after
// signing in, the server may say which game's board to open instead: the
// one they pressed "Watch in Discord" on, which launched the Activity.
async function lobby(first) {
  const q = new URLSearchParams(where());
  if (first) q.set("first", "1");
  const games = await (await fetch("games?" + q + "&" + lang, {headers: {Authorization: "Bearer " + session}})).json();
  if (games.open) {
    location.href = "g/" + games.open + "?" + lang;
    return;
  }
  fill("mine", games.mine, (ul, g) => item(ul, g.title, "", null, {game: g.id}));
  fill("watch", games.live, (ul, g) => item(ul, g.title, "", null, {game: g.id}));
  fill("challenges", games.challenges, (ul, c) =>
    item(ul, c.title, words.accept, () => launch({kind: "accept", challenge: c.id}), {challenge: c.id}));
  let people = [];
  try {
    people = (await sdk.commands.getInstanceConnectedParticipants()).participants.filter(p => p.id !== me && !p.bot);
  } catch (e) {
    people = []; // not offered where the Activity runs
  }
  fill("people", people, (ul, p) => item(ul, p.global_name || p.username, words.challenge,
    () => launch({kind: "challenge", opponent: p.id, opponent_name: p.global_name || p.username}), {user: p.id}));
}

async function main() {
  // Kept for the boards' way back here: Discord's query names this frame.
  if (new URLSearchParams(location.search).has("frame_id")) sessionStorage.setItem("othello-launch", location.search);
  sdk = new DiscordSDK(body.clientId, {disableConsoleLogOverride: true});
  await sdk.ready();
  // identify: who you are; guilds: that you are in the server the
  // Activity runs in, so its games are listed to you.
  const {code} = await sdk.commands.authorize({client_id: body.clientId, response_type: "code", state: "", prompt: "none",
    scope: ["identify", "guilds"]});
  const r = await fetch("token?" + lang, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({code, guild_id: sdk.guildId || ""})});
  if (!r.ok) throw new Error("token: " + r.status);
  const token = await r.json();
  const auth = await sdk.commands.authenticate({access_token: token.access_token});
  session = token.session;
  me = auth.user.id;
  sessionStorage.setItem("othello-session", session);
  document.body.dataset.user = me;
  document.getElementById("start").onclick = () => launch({kind: "start", level: Number(document.getElementById("level").value)});
  await lobby(true);
  state.textContent = "";
  document.body.dataset.ready = "1";
}

main().catch(() => {
  state.textContent = words.noLogin;
  document.body.dataset.failed = "1";
});
