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

// A board opened from the lobby is a new page in the same frame, without
// Discord's launch query: the SDK reads the one the lobby kept.
class LaunchedSDK extends DiscordSDK {
  _getSearch() {
    return sessionStorage.getItem("othello-launch") || super._getSearch();
  }
}

const body = document.body.dataset;
const words = JSON.parse(document.getElementById("words").textContent);
const state = document.getElementById("state");
const lang = "lang=" + encodeURIComponent(body.lang);
let sdk, session, me;

// presence shows what the player does on their Discord profile; without
// the rpc.activities.write grant Discord refuses it, and nothing else
// depends on it.
async function presence(details, stateLine) {
  try {
    await sdk.commands.setActivity({activity: {type: 0, details, state: stateLine || undefined}});
    document.body.dataset.presence = details + (stateLine ? " · " + stateLine : "");
  } catch (e) { /* no rich presence here */ }
}

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
    return out;
  }
  state.textContent = out.note || "";
  await lobby();
  return out;
}

// playWithAFriend opens a seat (an open challenge here) and shares it:
// Discord's client offers the link to friends, and one who follows it
// lands on the seat (the link's custom_id).
async function playWithAFriend() {
  const out = await launch({kind: "open"});
  if (!out.seat) return;
  try {
    const shared = await sdk.commands.shareLink({message: words.seatMessage, custom_id: out.seat});
    document.body.dataset.shared = shared.success ? out.seat : "";
  } catch (e) { /* closed, or not offered here: the challenge stands in the channel */ }
}

// followLink acts once on the link that launched the Activity: a seat is
// taken, a game's board opened.
async function followLink() {
  const id = sdk.customId || "";
  if (!id || sessionStorage.getItem("othello-followed") === id) return false;
  sessionStorage.setItem("othello-followed", id);
  const seat = /^c(\d{1,18})$/.exec(id), board = /^g([0-9a-f]{1,64})$/.exec(id);
  if (seat) {
    const out = await launch({kind: "accept", challenge: seat[1]});
    return !!out.next;
  }
  if (board) {
    location.href = "g/" + board[1] + "?" + lang;
    return true;
  }
  return false;
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
  sdk = new LaunchedSDK(body.clientId, {disableConsoleLogOverride: true});
  await sdk.ready();
  // identify: who you are; guilds: that you are in the server the
  // Activity runs in, so its games are listed to you;
  // rpc.activities.write: your game on your profile (rich presence).
  const {code} = await sdk.commands.authorize({client_id: body.clientId, response_type: "code", state: "", prompt: "none",
    scope: ["identify", "guilds", "rpc.activities.write"]});
  const r = await fetch("token?" + lang, {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({code, guild_id: sdk.guildId || ""})});
  if (!r.ok) throw new Error("token: " + r.status);
  const token = await r.json();
  const auth = await sdk.commands.authenticate({access_token: token.access_token});
  session = token.session;
  me = auth.user.id;
  sessionStorage.setItem("othello-session", session);
  // The boards this frame opens sign in to Discord's client again with it.
  sessionStorage.setItem("othello-discord-token", token.access_token);
  sessionStorage.setItem("othello-user", me);
  document.body.dataset.user = me;
  document.getElementById("start").onclick = () => launch({kind: "start", level: Number(document.getElementById("level").value)});
  document.getElementById("friend").onclick = () => playWithAFriend();
  // Discord's invite dialog works in a server's channel only.
  const invite = document.getElementById("invite");
  invite.hidden = !sdk.guildId;
  invite.onclick = () => sdk.commands.openInviteDialog().catch(() => {});
  if (await followLink()) return;
  await lobby(true);
  await presence(words.presence);
  state.textContent = "";
  document.body.dataset.ready = "1";
}

// board is a game's page in the Activity: the player's game on their
// profile as it goes, and a way to share it.
async function board() {
  sdk = new LaunchedSDK(body.clientId, {disableConsoleLogOverride: true});
  await sdk.ready();
  await sdk.commands.authenticate({access_token: sessionStorage.getItem("othello-discord-token") || ""});
  const show = g => presence(g.presence.details, g.presence.state);
  if (window.othelloGame) show(window.othelloGame);
  document.addEventListener("othello-game", e => show(e.detail));
  const share = document.getElementById("share");
  share.hidden = false;
  share.onclick = () => sdk.commands.shareLink({message: share.dataset.message, custom_id: "g" + window.othelloGame.publicId})
    .then(r => { document.body.dataset.shared = r.success ? "g" + window.othelloGame.publicId : ""; })
    .catch(() => {});
}

if (document.getElementById("board")) {
  board().catch(() => { /* the board plays on without Discord's extras */ });
} else {
  main().catch(() => {
    state.textContent = words.noLogin;
    document.body.dataset.failed = "1";
  });
}
