-- The plugin against the real server, headless, no plugin manager:
--   BEEUNI_LSP=/path/to/beeuni-lsp nvim --headless -u NONE -i NONE -n -c 'luafile editors/neovim/test/server.lua'
-- It opens a copy of the fixture project, waits for diagnostics, requests
-- hover and completion, runs the eject code action, :BeeuniEject, :BeeuniTools
-- and :BeeuniAgentTools, and the code lens on an agent.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')
H.stop_on_failure = true -- each step builds on the previous one

local server = os.getenv('BEEUNI_LSP')
if not server or server == '' or vim.fn.executable(server) ~= 1 then
  io.stdout:write('BEEUNI_LSP must name the beeuni-lsp binary (got ' .. tostring(server) .. ')\n')
  vim.cmd('cquit 1')
end

-- The T3 message for `web_search: beeuni:web_serch` (SPEC section 4, exact).
local T3 = 'must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.'

local beeuni = require('beeuni')
local project = H.copy_fixture('project')
local manifest = project .. '/beeuni.yaml'
local bufnr, client

vim.cmd('filetype on')
vim.o.hidden = true
vim.cmd('runtime plugin/beeuni.lua')

-- The eject's window/showDocument and applied edits leave buffers behind;
-- this writes them all, as a user would with :wall.
local function write_all()
  vim.cmd('silent! wall')
end

local function disk_lines(path)
  local s = H.read_file(path)
  return s and H.lines(s) or nil
end

