// Multiplayer reversi: an n x n board (cells row*n+col), players 1..P; player 1 is the judged
// program. Each step is one move of any player with the pieces it flipped.
const viewer = (() => {
  const CELL = 44, MARGIN = 26, PANEL = 40;
  const COLOURS = [null, "#111111", "#fafafa", "#e53935", "#1e88e5"];
  const NAMES = [null, "1 (you)", "2", "3", "4"];
  const ns = "http://www.w3.org/2000/svg";
  function el(parent, name, attrs) {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  return {
    // Where cell i is drawn, and the cell at a point (the play page's clicks).
    cellBox(state, i) {
      return [MARGIN + (i % state.n) * CELL, MARGIN + Math.floor(i / state.n) * CELL, CELL, CELL];
    },
    cellAt(state, x, y) {
      const c = Math.floor((x - MARGIN) / CELL), r = Math.floor((y - MARGIN) / CELL);
      return c >= 0 && c < state.n && r >= 0 && r < state.n ? r * state.n + c : -1;
    },
    init(start) {
      const cells = Array.from(start.rows.replace(/ /g, ""), (ch) => (ch === "." ? 0 : Number(ch)));
      return { n: start.n, players: start.players, cells, moves: 0 };
    },
    apply(state, step) {
      const cells = state.cells.slice();
      cells[step.c] = step.p;
      for (const i of step.f) cells[i] = step.p;
      return { n: state.n, players: state.players, cells, moves: state.moves + 1 };
    },
    draw(svg, state, step) {
      const side = 2 * MARGIN + state.n * CELL;
      svg.setAttribute("width", side);
      svg.setAttribute("height", side + PANEL);
      svg.setAttribute("viewBox", `0 0 ${side} ${side + PANEL}`);
      for (let k = 0; k < state.n; k++) {
        el(svg, "text", { x: MARGIN + k * CELL + CELL / 2, y: MARGIN - 8, class: "label" }).textContent = k;
        el(svg, "text", { x: MARGIN / 2, y: MARGIN + k * CELL + CELL / 2 + 4, class: "label" }).textContent = k;
      }
      const flipped = new Set(step ? step.f : []);
      for (let i = 0; i < state.n * state.n; i++) {
        const x = MARGIN + (i % state.n) * CELL, y = MARGIN + Math.floor(i / state.n) * CELL;
        el(svg, "rect", { x, y, width: CELL, height: CELL, class: "sq" });
        const owner = state.cells[i];
        if (!owner) continue;
        el(svg, "circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.4, fill: COLOURS[owner], class: "disc" });
        if (flipped.has(i)) el(svg, "circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.46, class: "flip" });
      }
      if (step) {
        const x = MARGIN + (step.c % state.n) * CELL, y = MARGIN + Math.floor(step.c / state.n) * CELL;
        el(svg, "rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "last" });
      }
      for (let p = 1; p <= state.players; p++) {
        const count = state.cells.filter((c) => c === p).length;
        const x = MARGIN + (p - 1) * 90;
        el(svg, "circle", { cx: x + 8, cy: side + 14, r: 8, fill: COLOURS[p], class: "disc" });
        el(svg, "text", { x: x + 22, y: side + 19, class: "count" }).textContent = count;
      }
    },
    describe(state, step) {
      const counts = [];
      for (let p = 1; p <= state.players; p++) counts.push(`${NAMES[p]}: ${state.cells.filter((c) => c === p).length}`);
      if (!step) return `the start (${state.players} players)\n${counts.join(", ")}`;
      const col = step.c % state.n, row = Math.floor(step.c / state.n);
      return `player ${NAMES[step.p]} played ${col} ${row} (col row), flipping ${step.f.length}\n${counts.join(", ")}`;
    },
  };
})();
