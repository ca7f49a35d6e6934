// Dice's replay viewer: the total as a row of cells up to the target (21), the last roll.
const viewer = {
  init: (start) => ({ total: start.total }),
  apply: (state, step) => ({ total: step.t }),
  clone: (state) => ({ total: state.total }),
  cellBox: (state, i) => [10 + 24 * (i % 11), 10 + 24 * Math.floor(i / 11), 22, 22],
  cellAt(state, x, y) {
    const col = Math.floor((x - 10) / 24), row = Math.floor((y - 10) / 24);
    return col >= 0 && col < 11 && row >= 0 && row < 3 ? row * 11 + col : -1;
  },
  draw(svg, state, step) {
    const ns = "http://www.w3.org/2000/svg";
    svg.setAttribute("width", 284);
    svg.setAttribute("height", 84);
    for (let i = 0; i < 27; i++) {
      const [x, y, w, h] = viewer.cellBox(state, i);
      const r = document.createElementNS(ns, "rect");
      for (const [k, v] of Object.entries({ x, y, width: w, height: h })) r.setAttribute(k, v);
      r.setAttribute("class", i < state.total ? (state.total > 21 ? "bust" : "filled") : i < 21 ? "empty" : "over");
      svg.appendChild(r);
    }
  },
  describe: (state, step) => (step ? `${step.m}${step.r ? " rolled " + step.r : ""}: total ${step.t}` : "total 0"),
};
