// Linez's controller on the play page of `marathon serve`: how a click on cell i reads as a
// reply (or only selects), what to mark, which cells a reply (the hint) names, the buttons it
// needs, and what the contest shows besides the board. The page includes this script inside its
// own scope; what it may use there is listed at the top of the page's play.js.
const controller = (() => {
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
})();
