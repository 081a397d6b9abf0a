/* fuda serve: draws any seat's view (GET api/state) and sends its choices (POST api/act).
   Generic on purpose: nothing here knows a game. Zones, sequences, grids, variables, the stack,
   the events and the legal actions all come from the view the server built for this seat. */
"use strict";

const WORDS = {
  events: ["Recent events", "最近の出来事"], talk: ["Table talk", "卓の会話"], moves: ["card moves", "カードの移動"],
  raw: ["view (JSON)", "ビュー (JSON)"], undo: ["undo", "戻す"], newGame: ["new game", "新しいゲーム"],
  download: ["download log", "ログを保存"], you: ["you", "あなた"], turn: ["turn", "手番"],
  toMove: ["to decide", "選択中"], waiting: ["Waiting for", "待っています:"], over: ["Game over", "ゲーム終了"],
  result: ["Result", "結果"], player: ["Player", "プレイヤー"], outcome: ["Outcome", "結果"],
  place: ["Place", "順位"], score: ["Score", "得点"], win: ["win", "勝ち"], lose: ["lose", "負け"],
  draw: ["draw", "引き分け"], yes: ["yes", "はい"], no: ["no", "いいえ"], stack: ["Stack", "スタック"],
  by: ["by", "by"], negated: ["negated", "無効"], spectator: ["spectator", "観戦"], seat: ["Seat", "席"],
  pass: ["Pass the screen to", "画面を渡してください:"], show: ["Show the table of", "表示:"],
  capped: ["stopped at the move limit", "手数の上限で終了"], out: ["out", "上がり"], sitting_out: ["sits out", "休み"], go: ["go", "実行"],
  phase: ["phase", "フェーズ"], seed: ["seed", "シード"], game: ["game", "ゲーム"], cards: ["cards", "枚"],
  top: ["top", "一番上"], bot: ["bot", "ボット"], human: ["human", "人間"], thinking: ["thinking…", "考え中…"],
  yourTurn: ["your choice (click a card or a button)", "あなたの番です (カードかボタンを選ぶ)"], front: ["front", "前"], vars: ["Table", "卓"],
  notes: ["On the cards", "カードの状態"], nothing: ["—", "—"],
  peeked: ["face down: shown to you", "伏せ札: あなたに公開"],
};

const ui = {
  seat: null,            // the seat shown (null: spectator)
  lang: null,            // "en" | "ja"; null: the server's
  data: null,            // the last state answer
  version: -1,
  selected: [],          // tokens (card names, squares) picked toward an action
  shownSeat: null,       // hot seat: the human whose table is on screen
  busy: false,
};

const $ = (id) => document.getElementById(id);
const L = () => (ui.lang === "ja" ? 1 : 0);
const w = (key) => WORDS[key][L()];

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

/** One language of an "English | 日本語" text, as fuda play's render.half. */
function half(text, lang) {
  if (!text) return "";
  const parts = String(text).split(" | ");
  return parts[Math.min(lang, parts.length - 1)];
}

// ------------------------------------------------------------------ talking to the server
async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data;
  try { data = await r.json(); } catch (e) { data = { error: `HTTP ${r.status}` }; }
  if (!r.ok) throw data;
  return data;
}

function query() {
  const q = new URLSearchParams();
  if (ui.seat !== null) q.set("seat", ui.seat);
  if (ui.lang) q.set("lang", ui.lang);
  return q.toString();
}

async function load() {
  try {
    show(await api("GET", "api/state?" + query()));
  } catch (e) { fail(e); }
}

async function post(path, extra) {
  if (ui.busy) return;
  ui.busy = true;
  document.body.style.cursor = "progress";
  try {
    const body = Object.assign({ lang: ui.lang || undefined }, extra);
    if (ui.seat !== null) body.seat = ui.seat;
    show(await api("POST", path, body));
  } catch (e) { fail(e); } finally {
    ui.busy = false;
    document.body.style.cursor = "";
  }
}

