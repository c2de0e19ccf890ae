#!/usr/bin/env python3
"""Checks the editor configurations that no editor runs in the tests.

  python3 scripts/check-editor-configs.py

Helix, Sublime Text, Zed (the blocks of docs/editors.md marked
`<!-- check: NAME -->`), the LSP4IJ template (editors/jetbrains/) and the
main-registry conventions of the mason entry that its JSON schema leaves out
(the schema itself: go test ./internal/release). Each is checked against the
format its editor documents, as cited beside each key list, and against what
this repository ships (the release archives, the server's one setting).
Standard library only. Prints every problem; exits 1 when there is one.
"""
import fnmatch
import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "editors.md"
JETBRAINS = ROOT / "editors" / "jetbrains" / "beeuni-lsp"
MASON = ROOT / "editors" / "mason" / "packages" / "beeuni-lsp" / "package.yaml"
VSCODE = ROOT / "editors" / "vscode" / "package.json"
NVIM_LSP = ROOT / "editors" / "neovim" / "lsp"

problems = []


def problem(where, message):
    problems.append(f"{where}: {message}")


def unknown_keys(where, value, allowed):
    if not isinstance(value, dict):
        problem(where, f"must be a table/object, not {type(value).__name__}")
        return
    for key in value:
        if key not in allowed:
            problem(where, f"unknown key {key!r} (documented: {', '.join(sorted(allowed))})")


def string_list(where, value):
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        problem(where, f"must be a list of strings, not {value!r}")
        return False
    return True


# The server's one setting, as the VS Code extension declares it.
def server_setting():
    props = json.loads(VSCODE.read_text())["contributes"]["configuration"]["properties"]
    return props["beeuni.inspectModules"]


# --- docs/editors.md --------------------------------------------------------

SECTIONS = ["VS Code", "Neovim", "Emacs", "Helix", "Sublime Text", "JetBrains IDEs (LSP4IJ)", "Zed"]
BLOCK = re.compile(r"<!-- check: ([a-z-]+) -->\n(?:\n)?```([a-z]*)\n(.*?)\n```", re.S)


def doc_blocks():
    text = DOCS.read_text()
    headings = re.findall(r"^## (.+)$", text, re.M)
    for section in SECTIONS:
        if section not in headings:
            problem("docs/editors.md", f"no section `## {section}`")
    blocks = {}
    for name, lang, body in BLOCK.findall(text):
        if name in blocks:
            problem("docs/editors.md", f"two blocks marked {name}")
        blocks[name] = (lang, body)
    if text.count("<!-- check: ") != len(blocks):
        problem("docs/editors.md", "a `<!-- check: NAME -->` marker not followed by a fenced block")
    return blocks


def block(blocks, name, lang):
    if name not in blocks:
        problem("docs/editors.md", f"no block marked {name}")
        return None
    got, body = blocks[name]
    if got != lang:
        problem(f"docs/editors.md {name}", f"fenced as {got!r}, want {lang!r}")
    return body


def parse_toml(name, body):
    try:
        return tomllib.loads(body)
    except tomllib.TOMLDecodeError as err:
        problem(f"docs/editors.md {name}", f"not TOML: {err}")
        return None


def parse_json(name, body):
    try:
        return json.loads(body)
    except json.JSONDecodeError as err:
        problem(f"docs/editors.md {name}", f"not JSON: {err}")
        return None


# Helix: book/src/languages.md (helix-editor/helix 079a789e), the tables of
# [[language]] and [language-server] keys, and the language-servers entries.
HELIX_LANGUAGE = {
    "name", "language-id", "scope", "injection-regex", "file-types", "shebangs", "roots",
    "auto-format", "diagnostic-severity", "comment-tokens", "comment-token",
    "block-comment-tokens", "indent", "language-servers", "grammar", "formatter", "soft-wrap",
    "text-width", "rulers", "path-completion", "word-completion", "workspace-lsp-roots",
    "persistent-diagnostic-sources", "rainbow-brackets", "code-actions-on-save",
}
HELIX_SERVER = {"command", "args", "config", "timeout", "environment", "required-root-patterns"}
HELIX_SERVER_REF = {"name", "only-features", "except-features"}
# Servers of Helix's own languages.toml the blocks name.
HELIX_BUILTIN_SERVERS = {"typescript-language-server", "yaml-language-server"}
HELIX_BUILTIN_LANGUAGES = {"typescript", "javascript", "yaml"}


