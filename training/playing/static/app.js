// herozoo play page: plain JS, no build step. Talks to the JSON API of training/serve.py.
// Every text from the server goes into the page through textContent (never as HTML).
"use strict";

const $ = (id) => document.getElementById(id);
let catalogue = null;
let current = null; // the last state from the server
let gameId = null;

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

function showMessage(text) {
  const m = $("message");
  m.textContent = text || "";
  m.hidden = !text;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (e) { data = { error: `bad answer from the server (${response.status})` }; }
  return { ok: response.ok, status: response.status, data };
}

// -- setup form ---------------------------------------------------------------------------------------

function selectedGame() {
  return catalogue.games.find((g) => g.env_id === $("game").value);
}

function fillSelect(select, values, chosen) {
  select.replaceChildren();
  for (const [value, label] of values) {
    const o = el("option", null, label);
    o.value = String(value);
    if (String(value) === String(chosen)) o.selected = true;
    select.appendChild(o);
  }
}

function refreshSeats() {
  const g = selectedGame();
  const n = Number($("players").value);
  const seatSel = $("seat");
  const seat = Math.min(Number(seatSel.value || 0), n - 1);
  fillSelect(seatSel, [...Array(n).keys()].map((i) => [i, `player_${i}`]), seat);
  const bots = $("bots");
  bots.replaceChildren();
  for (let i = 0; i < n; i++) {
    if (i === Number(seatSel.value)) continue;
    const label = el("label", null, `player_${i} `);
    const s = el("select");
    s.id = `bot-${i}`;
    s.dataset.seat = String(i);
    fillSelect(s, g.bots.map((b) => [b.spec, b.label]), g.bots[0].spec);
    label.appendChild(s);
    bots.appendChild(label);
  }
  fillSelect($("hint-policy"), g.bots.map((b) => [b.spec, b.label]), g.bots[0].spec);
}

function refreshGame() {
  const g = selectedGame();
  const counts = [];
  for (let n = g.min_players; n <= g.max_players; n++) counts.push([n, String(n)]);
  fillSelect($("players"), counts, g.default_players);
  const opts = $("options");
  opts.replaceChildren();
  for (const o of g.options) {
    const label = el("label", null, `${o.name} `);
    label.title = o.doc;
    const s = el("select");
    s.dataset.option = o.name;
    fillSelect(s, o.choices.map((c, i) => [i, c === null ? "none" : String(c)]), o.choices.indexOf(o.default));
    label.appendChild(s);
    opts.appendChild(label);
  }
  refreshSeats();
}

async function startGame(event) {
  if (event) event.preventDefault();
  const g = selectedGame();
  const seats = {};
  for (const s of document.querySelectorAll("#bots select")) seats[s.dataset.seat] = s.value;
  const options = {};
  for (const s of document.querySelectorAll("#options select")) {
    const o = g.options.find((x) => x.name === s.dataset.option);
    options[o.name] = o.choices[Number(s.value)];
  }
  const body = { env_id: g.env_id, num_players: Number($("players").value), seat: Number($("seat").value), seats, options };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  const r = await api("POST", "/api/games", body);
  if (!r.ok) { showMessage(r.data.error); return; }
  showMessage("");
  gameId = r.data.game_id;
  $("main").hidden = false;
  $("hint-text").textContent = "";
  render(r.data);
  await letBotsMove(r.data);
}