const act = (id) => { ui.selected = []; return post("api/act", { action: id }); };

function fail(e) {
  const box = $("error");
  let text = (e && e.error) || String(e);
  box.textContent = text;
  box.hidden = false;
}

async function poll() {
  if (!ui.busy) {
    try {
      const v = await api("GET", "api/version");
      if (v.version !== ui.version) await load();
    } catch (e) { /* the server stopped: keep the last table on screen */ }
  }
  setTimeout(poll, ui.data && ui.data.thinking ? 300 : 1500);     // faster while the bots move
}

// ------------------------------------------------------------------ values
function fmt(x, code, view) {
  if (x === null || x === undefined || x === "") return w("nothing");
  if (typeof x === "boolean") return x ? w("yes") : w("no");
  if (Array.isArray(x)) {
    const inner = code && code.startsWith("list:") ? code.slice(5) : "";
    return x.map((y) => fmt(y, inner, view)).join(" ");
  }
  if (typeof x === "object") {
    return Object.entries(x).map(([k, y]) => `${/^P\d+$/.test(k) ? seat(Number(k.slice(1)), view) : k}: ${fmt(y, code, view)}`).join(", ");
  }
  if (code === "player" && typeof x === "number") return seat(x, view);
  if (code && code.startsWith("card") && view.labels[x]) return view.labels[x];
  if (code && code.startsWith("enum:") && (view.enum_labels || {})[code.slice(5)]) {
    return view.enum_labels[code.slice(5)][x] || String(x);     // a member by its label
  }
  if (typeof x === "number" && !Number.isInteger(x)) return String(Math.round(x * 1e6) / 1e6);
  return String(x);
}

const called = (name, view) => {
  const base = name.split("[")[0];
  const rest = name.slice(base.length).replace(/\[P(\d+)\]/g, (m, q) => `[${seat(Number(q), view)}]`);
  return (view.zone_labels[base] || base) + rest;
};

// a player as the view's reader calls them: the seat's name (`seats "North | 北", …`), else P1
const seat = (q, view) => (view.seat_names || [])[q] || "P" + q;

// ------------------------------------------------------------------ tokens: what a click picks
const SQUARE = /\(-?\d+,-?\d+\)/g;
const PLACE = /^\S+\[\d+\]$/;      // a face-down card by its place: hand[P0][2]
function tokens(a) {
  const places = a.id.split(" ").slice(1).filter((w) => PLACE.test(w) && !(a.cards || []).includes(w));
  return (a.cards || []).concat(a.id.match(SQUARE) || [], places);
}
function pickable() {
  const set = new Set();
  for (const a of ui.data.actions) for (const t of tokens(a)) set.add(t);
  return set;
}
function candidates(sel) {
  return ui.data.actions.filter((a) => { const ts = tokens(a); return sel.every((t) => ts.includes(t)); });
}

/** The cards and squares that would complete the actions lit by the cards picked so far. */
function targets() {
  const out = new Set();
  if (!ui.selected.length) return out;
  for (const a of candidates(ui.selected)) for (const t of tokens(a)) if (!ui.selected.includes(t)) out.add(t);
  return out;
}

/** A card or square clicked: the one action it alone makes is taken; else the actions it is in are lit. */
function pick(token) {
  let sel = ui.selected.includes(token) ? ui.selected.filter((t) => t !== token) : ui.selected.concat([token]);
  if (sel.length && !candidates(sel).length) sel = [token];
  const cands = sel.length ? candidates(sel) : [];
  if (cands.length === 1) {     // taken when the picks are all its arguments (not `join ♠5 0`: the 0 is not picked)
    const ts = tokens(cands[0]);
    if (ts.length === sel.length && cands[0].id.split(" ").length === ts.length + 1) { act(cands[0].id); return; }
  }
  ui.selected = sel;
  draw();
}

// ------------------------------------------------------------------ cards and zones
function colour(text) {
  if (/[♥♦]/.test(text)) return "red";
  if (/[♠♣]/.test(text)) return "black";
  return "";
}