def check_helix_languages(where, config, own_language):
    unknown_keys(where, config, {"language", "language-server"})
    servers = config.get("language-server", {})
    for name, server in servers.items():
        unknown_keys(f"{where} [language-server.{name}]", server, HELIX_SERVER)
    for lang in config.get("language", []):
        lw = f"{where} [[language]] {lang.get('name')!r}"
        unknown_keys(lw, lang, HELIX_LANGUAGE)
        if "name" not in lang:
            problem(lw, "no name")
        for ft in lang.get("file-types", []):
            if not (isinstance(ft, str) or (isinstance(ft, dict) and set(ft) == {"glob"})):
                problem(lw, f"file-types entry {ft!r}: a string or {{ glob = ... }}")
        if "indent" in lang:
            unknown_keys(f"{lw} indent", lang["indent"], {"tab-width", "unit"})
        for ref in lang.get("language-servers", []):
            if isinstance(ref, dict):
                unknown_keys(f"{lw} language-servers", ref, HELIX_SERVER_REF)
                ref = ref.get("name")
            if ref not in servers and ref not in HELIX_BUILTIN_SERVERS and ref != "beeuni-lsp":
                problem(lw, f"language server {ref!r} is defined nowhere")
        if not own_language and lang.get("name") not in HELIX_BUILTIN_LANGUAGES:
            problem(lw, "not a language of Helix's languages.toml")
    return servers


def check_helix(blocks):
    body = block(blocks, "helix-languages", "toml")
    config = body is not None and parse_toml("helix-languages", body)
    if config:
        where = "docs/editors.md helix-languages"
        servers = check_helix_languages(where, config, True)
        server = servers.get("beeuni-lsp", {})
        if [server.get("command")] + server.get("args", []) != ["beeuni-lsp", "serve"]:
            problem(where, "beeuni-lsp must run `beeuni-lsp serve`")
        want = server_setting()["default"]
        cfg = server.get("config", {})
        if cfg.get("inspectModules") is not want or cfg.get("beeuni", {}).get("inspectModules") is not want:
            problem(where, f"config must hold inspectModules = {want} at its top (initializationOptions) and under beeuni (workspace/configuration)")
        langs = {lang.get("name"): lang for lang in config.get("language", [])}
        beeuni = langs.get("beeuni", {})
        if beeuni.get("file-types") != [{"glob": "beeuni.yaml"}] or beeuni.get("grammar") != "yaml":
            problem(where, "the beeuni language must match beeuni.yaml by glob and use the yaml grammar")
        if beeuni.get("language-servers") != ["beeuni-lsp"]:
            problem(where, "the beeuni language must use beeuni-lsp alone")
    body = block(blocks, "helix-modules", "toml")
    config = body is not None and parse_toml("helix-modules", body)
    if config:
        check_helix_languages("docs/editors.md helix-modules", config, False)
        for lang in config.get("language", []):
            servers = lang.get("language-servers", [])
            if not servers or servers[-1] != "beeuni-lsp" or len(servers) < 2:
                problem("docs/editors.md helix-modules", f"{lang.get('name')}: beeuni-lsp after the language's own server")
    body = block(blocks, "helix-query", "scheme")
    if body is not None and body.strip() != "; inherits: yaml":
        problem("docs/editors.md helix-query", "must be the one line `; inherits: yaml`")


