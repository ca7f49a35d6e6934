// TilesMatching: an S x S board (rows and columns 0..S-1). A regular tile has a colour (fill)
// and a shape (glyph), each below N; W is a wildcard; R removes a tile.
const viewer = (() => {
  const CELL = 46, MARGIN = 24, TOP = 70;
  const GLYPHS = ["\u25CF", "\u25A0", "\u25B2", "\u25C6", "\u2605", "\u2665", "\u2663", "\u2660", "\u271A", "\u25BC"];
  const ns = "http://www.w3.org/2000/svg";
  function el(parent, name, attrs) {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  // Ten colours told apart at a glance (N is at most 10).
  const PALETTE = ["#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#42b4c4", "#f032e6", "#9a6324", "#808000", "#000075"];
  const hue = (colour) => PALETTE[colour % PALETTE.length];
  function drawTile(svg, text, n, x, y) {
    if (text === "W") {
      el(svg, "rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, fill: "#ffffff", class: "tile" });
      el(svg, "text", { x: x + CELL / 2, y: y + CELL / 2 + 7, class: "wild" }).textContent = "W";
    } else if (text === "R") {
      el(svg, "text", { x: x + CELL / 2, y: y + CELL / 2 + 7, class: "wild" }).textContent = "R";
    } else {
      const colour = Number(text[0]), shape = Number(text[1]);
      el(svg, "rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 6, fill: hue(colour, n), class: "tile" });
      el(svg, "text", { x: x + CELL / 2, y: y + CELL / 2 + 7, class: "glyph" }).textContent = GLYPHS[shape % GLYPHS.length];
    }
  }
  return {
    // Where cell i is drawn, and the cell at a point (the play page's clicks).
    cellBox(state, i) {
      return [MARGIN + (i % state.s) * CELL, TOP + Math.floor(i / state.s) * CELL, CELL, CELL];
    },
    cellAt(state, x, y) {
      const c = Math.floor((x - MARGIN) / CELL), r = Math.floor((y - TOP) / CELL);
      return c >= 0 && c < state.s && r >= 0 && r < state.s ? r * state.s + c : -1;
    },
    init(start) {
      return { n: start.n, s: start.s, d: start.d, cells: new Array(start.s * start.s).fill(null), counter: 0, cleared: null };
    },
    apply(state, step) {
      const cells = state.cells.slice();
      let cleared = null;
      if (step.m !== "DISCARD" && step.m !== "GIVE UP") {
        const [r, c] = step.m.split(" ").map(Number);
        const i = r * state.s + c;
        if (step.t === "R") cells[i] = null;
        else cells[i] = step.t;
        if (step.x) {
          cleared = { r: step.x.includes("r") ? r : -1, c: step.x.includes("c") ? c : -1 };
          for (let k = 0; k < state.s; k++) {
            if (cleared.r >= 0) cells[cleared.r * state.s + k] = null;
            if (cleared.c >= 0) cells[k * state.s + cleared.c] = null;
          }
        }
      }
      return { n: state.n, s: state.s, d: state.d, cells, counter: step.k, cleared };
    },
    draw(svg, state, step) {
      const side = 2 * MARGIN + state.s * CELL;
      svg.setAttribute("width", side);
      svg.setAttribute("height", TOP + state.s * CELL + MARGIN);
      svg.setAttribute("viewBox", `0 0 ${side} ${TOP + state.s * CELL + MARGIN}`);
      el(svg, "text", { x: MARGIN, y: 22, class: "label" }).textContent = `N=${state.n} S=${state.s} D=${state.d}`;
      el(svg, "text", { x: MARGIN, y: 42, class: "label" }).textContent = `discards ${state.counter} / ${state.d}`;
      if (step) {
        el(svg, "text", { x: side - MARGIN - CELL - 70, y: 36, class: "label" }).textContent = "tile:";
        drawTile(svg, step.t, state.n, side - MARGIN - CELL - 30, 8);
      }
      for (let i = 0; i < state.s * state.s; i++) {
        const r = Math.floor(i / state.s), c = i % state.s;
        const x = MARGIN + c * CELL, y = TOP + r * CELL;
        const flash = state.cleared && (state.cleared.r === r || state.cleared.c === c);
        el(svg, "rect", { x, y, width: CELL, height: CELL, class: flash ? "sq flash" : "sq" });
        if (state.cells[i]) drawTile(svg, state.cells[i], state.n, x, y);
      }
      if (step && step.m.includes(" ") && step.m !== "GIVE UP") {
        const [r, c] = step.m.split(" ").map(Number);
        el(svg, "rect", { x: MARGIN + c * CELL + 1, y: TOP + r * CELL + 1, width: CELL - 2, height: CELL - 2, class: "last" });
      }
    },
    describe(state, step) {
      if (!step) return "the start: an empty board";
      const placed = state.cells.filter((c) => c).length;
      let text = `tile ${step.t}: ${step.m}`;
      if (step.x) text += step.x === "rc" ? `\ncleared a row and a column (+${3 * state.s})` : `\ncleared a ${step.x === "r" ? "row" : "column"} (+${state.s})`;
      return text + `\n${placed} tiles on the board`;
    },
  };
})();
