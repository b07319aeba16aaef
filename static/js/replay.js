// Hanabi replay viewer: steps through server-built frames forward and back. Every piece of
// game or model text is inserted with textContent, so nothing a model wrote can become markup.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root) { return; }
  var data = JSON.parse(document.getElementById(root.dataset.replay).textContent);
  var frames = data.frames || [];
  var index = 0;
  var slider = document.getElementById("replay-slider");
  slider.max = String(Math.max(frames.length - 1, 0));

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function card(name, known) {
    var node = el("span", "hcard c-" + String(name).charAt(0), name);
    if (known !== undefined) { node.appendChild(el("small", "", known)); }
    return node;
  }
  function render() {
    var f = frames[index];
    root.dataset.index = String(index);
    slider.value = String(index);
    document.getElementById("replay-position").textContent =
      "turn " + f.turn + " (" + (index + 1) + " of " + frames.length + ")";
    document.getElementById("replay-status").textContent =
      "HLE score " + f.score + (f.fireworks_total !== undefined && f.fireworks_total !== f.score ?
        " (fireworks total " + f.fireworks_total + ")" : "") + " · hints " + f.info_tokens + " · lives " + f.lives + " · deck " + f.deck +
      (f.end ? " · game over: " + f.end : "");
    var fw = document.getElementById("replay-fireworks");
    fw.replaceChildren();
    Object.keys(f.fireworks).forEach(function (c) { fw.appendChild(card(c + f.fireworks[c])); });
    var hands = document.getElementById("replay-hands");
    hands.replaceChildren();
    f.hands.forEach(function (h) {
      var box = el("div", "hand" + (h.seat === f.current ? " current" : ""));
      box.appendChild(el("div", "seat", "P" + h.seat + (h.model ? " · " + h.model : "") +
        (h.seat === f.current ? " (to move)" : "")));
      var cards = el("div", "hand-cards");
      // what the others see (the true card) over what this seat knows from hints
      h.cards.forEach(function (c, i) { cards.appendChild(card(c, "knows " + h.knows[i])); });
      box.appendChild(cards);
      hands.appendChild(box);
    });
    var mv = document.getElementById("replay-move");
    mv.replaceChildren();
    mv.className = "move";
    if (f.move) {
      if (f.move.fallback) { mv.className = "move fallback"; }
      mv.appendChild(el("div", "", "Move: P" + f.move.seat + (f.move.agent ? " (" + f.move.agent + ")" : "") +
        ": " + f.move.describe + " [" + f.move.text + "]"));
      if (f.move.fallback) {
        mv.appendChild(el("div", "fallback-flag", "fallback move" + (f.move.fallback_reason ? ": " + f.move.fallback_reason : "")));
      }
      if (f.move.rule) { mv.appendChild(el("div", "", "bot rule: " + f.move.rule)); }
      if (f.move.parsed) { mv.appendChild(el("div", "", "parsed: " + f.move.parsed)); }
      if (f.move.reason) { mv.appendChild(el("div", "", "stated reason: " + f.move.reason)); }
      if (f.move.regret !== null && f.move.regret !== undefined) {
        mv.appendChild(el("div", "", "regret: " + Number(f.move.regret).toFixed(2) +
          (f.move.regret_se !== null && f.move.regret_se !== undefined ?
            " ± " + Number(f.move.regret_se).toFixed(2) + " (SE)" : "")));
      }
      (f.move.replies || []).forEach(function (reply, i) {
        var details = el("details", "reply");
        var rejected = f.move.errors && i < f.move.errors.length && (i < f.move.replies.length - 1 || f.move.fallback);
        details.appendChild(el("summary", "", "model reply " + (i + 1) + (rejected ? " (rejected: " + f.move.errors[i] + ")" : "")));
        details.appendChild(el("pre", "text", reply));
        if (i === f.move.replies.length - 1) { details.open = true; }
        mv.appendChild(details);
      });
    } else {
      mv.appendChild(el("div", "", "end of game"));
    }
    var dis = document.getElementById("replay-discards");
    dis.replaceChildren();
    dis.appendChild(el("span", "", "discards: "));
    var list = el("span", "discards-list");
    f.discards.forEach(function (c) { list.appendChild(card(c)); });
    dis.appendChild(list);
  }
  function go(i) { index = Math.max(0, Math.min(frames.length - 1, i)); render(); }
  root.querySelectorAll("[data-step]").forEach(function (b) {
    b.addEventListener("click", function () {
      var s = b.dataset.step;
      go(s === "first" ? 0 : s === "last" ? frames.length - 1 : s === "next" ? index + 1 : index - 1);
    });
  });
  slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { go(index + 1); } else if (e.key === "ArrowLeft") { go(index - 1); }
  });
  if (frames.length) { render(); }
})();
