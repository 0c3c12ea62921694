/* Ludex rules site: a query shaped like a rule number ("3.2", "500.1c", "rule 3.2", "agot 3.2") gets a
 * direct jump to that rule at the top of the search results, and Enter goes there. The rules come
 * from ludex-rules.js (window.LUDEX_RULES), generated with the pages. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL("..", script && script.src ? script.src : window.location.href);
  var RULE = /^(?:([a-z][a-z0-9_-]*)\s+)?(?:(?:rule|step|section)\s+)?([0-9]+[a-z]?(?:\.[0-9]+[a-z]?)*)\.?$/i;

  function data() { return window.LUDEX_RULES || {}; }

  function currentGame() {
    var here = window.location.href;
    var games = data();
    for (var key in games) {
      if (here.indexOf(new URL(games[key].url, base).href) === 0) return key;
    }
    return null;
  }

  /* The rules a query names, the current game's first. */
  function lookup(query) {
    var m = RULE.exec((query || "").trim());
    if (!m) return [];
    var games = data(), wanted = m[1] ? m[1].toLowerCase() : null, id = m[2].toLowerCase();
    if (wanted && !games[wanted]) { wanted = null; }
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
    article.appendChild(text("h1", "Rule " + rule.id + " " + rule.title));
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

  new MutationObserver(update).observe(list, { childList: true });
  input.addEventListener("input", update);
  input.addEventListener("keyup", update);
  input.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    var rules = lookup(input.value);
    if (!rules.length) return;
    event.preventDefault();
    event.stopPropagation();
    var toggle = document.querySelector("[data-md-toggle=search]");
    if (toggle && toggle.checked) {
      toggle.checked = false;
      toggle.dispatchEvent(new Event("change"));
    }
    input.blur();
    window.location.href = rules[0].url;
  }, true);
})();