/** A text with its ♥♦ in red, as the cards show them. */
function suited(text) {
  return String(text).split(/([♥♦])/).map((part) => (/^[♥♦]$/.test(part) ? el("span", { class: "red" }, part) : part));
}

function notesOf(vars, view) {
  return Object.entries(vars || {}).filter(([k]) => view.var_labels[k])
    .map(([k, x]) => `${view.var_labels[k]}: ${fmt(x, view.var_types[k], view)}`);
}

function cardEl(name, view, live, marks, place) {
  if (name === null) {      // a face-down card: what is written on its back (`back` variables), if anything
    const notes = notesOf(marks, view);
    const cls = ["card", "back"];
    const can = live && place && live.has(place);     // chosen by its place (play hand[P0][2])
    if (can) cls.push("playable");
    if (can && targets().has(place)) cls.push("target");
    if (place && ui.selected.includes(place)) cls.push("selected");
    const click = can ? (e) => { e.stopPropagation(); pick(place); } : null;
    return el("div", { class: cls.join(" "), title: [place || "?"].concat(notes).join("\n"), onclick: click },
      notes.length ? el("span", { class: "note" }, notes.map((n) => n.split(": ").pop()).join(" ")) : null);
  }
  const label = view.labels[name] || name;
  const notes = notesOf(view.card_vars[name], view);
  const cls = ["card", colour(label)];
  const peeked = peekedOf(view).has(name);      // shown to you, face down for the table
  if (peeked) cls.push("peeked");
  const can = live && live.has(name);
  if (can) cls.push("playable");
  if (can && targets().has(name)) cls.push("target");
  if (ui.selected.includes(name)) cls.push("selected");
  const title = [label !== name ? `${label} (${name})` : name].concat(peeked ? [w("peeked")] : [], notes).join("\n");
  const click = can ? (e) => { e.stopPropagation(); pick(name); } : null;     // not the square under it too
  return el("div", { class: cls.join(" "), title, onclick: click },
    label, notes.length ? el("span", { class: "note" }, notes.map((n) => n.split(": ").pop()).join(" ")) : null);
}

const PEEKED = new WeakMap();
function peekedOf(view) {
  // the face-down cards the view shows this seat (each zone's `peeked` positions), once a view
  if (!PEEKED.has(view)) {
    PEEKED.set(view, new Set(Object.values(view.zones).flatMap((z) => (z.peeked || []).map((i) => z.cards[i]))));
  }
  return PEEKED.get(view);
}

function cardsEl(cards, view, live, sorted, marks, zone) {
  if (!cards.length) return el("span", { class: "empty" }, w("nothing"));
  let shown = cards;
  if (sorted && !cards.includes(null)) {
    const by = ui.data.card_order || {};
    shown = cards.slice().sort((a, b) => (by[a] ?? 0) - (by[b] ?? 0));
  }
  const backs = cards.every((c) => c === null) && !Object.keys(marks || {}).length;   // stacked, unless marked
  if (backs && cards.length > 12) shown = cards.slice(0, 12);
  return el("div", { class: "cards" + (backs ? " backs" : "") },
    shown.map((c, i) => cardEl(c, view, live, c === null ? (marks || {})[String(i)] : null, zone && `${zone}[${i}]`)));
}

function zoneEl(name, z, view, live, mine, label) {
  const head = el("div", { class: "name" }, label === undefined ? called(name, view) : label,
    " ", el("span", { class: "count" }, `(${z.size})`));
  let body;
  if (!z.size) body = el("span", { class: "empty" }, w("nothing"));
  else if (z.pile && !z.sorted) {
    const top = z.cards[z.cards.length - 1];
    const seen = z.cards.filter((c) => c !== null);
    const at = z.cards.length - 1;
    body = el("div", { class: "pile" }, cardEl(top, view, live, (z.marks || {})[String(at)], `${name}[${at}]`));
    if (seen.length > 1) {
      body = el("div", {}, body, el("details", {}, el("summary", { class: "small" }, `${seen.length} ${w("cards")}`),
        cardsEl(z.cards, view, live, false, z.marks, name)));
    }
  } else body = cardsEl(z.cards, view, live, mine || !!z.sorted, z.marks, name);
  return el("div", { class: "zone", "data-zone": name }, head, body);
}

