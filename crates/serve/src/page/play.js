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
  const controllers = {
    linez: (() => {
      const ROWS = "ABCDEFGHI";
      const NAMES = [null, "red", "green", "blue", "yellow", "purple", "cyan", "brown"];
      const name = (i) => ROWS[Math.floor(i / 9)] + ((i % 9) + 1);
      const cell = (t) => ROWS.indexOf(t[0]) * 9 + Number(t[1]) - 1;
      return {
        click(i) {
          if (view.cells[i]) {
            ui.selected = ui.selected === i ? -1 : i;
            return null;
          }
          if (ui.selected < 0) return null;
          const reply = name(ui.selected) + name(i);
          ui.selected = -1;
          return reply;
        },
        marks() {
          if (ui.selected < 0) return [];
          const from = name(ui.selected);
          const targets = legal().filter((m) => m.startsWith(from)).map((m) => [cell(m.slice(2)), "target"]);
          return [[ui.selected, "sel"], ...targets];
        },
        hintCells: (h) => [cell(h.slice(0, 2)), cell(h.slice(2, 4))],
        info: () => "next: " + view.preview.map((c) => NAMES[c]).join(", ") +
          "\nclick a ball, then an empty cell it can reach",
      };
    })(),
    tiles: (() => {
      const tile = () => {
        const lines = st.message.trim().split("\n");
        return st.over ? "" : lines[lines.length - 1].trim();
      };
      const cellOf = (m) => {
        const [r, c] = numbers(m);
        return r * view.s + c;
      };
      const placement = (m) => /^\d+ \d+$/.test(m);
      return {
        click: (i) => `${Math.floor(i / view.s)} ${i % view.s}`,
        marks: () => legal().filter(placement).map((m) => [cellOf(m), "target"]),
        hintCells: (h) => (placement(h) ? [cellOf(h)] : []),
        buttons: [["Discard", "DISCARD"], ["Give up", "GIVE UP"]],
        // The viewer draws the tile of the step it is given: give it the tile in hand.
        drawStep: () => (st.over ? null : { t: tile(), m: "DISCARD", k: view.counter }),
        info: () => {
          const t = tile();
          const what = t === "W" ? "a wildcard" : t === "R" ? "a remover" : `colour ${t[0]}, shape ${t[1]}`;
          return (t ? `tile in hand: ${t} (${what})\n` : "") + `discards ${view.counter} of ${view.d}` +
            "\nclick a cell to place the tile";
        },
      };
    })(),
    reversi: (() => {
      const cellOf = (m) => {
        const [c, r] = numbers(m);
        return r * view.n + c;
      };
      return {
        click: (i) => `${i % view.n} ${Math.floor(i / view.n)}`,
        marks: () => legal().map((m) => [cellOf(m), "target"]),
        hintCells: (h) => [cellOf(h)],
        info: () => {
          const counts = [];
          for (let p = 1; p <= view.players; p++) counts.push(`player ${p}${p === 1 ? " (you)" : ""}: ${view.cells.filter((c) => c === p).length}`);
          return `you are player 1 (black) of ${view.players}; the others move by themselves\n` + counts.join("\n");
        },
      };
    })(),
    polyomino: (() => {
      // The piece requested last while it is not placed, from the contest's answer to GET.
      const piece = () => {
        const last = st.steps[st.steps.length - 1];
        if (st.over || !last || last.g === undefined || view.placed[last.g]) return null;
        const lines = st.message.trim().split("\n");
        const [index, h, w] = numbers(lines[0]);
        const cells = [];
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) if ((lines[1 + y] || "")[x] === "X") cells.push([x, y]);
        }
        return { index, w, h, cells };
      };
      // Quarter turns counter-clockwise: (x, y) in a w x h box goes to (y, w - 1 - x).
      const turned = (p, r) => {
        let { cells, w, h } = p;
        for (let k = 0; k < r % 4; k++) {
          cells = cells.map(([x, y]) => [y, w - 1 - x]);
          [w, h] = [h, w];
        }
        return { cells, w, h };
      };
      const covering = (p, rotation, anchor) => {
        const t = turned(p, rotation);
        const ax = anchor % view.w, ay = Math.floor(anchor / view.w);
        const cells = [];
        let fits = true;
        for (const [x, y] of t.cells) {
          const cx = ax + x, cy = ay + y;
          if (cx >= view.w || cy >= view.h) {
            fits = false;
            continue;
          }
          const i = cy * view.w + cx;
          if (view.owner[i] !== 0) fits = false;
          cells.push(i);
        }
        return { cells, fits };
      };
      return {
        click(i) {
          const p = piece();
          if (!p) {
            status("ask for a piece first (size, then Get)", true);
            return null;
          }
          return `PLACE ${p.index} ${i % view.w} ${Math.floor(i / view.w)} ${ui.rotation}`;
        },
        marks() {
          const p = piece();
          if (!p || ui.hover < 0) return [];
          const { cells, fits } = covering(p, ui.rotation, ui.hover);
          return cells.map((i) => [i, fits ? "fit" : "nofit", true]);
        },
        hover: true,
        hintCells(h) {
          const words = h.split(" ");
          if (words[0] === "GET") $("size").value = words[1];
          if (words[0] !== "PLACE") return [];
          const p = piece();
          const [index, x, y, r] = words.slice(1).map(Number);
          if (!p || p.index !== index) return [];
          return covering(p, r, y * view.w + x).cells.map((i) => [i, "hintcell", true]);
        },
        controls(box) {
          const size = document.createElement("input");
          Object.assign(size, { id: "size", type: "number", min: 3, max: 1000, value: 5 });
          size.style.width = "5em";
          const label = document.createElement("label");
          label.append("size ", size);
          box.append(label);
          button(box, "Get", () => send(`GET ${size.value}`), "get");
          button(box, "Rotate", () => {
            ui.rotation = (ui.rotation + 1) % 4;
            showInfo();
            redrawMarks();
          }, "rotate");
          button(box, "Done", () => send("DONE"), "done");
        },
        info() {
          const p = piece();
          const requested = view.sizes.length, placed = view.placed.filter((x) => x).length;
          let text = `board ${view.w} x ${view.h}; pieces requested ${requested}, placed ${placed}\n`;
          if (p) {
            const t = turned(p, ui.rotation);
            const rows = [];
            for (let y = 0; y < t.h; y++) {
              let row = "";
              for (let x = 0; x < t.w; x++) row += t.cells.some(([cx, cy]) => cx === x && cy === y) ? "#" : ".";
              rows.push(row);
            }
            const shown = rows.length > 16 ? rows.slice(0, 16).concat(["..."]) : rows;
            text += `piece #${p.index} (${p.cells.length} cells), rotation ${ui.rotation}; click where its box's top left goes:\n` + shown.join("\n");
          } else {
            text += "ask for a piece: its size, then Get (or Done to finish)";
          }
          return text;
        },
      };
    })(),
    solitaire: (() => {
      const cellOf = (m) => {
        const [r, c] = numbers(m);
        return (r - 1) * 6 + (c - 1);
      };
      return {
        click: (i) => `${Math.floor(i / 6) + 1} ${(i % 6) + 1}`,
        marks: () => legal().filter((m) => m !== "0 0").map((m) => [cellOf(m), "target"]),
        hintCells: (h) => (h === "0 0" ? [] : [cellOf(h)]),
        buttons: [["Stop (0 0)", "0 0"]],
        info: () => {
          // After a removal the contest tells the piece it uncovered, in one line.
          const reveal = st.message.trim();
          const last = st.replies.length && !st.over && !reveal.includes("\n") ? `last uncovered: ${reveal}\n` : "";
          return last + "click a stack to remove its top piece (a move the last piece allows)";
        },
      };
    })(),
  };
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

  // For automated checks (the headless-browser test): the state, whether a request is under
  // way, the hint, and where cell i is on the screen (its centre, in client coordinates).
  window.play = {
    ready: () => games.length > 0 && busy === 0,
    state: () => st,
    busy: () => busy > 0,
    hint: () => hint,
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
