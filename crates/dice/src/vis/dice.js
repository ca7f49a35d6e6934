// Dice's replay viewer: the total as a row of cells up to the target (100), the last roll.
const viewer = {
  init: (start) => ({ total: start.total }),
  apply: (state, step) => ({ total: step.t }),
  clone: (state) => ({ total: state.total }),
  cellBox: (state, i) => [10 + 24 * (i % 15), 10 + 24 * Math.floor(i / 15), 22, 22],
  cellAt(state, x, y) {
    const col = Math.floor((x - 10) / 24), row = Math.floor((y - 10) / 24);
    return col >= 0 && col < 15 && row >= 0 && row < 7 ? row * 15 + col : -1;
  },
  draw(svg, state, step) {
    const ns = "http://www.w3.org/2000/svg";
    svg.setAttribute("width", 380);
    svg.setAttribute("height", 188);
    for (let i = 0; i < 105; i++) {
      const [x, y, w, h] = viewer.cellBox(state, i);
      const r = document.createElementNS(ns, "rect");
      for (const [k, v] of Object.entries({ x, y, width: w, height: h })) r.setAttribute(k, v);
      r.setAttribute("class", i < state.total ? (state.total > 100 ? "bust" : "filled") : i < 100 ? "empty" : "over");
      svg.appendChild(r);
    }
  },
  describe: (state, step) => (step ? `${step.m}${step.r ? " rolled " + step.r : ""}: total ${step.t}` : "total 0"),
};