function gridEl(base, cells, view, live) {
  let wmax = 0, hmax = 0;
  for (const k of Object.keys(cells)) {
    const [x, y] = k.split(",").map(Number);
    wmax = Math.max(wmax, x + 1); hmax = Math.max(hmax, y + 1);
  }
  const g = el("div", { class: "grid", style: `grid-template-columns: 1.2em repeat(${wmax}, auto)` });
  g.append(el("span"));
  for (let x = 0; x < wmax; x++) g.append(el("span", { class: "axis" }, x));
  for (let y = 0; y < hmax; y++) {
    g.append(el("span", { class: "axis" }, y));
    for (let x = 0; x < wmax; x++) {
      const sq = `(${x},${y})`;
      const cs = cells[`${x},${y}`] || [];
      const can = live.has(sq);
      const mark = (can ? " playable" : "") + (can && targets().has(sq) ? " target" : "") +
        (ui.selected.includes(sq) ? " selected" : "");
      g.append(el("div", { class: "cell" + mark,
        title: `${called(base, view)}${sq}` + (cs.length > 1 ? ` (${cs.length})` : ""), onclick: can ? () => pick(sq) : null },
        el("span", { class: "xy" }, `${x},${y}`), cs.length ? cardEl(cs[cs.length - 1], view, live) : null));
    }
  }
  return el("div", { class: "zone" }, el("div", { class: "name" }, called(base, view)), g);
}

function seqEl(key, names, view, live) {
  return el("div", { class: "zone" }, el("div", { class: "name" }, called(key, view) + ` (${w("front")} →)`),
    el("div", { class: "seq" }, names.map((n, i) => {
      const z = view.zones[n] || { size: 0, cards: [], pile: true };
      const own = /^[^[\]]+(\[P\d+\])?$/.test(n) ? called(n, view) : `[${i}]`;   // a declared zone standing in it
      return el("div", { class: "slot" }, el("div", { class: "idx" }, own), zoneEl(n, z, view, live, false, ""));
    })));
}

// ------------------------------------------------------------------ the table
/** Sorts the view's zones into places: a seat's own (by [Pn] in the name) or the middle of the table. */
function layout(view) {
  const places = { shared: [] };
  for (let p = 0; p < view.players; p++) places[p] = [];
  const owner = (name) => { const m = /\[P(\d+)\]/.exec(name); return m ? Number(m[1]) : "shared"; };
  const sequences = Object.assign({}, view.sequences || {});
  const inSeq = new Set(Object.values(sequences).flat());
  if (!view.sequences) {                         // lines of zones the view does not declare: NAME[i]
    for (const name of Object.keys(view.zones)) {
      const m = /^(.+\[P\d+\]|[^[\]]+)\[(\d+)\]$/.exec(name);
      if (m) { (sequences[m[1]] = sequences[m[1]] || []).push(name); inSeq.add(name); }
    }
  }
  const grids = {};
  for (const [name, z] of Object.entries(view.zones)) {
    const g = /^(.+)\[(\d+),(\d+)\]$/.exec(name);
    if (g) {
      if (!grids[g[1]]) { grids[g[1]] = {}; places[owner(g[1])].push({ grid: g[1] }); }
      grids[g[1]][`${g[2]},${g[3]}`] = z.cards;
      continue;
    }
    if (inSeq.has(name)) continue;
    const base = name.split("[")[0];
    if (!z.size && (!view.zone_labels[base] || (view.transient_zones || []).includes(base))
        && /^[^[\]]+(\[P\d+\])?$/.test(name)) continue;  // a place cards pass through (unlabelled, or `transient`)
    places[owner(name)].push({ zone: name });
  }
  for (const key of Object.keys(sequences)) places[owner(key)].push({ seq: key });
  return { places, grids, sequences };
}

