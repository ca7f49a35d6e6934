// Tiles's controller on the play page of `marathon serve`: how a click on cell i reads as a
// reply (or only selects), what to mark, which cells a reply (the hint) names, the buttons it
// needs, and what the contest shows besides the board. The page includes this script inside its
// own scope; what it may use there is listed at the top of the page's play.js.
const controller = (() => {
  const tile = () => {
    const lines = st.message.trim().split("\n");
    return st.over ? "" : lines[lines.length - 1].trim();
  };
  const cellOf = (m) => {
    const [r, c] = numbers(m);
    return r * view.s + c;
  };
  const placement = (m) => /^\d+ \d+$/.test(m);
  return {
    click: (i) => `${Math.floor(i / view.s)} ${i % view.s}`,
    marks: () => legal().filter(placement).map((m) => [cellOf(m), "target"]),
    hintCells: (h) => (placement(h) ? [cellOf(h)] : []),
    buttons: [["Discard", "DISCARD"], ["Give up", "GIVE UP"]],
    // The viewer draws the tile of the step it is given: give it the tile in hand.
    drawStep: () => (st.over ? null : { t: tile(), m: "DISCARD", k: view.counter }),
    info: () => {
      const t = tile();
      const what = t === "W" ? "a wildcard" : t === "R" ? "a remover" : `colour ${t[0]}, shape ${t[1]}`;
      return (t ? `tile in hand: ${t} (${what})\n` : "") + `discards ${view.counter} of ${view.d}` +
        "\nclick a cell to place the tile";
    },
  };
})();