# Sublime Text LSP: docs/src/client_configuration.md (sublimelsp/LSP
# 7ffc7211), the table of a server configuration's settings.
SUBLIME_SERVER = {
    "enabled", "command", "selector", "env", "settings", "initialization_options",
    "priority_selector", "diagnostics_mode", "markdown_language_map", "syntax_map", "tcp_port",
    "experimental_capabilities", "disabled_capabilities",
}


def check_sublime(blocks):
    body = block(blocks, "sublime-servers", "json")
    config = body is not None and parse_json("sublime-servers", body)
    if not config:
        return
    where = "docs/editors.md sublime-servers"
    if list(config) != ["beeuni-lsp"]:
        problem(where, "one server, beeuni-lsp")
    server = config.get("beeuni-lsp", {})
    unknown_keys(where, server, SUBLIME_SERVER)
    if server.get("enabled") is not True:
        problem(where, "enabled must be true")
    if string_list(f"{where} command", server.get("command")) and server["command"] != ["beeuni-lsp", "serve"]:
        problem(where, "command must be [\"beeuni-lsp\", \"serve\"]")
    if not isinstance(server.get("selector"), str):
        problem(where, "selector must be a string")
    want = server_setting()["default"]
    if server.get("initialization_options") != {"inspectModules": want}:
        problem(where, f"initialization_options must be {{\"inspectModules\": {json.dumps(want)}}}")
    if server.get("settings") != {"beeuni": {"inspectModules": want}}:
        problem(where, f"settings must be {{\"beeuni\": {{\"inspectModules\": {json.dumps(want)}}}}}")


# Zed: docs/extensions/developing-extensions.md and languages.md (the
# extension.toml keys, a language server's entry, Cargo.toml), and
# configuring-languages.md (the lsp and languages settings).
ZED_EXTENSION = {
    "id", "name", "version", "schema_version", "authors", "description", "repository",
    "language_servers", "grammars",
}
ZED_LANGUAGE_SERVER = {"name", "languages", "language_ids", "code_action_kinds"}
ZED_BUILTIN_LANGUAGES = {"YAML", "TypeScript", "JavaScript", "TSX"}
ZED_LSP_SETTINGS = {"binary", "settings", "initialization_options", "enable_lsp_tasks", "fetch"}
ZED_BINARY = {"path", "arguments", "env", "ignore_system_version"}
ZED_LANGUAGE_SETTINGS_USED = {"language_servers"}


def check_zed(blocks):
    where = "docs/editors.md zed-extension"
    body = block(blocks, "zed-extension", "toml")
    ext = body is not None and parse_toml("zed-extension", body)
    if ext:
        unknown_keys(where, ext, ZED_EXTENSION)
        for key in ("id", "name", "version", "schema_version"):
            if key not in ext:
                problem(where, f"no {key} (required)")
        servers = ext.get("language_servers", {})
        if list(servers) != ["beeuni-lsp"]:
            problem(where, "one language server, beeuni-lsp")
        for name, server in servers.items():
            unknown_keys(f"{where} [language_servers.{name}]", server, ZED_LANGUAGE_SERVER)
            if string_list(f"{where} languages", server.get("languages")):
                for lang in server["languages"]:
                    if lang not in ZED_BUILTIN_LANGUAGES:
                        problem(where, f"{lang!r} is not a language built into Zed")
    body = block(blocks, "zed-cargo", "toml")
    cargo = body is not None and parse_toml("zed-cargo", body)
    if cargo:
        if cargo.get("lib", {}).get("crate-type") != ["cdylib"]:
            problem("docs/editors.md zed-cargo", "crate-type must be [\"cdylib\"]")
        if "zed_extension_api" not in cargo.get("dependencies", {}):
            problem("docs/editors.md zed-cargo", "no zed_extension_api dependency")
    for name in ("zed-settings", "zed-project-settings"):
        body = block(blocks, name, "json")
        settings = body is not None and parse_json(name, body)
        if not settings:
            continue
        sw = f"docs/editors.md {name}"
        unknown_keys(sw, settings, {"lsp", "languages"})
        for server, conf in settings.get("lsp", {}).items():
            if server != "beeuni-lsp":
                problem(sw, f"lsp.{server}: not the extension's server")
            unknown_keys(f"{sw} lsp.{server}", conf, ZED_LSP_SETTINGS)
            unknown_keys(f"{sw} lsp.{server}.binary", conf.get("binary", {}), ZED_BINARY)
            if conf.get("settings", {}) != {"inspectModules": server_setting()["default"]}:
                problem(sw, "lsp.beeuni-lsp.settings must be the server's setting at its default")
        for lang, conf in settings.get("languages", {}).items():
            if lang not in ZED_BUILTIN_LANGUAGES:
                problem(sw, f"languages.{lang}: not a language built into Zed")
            unknown_keys(f"{sw} languages.{lang}", conf, ZED_LANGUAGE_SETTINGS_USED)
            servers = conf.get("language_servers")
            if string_list(f"{sw} languages.{lang}.language_servers", servers):
                for s in servers:
                    if s not in ("...", "beeuni-lsp", "!beeuni-lsp"):
                        problem(sw, f"languages.{lang}: {s!r}")


