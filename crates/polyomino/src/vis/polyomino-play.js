// Polyomino's controller on the play page of `marathon serve`: how a click on cell i reads as a
// reply (or only selects), what to mark, which cells a reply (the hint) names, the buttons it
// needs, and what the contest shows besides the board. The page includes this script inside its
// own scope; what it may use there is listed at the top of the page's play.js.
const controller = (() => {
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
    clicks(reply) {
      const words = reply.split(" ");
      if (words[0] === "GET") return [["value", "size", words[1]], ["button", "get"]];
      if (words[0] !== "PLACE") return [["button", "done"]];
      const [x, y, r] = words.slice(2).map(Number);
      const turns = (r - ui.rotation + 4) % 4;
      return [...Array(turns).fill(["button", "rotate"]), ["cell", y * view.w + x]];
    },
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
})();