function seatEl(p, view, lay, live) {
  const s = view.seats[p];
  const info = ui.data.seats[p];
  const me = p === view.viewer;
  const cls = ["seat"];
  if (view.to_move.includes(p)) cls.push("to-move");
  if (view.current === p && view.turn_begun !== false) cls.push("current");
  if (s.out) cls.push("out");
  const kind = info.kind === "human" ? (me ? w("you") : w("human")) : info.name;
  const vars = [];
  const keeps = view.score_label || view.seats.some((q) => q.score);   // a labelled score shows from the start
  if (keeps) vars.push([view.score_label || w("score"), fmt(s.score, "", view)]);
  if (s.out) vars.push(s.place ? [w("out"), "#" + s.place] : [w("sitting_out"), ""]);
  for (const [k, x] of Object.entries(view.vars)) {
    if (view.var_labels[k] && x && typeof x === "object" && !Array.isArray(x) && `P${p}` in x) {
      vars.push([view.var_labels[k], fmt(x[`P${p}`], view.var_types[k], view)]);
    }
  }
  return el("div", { class: cls.join(" ") },
    el("h3", {}, `${seat(p, view)} `, el("span", { class: "kind" }, kind)),
    vars.length ? el("div", { class: "vars" }, vars.map(([k, x], i) => [i ? " · " : "", k, " ", el("b", {}, x)])) : null,
    lay.places[p].map((item) => placeEl(item, view, lay, live, me)));
}

function placeEl(item, view, lay, live, mine) {
  if (item.grid) return gridEl(item.grid, lay.grids[item.grid], view, live);
  if (item.seq) return seqEl(item.seq, lay.sequences[item.seq], view, live);
  return zoneEl(item.zone, view.zones[item.zone], view, live, mine);
}

function centerEl(view, lay, live) {
  const out = lay.places.shared.map((item) => placeEl(item, view, lay, live, false));
  const vars = Object.entries(view.vars).filter(([k, x]) => view.var_labels[k] &&
    !(x && typeof x === "object" && !Array.isArray(x)));
  if (vars.length) {
    out.push(el("div", { class: "vars" }, el("b", {}, w("vars")), el("br"),
      vars.map(([k, x], i) => [i ? " · " : "", view.var_labels[k], " ", el("b", {}, fmt(x, view.var_types[k], view))])));
  }
  if (view.stack.length) {
    out.push(el("div", { class: "stack" }, el("b", {}, w("stack")), el("ol", {}, view.stack.slice().reverse().map((it) =>
      el("li", { class: it.negated ? "negated" : "" },
        `#${it.id} ${it.label || it.effect} — ${w("by")} ${seat(it.controller, view)}`,
        it.source ? ` (${view.labels[it.source] || it.source})` : "",
        it.times !== 1 ? ` ×${it.times}` : "", it.negated ? ` (${w("negated")})` : "",
        (it.fields || []).map(([n, code, label]) => ` · ${label} ${code === "item" && it[n] !== null ? "#" + it[n] : fmt(it[n], code, view)}`))))));
  }
  return out;
}