# --- editors/jetbrains: LSP4IJ's template format ------------------------------
# docs/UserDefinedLanguageServerTemplate.md (redhat-developer/lsp4ij
# d21cff92) and the keys its readers take (ServerTemplate,
# ServerTemplateJsonDeserializer, InstallerTaskRegistry, the download task).
LSP4IJ_TEMPLATE = {
    "id", "name", "programArgs", "languageMappings", "fileTypeMappings", "workingDir", "env",
    "expandConfiguration", "disablePromotionFor", "dev", "url",
}
LSP4IJ_OS = {"windows", "mac", "unix", "default"}
LSP4IJ_ARCH = {"x86_64", "arm64"}  # CpuArch.CURRENT, lowercased
LSP4IJ_INSTALLER = {"id", "name", "executeOnStartServer", "properties", "check", "run"}
LSP4IJ_TASKS = {"exec", "download", "configureServer"}
LSP4IJ_FILES = {
    "template.json", "installer.json", "settings.json", "settings.schema.json",
    "initializationOptions.json", "initializationOptions.schema.json", "clientSettings.json",
    "README.md",
}


def jetbrains_json(name):
    path = JETBRAINS / name
    try:
        return json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as err:
        problem(f"editors/jetbrains/beeuni-lsp/{name}", str(err))
        return None


def validate(where, value, schema):
    """The draft-07 subset the template's schemas use."""
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            problem(where, f"must be an object, not {value!r}")
            return
        props = schema.get("properties", {})
        for key, item in value.items():
            if key in props:
                validate(f"{where}.{key}", item, props[key])
            elif schema.get("additionalProperties") is False:
                problem(where, f"{key!r} is not in the schema")
    elif kind == "boolean" and not isinstance(value, bool):
        problem(where, f"must be a boolean, not {value!r}")
    elif kind not in ("object", "boolean"):
        problem(where, f"schema type {kind!r}: not one this check knows")


def release_archives():
    """The archive names of the mason entry (the release's), version 1.2.3."""
    files = re.findall(r"^\s+file: (.+)$", MASON.read_text(), re.M)
    if not files:
        problem("editors/mason/packages/beeuni-lsp/package.yaml", "no asset file")
    return [f.replace('{{ version | strip_prefix "v" }}', "1.2.3") for f in files]


