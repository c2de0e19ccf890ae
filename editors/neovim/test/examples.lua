-- The plugin and the real server on the repository's example projects
-- (read only): examples/mistakes reports its documented mistakes, with the
-- spec's exact messages at their places; examples/shop reports no error.
--   BEEUNI_LSP=/path/to/beeuni-lsp nvim --headless -u NONE -i NONE -n -c 'luafile editors/neovim/test/examples.lua'
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')

local server = os.getenv('BEEUNI_LSP')
if not server or server == '' or vim.fn.executable(server) ~= 1 then
  io.stdout:write('BEEUNI_LSP must name the beeuni-lsp binary (got ' .. tostring(server) .. ')\n')
  vim.cmd('cquit 1')
end

local repo = vim.fn.fnamemodify(H.plugin_dir, ':h:h')
local beeuni = require('beeuni')

-- Which documents the server has published diagnostics for (even none).
local published = {}
local publish = vim.lsp.handlers['textDocument/publishDiagnostics']
vim.lsp.handlers['textDocument/publishDiagnostics'] = function(err, result, ctx, config)
  if result then
    published[result.uri] = true
  end
  return publish(err, result, ctx, config)
end

vim.cmd('filetype on')
vim.o.hidden = true
beeuni.setup({ cmd = { server, 'serve' } })

local function code_of(d)
  return d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
end

--- 0-based line and byte column of the first occurrence of `needle` in a buffer.
local function find(bufnr, needle)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return i - 1, col - 1
    end
  end
  H.fail('no ' .. needle .. ' in the buffer')
end

local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(bufnr)
  H.wait_for(20000, function() return published[uri] end, 'diagnostics for ' .. path)
  return bufnr
end

H.run({
  { 'examples/mistakes: the documented rules, exact messages at their places', function()
    local bufnr = open(repo .. '/examples/mistakes/beeuni.yaml')
    -- The YAML rules come first; T11 and A4 follow when module inspection is done.
    local wanted = { 'I2', 'I4', 'T1', 'T2', 'T3', 'T4', 'T5', 'T6', 'T7', 'T9', 'T10', 'T11', 'A1', 'A2', 'A3', 'A4', 'H1' }
    local diags, missing
    local ok = vim.wait(20000, function()
      diags = vim.diagnostic.get(bufnr)
      local codes = {}
      for _, d in ipairs(diags) do
        codes[code_of(d)] = true
      end
      missing = vim.tbl_filter(function(c) return not codes[c] end, wanted)
      return #missing == 0
    end, 50)
    H.truthy(ok, 'codes missing: ' .. table.concat(missing, ', '))
    local function at(message)
      for _, d in ipairs(diags) do
        if d.message == message then
          return { d.lnum, d.col }
        end
      end
      H.fail('no diagnostic says ' .. message)
    end
    local t3 = 'must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.'
    H.eq({ find(bufnr, 'beeuni:image_search') }, at(t3), 'T3 position')
    local a2 = '"show" is a Beeuni tool this project does not load: add `show: beeuni:show` under the top-level `tools`, or remove it here.'
    local line, col = find(bufnr, 'web_serch, show]')
    H.eq({ line, col + #'web_serch, ' }, at(a2), 'A2 position')
  end },

  { 'examples/shop: no error', function()
    local bufnr = open(repo .. '/examples/shop/beeuni.yaml')
    -- A hover on a project tool needs its module inspected: once it answers
    -- with the module's description, inspection has run.
    local line, col = find(bufnr, 'lookup_order: tools/')
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = line, character = col + 2 } }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, 20000)
    local hover
    for _, r in pairs(resp or {}) do
      hover = r.result
    end
    H.truthy(hover and hover.contents, 'a hover on lookup_order')
    local errors = vim.diagnostic.get(bufnr, { severity = vim.diagnostic.severity.ERROR })
    H.eq({}, vim.tbl_map(function(d) return d.message end, errors), 'errors')
  end },
})