function decisionEl(d, view) {
  const box = [];
  if (view.over) return box;
  if (!d.actions.length) {
    const who = view.to_move.map((p) => seat(p, view)).join(", ");
    box.push(el("div", { class: "waiting" }, who ? `${w("waiting")} ${who}` + (d.thinking ? ` — ${w("thinking")}` : "…") : ""));
    return box;
  }
  box.push(el("div", { class: "prompt" }, d.prompt ? half(d.prompt, L()) : `${seat(view.viewer, view)}: ${w("yourTurn")}`));
  const lit = ui.selected.length ? new Set(candidates(ui.selected).map((a) => a.id)) : null;
  const cls = (id) => (lit ? (lit.has(id) ? "hl" : "dim") : "");
  const buttons = d.choices.map((c) => {
    if (c.count === 1) {
      const a = d.actions[c.first];
      const label = half(a.label, L());
      const same = !label || [a.id, a.id.replace(/_/g, " ")].some((x) => x.toLowerCase() === label.toLowerCase());
      return el("button", { class: cls(a.id), title: a.id, onclick: () => act(a.id) }, suited(same ? a.id : label));
    }
    const input = el("input", { type: "number", min: c.lo, max: c.hi, step: c.step, value: c.lo });
    const go = () => act(`${c.prefix} ${input.value}`);
    input.addEventListener("keydown", (e) => { if (e.key === "Enter") go(); });
    const range = el("input", { type: "range", min: c.lo, max: c.hi, step: c.step, value: c.lo,
      oninput: (e) => { input.value = e.target.value; } });
    return el("span", { class: "run", title: `${c.prefix} ${c.lo}..${c.hi}` },
      c.prefix, " ", range, input, el("button", { onclick: go }, w("go")),
      el("span", { class: "small" }, ` ${c.lo}–${c.hi}` + (c.step !== 1 ? ` (+${c.step})` : "")));
  });
  box.push(el("div", { class: "choices" }, buttons));
  return box;
}

function resultEl(view) {
  const rows = (view.result || []).slice().sort((a, b) => (a.place || 99) - (b.place || 99));
  const scored = view.score_label || rows.some((r) => r.score);
  return [el("h2", {}, w("over")),
    el("table", {}, el("tr", {}, el("th", {}, w("player")), el("th", {}, w("outcome")), el("th", {}, w("place")),
      scored ? el("th", {}, view.score_label || w("score")) : null),
    rows.map((r) => el("tr", { class: r.outcome === "win" ? "win" : "" },
      el("td", {}, seat(r.player, view) + (r.player === view.viewer ? ` (${w("you")})` : "")),
      el("td", {}, r.outcome && WORDS[r.outcome] ? w(r.outcome) : r.outcome || w("nothing")),
      el("td", {}, r.place || w("nothing")), scored ? el("td", {}, fmt(r.score, "", view)) : null))),
    view.capped ? el("p", { class: "small" }, w("capped")) : null,
    el("button", { onclick: () => post("api/new", {}) }, w("newGame"))].filter((x) => x !== null);
}

function headerEl(d, view) {
  $("title").textContent = d.game.title;
  document.documentElement.lang = d.game.lang;
  document.title = `${d.game.title} — fuda`;
  const parts = [`${w("phase")}: ${view.phase_label}`];
  if (view.to_move.length <= 1 && !view.over && view.turn_begun !== false) parts.push(`${w("turn")}: ${seat(view.current, view)}`);
  if (view.to_move.length > 1) parts.push(`${w("toMove")}: ${view.to_move.map((p) => seat(p, view)).join(", ")}`);
  parts.push(view.viewer === null ? w("spectator") : `${w("you")}: ${seat(view.viewer, view)}`);
  parts.push((d.game.seed === null ? "" : `${w("seed")} ${d.game.seed}`) +
    (d.game.number > 1 ? ` · ${w("game")} ${d.game.number}` : ""));
  $("status").textContent = parts.join(" · ");
  const sw = $("seat-switch");
  sw.hidden = d.humans.length < 2;
  sw.replaceChildren(...(d.humans.length < 2 ? [] : [w("seat") + " ",
    ...d.humans.map((p) => el("button", { class: p === ui.seat ? "on" : "", onclick: () => switchSeat(p) }, seat(p, view)))]));
  for (const b of $("lang-switch").children) b.className = b.dataset.lang === d.game.lang ? "on" : "";
  $("undo").textContent = w("undo");
  $("undo").disabled = !d.can_undo;
  $("new").textContent = w("newGame");
  $("download").textContent = w("download");
  $("h-events").textContent = w("events");
  $("h-talk").textContent = w("talk");
  $("l-moves").textContent = w("moves");
  $("l-raw").textContent = w("raw");
}

