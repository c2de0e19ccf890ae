-- beeuni-lsp beside yaml-language-server, as most users run them (0.11+):
-- yamlls configured as nvim-lspconfig's defaults (lsp/yamlls.lua) and this
-- plugin as docs/editors.md says. Each finding in beeuni.yaml (a duplicate
-- key, a rule finding, a syntax error) shows once and completion and hover
-- answer once, since beeuni.yaml is `yaml.beeuni`, which yamlls leaves
-- alone; beeuni-lsp leaves a CI workflow alone; in an imported file, where
-- both attach, what docs/editors.md says shows twice does, and the setting
-- it names stops it. yamlls has the JSON Schema of beeuni.yaml
-- (schema/beeuni.schema.json) mapped to beeuni.yaml, as SchemaStore's
-- catalog maps it, and to a probe file that shows the schema at work in
-- yamlls: with the schema in use, no finding in beeuni.yaml shows twice.
--   PATH=<yaml-language-server and Node 22+>:$PATH BEEUNI_LSP=/path/to/beeuni-lsp \
--     nvim --headless -u NONE -i NONE -n -c 'luafile editors/neovim/test/coexist.lua'
local here = vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h')
local H = dofile(here .. '/helpers.lua')
local SCHEMA = vim.uri_from_fname(vim.fn.fnamemodify(here .. '/../../../schema/beeuni.schema.json', ':p'))
H.stop_on_failure = true

local server = os.getenv('BEEUNI_LSP')
if not server or server == '' or vim.fn.executable(server) ~= 1 or vim.fn.executable('yaml-language-server') ~= 1 then
  io.stdout:write('BEEUNI_LSP must name the beeuni-lsp binary and yaml-language-server be on PATH\n')
  vim.cmd('cquit 1')
end

local MANIFEST = {
  'imports:',
  '  - shared.yaml',
  'tools:',
  '  web_search: beeuni:web_serch', -- T3 (line 4)
  '  memory: beeuni:memory',
  '  memory: beeuni:memory', -- T10, a duplicate key (line 6)
  'agents:',
  '  support:',
  '    tools: [read, web_search]',
}
local SHARED = { 'tools:', '  show: beeuni:show', '  show: beeuni:show' } -- a duplicate key (line 3)
local WORKFLOW = { 'name: ci', 'on: [push]', 'name: again' } -- a duplicate key yamlls reports
local PROBE = { 'tools:', '  web_search: beeuni:web_serch' } -- the schema's T3 (line 2), in a file yamlls attaches to

local project = vim.fn.resolve(vim.fn.tempname())
local function write(rel, lines)
  vim.fn.mkdir(vim.fn.fnamemodify(project .. '/' .. rel, ':h'), 'p')
  vim.fn.writefile(lines, project .. '/' .. rel)
end
write('beeuni.yaml', MANIFEST)
write('shared.yaml', SHARED)
write('.github/workflows/ci.yml', WORKFLOW)
write('schema-probe.yaml', PROBE)
vim.fn.system({ 'git', 'init', '-q', project }) -- yamlls's root marker

vim.cmd('filetype plugin on')
vim.o.hidden = true

-- nvim-lspconfig's lsp/yamlls.lua, with the schema of beeuni.yaml.
vim.lsp.config('yamlls', {
  cmd = { 'yaml-language-server', '--stdio' },
  filetypes = { 'yaml', 'yaml.docker-compose', 'yaml.gitlab', 'yaml.helm-values' },
  root_markers = { '.git' },
  settings = {
    redhat = { telemetry = { enabled = false } },
    yaml = { format = { enable = true }, schemas = { [SCHEMA] = { 'beeuni.yaml', 'schema-probe.yaml' } } },
  },
})
vim.lsp.enable('yamlls')
-- docs/editors.md (cmd: the binary under test).
vim.lsp.config('beeuni', { cmd = { server, 'serve' } })
vim.lsp.enable('beeuni')

local function names(bufnr)
  local out = {}
  for _, c in ipairs(vim.lsp.get_clients({ bufnr = bufnr })) do
    table.insert(out, c.name)
  end
  table.sort(out)
  return out
end

local function open(rel)
  vim.cmd('edit ' .. project .. '/' .. rel)
  return vim.api.nvim_get_current_buf()
end

--- The buffer's diagnostics on a 0-based line, as "source: message" strings.
local function on_line(bufnr, lnum)
  local out = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr, { lnum = lnum })) do
    table.insert(out, (d.source or '?') .. ': ' .. d.message)
  end
  table.sort(out)
  return out
end

