// Solitaire chess: 6x6 stacks (cells 0..35 row-major); each shows its top piece on bronze,
// silver or gold, or nothing once used up. The recent path of removals is drawn, the last one
// bold.
const viewer = (() => {
  const SIZE = 6, CELL = 70, MARGIN = 26, TRAIL = 8;
  const SYMBOL = { torn: "\u265C", lopare: "\u265D", dam: "\u265B", springare: "\u265E" };
  const LEVELS = ["bronze", "silver", "gold", "empty"];
  const ns = "http://www.w3.org/2000/svg";
  function el(parent, name, attrs) {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  const centre = (i) => [MARGIN + (i % SIZE) * CELL + CELL / 2, MARGIN + Math.floor(i / SIZE) * CELL + CELL / 2];
  const where = (i) => `row ${Math.floor(i / SIZE) + 1}, column ${(i % SIZE) + 1}`;

  return {
    // Where cell i is drawn, and the cell at a point (the play page's clicks).
    cellBox(state, i) {
      return [MARGIN + (i % SIZE) * CELL, MARGIN + Math.floor(i / SIZE) * CELL, CELL, CELL];
    },
    cellAt(state, x, y) {
      const c = Math.floor((x - MARGIN) / CELL), r = Math.floor((y - MARGIN) / CELL);
      return c >= 0 && c < SIZE && r >= 0 && r < SIZE ? r * SIZE + c : -1;
    },
    init(start) {
      return { tops: start.tops.slice(), level: new Array(SIZE * SIZE).fill(0), path: [], b: [0, 0, 0], prev: [0, 0, 0] };
    },
    apply(state, step) {
      const tops = state.tops.slice(), level = state.level.slice();
      tops[step.c] = step.v;
      level[step.c] += 1;
      return { tops, level, path: state.path.concat([step.c]), b: step.b, prev: state.b };
    },
    draw(svg, state, step) {
      const side = 2 * MARGIN + SIZE * CELL;
      svg.setAttribute("width", side);
      svg.setAttribute("height", side + 30);
      svg.setAttribute("viewBox", `0 0 ${side} ${side + 30}`);
      for (let k = 0; k < SIZE; k++) {
        el(svg, "text", { x: MARGIN + k * CELL + CELL / 2, y: MARGIN - 8, class: "label" }).textContent = k + 1;
        el(svg, "text", { x: MARGIN / 2, y: MARGIN + k * CELL + CELL / 2 + 4, class: "label" }).textContent = k + 1;
      }
      for (let i = 0; i < SIZE * SIZE; i++) {
        const x = MARGIN + (i % SIZE) * CELL, y = MARGIN + Math.floor(i / SIZE) * CELL;
        el(svg, "rect", { x, y, width: CELL, height: CELL, class: "sq lvl" + state.level[i] });
        const name = state.tops[i];
        if (!name) continue;
        el(svg, "text", { x: x + CELL / 2, y: y + CELL / 2 + 6, class: "piece" }).textContent = SYMBOL[name] || name;
        if (SYMBOL[name]) el(svg, "text", { x: x + CELL / 2, y: y + CELL - 6, class: "pname" }).textContent = name;
      }
      // The recent path only: the whole game's would cover the board.
      const recent = state.path.slice(-TRAIL);
      if (recent.length > 1) {
        el(svg, "polyline", { points: recent.map((i) => centre(i).join(",")).join(" "), class: "path" });
      }
      if (step) {
        const n = state.path.length;
        if (n > 1) {
          const [x1, y1] = centre(state.path[n - 2]), [x2, y2] = centre(state.path[n - 1]);
          el(svg, "line", { x1, y1, x2, y2, class: "lastmove" });
        }
        const i = step.c;
        el(svg, "rect", { x: MARGIN + (i % SIZE) * CELL + 3, y: MARGIN + Math.floor(i / SIZE) * CELL + 3, width: CELL - 6, height: CELL - 6, class: "cur" });
        const gained = step.b.map((v, k) => v - state.prev[k]);
        const names = ["run", "set", "alternation"];
        const text = gained.map((g, k) => (g > 0 ? `${names[k]} +${g}` : "")).filter((t) => t).join("  ");
        if (text) el(svg, "text", { x: MARGIN, y: side + 18, class: "bonus" }).textContent = text;
      }
    },
    describe(state, step) {
      if (!step) return "the start: every stack full, the bronze pieces on top";
      const uncovered = step.v ? `uncovered ${LEVELS[state.level[step.c]]} ${step.v}` : "the stack is used up";
      const gained = step.b.map((v, k) => v - state.prev[k]);
      const bonus = ["run", "set", "alternation"].map((n, k) => (gained[k] > 0 ? ` ${n} +${gained[k]}` : "")).join("");
      return `removed ${step.p} at ${where(step.c)}; ${uncovered}\n+1 removal${bonus}\n` +
        `bonuses so far: runs ${step.b[0]}, sets ${step.b[1]}, alternation ${step.b[2]}`;
    },
  };
})();