// an event the list shows without "card moves": not a move (the table shows where cards lie) but for
// one the table does not tell, as `fuda play`'s recent lines: a card drawn unseen into the viewer's
// hand, cards handed to it, a card seen going into a hand it does not see
function told(e, view) {
  if (e.quiet) return false;
  if (e.kind === "move") return !!e.drawn || "seen_into" in e || (e.handed_to === view.viewer && view.viewer !== null);
  return !["turn", "insert", "remove_zone"].includes(e.kind);
}

function eventsEl(view) {
  const moves = $("show-moves").checked;
  const list = view.log.filter((e) => moves || told(e, view)).slice(-80);
  const box = $("events");
  box.replaceChildren(...list.map((e) => el("li", { class: e.kind, title: e.rule || "" }, suited(e.text))));
  box.scrollTop = box.scrollHeight;
  const talk = $("talk");
  talk.replaceChildren(...ui.data.talk.map((t) => el("li", {}, el("span", { class: "who" }, `${t.name} (${seat(t.seat, view)})`), ` 「${t.text}」`)));
  talk.scrollTop = talk.scrollHeight;
}

/** Hot seat: another human is to decide; their table shows only once they have the screen. */
function coverFor(d) {
  const view = d.view;
  if (d.humans.length < 2 || view.over) return null;
  const next = view.to_move.find((p) => d.humans.includes(p));
  if (next === undefined || next === ui.seat || view.to_move.includes(ui.seat)) return null;
  return next;
}

function switchSeat(p) {
  ui.seat = p;
  ui.selected = [];
  ui.version = -1;
  load();
}

function draw() {
  const d = ui.data;
  const view = d.view;
  headerEl(d, view);
  const lay = layout(view);
  const live = view.over ? new Set() : pickable();
  const others = [];
  for (let p = 0; p < view.players; p++) if (p !== view.viewer) others.push(seatEl(p, view, lay, live));
  $("others").replaceChildren(...others);
  $("center").replaceChildren(...centerEl(view, lay, live));
  $("mine").replaceChildren(...(view.viewer === null ? [] : [seatEl(view.viewer, view, lay, live)]));
  $("decision").replaceChildren(...decisionEl(d, view));
  $("decision").hidden = view.over;
  $("result").hidden = !view.over;
  $("result").replaceChildren(...(view.over ? resultEl(view) : []));
  eventsEl(view);
  if ($("raw").open) $("raw-json").textContent = JSON.stringify(view, null, 1);
  const next = coverFor(d);
  $("cover").hidden = next === null;
  if (next !== null) {
    $("cover-text").textContent = `${w("pass")} ${seat(next, view)}`;
    $("cover-go").textContent = `${w("show")} ${seat(next, view)}`;
    $("cover-go").onclick = () => switchSeat(next);
  }
}

function show(d) {
  ui.data = d;
  ui.version = d.version;
  ui.seat = d.seat;
  if (!ui.lang) ui.lang = d.game.lang;
  $("error").hidden = true;
  if (d.log_error) fail({ error: d.log_error });
  if (d.failure) fail({ error: d.failure });
  draw();
}

// ------------------------------------------------------------------ start
function start() {
  const q = new URLSearchParams(location.search);
  if (q.has("seat")) ui.seat = q.get("seat");
  if (q.has("lang")) ui.lang = q.get("lang");
  $("undo").onclick = () => post("api/undo", {});
  $("new").onclick = () => post("api/new", {});
  $("show-moves").onchange = () => ui.data && eventsEl(ui.data.view);
  $("raw").addEventListener("toggle", () => ui.data && draw());
  for (const b of $("lang-switch").children) {
    b.onclick = () => { ui.lang = b.dataset.lang; ui.version = -1; load(); };
  }
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && ui.selected.length) { ui.selected = []; draw(); } });
  load().then(poll);
}

if (typeof document !== "undefined") start();
