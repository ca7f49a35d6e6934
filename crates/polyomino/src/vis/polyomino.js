// Polyomino: a W x H board (cells y*W+x). Initially covered cells are dark; each placed piece
// gets its own colour. The board is painted on a canvas (up to 200x200 cells) shown in the SVG.
const viewer = (() => {
  const ns = "http://www.w3.org/2000/svg";
  const MAX_SIDE = 640;
  function el(parent, name, attrs) {
    const node = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  }
  // Distinct hues for neighbouring piece indices (golden angle).
  const colour = (k) => `hsl(${(k * 137.508) % 360}, 65%, 62%)`;

  const scaleOf = (state) => Math.max(1, Math.floor(MAX_SIDE / Math.max(state.w, state.h)));

  return {
    // Where cell i is drawn, and the cell at a point (the play page's clicks).
    cellBox(state, i) {
      const scale = scaleOf(state);
      return [(i % state.w) * scale, Math.floor(i / state.w) * scale, scale, scale];
    },
    cellAt(state, x, y) {
      const scale = scaleOf(state);
      const c = Math.floor(x / scale), r = Math.floor(y / scale);
      return c >= 0 && c < state.w && r >= 0 && r < state.h ? r * state.w + c : -1;
    },
    init(start) {
      const owner = new Int32Array(start.w * start.h);
      for (let i = 0; i < owner.length; i++) owner[i] = start.board[i] === "#" ? -1 : 0;
      return { w: start.w, h: start.h, owner, sizes: [], placed: [], last: -1 };
    },
    clone(state) {
      return { ...state, owner: state.owner.slice(), sizes: state.sizes.slice(), placed: state.placed.slice() };
    },
    apply(state, step) {
      if (step.g !== undefined) {
        state.sizes[step.g] = step.n;
        state.placed[step.g] = false;
        state.last = -1;
      } else {
        for (const cell of step.c) state.owner[cell] = step.p + 1;
        state.placed[step.p] = true;
        state.last = step.p;
      }
      return state;
    },
    draw(svg, state, step) {
      const scale = scaleOf(state);
      const width = state.w * scale, height = state.h * scale;
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      const ctx = canvas.getContext("2d");
      ctx.fillStyle = "#ffffff";
      ctx.fillRect(0, 0, width, height);
      for (let i = 0; i < state.owner.length; i++) {
        const o = state.owner[i];
        if (o === 0) continue;
        ctx.fillStyle = o < 0 ? "#3a3a3a" : colour(o - 1);
        ctx.fillRect((i % state.w) * scale, Math.floor(i / state.w) * scale, scale, scale);
      }
      svg.setAttribute("width", width + 2);
      svg.setAttribute("height", height + 2);
      svg.setAttribute("viewBox", `-1 -1 ${width + 2} ${height + 2}`);
      el(svg, "image", { x: 0, y: 0, width, height, href: canvas.toDataURL() });
      el(svg, "rect", { x: 0, y: 0, width, height, class: "frame" });
      if (step && step.c) {
        for (const cell of step.c) {
          el(svg, "rect", { x: (cell % state.w) * scale, y: Math.floor(cell / state.w) * scale, width: scale, height: scale, class: "lastpiece" });
        }
      }
    },
    describe(state, step) {
      const requested = state.sizes.length;
      const placed = state.placed.filter((p) => p).length;
      const waiting = [];
      state.sizes.forEach((n, k) => { if (!state.placed[k]) waiting.push(`#${k} (${n})`); });
      let text = step ? (step.c ? `placed piece #${step.p} (${step.c.length} cells)` : `got piece #${step.g} of ${step.n} cells`) : `the start: ${state.w} x ${state.h}`;
      text += `\nrequested ${requested}, placed ${placed}`;
      if (waiting.length) text += `\nnot placed: ${waiting.slice(0, 12).join(", ")}${waiting.length > 12 ? ", ..." : ""}`;
      return text;
    },
  };
})();
