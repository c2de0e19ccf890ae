// Loads one tool module the way the sandbox daemon does: import it in a
// fresh process, read its default export, check that it is a plain object
// whose `parameters` is an object schema. `execute` is never called. Prints
// one JSON line: {"loads", "class", "message", "description", "parameters"}.
// Usage: bun --no-install load.mjs /abs/path/to/module
const file = process.argv[2];
const say = (o) => process.stdout.write(JSON.stringify(o) + "\n");

// classOf names the kind of load-time failure, as the differential test
// compares them: a syntax error (of the module, a file it imports, a JSON
// import), an import that does not resolve, a named import the module does
// not export, an error thrown while the module evaluates.
function classOf(e) {
  const name = e && e.name;
  const message = String(e && e.message !== undefined ? e.message : e);
  if (name === "BuildMessage" || /^JSON Parse error/.test(message)) return "syntax";
  if (name === "AggregateError" && /errors? building/.test(message)) return "syntax"; // several syntax errors
  if (name === "ResolveMessage") return "resolve";
  if (name === "SyntaxError" && /^(Export named|Importing binding name)/.test(message)) return "export";
  return "runtime";
}

let mod;
try {
  mod = await import(file);
} catch (e) {
  say({ loads: false, class: classOf(e), message: String(e && e.message !== undefined ? e.message : e) });
  process.exit(0);
}
const d = mod.default;
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
if (!isObject(d)) {
  say({ loads: false, class: "default", message: d === undefined ? "no default export" : `the default export is ${Array.isArray(d) ? "an array" : d === null ? "null" : typeof d}` });
  process.exit(0);
}
let description, parameters;
try {
  description = d.description;
  parameters = d.parameters;
} catch (e) {
  say({ loads: false, class: "runtime", message: String(e && e.message) });
  process.exit(0);
}
if (!isObject(parameters) || parameters.type !== "object") {
  say({ loads: false, class: "parameters", message: "`parameters` is not an object schema" });
  process.exit(0);
}
let params;
try {
  params = JSON.stringify(parameters);
} catch (e) {
  params = undefined;
}
say({ loads: true, description: typeof description === "string" ? description : undefined, parameters: params });