def check_jetbrains():
    for path in JETBRAINS.iterdir():
        if path.name not in LSP4IJ_FILES:
            problem(f"editors/jetbrains/beeuni-lsp/{path.name}", "not a file of LSP4IJ's template layout")
    template = jetbrains_json("template.json")
    installer = jetbrains_json("installer.json")
    if template is not None:
        where = "editors/jetbrains/beeuni-lsp/template.json"
        unknown_keys(where, template, LSP4IJ_TEMPLATE)
        if template.get("id") != "beeuni-lsp" or not template.get("name"):
            problem(where, "id beeuni-lsp and a name")
        args = template.get("programArgs", {})
        unknown_keys(f"{where} programArgs", args, LSP4IJ_OS)
        if args.get("default") != "beeuni-lsp serve":
            problem(where, "programArgs.default must be `beeuni-lsp serve`")
        mappings = template.get("fileTypeMappings", [])
        if not mappings:
            problem(where, "no fileTypeMappings")
        for m in mappings:
            unknown_keys(f"{where} fileTypeMappings", m, {"fileType", "languageId"})
            ft = m.get("fileType", {})
            unknown_keys(f"{where} fileType", ft, {"name", "patterns"})
            # With a name too, LSP4IJ maps that whole file type (all of YAML).
            if "name" in ft:
                problem(where, f"fileType {ft.get('name')!r}: a name maps the whole file type; patterns only")
            string_list(f"{where} patterns", ft.get("patterns"))
        if [p for m in mappings for p in m.get("fileType", {}).get("patterns", [])] != ["beeuni.yaml"]:
            problem(where, "the mapping must be the pattern beeuni.yaml")
    if installer is not None and template is not None:
        check_installer(installer, template)
    want = server_setting()["default"]
    for name, expected in (("settings", {"beeuni": {"inspectModules": want}}), ("initializationOptions", {"inspectModules": want})):
        value, schema = jetbrains_json(f"{name}.json"), jetbrains_json(f"{name}.schema.json")
        if value is None or schema is None:
            continue
        validate(f"editors/jetbrains/beeuni-lsp/{name}.json", value, schema)
        if value != expected:
            problem(f"editors/jetbrains/beeuni-lsp/{name}.json", f"must be {json.dumps(expected)}")
        leaf = schema["properties"].get("beeuni", schema)["properties"]["inspectModules"]
        if leaf.get("default") != want or leaf.get("type") != server_setting()["type"]:
            problem(f"editors/jetbrains/beeuni-lsp/{name}.schema.json", "inspectModules: not the VS Code extension's type and default")
    if jetbrains_json("clientSettings.json") != {}:
        problem("editors/jetbrains/beeuni-lsp/clientSettings.json", "must be {}")


def task(where, value):
    """The one task of a check, run, onSuccess or onFail object."""
    if not isinstance(value, dict) or len(value) != 1 or next(iter(value)) not in LSP4IJ_TASKS:
        problem(where, f"must hold one task ({', '.join(sorted(LSP4IJ_TASKS))})")
        return None, {}
    kind, body = next(iter(value.items()))
    return kind, body


