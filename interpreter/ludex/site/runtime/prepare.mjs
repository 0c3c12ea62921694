// The playground's runtime, made once at build time by running Pyodide under node:
//   node prepare.mjs PYODIDE_DIR STAGING.zip WARM_RULES.json OUT.zip
// In: a zip of the ludex package and lark as source (the grammar in ludex/_bundled/grammar), and
// one game's rules and a question to warm up with. Out: the same zip with what the browser would
// otherwise compute on its first run: Lark's grammar analysis in the package's cache folder, and
// .pyc files (unchecked-hash: unpacking an archive loses the timestamps a checked .pyc compares).
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, staging, warm, out] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
try {
  const py = await loadPyodide({ indexURL: pyodideDir + path.sep, stdout: () => {}, stderr: (s) => process.stderr.write(s + "\n") });
  py.unpackArchive(new Uint8Array(fs.readFileSync(staging)), "zip", { extractDir: "/ludex" });
  py.globals.set("warm_json", fs.readFileSync(warm, "utf-8"));
  py.runPython(`
import compileall, json, os, py_compile, sys, zipfile
sys.path.insert(0, "/ludex")
os.environ["LUDEX_CACHE_DIR"] = "/ludex/cache"
from ludex.browser import answer_question, put_rules
warm = json.loads(warm_json)
put_rules(warm["game"], warm["files"])
answer_question(warm["game"], warm["question"])
for name in os.listdir("/ludex/ludex/_bundled/rules"):
    os.remove(os.path.join("/ludex/ludex/_bundled/rules", name))
compileall.compile_dir("/ludex", quiet=1, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
with zipfile.ZipFile("/tmp/out.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for root, dirs, files in sorted(os.walk("/ludex")):
        dirs.sort()
        if not files and not dirs:
            z.write(root, os.path.relpath(root, "/ludex") + "/")
        for name in sorted(files):
            full = os.path.join(root, name)
            z.write(full, os.path.relpath(full, "/ludex"))
`);
  fs.writeFileSync(out, py.FS.readFile("/tmp/out.zip"));
} catch (err) {
  // one line for the build to show: the last line of a Python error, or the error's message
  const said = String((err && err.message) || err).trim().split("\n");
  process.stderr.write(said[said.length - 1] + "\n");
  process.exit(1);
}