H.run({
  { 'the client starts and attaches to beeuni.yaml', function()
    if vim.lsp.enable then
      -- 0.11+: the documented route, lsp/beeuni.lua on the runtimepath
      -- (examples.lua covers setup() there).
      vim.lsp.config('beeuni', { cmd = { server, 'serve' } })
      vim.lsp.enable('beeuni')
    else
      beeuni.setup({ cmd = { server, 'serve' } })
    end
    vim.cmd('edit ' .. manifest)
    bufnr = vim.api.nvim_get_current_buf()
    H.eq('yaml.beeuni', vim.bo[bufnr].filetype, 'filetype')
    client = H.wait_for(10000, function()
      local c = beeuni.client_for(bufnr)
      return c and vim.lsp.buf_is_attached(bufnr, c.id) and c.initialized ~= false and c
    end, 'the beeuni client to attach')
    H.eq(project, client.config.root_dir, 'root_dir')
    if vim.fn.has('nvim-0.11') == 1 then
      -- The commands are the buffer's, created on attach.
      local cmds = vim.api.nvim_buf_get_commands(bufnr, {})
      H.truthy(cmds.BeeuniEject and cmds.BeeuniTools, 'buffer-local commands: ' .. vim.inspect(vim.tbl_keys(cmds)))
      H.eq(nil, vim.api.nvim_get_commands({}).BeeuniEject, 'no global :BeeuniEject')
    end
    local info = H.wait_for(10000, function()
      return beeuni.server_info(client)
    end, 'serverInfo')
    H.eq('beeuni-lsp', info.name, 'serverInfo.name')
    H.truthy(type(info.version) == 'string' and info.version ~= '', 'serverInfo.version')
  end },

  { 'a diagnostic with the exact message at its position', function()
    local d = H.wait_for(20000, function()
      for _, diag in ipairs(vim.diagnostic.get(bufnr)) do
        if diag.message == T3 then
          return diag
        end
      end
    end, 'the T3 diagnostic')
    -- Line 3 of the file (0-based 2), on the value `beeuni:web_serch` (column 14).
    H.eq({ 2, 14, vim.diagnostic.severity.ERROR }, { d.lnum, d.col, d.severity }, 'position and severity')
  end },

  { 'hover on a Beeuni tool name', function()
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 3, character = 4 } }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/hover', params, 10000)
    local r = H.truthy(resp and resp[client.id] and resp[client.id].result, 'a hover result')
    local text = r.contents
    if type(text) == 'table' then
      text = text.value or vim.inspect(text)
    end
    H.contains(text, 'image_search', 'hover text')
  end },

  { 'completion in an agent tools list offers the tools not yet listed', function()
    -- `    tools: [read, lookup_order, web_search]`: at the start of `read`.
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, position = { line = 9, character = 12 } }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/completion', params, 10000)
    local r = H.truthy(resp and resp[client.id] and resp[client.id].result, 'a completion result')
    local items = r.items or r
    local labels = {}
    for _, item in ipairs(items) do
      labels[item.label] = true
    end
    -- Harness and Beeuni tools; the list already holds lookup_order and web_search.
    for _, want in ipairs({ 'bash', 'image_search', 'show' }) do
      H.truthy(labels[want], 'completion lacks ' .. want .. ': ' .. vim.inspect(vim.tbl_keys(labels)))
    end
  end },

  { 'the quick fix for the diagnostic rewrites the value', function()
    local diag
    for _, d in ipairs(vim.diagnostic.get(bufnr)) do
      if d.message == T3 then
        diag = d
      end
    end
    H.truthy(diag, 'the T3 diagnostic')
    local lsp_diag = {
      range = { start = { line = diag.lnum, character = diag.col }, ['end'] = { line = diag.end_lnum, character = diag.end_col } },
      message = diag.message,
      severity = 1,
      source = diag.source,
      code = diag.code or (diag.user_data and diag.user_data.lsp and diag.user_data.lsp.code),
    }
    -- Neovim keeps the server's own fields (code, data) in user_data.lsp.
    if diag.user_data and diag.user_data.lsp then
      lsp_diag = vim.tbl_extend('keep', lsp_diag, diag.user_data.lsp)
      lsp_diag.code = diag.user_data.lsp.code or lsp_diag.code
    end
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = lsp_diag.range,
      context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
    }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 10000)
    local actions = H.truthy(resp and resp[client.id] and resp[client.id].result, 'code actions')
    local fix
    for _, a in ipairs(actions) do
      if a.kind == 'quickfix' and a.title:find('beeuni:web_search', 1, true) then
        fix = a
      end
    end
    H.truthy(fix and fix.edit, 'no quick fix with an edit among ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions)))
    beeuni.apply_action(client, bufnr, fix)
    H.eq('  web_search: beeuni:web_search', vim.api.nvim_buf_get_lines(bufnr, 2, 3, false)[1], 'line 3')
    H.wait_for(10000, function()
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        if d.message == T3 then
          return false
        end
      end
      return true
    end, 'the diagnostic to go away')
  end },

  { 'the eject code action on `memory` writes tools/memory.ts and rewrites the line', function()
    local params = {
      textDocument = { uri = vim.uri_from_bufnr(bufnr) },
      range = { start = { line = 4, character = 3 }, ['end'] = { line = 4, character = 3 } },
      context = { diagnostics = {} },
    }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 10000)
    local actions = H.truthy(resp and resp[client.id] and resp[client.id].result, 'code actions')
    local action
    for _, a in ipairs(actions) do
      if a.title:find('memory', 1, true) and a.title:lower():find('eject', 1, true) then
        action = a
      end
    end
    H.truthy(action, 'no eject action among ' .. vim.inspect(vim.tbl_map(function(a) return a.title end, actions)))
    local answered, failure = false, nil
    beeuni.apply_action(client, bufnr, action, function(err)
      answered, failure = true, err
    end)
    H.wait_for(10000, function() return answered end, 'the eject command to answer')
    H.eq(nil, failure, 'eject error')
    -- The server may write the new module itself and the client the manifest
    -- edit: wait for both.
    local want = '^  memory: tools/memory%.ts +# ejected from beeuni:memory$'
    local ok = vim.wait(10000, function()
      write_all()
      local module = H.read_file(project .. '/tools/memory.ts')
      return module and module:find('export default', 1, true) and disk_lines(manifest)[5]:match(want) and true
    end, 20)
    H.truthy(ok, 'tools/memory.ts and line 5 (now ' .. vim.inspect(disk_lines(manifest)[5]) .. ')')
  end },

  { ':BeeuniEject completes the ejectable names', function()
    vim.api.nvim_set_current_buf(bufnr)
    local names = vim.fn.getcompletion('BeeuniEject ', 'cmdline')
    H.truthy(vim.tbl_contains(names, 'image_search'), 'image_search in ' .. vim.inspect(names))
    H.truthy(vim.tbl_contains(names, 'show'), 'show in ' .. vim.inspect(names))
    H.truthy(not vim.tbl_contains(names, 'memory'), 'memory (already ejected) in ' .. vim.inspect(names))
    H.eq({ 'show' }, vim.fn.getcompletion('BeeuniEject sh', 'cmdline'), 'prefix')
  end },

  { ':BeeuniEject image_search replaces the template comment', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('BeeuniEject image_search')
    local want = '^  image_search: tools/image_search%.ts +# ejected from beeuni:image_search$'
    local ok = vim.wait(10000, function()
      write_all()
      local module = H.read_file(project .. '/tools/image_search.ts')
      return module and module:find('export default', 1, true) and disk_lines(manifest)[4]:match(want) and true
    end, 20)
    H.truthy(ok, 'tools/image_search.ts and line 4 (now ' .. vim.inspect(disk_lines(manifest)[4]) .. ')')
    -- The eject opened the new file (window/showDocument).
    H.wait_for(5000, function()
      return vim.api.nvim_buf_get_name(0) == project .. '/tools/image_search.ts'
    end, 'tools/image_search.ts to be shown (current buffer: ' .. vim.api.nvim_buf_get_name(0) .. ')')
    -- The other lines stay as they were.
    H.eq('# A small project for the editor tests: one mistake (line 3) and tools to eject.', disk_lines(manifest)[1], 'line 1')
  end },

  { ':BeeuniTools shows the tools ls table in a floating window', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('BeeuniTools')
    local win = H.wait_for(10000, function()
      local w = vim.api.nvim_get_current_win()
      return vim.api.nvim_win_get_config(w).relative ~= '' and w
    end, 'a floating window')
    local text = table.concat(vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false), '\n')
    H.truthy(text:match('NAME%s+KIND%s+SOURCE'), 'header in ' .. text)
    H.truthy(text:match('image_search%s+beeuni %(overridden%)%s+tools/image_search%.ts'), 'image_search row in ' .. text)
    H.truthy(text:match('lookup_order%s+project%s+tools/lookup_order%.ts'), 'lookup_order row in ' .. text)
    H.contains(text, 'AGENT TOOLS', 'agents')
    local support = H.truthy(text:match('\nsupport%s+([^\n]*)'), 'support agent in ' .. text)
    local seen = {}
    for name in support:gmatch('[%w_]+') do
      seen[name] = true
    end
    H.eq({ lookup_order = true, read = true, web_search = true }, seen, "support's tools")
    vim.api.nvim_win_close(win, true)
  end },

  { ':BeeuniAgentTools support shows what its model sees in a scratch buffer', function()
    vim.api.nvim_set_current_buf(bufnr)
    H.eq({ 'support' }, vim.fn.getcompletion('BeeuniAgentTools su', 'cmdline'), 'agent completion')
    vim.cmd('BeeuniAgentTools support')
    local buf = H.wait_for(10000, function()
      local b = vim.api.nvim_get_current_buf()
      return vim.api.nvim_buf_get_name(b) == 'beeuni://agent/support' and b
    end, 'the scratch buffer beeuni://agent/support')
    H.eq({ 'nofile', false }, { vim.bo[buf].buftype, vim.bo[buf].modifiable }, 'a read-only scratch buffer')
    local text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n')
    H.truthy(text:match("^What agent support's model sees: 3 tools"), 'summary in ' .. text)
    H.contains(text, 'read · harness · harness', 'read')
    H.contains(text, 'lookup_order · project · tools/lookup_order.ts', 'lookup_order')
    H.contains(text, 'web_search · beeuni · beeuni:web_search', 'web_search')
    vim.cmd('close')
  end },

  { "the code lens on an agent opens the same view through beeuni.showAgentTools", function()
    vim.api.nvim_set_current_buf(bufnr)
    local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
    local resp = vim.lsp.buf_request_sync(bufnr, 'textDocument/codeLens', params, 10000)
    local lenses = H.truthy(resp and resp[client.id] and resp[client.id].result, 'code lenses')
    local lens
    for _, l in ipairs(lenses) do
      if l.command and l.command.command == 'beeuni.showAgentTools' then
        lens = l
      end
    end
    H.truthy(lens, 'no agent lens among ' .. vim.inspect(lenses))
    H.eq(8, lens.range.start.line, "the lens is on support's line")
    H.truthy(lens.command.title:match('^3 tools · ≈%d+ tokens'), 'title ' .. lens.command.title)
    -- What vim.lsp.codelens.run does with a command the client registered.
    local handler = H.truthy(vim.lsp.commands['beeuni.showAgentTools'], 'the client-side command')
    handler(lens.command, { bufnr = bufnr, client_id = client.id })
    local buf = H.wait_for(10000, function()
      local b = vim.api.nvim_get_current_buf()
      return vim.api.nvim_buf_get_name(b) == 'beeuni://agent/support' and b
    end, 'the scratch buffer again')
    H.contains(table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\n'), 'lookup_order · project', 'the view')
    vim.cmd('close')
  end },

  { 'the inspectModules setting turns module inspection (T11) off and on', function()
    local other = H.copy_fixture('inspect')
    vim.cmd('edit ' .. other .. '/beeuni.yaml')
    local buf = vim.api.nvim_get_current_buf()
    local function t11()
      for _, d in ipairs(vim.diagnostic.get(buf)) do
        if d.code == 'T11' or (d.user_data and d.user_data.lsp and d.user_data.lsp.code == 'T11') then
          return d
        end
      end
    end
    local d = H.wait_for(20000, t11, 'the T11 diagnostic (inspectModules is on by default)')
    H.eq({ 4, 10 }, { d.lnum, d.col }, 'T11 position')
    local c = H.wait_for(5000, function() return beeuni.client_for(buf) end, 'a client for the second project')
    H.eq(other, c.config.root_dir, 'a client per project root')
    local function set(on)
      c.config.settings.beeuni.inspectModules = on
      local params = { settings = c.config.settings }
      if vim.fn.has('nvim-0.11') == 1 then
        c:notify('workspace/didChangeConfiguration', params)
      else
        c.notify('workspace/didChangeConfiguration', params)
      end
    end
    set(false)
    H.wait_for(20000, function() return not t11() end, 'T11 to go away with inspectModules off')
    set(true)
    H.wait_for(20000, t11, 'T11 to come back with inspectModules on')
    vim.api.nvim_set_current_buf(bufnr)
  end },

  { 'the call hierarchy: the agents that get a tool, in the quickfix list', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.fn.setqflist({}, 'r')
    vim.api.nvim_win_set_cursor(0, { 7, 4 }) -- on `lookup_order` under tools:
    vim.lsp.buf.incoming_calls()
    local items = H.wait_for(10000, function()
      local qf = vim.fn.getqflist()
      return #qf > 0 and qf
    end, 'the incoming calls in the quickfix list')
    H.eq(1, #items, 'one agent gets lookup_order: ' .. vim.inspect(items))
    H.eq('support', items[1].text, 'the agent')
    H.eq(10, items[1].lnum, "where the agent names it (its tools list's line)")
    vim.cmd('cclose')
  end },

  { ':BeeuniRename from a module buffer moves it and updates the manifest line', function()
    write_all()
    vim.cmd('edit ' .. project .. '/tools/lookup_order.ts')
    local module_buf = vim.api.nvim_get_current_buf()
    local answered, failure = false, nil
    beeuni.rename_file('find_order.ts', module_buf, function(err)
      answered, failure = true, err
    end)
    H.wait_for(10000, function() return answered end, 'the rename to finish')
    H.eq(nil, failure, 'rename error')
    -- 0.10+ renames the buffer, 0.7 opens the new file in a new one.
    H.truthy(vim.fn.bufnr(project .. '/tools/find_order.ts') ~= -1, 'a buffer for the new file')
    H.truthy(H.read_file(project .. '/tools/find_order.ts'), 'tools/find_order.ts on disk')
    H.eq(nil, H.read_file(project .. '/tools/lookup_order.ts'), 'tools/lookup_order.ts gone')
    H.eq('  lookup_order: tools/find_order.ts', vim.api.nvim_buf_get_lines(bufnr, 6, 7, false)[1], 'the manifest line, in its buffer')
    H.truthy(vim.fn.exists(':BeeuniRename') == 2, ':BeeuniRename defined')
  end },

  { ':checkhealth beeuni finds the binary, its version and the root', function()
    vim.api.nvim_set_current_buf(bufnr)
    vim.cmd('checkhealth beeuni')
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    H.contains(text, 'binary found: ' .. server, 'health')
    H.contains(text, 'version: beeuni-lsp ', 'health')
    H.contains(text, 'project root: ' .. project, 'health')
  end },
})