def check_installer(installer, template):
    where = "editors/jetbrains/beeuni-lsp/installer.json"
    unknown_keys(where, installer, LSP4IJ_INSTALLER)
    if installer.get("id") != template.get("id") or installer.get("name") != template.get("name"):
        problem(where, "id and name must be the template's")
    kind, check = task(f"{where} check", installer.get("check"))
    if kind == "exec":
        unknown_keys(f"{where} check.exec", check, {"name", "command", "timeout", "workingDir", "ignoreStderr", "onFail", "onSuccess"})
        command = check.get("command", {})
        unknown_keys(f"{where} check.exec.command", command, LSP4IJ_OS)
        if command.get("default") != "beeuni-lsp version":
            problem(where, "the check runs `beeuni-lsp version`")
    kind, download = task(f"{where} run", installer.get("run"))
    if kind != "download":
        problem(where, "run must download the release")
        return
    unknown_keys(f"{where} download", download, {"name", "github", "url", "maven", "output", "onSuccess", "onFail"})
    gh = download.get("github", {})
    unknown_keys(f"{where} github", gh, {"owner", "repository", "prerelease", "asset"})
    if (gh.get("owner"), gh.get("repository")) != ("beeuni", "beeuni-lsp"):
        problem(where, "github must be beeuni/beeuni-lsp")
    archives = release_archives()
    asset = gh.get("asset", {})
    unknown_keys(f"{where} asset", asset, LSP4IJ_OS)
    matched = set()
    for os_name in ("windows", "unix", "mac"):
        arches = asset.get(os_name, {})
        unknown_keys(f"{where} asset.{os_name}", arches, LSP4IJ_ARCH)
        if set(arches) != LSP4IJ_ARCH:
            problem(where, f"asset.{os_name} must name x86_64 and arm64")
        for arch, pattern in arches.items():
            hits = [a for a in archives if fnmatch.fnmatchcase(a, pattern)]
            if len(hits) != 1:
                problem(where, f"asset.{os_name}.{arch} {pattern!r} matches {hits} of the release's {archives}")
            matched.update(hits)
    if matched != set(archives):
        problem(where, f"no asset for {sorted(set(archives) - matched)}")
    output = download.get("output", {})
    if output.get("dir") != "$USER_HOME$/.lsp4ij/lsp/beeuni-lsp":
        problem(where, "output.dir must be $USER_HOME$/.lsp4ij/lsp/beeuni-lsp")
    names = output.get("file", {}).get("name", {})
    if names != {"windows": "beeuni-lsp.exe", "default": "beeuni-lsp"} or output.get("file", {}).get("executable") is not True:
        problem(where, "output.file: the executable beeuni-lsp (beeuni-lsp.exe on Windows), at the archive's top level")
    kind, configure = task(f"{where} onSuccess", download.get("onSuccess"))
    if kind != "configureServer" or configure.get("command") != "${output.dir}/${output.file.name} serve" or configure.get("update") is not True:
        problem(where, "onSuccess must configureServer `${output.dir}/${output.file.name} serve`, update true")


# --- editors/mason: the main registry's conventions ---------------------------
# mason-org/mason-registry CONTRIBUTING.md and .editorconfig (967b0ab9): the
# file at packages/<name>/package.yaml, 2-space YAML, lines of at most 120
# characters, languages cased as the other packages case them,
# neovim.lspconfig naming nvim-lspconfig's config.
MASON_LANGUAGES = {"YAML", "TypeScript", "JavaScript"}


def check_mason():
    where = "editors/mason/packages/beeuni-lsp/package.yaml"
    text = MASON.read_text()
    name = re.search(r"^name: (\S+)$", text, re.M)
    if not name or name.group(1) != MASON.parent.name:
        problem(where, "name must be the folder's name")
    for n, line in enumerate(text.splitlines(), 1):
        if len(line) > 120:
            problem(where, f"line {n} is longer than 120 characters")
        if line.rstrip() != line:
            problem(where, f"line {n} has trailing space")
        indent = len(line) - len(line.lstrip(" "))
        if "\t" in line or indent % 2:
            problem(where, f"line {n}: 2-space indentation")
    languages = re.search(r"^languages:\n((?:  - .*\n)+)", text, re.M)
    for lang in re.findall(r"  - (.*)", languages.group(1)) if languages else []:
        if lang not in MASON_LANGUAGES:
            problem(where, f"language {lang!r}: not as mason-registry spells it")
    lspconfig = re.search(r"^neovim:\n  lspconfig: (\S+)$", text, re.M)
    if not lspconfig or not (NVIM_LSP / f"{lspconfig.group(1)}.lua").is_file():
        problem(where, "neovim.lspconfig must name editors/neovim/lsp/<name>.lua")


def main():
    blocks = doc_blocks()
    check_helix(blocks)
    check_sublime(blocks)
    check_zed(blocks)
    check_jetbrains()
    check_mason()
    for p in problems:
        print(p)
    if problems:
        print(f"check-editor-configs: {len(problems)} problem(s)")
        return 1
    print("check-editor-configs: Helix, Sublime Text, Zed (docs/editors.md), LSP4IJ (editors/jetbrains), mason (editors/mason): ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
