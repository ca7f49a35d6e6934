// Reversi's controller on the play page of `marathon serve`: how a click on cell i reads as a
// reply (or only selects), what to mark, which cells a reply (the hint) names, the buttons it
// needs, and what the contest shows besides the board. The page includes this script inside its
// own scope; what it may use there is listed at the top of the page's play.js.
const controller = (() => {
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
})();
