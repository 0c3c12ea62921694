// The playground's worker: the real engine, run by Pyodide off the page's thread (a module worker).
// In: messages {id, game, text, path} from assets/ludex-playground.js (or {id, game, warm: true}: load
// now, the judge has opened the editor and will ask soon); the question's text is data,
// passed to Python as a string. Out: {id, answer} with the JSON text `ludex ask --json` prints
// (ludex/browser.py), or {id, error}; and {id, stage} while it loads.
// Everything is loaded from the site's own files on the first question: Pyodide (pyodide/), the
// ludex package with lark and its prepared grammar analysis (ludex.zip), the game's rules (games/).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = new URL(".", import.meta.url);
let ready = null;
const games = {};
const timings = {};   // seconds since the worker started, of each step of the first question (benchmarks/playground.py)
const mark = (name) => { timings[name] = Math.round(performance.now()) / 1000; };

async function start(say) {
  say("loading Python");
  const [py, archive] = await Promise.all([
    loadPyodide({ indexURL: new URL("pyodide/", here).href }),
    fetch(new URL("ludex.zip", here)).then((r) => {
      if (!r.ok) throw new Error(`ludex.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  mark("pyodide");
  say("loading the engine");
  py.unpackArchive(archive, "zip", { extractDir: "/ludex" });
  py.runPython(`
import os, sys
sys.path.insert(0, "/ludex")
os.environ["LUDEX_CACHE_DIR"] = "/ludex/cache"
os.chmod("/ludex/cache", 0o700)
import ludex.browser
`);
  mark("engine");
  return py;
}

async function game(py, key) {
  if (!games[key]) {
    games[key] = fetch(new URL(`games/${encodeURIComponent(key)}.json`, here)).then(async (r) => {
      if (!r.ok) throw new Error(`the rules of ${key}: HTTP ${r.status}`);
      const data = await r.json();
      py.globals.get("ludex").browser.put_rules(key, py.toPy(data.files));
      mark("rules");
    });
  }
  return games[key];
}

self.onmessage = async (event) => {
  const { id, game: key, text, path, warm } = event.data;
  const say = (stage) => self.postMessage({ id, stage });
  try {
    if (!ready) ready = start(say);
    const py = await ready;
    await game(py, key);
    if (warm) return;   // the judge opened the editor: loaded, nothing to answer yet
    say("answering");
    const answer = py.globals.get("ludex").browser.answer_question(String(key), String(text), String(path || "question"));
    if (!timings.answer) mark("answer");
    self.postMessage({ id, answer, timings });
  } catch (err) {
    if (String(err && err.message || err).includes("HTTP") || !ready) ready = null;
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
};
