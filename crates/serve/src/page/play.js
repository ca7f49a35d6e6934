// The play page: the server keeps the game (it steps the judge's environment); the page draws
// the position with the game's replay viewer (`viewers[game]`, fed the replay's start and
// steps), turns clicks into the reply lines a program would print, and shows the contest's
// text, the score, the hint and, at the end, the final score and a replay page to save.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  $("stage").appendChild(svg);
  let marks = null;

  let games = [];
  let st = null; // the server's state of the game
  let view = null; // the viewer's state after every step
  let hint = null; // the hint for this position, once asked
  let busy = 0;
  const ui = { selected: -1, hover: -1, rotation: 0 };

  function el(parent, name, attrs) {
    const node = document.createElementNS(svgNs, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  const legal = () => (st && st.legal) || [];
  const numbers = (text) => text.trim().split(/\s+/).map(Number);

  // Each game: how a click on cell i reads as a reply (or only selects), what to mark, which
  // cells a reply (the hint) names, the buttons it needs, and what the contest shows besides
  // the board.
  // Each game's controller (its `vis/GAME-play.js`, included here by the server): how a click
  // on cell i reads as a reply (or only selects), `marks()` to draw, `hintCells(reply)`, the
  // `buttons` or `controls(box)` it needs, `info()` besides the board, and optionally `hover`
  // and `drawStep()`. In scope for them: `st` (the server's state), `view` (the viewer's
  // state), `ui` ({selected, hover, rotation}), `legal()`, `numbers(text)`, `$`, `status`,
  // `button`, `send`, `showInfo` and `redrawMarks`.
  const controllers = {};
  /*{{CONTROLLERS}}*/
  // A game without a controller here is played by typing its replies.
  const typed = { click: () => null, marks: () => [], hintCells: () => [], info: () => "type a reply below" };
  const game = () => controllers[st.game] || typed;
  const viewer = () => viewers[st.game];

  function button(box, label, onclick, id) {
    const b = document.createElement("button");
    b.textContent = label;
    if (id) b.id = id;
    b.onclick = onclick;
    box.append(b);
    return b;
  }

  function status(text, kind) {
    $("status").textContent = text;
    $("status").className = kind === true ? "error" : kind || "";
  }

  async function api(method, path, body) {
    busy++;
    try {
      const options = { method };
      if (body) {
        options.headers = { "Content-Type": "application/json" };
        options.body = JSON.stringify(body);
      }
      const response = await fetch(path, options);
      const data = await response.json();
      if (!response.ok) throw new Error(data.error || response.statusText);
      return data;
    } finally {
      busy--;
    }
  }

  function setState(state) {
    const changedGame = !st || st.game !== state.game || st.session !== state.session;
    st = state;
    hint = null;
    ui.selected = -1;
    // A new piece (Polyomino) shows unturned.
    ui.rotation = 0;
    if (changedGame) {
      ui.hover = -1;
      $("game-style").textContent = STYLES[st.game] || "";
      const box = $("controls");
      box.replaceChildren();
      const g = game();
      for (const [label, reply] of g.buttons || []) button(box, label, () => send(reply), "reply-" + reply.replace(/ /g, "-"));
      if (g.controls) g.controls(box);
    }
    const v = viewer();
    view = v.init(st.start);
    for (const step of st.steps) view = v.apply(view, step);
    draw();
    const params = st.params.map(([k, value]) => `${k}=${value}`).join(" ");
    $("case").textContent = `${st.game} ${st.case}` + (params ? ` (${params})` : "");
    $("score").textContent = st.over ? st.final : st.score_text;
    $("moves").textContent = st.moves;
    $("message").textContent = st.message.length > 20000 ? st.message.slice(0, 20000) + "\n..." : st.message;
    $("replies").textContent = st.replies.join("\n");
    $("undo").disabled = st.replies.length === 0;
    $("hint").disabled = st.over;
    $("play-hint").disabled = true;
    $("send").disabled = st.over;
    for (const b of $("controls").querySelectorAll("button")) b.disabled = st.over;
    $("end").hidden = !st.over;
    if (st.over) {
      $("final").textContent = st.final;
      $("save").href = `/api/replay?session=${st.session}`;
      $("save").download = `${st.game}-${st.case.replace(/[^A-Za-z0-9.-]/g, "-")}.html`;
    }
    showInfo();
  }

  function showInfo() {
    $("info").textContent = st ? game().info() : "";
  }

  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const g = game();
    const step = g.drawStep ? g.drawStep() : st.steps[st.steps.length - 1] || null;
    viewer().draw(svg, view, step);
    // Zoomed by CSS: clicks map through the SVG's own coordinates.
    const zoom = Number($("zoom").value) || 1;
    svg.style.width = Number(svg.getAttribute("width")) * zoom + "px";
    svg.style.height = Number(svg.getAttribute("height")) * zoom + "px";
    marks = el(svg, "g", { class: "marks" });
    redrawMarks();
  }

  function redrawMarks() {
    if (!marks) return;
    while (marks.firstChild) marks.removeChild(marks.firstChild);
    const list = st.over ? [] : game().marks();
    if (hint) {
      for (const c of game().hintCells(hint)) list.push(Array.isArray(c) ? c : [c, "hint"]);
    }
    for (const [i, cls, filled] of list) {
      const [x, y, w, h] = viewer().cellBox(view, i);
      const inset = filled ? 0 : 3;
      el(marks, "rect", { x: x + inset, y: y + inset, width: w - 2 * inset, height: h - 2 * inset, class: "mark " + cls });
    }
  }

  // The SVG point under a mouse event.
  function svgPoint(event) {
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  async function send(reply) {
    if (!st || busy) return;
    try {
      setState(await api("POST", "/api/step", { session: st.session, action: reply }));
      status("played " + reply);
    } catch (e) {
      status(e.message, true);
      redrawMarks();
    }
  }

  svg.addEventListener("click", (event) => {
    if (!st || st.over || busy) return;
    const p = svgPoint(event);
    const i = viewer().cellAt(view, p.x, p.y);
    if (i < 0) return;
    const reply = game().click(i);
    if (reply) send(reply);
    else redrawMarks();
  });
  svg.addEventListener("mousemove", (event) => {
    if (!st || !game().hover) return;
    const p = svgPoint(event);
    const i = viewer().cellAt(view, p.x, p.y);
    if (i !== ui.hover) {
      ui.hover = i;
      redrawMarks();
    }
  });
  svg.addEventListener("mouseleave", () => {
    if (st && game().hover) {
      ui.hover = -1;
      redrawMarks();
    }
  });

  async function undo() {
    if (!st || busy || !st.replies.length) return;
    try {
      setState(await api("POST", "/api/undo", { session: st.session }));
      status("took back the last reply");
    } catch (e) {
      status(e.message, true);
    }
  }

  async function askHint() {
    if (!st || st.over || busy) return;
    try {
      status("thinking...");
      const answer = await api("GET", `/api/hint?session=${st.session}`);
      hint = answer.hint;
      if (hint === null) {
        status("no hint here");
      } else {
        status("hint: " + hint, "hint");
        $("play-hint").disabled = false;
      }
      redrawMarks();
    } catch (e) {
      status(e.message, true);
    }
  }

  async function newGame() {
    if (busy) return;
    const name = $("game").value;
    const seed = Number($("seed").value);
    if (!Number.isSafeInteger(seed) || seed < 0) {
      status("the seed is a whole number from 0", true);
      return;
    }
    const body = { game: name, seed };
    const entry = games.find((g) => g.name === name);
    if (entry && entry.groups) body.group = Number($("group").value);
    try {
      status("dealing...");
      setState(await api("POST", "/api/new", body));
      status("your move");
    } catch (e) {
      status(e.message, true);
    }
  }

  function showGroups() {
    const entry = games.find((g) => g.name === $("game").value);
    const box = $("group");
    box.replaceChildren();
    $("group-label").hidden = !(entry && entry.groups);
    if (!entry || !entry.groups) return;
    const [first, last, chosen] = entry.groups;
    for (let g = first; g <= last; g++) {
      const option = document.createElement("option");
      option.value = option.textContent = g;
      option.selected = g === chosen;
      box.append(option);
    }
  }

  $("new").onclick = newGame;
  $("undo").onclick = undo;
  $("hint").onclick = askHint;
  $("play-hint").onclick = () => hint && send(hint);
  $("typed").onsubmit = (event) => {
    event.preventDefault();
    const reply = $("reply").value.trim();
    if (reply) send(reply);
  };
  $("game").onchange = showGroups;
  $("zoom").onchange = () => st && draw();
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "u") undo();
    else if (e.key === "h") askHint();
    else return;
    e.preventDefault();
  });

  (async () => {
    games = await api("GET", "/api/games");
    for (const g of games) {
      const option = document.createElement("option");
      option.value = option.textContent = g.name;
      $("game").append(option);
    }
    showGroups();
    // `#game=NAME&seed=N[&group=G]` starts that case at once.
    const asked = new URLSearchParams(location.hash.slice(1));
    if (asked.get("game") && games.some((g) => g.name === asked.get("game"))) {
      $("game").value = asked.get("game");
      showGroups();
      if (asked.get("seed")) $("seed").value = asked.get("seed");
      if (asked.get("group")) $("group").value = asked.get("group");
      newGame();
    }
  })();

  // What a person does to say `reply`: `["cell", i]` clicks, `["button", id]` presses and
  // `["value", id, text]` entries, in order. A controller may say it itself (`clicks`); else a
  // reply of one of its buttons is that button, and any other the cells its hint marks.
  function clicksFor(reply) {
    const g = game();
    if (g.clicks) return g.clicks(reply);
    if ((g.buttons || []).some(([, r]) => r === reply)) return [["button", "reply-" + reply.replace(/ /g, "-")]];
    return g.hintCells(reply).map((c) => ["cell", Array.isArray(c) ? c[0] : c]);
  }

  // For automated checks (the headless-browser test): the state, whether a request is under
  // way, the hint, the clicks that say a reply, and where cell i is on the screen (its centre,
  // in client coordinates).
  window.play = {
    ready: () => games.length > 0 && busy === 0,
    state: () => st,
    busy: () => busy > 0,
    hint: () => hint,
    clicksFor,
    cellWidth: () => viewer().cellBox(view, 0)[2] * (Number($("zoom").value) || 1),
    cellCenter(i) {
      const [x, y, w, h] = viewer().cellBox(view, i);
      const p = svg.createSVGPoint();
      p.x = x + w / 2;
      p.y = y + h / 2;
      const q = p.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y];
    },
  };
})();
