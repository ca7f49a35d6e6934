// The controls every replay shares. The game's `viewer` (defined before this script) rebuilds
// positions: init(start) -> state, apply(state, step) -> state (it may change and return the
// state it is given), draw(svg, state, step), describe(state, step) -> text, and optionally
// clone(state) (default: structuredClone). Copies are kept at checkpoints and positions are
// rebuilt forward from the nearest one, so a long game costs little memory and any step shows
// at once.
"use strict";
(function () {
  const data = JSON.parse(document.getElementById("replay-data").textContent);
  const steps = data.steps;
  const CHECKPOINT = 64;
  const clone = viewer.clone || ((state) => structuredClone(state));
  const checkpoints = [];
  {
    let state = viewer.init(data.start);
    checkpoints.push(clone(state));
    for (let i = 0; i < steps.length; i++) {
      state = viewer.apply(state, steps[i]);
      if ((i + 1) % CHECKPOINT === 0) checkpoints.push(clone(state));
    }
  }
  // The position after `index` steps (0 = the start).
  function stateAt(index) {
    const k = Math.floor(index / CHECKPOINT);
    let state = clone(checkpoints[k]);
    for (let i = k * CHECKPOINT; i < index; i++) state = viewer.apply(state, steps[i]);
    return state;
  }

  const $ = (id) => document.getElementById(id);
  const svgNs = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNs, "svg");
  $("stage").appendChild(svg);
  const slider = $("slider");
  slider.max = steps.length;
  const params = data.params.map(([k, v]) => k + "=" + v).join(" ");
  $("case").textContent = data.game + " " + data.case + (params ? " (" + params + ")" : "");
  $("final").textContent = data.score + " in " + data.moves + " moves, " +
    (data.time_ms / 1000).toFixed(2) + " s" +
    (data.max_rss_kib == null ? "" : ", peak memory " + (data.max_rss_kib / 1024).toFixed(1) + " MiB");

  let index = 0;
  let timer = null;
  function show(i) {
    index = Math.max(0, Math.min(steps.length, i));
    const state = stateAt(index);
    const step = index > 0 ? steps[index - 1] : null;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    viewer.draw(svg, state, step);
    slider.value = index;
    $("step").textContent = index + " / " + steps.length;
    $("score").textContent = step && step.score !== undefined ? step.score : 0;
    $("event").textContent = viewer.describe(state, step);
    const atEnd = index === steps.length;
    const verdict = $("verdict");
    verdict.textContent = atEnd ? data.verdict : "";
    verdict.className = atEnd ? (data.ok ? "okv" : "fail") : "";
    if (atEnd) pause();
  }
  function play() {
    if (index >= steps.length) show(0);
    const delay = 1000 / Number($("speed").value);
    timer = setInterval(() => show(index + 1), delay);
    $("play").textContent = "pause";
  }
  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    $("play").textContent = "play";
  }
  const toggle = () => (timer === null ? play() : pause());

  $("first").onclick = () => { pause(); show(0); };
  $("back").onclick = () => { pause(); show(index - 1); };
  $("forward").onclick = () => { pause(); show(index + 1); };
  $("last").onclick = () => { pause(); show(steps.length); };
  $("play").onclick = toggle;
  $("speed").onchange = () => { if (timer !== null) { pause(); play(); } };
  slider.oninput = () => { pause(); show(Number(slider.value)); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { pause(); show(index + 1); }
    else if (e.key === "ArrowLeft") { pause(); show(index - 1); }
    else if (e.key === "Home") { pause(); show(0); }
    else if (e.key === "End") { pause(); show(steps.length); }
    else if (e.key === " ") { toggle(); }
    else return;
    e.preventDefault();
  });
  // For automated checks (the headless-browser test): step and read the page's state.
  window.replay = { show, steps: steps.length, index: () => index };

  // `#step=N` opens at step N; `#selftest` steps through the game forward and back and
  // writes the result into <body data-selftest="..."> for a headless browser to read.
  const hash = location.hash.slice(1);
  const at = /^step=(\d+)$/.exec(hash);
  if (hash === "selftest") {
    let result;
    try {
      show(0);
      const first = svg.innerHTML;
      let changed = false;
      // At most a few hundred views each way; the last step and the start are always shown.
      const stride = Math.max(1, Math.ceil(steps.length / 300));
      for (let i = 1; i <= steps.length; i += stride) {
        show(i);
        changed = changed || svg.innerHTML !== first;
      }
      show(steps.length);
      changed = changed || svg.innerHTML !== first;
      for (let i = steps.length; i >= 0; i -= stride) show(i);
      show(0);
      const back = svg.innerHTML === first;
      result = changed && back ? "ok" : `failed: changed=${changed} back-at-start=${back}`;
      result += ` steps=${steps.length}`;
    } catch (e) {
      result = "error: " + e;
    }
    document.body.dataset.selftest = result + (window.replayErrors.length ? " script-errors: " + window.replayErrors.join("; ") : "");
  } else {
    show(at ? Number(at[1]) : 0);
  }
})();
