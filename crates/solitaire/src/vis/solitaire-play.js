// Solitaire's controller on the play page of `marathon serve`: how a click on cell i reads as a
// reply (or only selects), what to mark, which cells a reply (the hint) names, the buttons it
// needs, and what the contest shows besides the board. The page includes this script inside its
// own scope; what it may use there is listed at the top of the page's play.js.
const controller = (() => {
  const cellOf = (m) => {
    const [r, c] = numbers(m);
    return (r - 1) * 6 + (c - 1);
  };
  return {
    click: (i) => `${Math.floor(i / 6) + 1} ${(i % 6) + 1}`,
    marks: () => legal().filter((m) => m !== "0 0").map((m) => [cellOf(m), "target"]),
    hintCells: (h) => (h === "0 0" ? [] : [cellOf(h)]),
    buttons: [["Stop (0 0)", "0 0"]],
    info: () => {
      // After a removal the contest tells the piece it uncovered, in one line.
      const reveal = st.message.trim();
      const last = st.replies.length && !st.over && !reveal.includes("\n") ? `last uncovered: ${reveal}\n` : "";
      return last + "click a stack to remove its top piece (a move the last piece allows)";
    },
  };
})();
