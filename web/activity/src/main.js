// The Discord Activity's lobby. Discord's client frames this page; the
// Embedded App SDK talks to it by postMessage. authorize gives a code,
// our server exchanges it for the player's token and a session of its own
// (POST token), authenticate hands the token to Discord's client, and the
// session goes with every request the pages make (a framed page's cookies
// belong to a third party). Then the player's games and the server's
// live games are listed; one opens its page, which the session lets them
// play. Every address is relative: the Activity works at its mapping's
// root and under /.proxy/ alike.
import {DiscordSDK} from "@discord/embedded-app-sdk";

const body = document.body.dataset;
const words = JSON.parse(document.getElementById("words").textContent);
const state = document.getElementById("state");
const lang = "lang=" + encodeURIComponent(body.lang);

function list(id, games) {
  const ul = document.getElementById(id);
  ul.textContent = "";
  if (games.length === 0) {
    const li = document.createElement("li");
    li.textContent = words.none;
    ul.appendChild(li);
  }
  for (const g of games) {
    const li = document.createElement("li"), a = document.createElement("a");
    a.href = "g/" + g.id + "?" + lang;
    a.textContent = g.title;
    a.dataset.game = g.id;
    li.appendChild(a);
    ul.appendChild(li);
  }
}

async function main() {
  const sdk = new DiscordSDK(body.clientId, {disableConsoleLogOverride: true});
  await sdk.ready();
  const {code} = await sdk.commands.authorize({client_id: body.clientId, response_type: "code", state: "", prompt: "none",
    scope: ["identify"]});
  const r = await fetch("token?" + lang, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify({code})});
  if (!r.ok) throw new Error("token: " + r.status);
  const {access_token, session} = await r.json();
  const auth = await sdk.commands.authenticate({access_token});
  sessionStorage.setItem("othello-session", session);
  document.body.dataset.user = auth.user.id;
  const q = new URLSearchParams({guild_id: sdk.guildId || "", channel_id: sdk.channelId || ""});
  const games = await (await fetch("games?" + q + "&" + lang, {headers: {Authorization: "Bearer " + session}})).json();
  state.textContent = "";
  list("mine", games.mine);
  list("live", games.live);
  document.body.dataset.ready = "1";
}

main().catch(() => {
  state.textContent = words.noLogin;
  document.body.dataset.failed = "1";
});