// Bots move in short slices: each answer shows the moves so far, and the page asks for more while a
// bot is to move, so a slow (searching) bot never holds the page for more than its own move.
async function letBotsMove(state) {
  const game = gameId;
  while (state && state.bots_to_move && game === gameId) {
    const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/advance`, { step: state.step });
    if (!r.ok) { showMessage(r.data.error); if (r.data.state) render(r.data.state); return; }
    state = r.data;
    render(state);
  }
}

// -- drawing the board --------------------------------------------------------------------------------

function trackSvg(value, max) {
  const w = 110, h = 12;
  const svg = svgEl("svg", { width: w, height: h, viewBox: `0 0 ${w} ${h}`, class: "track" });
  svg.appendChild(svgEl("rect", { x: 0, y: 0, width: w, height: h, rx: 3, fill: "#ddd" }));
  const frac = max ? Math.max(0, Math.min(1, value / max)) : 0;
  svg.appendChild(svgEl("rect", { x: 0, y: 0, width: Math.round(w * frac), height: h, rx: 3, fill: "#27ae60" }));
  return svg;
}

function tokenSvg(value, color) {
  const svg = svgEl("svg", { width: 26, height: 26, viewBox: "0 0 26 26", class: "token" });
  svg.appendChild(svgEl("circle", { cx: 13, cy: 13, r: 12, fill: color || "#f5d76e", stroke: "#555" }));
  const t = svgEl("text", { x: 13, y: 17, "text-anchor": "middle", fill: color ? "#fff" : "#222" });
  t.textContent = String(value);
  svg.appendChild(t);
  return svg;
}

function drawItem(item, keyed) {
  const d = el("div", `item type-${item.type}`);
  if (item.color) d.style.setProperty("--c", item.color);
  if (item.key) d.dataset.key = item.key;
  if (item.type === "blank") return d;
  if (item.type === "text") { d.textContent = item.name; return d; }
  if (item.type === "token" && item.value !== undefined && item.value !== null) d.appendChild(tokenSvg(item.value, item.color));
  const box = el("div");
  box.appendChild(el("span", "name", item.name));
  if (item.type === "track") {
    if (item.max !== null && item.max !== undefined) box.appendChild(trackSvg(item.value, item.max));
    box.appendChild(el("span", "num", item.max !== null && item.max !== undefined ? ` ${item.value}/${item.max}` : ` ${item.value}`));
  }
  if (item.type === "hidden") box.appendChild(el("span", "num", `${item.count} hidden`));
  if (item.values && item.values.length) {
    const vals = el("div", "vals");
    for (const [k, v] of item.values) {
      const s = el("span");
      s.appendChild(el("b", null, `${k} `));
      s.appendChild(document.createTextNode(String(v)));
      vals.appendChild(s);
    }
    box.appendChild(vals);
  }
  if (item.tags && item.tags.length) {
    const tags = el("div", "tags");
    for (const t of item.tags) tags.appendChild(el("span", "tag", t));
    box.appendChild(tags);
  }
  if (item.text) box.appendChild(el("p", "text", item.text));
  d.appendChild(box);
  if (item.key && keyed.has(item.key)) {
    d.classList.add("clickable");
    d.tabIndex = 0;
    d.title = keyed.get(item.key).map((a) => a.text).join(" | ");
    d.addEventListener("click", (ev) => clickItem(ev, keyed.get(item.key)));
    d.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); d.click(); } });
  }
  return d;
}

function drawBoard(state) {
  const board = state.board;
  $("title").textContent = board.title;
  $("status").textContent = board.status || "";
  const keyed = new Map();
  for (const a of state.legal) for (const k of a.keys) { if (!keyed.has(k)) keyed.set(k, []); keyed.get(k).push(a); }
  const root = $("board");
  root.replaceChildren();
  for (const sec of board.sections) {
    const s = el("div", "section");
    if (sec.you) s.classList.add("you");
    if (sec.active) s.classList.add("active");
    let title = sec.title;
    if (sec.owner !== undefined && sec.owner !== null) {
      title += ` (${state.seats[sec.owner].spec})`;
      if (sec.you) title += " - you";
      if (sec.active) title += " - to act";
    }
    s.appendChild(el("h3", null, title));
    const items = el("div", "items");
    if (sec.layout === "grid") {
      items.classList.add("grid");
      items.style.setProperty("grid-template-columns", `repeat(${sec.columns || 3}, minmax(0, 1fr))`);
    } else if (sec.layout === "column") {
      items.classList.add("column");
    }
    for (const it of sec.items) items.appendChild(drawItem(it, keyed));
    s.appendChild(items);
    root.appendChild(s);
  }
  $("text").textContent = state.text;
}

// -- actions --------------------------------------------------------------------------------------------

function hideMenu() { $("menu").hidden = true; }

function clickItem(ev, actions) {
  ev.stopPropagation();
  if (actions.length === 1) { act(actions[0].id); return; }
  const menu = $("menu");
  menu.replaceChildren();
  for (const a of actions) {
    const b = el("button", "menu-action", a.text);
    b.type = "button";
    b.dataset.action = String(a.id);
    b.addEventListener("click", (e) => { e.stopPropagation(); hideMenu(); act(a.id); });
    menu.appendChild(b);
  }
  menu.style.setProperty("left", `${ev.pageX}px`);
  menu.style.setProperty("top", `${ev.pageY}px`);
  menu.hidden = false;
}

function drawActions(state) {
  const root = $("actions");
  root.replaceChildren();
  const words = $("filter").value.trim().toLowerCase();
  const groups = new Map();
  state.legal.forEach((a, i) => {
    if (!groups.has(a.kind_label)) groups.set(a.kind_label, []);
    groups.get(a.kind_label).push([i + 1, a]);
  });
  for (const [label, actions] of groups) {
    const shown = actions.filter(([, a]) => !words || `${a.text} ${label}`.toLowerCase().includes(words));
    if (!shown.length) continue;
    const g = el("div", "group");
    g.appendChild(el("h4", null, label));
    for (const [n, a] of shown) {
      const b = el("button", "action");
      b.type = "button";
      b.dataset.action = String(a.id);
      b.appendChild(el("span", "num", n));
      b.appendChild(document.createTextNode(a.text));
      b.addEventListener("click", () => act(a.id));
      g.appendChild(b);
    }
    root.appendChild(g);
  }
}

function drawLog(state) {
  const log = $("log");
  log.replaceChildren();
  for (const e of state.log) {
    const li = el("li", e.human ? "human" : "bot", `player_${e.seat}: ${e.text}`);
    li.value = e.step;
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

function render(state) {
  current = state;
  hideMenu();
  const main = $("main");
  main.dataset.step = String(state.step);
  main.dataset.over = String(state.over);
  drawBoard(state);
  drawActions(state);
  drawLog(state);
  const res = $("result");
  if (state.result) {
    const r = state.result;
    const good = r.verdict.includes("won") || r.verdict.includes("share");
    res.className = good ? "won" : "lost";
    res.textContent = `Game over: ${r.verdict} (${r.reason}). Scores: ${r.scores.map((s, i) => `player_${i} ${s}`).join(", ")}`;
    res.hidden = false;
  } else {
    res.hidden = true;
  }
  $("turn").textContent = state.over ? "" : state.your_turn ? `Your turn (player_${state.seat}): choose an action, or click a highlighted card.` : `Waiting for player_${state.to_act}...`;
  $("hint").disabled = !state.your_turn;
  $("replay").href = `/api/games/${encodeURIComponent(gameId)}/replay`;
}

async function act(actionId) {
  if (!current) return;
  const r = await api("POST", `/api/games/${encodeURIComponent(gameId)}/act`, { action: actionId, step: current.step });
  $("hint-text").textContent = "";
  if (!r.ok) {
    showMessage(r.data.error);
    if (r.data.state) render(r.data.state);
    return;
  }
  showMessage("");
  render(r.data);
  await letBotsMove(r.data);
}

async function hint() {
  const policy = $("hint-policy").value;
  const r = await api("GET", `/api/games/${encodeURIComponent(gameId)}/hint?policy=${encodeURIComponent(policy)}`);
  if (!r.ok) { showMessage(r.data.error); if (r.data.state) render(r.data.state); return; }
  const h = r.data;
  $("hint-text").textContent = `${h.policy} would play: ${h.text} (probability ${h.probability.toFixed(2)}; ${h.how})`;
  for (const b of document.querySelectorAll("#actions button.action")) b.classList.toggle("hinted", Number(b.dataset.action) === h.action);
}

async function init() {
  const r = await api("GET", "/api/games");
  if (!r.ok) { showMessage(r.data.error); return; }
  catalogue = r.data;
  fillSelect($("game"), catalogue.games.map((g) => [g.env_id, `${g.name}${g.cooperative ? " (cooperative)" : ""}`]), catalogue.games[0].env_id);
  refreshGame();
  $("game").addEventListener("change", refreshGame);
  $("players").addEventListener("change", refreshSeats);
  $("seat").addEventListener("change", refreshSeats);
  $("setup").addEventListener("submit", startGame);
  $("again").addEventListener("click", () => startGame());
  $("hint").addEventListener("click", hint);
  $("filter").addEventListener("input", () => current && drawActions(current));
  document.addEventListener("click", hideMenu);
  document.body.dataset.ready = "true";
}

document.addEventListener("DOMContentLoaded", init);