--- The clients that answered a request with something.
local function answered(bufnr, method, params)
  local out = {}
  for id, r in pairs(vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}) do
    local res = r.result
    if res ~= nil and res ~= vim.NIL and not (type(res) == 'table' and (res.items and #res.items == 0 or (res[1] == nil and res.items == nil and res.contents == nil))) then
      table.insert(out, vim.lsp.get_client_by_id(id).name)
    end
  end
  table.sort(out)
  return out
end

local manifest

H.run({
  { 'a CI workflow: yamlls attaches and reports its duplicate key, beeuni-lsp stays away', function()
    local bufnr = open('.github/workflows/ci.yml')
    H.eq('yaml', vim.bo[bufnr].filetype, 'filetype')
    H.wait_for(20000, function() return #on_line(bufnr, 2) > 0 end, "yamlls's duplicate key in ci.yml")
    H.eq({ 'yamlls' }, names(bufnr), 'clients of ci.yml')
  end },

  { "the schema is in use: yamlls reports the probe's wrong beeuni: value", function()
    local bufnr = open('schema-probe.yaml')
    H.wait_for(20000, function() return #on_line(bufnr, 1) > 0 end, "the schema's finding in schema-probe.yaml")
    H.eq(1, #on_line(bufnr, 1), 'line 2: ' .. vim.inspect(on_line(bufnr, 1)))
    H.contains(on_line(bufnr, 1)[1], 'yaml-schema: Beeuni project manifest', "the schema's finding")
    H.contains(on_line(bufnr, 1)[1], 'beeuni:web_search', 'the value it wants')
  end },

  { 'beeuni.yaml: yaml.beeuni, only beeuni-lsp attached', function()
    manifest = open('beeuni.yaml')
    H.eq('yaml.beeuni', vim.bo[manifest].filetype, 'filetype')
    H.wait_for(10000, function() return #names(manifest) > 0 end, 'a client on beeuni.yaml')
    vim.wait(500) -- a second client would attach at the same FileType event
    H.eq({ 'beeuni' }, names(manifest), 'clients of beeuni.yaml')
  end },

  { 'beeuni.yaml, with the schema in use: the duplicate key and the rule finding once each', function()
    H.wait_for(20000, function() return #on_line(manifest, 3) > 0 and #on_line(manifest, 5) > 0 end, 'T3 and T10')
    vim.wait(1000) -- anything reported twice would be there by now
    local t3, t10 = on_line(manifest, 3), on_line(manifest, 5)
    H.eq(1, #t3, 'line 4: ' .. vim.inspect(t3))
    H.eq(1, #t10, 'line 6: ' .. vim.inspect(t10))
    H.contains(t10[1], 'appears twice', 'the duplicate key')
  end },

  { 'beeuni.yaml: hover and completion answer once', function()
    local uri = vim.uri_from_bufnr(manifest)
    H.eq({ 'beeuni' }, answered(manifest, 'textDocument/hover', { textDocument = { uri = uri }, position = { line = 4, character = 4 } }), 'hover')
    H.eq({ 'beeuni' }, answered(manifest, 'textDocument/completion', { textDocument = { uri = uri }, position = { line = 8, character = 12 } }), 'completion')
  end },

  { 'beeuni.yaml: a syntax error once', function()
    vim.api.nvim_buf_set_lines(manifest, 8, 9, false, { '    tools: [read, web_search' })
    H.wait_for(20000, function()
      for _, d in ipairs(vim.diagnostic.get(manifest)) do
        if (d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)) == 'Y1' then
          return true
        end
      end
    end, 'the Y1 syntax error')
    vim.wait(1000)
    local all = vim.tbl_map(function(d) return (d.source or '?') .. ': ' .. d.message end, vim.diagnostic.get(manifest))
    H.eq(1, #all, 'diagnostics of beeuni.yaml: ' .. vim.inspect(all))
  end },

  { 'an imported file: both attach, its duplicate key shows twice until yaml.validate is off', function()
    vim.api.nvim_buf_set_lines(manifest, 8, 9, false, { MANIFEST[9] }) -- the manifest parses again: its imports load
    local bufnr = open('shared.yaml')
    H.wait_for(10000, function() return #names(bufnr) == 2 end, 'both clients on shared.yaml (now ' .. vim.inspect(names(bufnr)) .. ')')
    H.wait_for(20000, function() return #on_line(bufnr, 2) == 2 end, 'the duplicate key from both servers')
    local yamlls = vim.lsp.get_clients({ bufnr = bufnr, name = 'yamlls' })[1]
    yamlls.settings.yaml.validate = false
    yamlls:notify('workspace/didChangeConfiguration', { settings = yamlls.settings })
    H.wait_for(20000, function() return #on_line(bufnr, 2) == 1 end, 'one finding with yaml.validate = false (now ' .. vim.inspect(on_line(bufnr, 2)) .. ')')
    H.contains(on_line(bufnr, 2)[1], 'appears twice', "beeuni-lsp's finding stays")
  end },
})
