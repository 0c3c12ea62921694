/* Ludex rules site: a query that names a rule ("3.2", "500.1c", "rule 3.2", "agot 3.2", or a heading id
 * such as "myers-actions.stalk" or "halloween game-end.victims-win") gets a direct jump to that rule at
 * the top of the search results, and Enter goes there. The rules come from ludex-rules.js
 * (window.LUDEX_RULES), generated with the pages. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL("..", script && script.src ? script.src : window.location.href);
  // [game] [rule|step|section] id: a number (3.2, 500.1c) or a heading id (setup, myers-actions.stalk),
  // as the grammar's RULE_ID has them. "rule" and its kin are never read as a game.
  var PREFIX = /(?:(?!(?:rule|step|section)\s)([a-z][a-z0-9_-]*)\s+)?(?:(?:rule|step|section)\s+)?/;
  var ID = /([0-9]+[a-z]?(?:\.[0-9]+[a-z]?)*|[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)*)/;
  var RULE = new RegExp("^" + PREFIX.source + ID.source + "\\.?$", "i");
  var NUMBERED = /^[0-9]/;

  function data() { return window.LUDEX_RULES || {}; }

  function currentGame() {
    var here = window.location.href;
    var games = data();
    for (var key in games) {
      if (here.indexOf(new URL(games[key].root, base).href) === 0) return key;
    }
    return null;
  }

  /* The rules a query names, the current game's first. */
  function lookup(query) {
    var m = RULE.exec((query || "").trim());
    if (!m) return [];
    var games = data(), wanted = m[1] ? m[1].toLowerCase() : null, id = m[2].toLowerCase();
    if (wanted && !games[wanted]) {
      // "foo 3.2" still finds rule 3.2; but "the setup" or "draw cards" are words, not a heading id
      if (!NUMBERED.test(id)) return [];
      wanted = null;
    }
    var here = currentGame(), found = [];
    for (var key in games) {
      if (wanted && key !== wanted) continue;
      var rule = games[key].rules[id];
      if (rule) {
        found.push({ game: key, gameTitle: games[key].title, id: id, url: new URL(rule[0], base).href,
                     title: rule[1], outside: !!rule[2] });
      }
    }
    found.sort(function (a, b) { return (b.game === here) - (a.game === here); });
    return found;
  }

  function text(tag, value, cls) {
    var el = document.createElement(tag);
    el.textContent = value;
    if (cls) el.className = cls;
    return el;
  }

  function item(rule) {
    var li = document.createElement("li");
    li.className = "md-search-result__item ludex-jump";
    li.setAttribute("data-ludex-jump", rule.game + ":" + rule.id);
    var a = document.createElement("a");
    a.className = "md-search-result__link";
    a.href = rule.url;
    a.tabIndex = -1;
    var article = document.createElement("article");
    article.className = "md-search-result__article md-typeset";
    article.setAttribute("data-md-score", "1000000000");
    var icon = document.createElement("div");
    icon.className = "md-search-result__icon md-icon";
    article.appendChild(icon);
    article.appendChild(text("h1", NUMBERED.test(rule.id) ? "Rule " + rule.id + " " + rule.title : rule.title));
    article.appendChild(text("p", "Go to rule " + rule.id + " of " + rule.gameTitle +
      (rule.outside ? " (outside the transcribed source)" : "")));
    a.appendChild(article);
    li.appendChild(a);
    return li;
  }

  var input = document.querySelector("[data-md-component=search-query]");
  var list = document.querySelector(".md-search-result__list");
  if (!input || !list) return;
  var busy = false;

  function update() {
    if (busy) return;
    busy = true;
    try {
      var rules = lookup(input.value);
      var want = rules.map(function (r) { return r.game + ":" + r.id; }).join(" ");
      var have = Array.prototype.filter.call(list.children, function (li) {
        return li.hasAttribute("data-ludex-jump");
      });
      var current = have.map(function (li) { return li.getAttribute("data-ludex-jump"); }).join(" ");
      var inPlace = have.every(function (li, i) { return list.children[i] === li; });
      if (want === current && inPlace) return;
      have.forEach(function (li) { li.remove(); });
      for (var i = rules.length - 1; i >= 0; i--) list.insertBefore(item(rules[i]), list.firstChild);
    } finally {
      busy = false;
    }
  }

  /* Close the search and go to a rule. On a phone, Material locks the page's scrolling while the search
   * is open (data-md-scrolllock on the body, which is then fixed in place) and, 100 ms after the search
   * closes, unlocks it and scrolls back to where the reader was: a jump to a rule on the same page made
   * before that does not move the page, or is undone. So the jump waits for the unlock. The search's
   * backdrop, a circle scaled up 45 times, goes without its animation; but while it was large, so was a
   * phone's layout viewport, which shrinks back a few frames later (no resize event says so) and moves
   * the page: so for a second the rule is brought back into view whenever the viewport's size changed. */
  function go(url) {
    var overlay = document.querySelector(".md-search__overlay");
    if (overlay) overlay.style.transition = "none";
    var toggle = document.querySelector("[data-md-toggle=search]");
    if (toggle && toggle.checked) {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change"));
    }
    input.blur();
    var body = document.body, observer = null, done = false;

    function jump() {
      if (done) return;
      done = true;
      if (observer) observer.disconnect();
      if (overlay) overlay.style.transition = "";
      var target = new URL(url, window.location.href), here = window.location;
      if (target.pathname !== here.pathname || target.search !== here.search) {
        window.location.href = target.href;
        return;
      }
      var el = document.getElementById(decodeURIComponent(target.hash.slice(1)));
      if (target.hash !== here.hash) {
        window.location.hash = target.hash;
      } else if (el) {             // the rule already in the address: going there again would not scroll
        el.scrollIntoView();
      }
      if (!el) return;
      var size = window.innerWidth + "x" + window.innerHeight, until = Date.now() + 1000;
      (function keep() {
        var now = window.innerWidth + "x" + window.innerHeight;
        if (now !== size) {
          size = now;
          el.scrollIntoView();
        }
        if (Date.now() < until) window.requestAnimationFrame(keep);
      })();
    }
    if (!body.hasAttribute("data-md-scrolllock")) return jump();
    observer = new MutationObserver(function () {
      if (!body.hasAttribute("data-md-scrolllock")) jump();
    });
    observer.observe(body, { attributes: true, attributeFilter: ["data-md-scrolllock"] });
    setTimeout(jump, 1000);      // should the unlock never come
  }

  new MutationObserver(update).observe(list, { childList: true });
  input.addEventListener("input", update);
  input.addEventListener("keyup", update);
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var rules = lookup(input.value);
    if (!rules.length) return;
    event.preventDefault();
    event.stopPropagation();
    go(rules[0].url);
  }, true);
  list.addEventListener("click", function (event) {
    var a = event.target.closest && event.target.closest(".ludex-jump a");
    if (!a || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    event.stopPropagation();
    go(a.href);
  }, true);
})();
