/* Ludex rules site: the playground. Every element .ludex-play (a scenario's "Edit and run", a game's
 * "Ask a question" page) becomes an editor whose Run answers the text as `ludex ask GAME --json` does,
 * with the real engine, in the browser: Pyodide runs it in a Web Worker (playground/worker.js), loaded
 * on the first Run only, from the site's own files. The answer is rendered here: each expectation met or
 * not, the other failures, the winner, and the judge's trace with its reasons, every rule id a link
 * (the rules' pages from ludex-rules.js, window.LUDEX_RULES). A question that does not check shows its
 * diagnostics, line:column and the message as the command line prints them, beside the editor.
 * Every string from the answer or the editor is put into the page as text (textContent), never as HTML.
 * The service worker (ludex-sw.js) is registered on every page served, so that after one visit the
 * pages and the playground work with the network off. Opened from disk (file://), the playground says
 * it needs the site served. */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = new URL("..", script && script.src ? script.src : window.location.href);
  var served = window.location.protocol === "http:" || window.location.protocol === "https:";
  var worker = null, asked = 0, waiting = {};

  if (served && window.LUDEX_PLAYGROUND && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(new URL("ludex-sw.js", base).href, { scope: base.href })
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        // this page and what it loaded came before the service worker did: it keeps them now
        // (and the rules' previews, which a page loads only on the first cross-reference touched)
        var urls = [window.location.href.split("#")[0], new URL("assets/ludex-previews.js", base).href];
        performance.getEntriesByType("resource").forEach(function (r) { urls.push(r.name); });
        if (registration.active) registration.active.postMessage({ keep: urls });
      })
      .catch(function () { /* no offline copy: the site works online all the same */ });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  /* ------------------------------------------------------------------ the worker */

  function ready() {
    // the first Run waits (briefly) for the service worker, so that what it loads is kept for offline
    if (!("serviceWorker" in navigator) || !window.LUDEX_PLAYGROUND) return Promise.resolve();
    var wait = navigator.serviceWorker.ready.then(function () {
      if (navigator.serviceWorker.controller) return;
      return new Promise(function (done) {
        navigator.serviceWorker.addEventListener("controllerchange", done);
        setTimeout(done, 1500);
      });
    });
    return Promise.race([wait, new Promise(function (done) { setTimeout(done, 3000); })]);
  }

  /* The judge opened an editor: the engine starts loading now, so that Run finds it (nearly) ready. */
  var warming = null;
  function warm(game) {
    if (!served || warming) return;
    warming = ready().then(function () {
      startWorker();
      worker.postMessage({ id: 0, game: String(game), warm: true });
    });
  }

  function startWorker() {
    if (!worker) {
      worker = new Worker(new URL("playground/worker.js", base).href, { type: "module" });
      worker.onmessage = function (event) {
        var m = event.data, w = waiting[m.id];
        if (!w) return;
        if (m.stage) { w.stage(m.stage); return; }
        delete waiting[m.id];
        if (m.timings) window.LUDEX_PLAYGROUND_TIMINGS = m.timings;
        if (m.error) w.fail(new Error(m.error)); else w.done(JSON.parse(m.answer));
      };
      worker.onerror = function (event) {
        var message = (event && event.message) || "the playground's worker did not start";
        for (var id in waiting) { waiting[id].fail(new Error(message)); delete waiting[id]; }
        worker = null;
        warming = null;
      };
    }
  }

  function ask(game, text, path, onStage) {
    return ready().then(function () {
      startWorker();
      return new Promise(function (done, fail) {
        var id = ++asked;
        waiting[id] = { done: done, fail: fail, stage: onStage };
        worker.postMessage({ id: id, game: String(game), text: String(text), path: String(path) });
      });
    });
  }

  /* ------------------------------------------------------------------ rule links */

  function ruleLink(game, rid) {
    var g = (window.LUDEX_RULES || {})[game];
    var rule = g && g.rules[rid];
    if (!rule) return el("code", null, rid);
    var a = el("a", "ludex-rule-ref", rid);
    a.href = new URL(rule[0], base).href;
    a.title = rule[1];
    return a;
  }

  /* Text in which "(RULE)" names a rule: the rule a link, the rest as text. */
  function withRules(game, text, rules) {
    var span = el("span");
    var rest = String(text);
    rules.forEach(function (rid) {
      var at = rest.indexOf("(" + rid + ")");
      if (!rid || at < 0) return;
      span.appendChild(document.createTextNode(rest.slice(0, at + 1)));
      span.appendChild(ruleLink(game, rid));
      rest = rest.slice(at + 1 + rid.length);
    });
    span.appendChild(document.createTextNode(rest));
    return span;
  }

  /* ------------------------------------------------------------------ the answer */

  var STATUS = { passed: "passed", failed: "failed", error: "not answered: the question has an error" };

  function verdict(sc) {
    var n = sc.expectations.length, missed = sc.expectations.filter(function (c) { return !c.met; }).length;
    if (sc.status === "passed") {
      return "passed: " + (n === 0 ? "no expectation to check" : n === 1 ? "its expectation met" :
        n === 2 ? "both expectations met" : "all " + n + " expectations met");
    }
    if (sc.status === "failed" && missed) return "failed: " + missed + " of " + n + " expectation" + (n !== 1 ? "s" : "") + " not met";
    return STATUS[sc.status] || sc.status;
  }

  function winner(sc) {
    if (sc.winners.length) return "winner: " + sc.winners.join(", ");
    return sc.game_over ? "winner: none, the game is over (a draw)" : "winner: none yet, the game is not over";
  }

  function field(list, label, text) {
    var row = el("div", "ludex-play-field");
    row.appendChild(el("span", "ludex-play-label", label));
    row.appendChild(el("span", null, text));
    list.appendChild(row);
  }

  function scenarioAnswer(game, sc, editor) {
    var box = el("section", "ludex-play-scenario ludex-play-" + sc.status);
    var head = el("p", "ludex-play-verdict");
    head.appendChild(el("strong", null, (sc.title ? "“" + sc.title + "”" : "The question") + ": "));
    head.appendChild(document.createTextNode(verdict(sc)));
    box.appendChild(head);
    if (sc.question) box.appendChild(el("p", "ludex-muted", "Question: " + sc.question));
    if (sc.answer) box.appendChild(el("p", "ludex-muted", "Answer written with it: " + sc.answer));
    if (sc.cites.length) {
      var cites = el("p", "ludex-refs", "Cites: ");
      sc.cites.forEach(function (rid, i) {
        if (i) cites.appendChild(document.createTextNode(", "));
        cites.appendChild(ruleLink(game, rid));
      });
      box.appendChild(cites);
    }
    var marks = [];
    if (sc.expectations.length) {
      box.appendChild(el("p", "ludex-play-heading", "Expectations"));
      var ul = el("ul", "ludex-play-expectations");
      sc.expectations.forEach(function (c) {
        var li = el("li", c.met ? "ludex-play-met" : "ludex-play-missed");
        var top = el("div");
        top.appendChild(el("span", "ludex-play-mark", c.met ? "✓ met" : "✗ NOT MET"));
        top.appendChild(document.createTextNode(" "));
        top.appendChild(lineLink(editor, c.line, c.column));
        top.appendChild(document.createTextNode(" "));
        top.appendChild(el("code", null, c.text));
        li.appendChild(top);
        field(li, "expected:", c.expected);
        field(li, "actual:", c.actual);
        ul.appendChild(li);
        marks.push({ at: c.after_event, text: "line " + c.line + ": " + c.text + ": " + (c.met ? "met" : "NOT MET"), met: c.met });
      });
      box.appendChild(ul);
    }
    // an expectation not met is also a failure (the same line): shown once, with the expectations
    var missed = {};
    sc.expectations.forEach(function (c) { if (!c.met) missed[c.line] = (missed[c.line] || 0) + 1; });
    var others = sc.failures.filter(function (f) {
      if (missed[f.line]) { missed[f.line]--; return false; }
      return true;
    });
    if (others.length) {
      box.appendChild(el("p", "ludex-play-heading", "Also failed"));
      var fl = el("ul", "ludex-play-expectations");
      others.forEach(function (f) {
        var li = el("li", "ludex-play-missed");
        var top = el("div");
        top.appendChild(lineLink(editor, f.line, f.column));
        top.appendChild(document.createTextNode(" " + f.message));
        li.appendChild(top);
        if (f.expected) field(li, "expected:", f.expected);
        if (f.actual) field(li, "actual:", f.actual);
        fl.appendChild(li);
        marks.push({ at: f.after_event, text: "line " + f.line + ": " + f.message, met: false });
      });
      box.appendChild(fl);
    }
    sc.errors.forEach(function (d) {
      var p = el("p", "ludex-play-missed");
      p.appendChild(lineLink(editor, d.line, d.column));
      p.appendChild(document.createTextNode(" error[" + d.code + "]: " + d.message));
      box.appendChild(p);
      marks.push({ at: sc.trace.length, text: "error: " + d.message, met: false });
    });
    box.appendChild(el("p", null, winner(sc)));
    box.appendChild(trace(game, sc, marks));
    return box;
  }

  function trace(game, sc, marks) {
    var wrap = el("div", "ludex-play-trace");
    wrap.appendChild(el("p", "ludex-play-heading", "Trace (" + sc.trace.length + " events" +
      (sc.expectations.length ? "; ▶ marks where each expectation was checked)" : ")")));
    var ol = el("ol", "ludex-play-events");
    marks.sort(function (a, b) { return a.at - b.at; });
    var m = 0;
    function mark(upTo) {
      while (m < marks.length && marks[m].at < upTo) {
        ol.appendChild(el("li", "ludex-play-checked " + (marks[m].met ? "ludex-play-met" : "ludex-play-missed"), "▶ " + marks[m].text));
        m++;
      }
    }
    sc.trace.forEach(function (e) {
      mark(e.seq);
      var li = el("li", "ludex-play-event" + (e.seq <= sc.setup_events ? " ludex-play-setup" : ""));
      li.appendChild(el("span", "ludex-play-seq", e.seq));
      var rule = el("span", "ludex-play-rule");
      rule.appendChild(e.rule ? ruleLink(game, e.rule) : el("span", "ludex-muted", e.seq <= sc.setup_events ? "set-up" : "flow"));
      li.appendChild(rule);
      li.appendChild(el("span", "ludex-play-text", e.text));
      var facts = e.data && e.data.because;
      if (facts && facts.length) {
        var why = el("div", "ludex-play-because", "because ");
        facts.forEach(function (f, i) {
          if (i) why.appendChild(document.createTextNode("; "));
          why.appendChild(withRules(game, f.text, f.rule ? [f.rule] : []));
        });
        li.appendChild(why);
      }
      ol.appendChild(li);
    });
    mark(Infinity);
    wrap.appendChild(ol);
    return wrap;
  }

  /* "line L, column C": a button that puts the editor's caret there. */
  function lineLink(editor, line, column) {
    var b = el("button", "ludex-play-at", "line " + line + (column ? ", column " + column : ""));
    b.type = "button";
    b.addEventListener("click", function () { caret(editor, line, column || 1); });
    return b;
  }

  function caret(editor, line, column) {
    var lines = editor.value.split("\n"), at = 0;
    for (var i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
    at += Math.max(0, column - 1);
    editor.focus();
    editor.setSelectionRange(at, at);
  }

  /* ------------------------------------------------------------------ one editor */

  function setUp(play) {
    var game = play.getAttribute("data-game"), path = play.getAttribute("data-path") || "question";
    var text = play.getAttribute("data-text") || "";
    var open = play.hasAttribute("data-open");
    var panel = el("div", "ludex-play-panel");
    var editor = el("textarea", "ludex-play-editor");
    editor.value = text;
    editor.spellcheck = false;
    editor.setAttribute("autocapitalize", "off");
    editor.setAttribute("autocomplete", "off");
    editor.setAttribute("aria-label", "The question, in the scenario language");
    editor.rows = Math.min(24, Math.max(6, text.split("\n").length + 1));
    var bar = el("div", "ludex-play-bar");
    var run = el("button", "md-button md-button--primary ludex-play-run", "Run");
    run.type = "button";
    var reset = el("button", "md-button ludex-play-reset", "Reset");
    reset.type = "button";
    var status = el("span", "ludex-play-status");
    status.setAttribute("role", "status");
    bar.appendChild(run); bar.appendChild(reset); bar.appendChild(status);
    var problems = el("div", "ludex-play-problems");
    problems.setAttribute("aria-live", "polite");
    var answer = el("div", "ludex-play-answer");
    panel.appendChild(editor); panel.appendChild(bar); panel.appendChild(problems); panel.appendChild(answer);

    if (!open) {
      var toggle = el("button", "md-button ludex-play-open", "Edit and run");
      toggle.type = "button";
      toggle.setAttribute("aria-expanded", "false");
      panel.hidden = true;
      toggle.addEventListener("click", function () {
        panel.hidden = !panel.hidden;
        toggle.setAttribute("aria-expanded", panel.hidden ? "false" : "true");
        if (!panel.hidden) { notServed(problems); editor.focus(); warm(game); }
      });
      play.appendChild(toggle);
    } else {
      notServed(problems);
      editor.addEventListener("focus", function () { warm(game); }, { once: true });
    }
    play.appendChild(panel);

    reset.addEventListener("click", function () { editor.value = text; problems.textContent = ""; answer.textContent = ""; });
    run.addEventListener("click", function () {
      if (notServed(problems)) return;
      run.disabled = true;
      var started = performance.now();
      status.textContent = asked ? "answering…" : "loading the engine (the first time takes a few seconds)…";
      answer.setAttribute("aria-busy", "true");
      ask(game, editor.value, path, function (stage) { status.textContent = stage + "…"; }).then(function (data) {
        show(data, game, editor, problems, answer);
        status.textContent = "answered in " + ((performance.now() - started) / 1000).toFixed(1) + " s";
        play.setAttribute("data-answered", String(Number(play.getAttribute("data-answered") || 0) + 1));
      }, function (err) {
        problems.textContent = "";
        problems.appendChild(el("p", "ludex-play-missed", "The playground could not answer: " + err.message));
        status.textContent = "";
      }).then(function () { run.disabled = false; answer.removeAttribute("aria-busy"); });
    });
  }

  function notServed(problems) {
    if (served) return false;
    problems.textContent = "";
    var p = el("p", "ludex-play-offline");
    p.appendChild(el("strong", null, "The playground needs the site served. "));
    p.appendChild(document.createTextNode("Opened from disk, the browser will not run the engine. Serve the folder " +
      "with `ludex site serve`, or put it on any static web host (python3 -m http.server in the folder does); " +
      "the rest of the site works from disk as it is."));
    problems.appendChild(p);
    return true;
  }

  function show(data, game, editor, problems, answer) {
    problems.textContent = "";
    answer.textContent = "";
    if (data.errors && data.errors.length) {
      var head = el("p", "ludex-play-missed");
      head.appendChild(el("strong", null, data.exit === 3 ? "The game's rules do not check." : "The question does not check."));
      problems.appendChild(head);
      var ul = el("ul", "ludex-play-diagnostics");
      data.errors.forEach(function (d) {
        var li = el("li");
        li.appendChild(lineLink(editor, d.line, d.column));
        li.appendChild(document.createTextNode(" error[" + d.code + "]: " + d.message));
        if (d.expected) li.appendChild(el("div", "ludex-muted", "expected: " + d.expected));
        if (d.hint) li.appendChild(el("div", "ludex-muted", d.hint));
        ul.appendChild(li);
      });
      problems.appendChild(ul);
    }
    if (data.rendered) problems.appendChild(el("pre", "ludex-play-rendered", data.rendered));
    (data.scenarios || []).forEach(function (sc) { answer.appendChild(scenarioAnswer(game, sc, editor)); });
  }

  function start() {
    var plays = document.querySelectorAll(".ludex-play:not([data-ready])");
    for (var i = 0; i < plays.length; i++) {
      plays[i].setAttribute("data-ready", "");
      setUp(plays[i]);
    }
  }

  // Material's instant navigation swaps pages without loading them: set up each page as it comes
  if (window.document$ && window.document$.subscribe) window.document$.subscribe(start);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
