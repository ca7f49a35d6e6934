// Linez: a 9x9 board of coloured balls (cells 0..80 row-major, colours 1..7) and the preview.
const viewer = (() => {
  const SIZE = 9, CELL = 44, MARGIN = 24, TOP = 64;
  const COLOURS = [null, "#e53935", "#43a047", "#1e88e5", "#fdd835", "#8e24aa", "#00acc1", "#6d4c41"];
  const NAMES = [null, "red", "green", "blue", "yellow", "purple", "cyan", "brown"];
  const ns = "http://www.w3.org/2000/svg";
  const digits = (text) => Array.from(text, (ch) => (ch === "." ? 0 : Number(ch)));
  const cellName = (i) => "ABCDEFGHI"[Math.floor(i / SIZE)] + ((i % SIZE) + 1);
  const parseCell = (text) => "ABCDEFGHI".indexOf(text[0]) * SIZE + (Number(text[1]) - 1);

  function el(parent, name, attrs) {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  const centre = (i) => [MARGIN + (i % SIZE) * CELL + CELL / 2, TOP + Math.floor(i / SIZE) * CELL + CELL / 2];

  return {
    // Where cell i is drawn, and the cell at a point (the play page's clicks).
    cellBox(state, i) {
      return [MARGIN + (i % SIZE) * CELL, TOP + Math.floor(i / SIZE) * CELL, CELL, CELL];
    },
    cellAt(state, x, y) {
      const c = Math.floor((x - MARGIN) / CELL), r = Math.floor((y - TOP) / CELL);
      return c >= 0 && c < SIZE && r >= 0 && r < SIZE ? r * SIZE + c : -1;
    },
    init(start) {
      return { cells: digits(start.board), preview: digits(start.preview) };
    },
    apply(state, step) {
      const cells = state.cells.slice();
      if (step.m) {
        const from = parseCell(step.m.slice(0, 2)), to = parseCell(step.m.slice(2, 4));
        cells[to] = cells[from];
        cells[from] = 0;
      }
      for (const i of step.c || []) cells[i] = 0;
      for (const [i, colour] of step.s || []) cells[i] = colour;
      for (const i of step.x || []) cells[i] = 0;
      return { cells, preview: digits(step.p) };
    },
    draw(svg, state, step) {
      const width = 2 * MARGIN + SIZE * CELL, height = TOP + SIZE * CELL + MARGIN;
      svg.setAttribute("width", width);
      svg.setAttribute("height", height);
      svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
      el(svg, "text", { x: MARGIN, y: 26, class: "label", "text-anchor": "start" }).textContent = "next:";
      state.preview.forEach((colour, k) => {
        el(svg, "circle", { cx: MARGIN + 62 + k * 30, cy: 22, r: 11, fill: COLOURS[colour], class: "ball" });
      });
      for (let c = 0; c < SIZE; c++) {
        el(svg, "text", { x: MARGIN + c * CELL + CELL / 2, y: TOP - 6, class: "label" }).textContent = c + 1;
      }
      for (let r = 0; r < SIZE; r++) {
        el(svg, "text", { x: MARGIN / 2, y: TOP + r * CELL + CELL / 2 + 4, class: "label" }).textContent = "ABCDEFGHI"[r];
      }
      const flashed = new Set([...(step && step.c) || [], ...(step && step.x) || []]);
      for (let i = 0; i < SIZE * SIZE; i++) {
        const x = MARGIN + (i % SIZE) * CELL, y = TOP + Math.floor(i / SIZE) * CELL;
        el(svg, "rect", { x, y, width: CELL, height: CELL, class: flashed.has(i) ? "cell cleared" : "cell" });
        if (state.cells[i]) {
          const [cx, cy] = centre(i);
          el(svg, "circle", { cx, cy, r: CELL * 0.38, fill: COLOURS[state.cells[i]], class: "ball" });
        }
      }
      if (!step) return;
      for (const [i] of step.s || []) {
        if (!state.cells[i]) continue;
        const [cx, cy] = centre(i);
        el(svg, "circle", { cx, cy, r: CELL * 0.16, class: "spawned" });
      }
      if (step.m) {
        for (const [part, cls] of [[step.m.slice(0, 2), "from"], [step.m.slice(2, 4), "to"]]) {
          const i = parseCell(part);
          el(svg, "rect", { x: MARGIN + (i % SIZE) * CELL + 2, y: TOP + Math.floor(i / SIZE) * CELL + 2, width: CELL - 4, height: CELL - 4, class: cls });
        }
      }
    },
    describe(state, step) {
      if (!step) return "the start";
      const parts = [step.m ? "move " + step.m : "pass (empty board)"];
      if (step.c) parts.push(`cleared ${step.c.length} balls`);
      if (step.s) parts.push("spawned " + step.s.map(([i, c]) => `${NAMES[c]} ${cellName(i)}`).join(", "));
      if (step.x) parts.push(`the spawn cleared ${step.x.length} balls`);
      const balls = state.cells.filter((c) => c).length;
      return parts.join("\n") + `\n${balls} balls on the board`;
    },
  };
})();
