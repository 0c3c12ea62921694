/* Ludex rules site: the preview of a rule that a cross-reference ("see 3.3", a rule id in a
 * transcription) shows on hover, focus or a first tap, without leaving the page; and the 404 page's
 * rules nearest to the address asked for. The rules' words come from ludex-previews.js, loaded on the
 * first preview (a script, not a fetch: the site works opened from disk, where a fetch is refused); the
 * rules' pages from ludex-rules.js (window.LUDEX_RULES). Everything from the rules goes in as text. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL("..", script && script.src ? script.src : window.location.href);
  var loading = null;

  function previews() {
    if (window.LUDEX_PREVIEWS) return Promise.resolve(window.LUDEX_PREVIEWS);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        var s = document.createElement("script");
        s.src = new URL("assets/ludex-previews.js", base).href;
        s.onload = function () { resolve(window.LUDEX_PREVIEWS || {}); };
        s.onerror = function () { loading = null; reject(new Error("no previews")); };
        document.head.appendChild(s);
      });
    }
    return loading;
  }

  /* The game and rule id a link leads to: GAME/... in the path, #rID in the hash. */
  function target(a) {
    var url = new URL(a.href, window.location.href);
    if (url.hash.indexOf("#r") !== 0 || url.href.indexOf(base.href) !== 0) return null;
    var game = url.href.slice(base.href.length).split("/")[0];
    return { game: game, id: decodeURIComponent(url.hash.slice(2)), url: url.href };
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  var box = null, shownFor = null, hideTimer = null, showTimer = null;

  function hide() {
    clearTimeout(showTimer);
    if (box) box.remove();
    box = null;
    shownFor = null;
  }

  function show(a, touch) {
    var t = target(a);
    if (!t) return;
    previews().then(function (data) {
      var rule = data[t.game] && data[t.game][t.id];
      if (!rule) return;
      hide();
      box = el("div", "ludex-preview md-typeset");
      box.setAttribute("role", "tooltip");
      box.appendChild(el("p", "ludex-preview-title", rule[0]));
      if (rule[1]) box.appendChild(el("p", "ludex-preview-text", rule[1]));
      rule[2].forEach(function (e) { box.appendChild(el("p", "ludex-preview-erratum", e)); });
      var go = el("a", "ludex-preview-go", "Go to " + (/^[0-9]/.test(t.id) ? "rule " + t.id : rule[0]) + " →");
      go.href = t.url;
      box.appendChild(go);
      box.addEventListener("mouseenter", function () { clearTimeout(hideTimer); });
      box.addEventListener("mouseleave", function () { hideTimer = setTimeout(hide, 200); });
      document.body.appendChild(box);
      place(a);
      shownFor = a;
      if (touch) go.focus({ preventScroll: true });
    }, function () {});
  }

  /* Below the link, or above it when the screen has more room there; never past the screen's sides. */
  function place(a) {
    var r = a.getBoundingClientRect(), w = box.offsetWidth, h = box.offsetHeight;
    var left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
    var below = window.innerHeight - r.bottom, top = r.bottom + 6;
    if (below < h + 12 && r.top > below) top = r.top - h - 6;
    box.style.left = left + window.scrollX + "px";
    box.style.top = top + window.scrollY + "px";
  }

  function refOf(node) {
    var a = node && node.closest ? node.closest("a.ludex-ref, a.ludex-code-ref") : null;
    return a && a.closest(".md-content") && target(a) ? a : null;
  }

  var touched = false;
  document.addEventListener("touchstart", function () { touched = true; }, { passive: true, capture: true });
  document.addEventListener("mouseover", function (event) {
    var a = refOf(event.target);
    if (!a || touched) return;
    clearTimeout(hideTimer);
    if (a === shownFor) return;
    clearTimeout(showTimer);
    showTimer = setTimeout(function () { show(a, false); }, 250);
  });
  document.addEventListener("mouseout", function (event) {
    var a = refOf(event.target);
    if (!a || touched) return;
    clearTimeout(showTimer);
    hideTimer = setTimeout(hide, 300);
  });
  document.addEventListener("focusin", function (event) {
    var a = refOf(event.target);
    if (a && a !== shownFor && !touched) show(a, false);
  });
  /* On a touch screen the first tap on a cross-reference shows the rule, the second (or the preview's
   * own link) goes there; a tap anywhere else closes it. */
  document.addEventListener("click", function (event) {
    var a = refOf(event.target);
    if (a && touched && a !== shownFor && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      show(a, true);
      return;
    }
    if (box && !box.contains(event.target) && a !== shownFor) hide();
  }, true);
  document.addEventListener("keydown", function (event) { if (event.key === "Escape") hide(); });
  window.addEventListener("resize", hide);

  /* ------------------------------------------------------------ the 404 page */

  var notFound = document.querySelector("[data-ludex-404]");
  if (!notFound) return;
  var ID = /^([0-9]+[a-z]?(?:\.[0-9]+[a-z]?)*|[a-z][a-z0-9]*(?:[-.][a-z0-9]+)*)$/;
  var games = window.LUDEX_RULES || {};
  /* What the address asked for, below the site's root (from disk that root is a folder of the file
   * system, whose names are no rule's); on the page's own address (404.html, opened from disk), the
   * address asked for may follow it: 404.html#huntik/500.1z or 404.html?huntik/500.1z. */
  var here = window.location.href.split(/[?#]/)[0];
  var asked = here.indexOf(base.href) === 0 ? here.slice(base.href.length) : window.location.pathname;
  if (/^404(\.html)?$/.test(asked)) asked = (window.location.hash || window.location.search).slice(1);
  var parts = asked.split("/").map(function (p) {
    try { p = decodeURIComponent(p); } catch (e) { /* keep it as it is */ }
    return p.toLowerCase().replace(/\.(html|md)$/, "");
  }).filter(Boolean);
  var game = null, wanted = "";
  parts.forEach(function (p) {
    if (games[p] && !game) game = p;
    else if (ID.test(p) && ["rules", "scenarios", "index", "guide"].indexOf(p) < 0) wanted = p;
  });

  function distance(a, b) {
    var row = [], i, j, prev, tmp;
    for (j = 0; j <= b.length; j++) row.push(j);
    for (i = 1; i <= a.length; i++) {
      prev = row[0];
      row[0] = i;
      for (j = 1; j <= b.length; j++) {
        tmp = row[j];
        row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
        prev = tmp;
      }
    }
    return row[b.length];
  }

  function common(a, b) {
    var n = 0;
    while (n < a.length && n < b.length && a[n] === b[n]) n++;
    return n;
  }

  var button = notFound.querySelector(".ludex-404-search");
  button.addEventListener("click", function () {
    var toggle = document.querySelector("[data-md-toggle=search]");
    var input = document.querySelector("[data-md-component=search-query]");
    if (toggle && !toggle.checked) {
      toggle.checked = true;
      toggle.dispatchEvent(new Event("change"));
    }
    if (input) {
      if (wanted) input.value = (game ? game + " " : "") + wanted;
      input.focus();
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
    }
  });
  if (wanted) button.textContent = "Search the rules for “" + wanted + "”";
  if (!wanted) return;
  var found = [];
  Object.keys(games).forEach(function (key) {
    if (game && key !== game) return;
    Object.keys(games[key].rules).forEach(function (id) {
      found.push({ key: key, id: id, rule: games[key].rules[id],
                   score: [id === wanted ? 0 : 1, -common(id, wanted), distance(id, wanted)] });
    });
  });
  found.sort(function (x, y) {
    for (var i = 0; i < 3; i++) if (x.score[i] !== y.score[i]) return x.score[i] - y.score[i];
    return 0;
  });
  found = found.slice(0, 8);
  if (!found.length) return;
  var near = notFound.querySelector(".ludex-404-near"), list = notFound.querySelector(".ludex-404-list");
  near.querySelector(".ludex-404-near-title").textContent = found[0].id === wanted
    ? "Rule " + wanted + " is here:" : "The rules nearest to “" + wanted + "”" +
      (game ? " in " + games[game].title : "") + ":";
  found.forEach(function (f) {
    var li = document.createElement("li"), a = document.createElement("a");
    a.href = new URL(f.rule[0], base).href;
    a.textContent = (/^[0-9]/.test(f.id) ? f.id + " " : "") + f.rule[1];
    li.appendChild(a);
    if (!game) li.appendChild(document.createTextNode(" (" + games[f.key].title + ")"));
    list.appendChild(li);
  });
  near.hidden = false;
})();
