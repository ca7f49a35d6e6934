// Dice's controller on the play page of `marathon serve`: two buttons.
const controller = {
  click: () => null,
  marks: () => [],
  hintCells: () => [],
  buttons: [["Roll", "ROLL"], ["Stop", "STOP"]],
  info: () => `total ${view.total} of 100: roll, or stop and keep it`,
};
