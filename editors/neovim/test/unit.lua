-- Plugin logic that needs no server: root detection, formatting, commands, health.
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')
local beeuni = require('beeuni')
local format = require('beeuni.format')

local tmp = vim.fn.resolve(vim.fn.tempname())

local function touch(path)
  vim.fn.mkdir(vim.fn.fnamemodify(path, ':h'), 'p')
  vim.fn.writefile({ 'tools: {}' }, path)
end

H.run({
  { 'find_root: the nearest ancestor folder holding beeuni.yaml', function()
    touch(tmp .. '/mono/beeuni.yaml')
    touch(tmp .. '/mono/apps/shop/beeuni.yaml')
    vim.fn.mkdir(tmp .. '/mono/apps/shop/tools', 'p')
    vim.fn.mkdir(tmp .. '/mono/lib', 'p')
    vim.fn.mkdir(tmp .. '/outside', 'p')
    H.eq(tmp .. '/mono/apps/shop', beeuni.find_root(tmp .. '/mono/apps/shop/tools/a.ts'), 'file in a nested project')
    H.eq(tmp .. '/mono/apps/shop', beeuni.find_root(tmp .. '/mono/apps/shop/beeuni.yaml'), 'the manifest itself')
    H.eq(tmp .. '/mono', beeuni.find_root(tmp .. '/mono/lib/x.yaml'), 'file in the outer project')
    H.eq(tmp .. '/mono', beeuni.find_root(tmp .. '/mono/lib'), 'a folder')
    H.eq(nil, beeuni.find_root(tmp .. '/outside/x.yaml'), 'outside any project')
    H.eq(nil, beeuni.find_root(''), 'an unnamed buffer')
  end },

  { 'format.session_tools: the tools ls table, then each agent', function()
    local lines = format.session_tools({
      table = 'NAME        KIND     SOURCE\nweb_search  beeuni   beeuni:web_search\n',
      agents = {
        { name = 'support', tools = { 'read', 'web_search' } },
        { name = 'b', tools = {} },
      },
    })
    H.eq({
      'NAME        KIND     SOURCE',
      'web_search  beeuni   beeuni:web_search',
      '',
      'AGENT TOOLS',
      'support  read, web_search',
      'b        (none)',
    }, lines, 'lines')
    H.eq({ '(no tools)' }, format.session_tools({}), 'empty result')
  end },

  { 'served_root: manifests anywhere, project files outside hidden folders and node_modules', function()
    touch(tmp .. '/mono/.github/workflows/ci.yml')
    touch(tmp .. '/mono/node_modules/zod/x.yaml')
    touch(tmp .. '/lone/beeuni.yaml')
    H.eq(tmp .. '/mono/apps/shop', beeuni.served_root(tmp .. '/mono/apps/shop/tools/a.ts'), 'a module')
    H.eq(tmp .. '/mono', beeuni.served_root(tmp .. '/mono/lib/x.yaml'), 'maybe an import')
    H.eq(tmp .. '/mono', beeuni.served_root(tmp .. '/mono/x.yaml'), 'a file beside the manifest')
    H.eq(tmp .. '/lone', beeuni.served_root(tmp .. '/lone/beeuni.yaml'), 'a lone manifest')
    H.eq(nil, beeuni.served_root(tmp .. '/mono/.github/workflows/ci.yml'), 'a CI workflow')
    H.eq(nil, beeuni.served_root(tmp .. '/mono/node_modules/zod/x.yaml'), 'a package file')
    H.eq(nil, beeuni.served_root(tmp .. '/outside/x.yaml'), 'outside any project')
  end },

  { 'ftdetect: beeuni.yaml is yaml.beeuni, with the yaml ftplugin and syntax', function()
    vim.cmd('filetype plugin on')
    vim.cmd('syntax on')
    local seen = {}
    vim.api.nvim_create_autocmd('FileType', { callback = function(args) table.insert(seen, args.match) end })
    vim.cmd('edit ' .. tmp .. '/mono/beeuni.yaml')
    H.eq('yaml.beeuni', vim.bo.filetype, 'filetype')
    -- 0.8+ sets it at once; 0.7's filetype.vim sets yaml first, then the plugin's ftdetect.
    H.eq(vim.fn.has('nvim-0.8') == 1 and { 'yaml.beeuni' } or { 'yaml', 'yaml.beeuni' }, seen, 'FileType events')
    H.eq('yaml', vim.b.current_syntax, 'syntax')
    H.eq('# %s', vim.bo.commentstring, "the yaml ftplugin's commentstring")
    vim.cmd('edit ' .. tmp .. '/mono/lib/x.yaml')
    H.eq('yaml', vim.bo.filetype, 'another YAML file keeps yaml')
    vim.cmd('filetype plugin off')
  end },

  { 'plugin/beeuni.lua: global commands only before 0.11 (buffer-local on attach after), no client', function()
    vim.cmd('runtime plugin/beeuni.lua')
    local want = vim.fn.has('nvim-0.11') == 1 and 0 or 2
    H.eq(want, vim.fn.exists(':BeeuniEject'), ':BeeuniEject')
    H.eq(want, vim.fn.exists(':BeeuniTools'), ':BeeuniTools')
    H.eq(want, vim.fn.exists(':BeeuniAgentTools'), ':BeeuniAgentTools')
    H.eq(0, #(vim.lsp.get_clients or vim.lsp.get_active_clients)(), 'clients')
  end },

  { 'setup does not attach outside a project', function()
    beeuni.setup({ cmd = { 'beeuni-lsp-that-does-not-exist', 'serve' } })
    vim.cmd('filetype on')
    vim.cmd('edit ' .. tmp .. '/outside/x.yaml')
    H.eq('yaml', vim.bo.filetype, 'filetype')
    vim.wait(100)
    H.eq(0, #(vim.lsp.get_clients or vim.lsp.get_active_clients)(), 'clients')
  end },

  { 'lsp/beeuni.lua: filetypes, cmd and a root_dir that needs beeuni.yaml', function()
    local config = dofile(H.plugin_dir .. '/lsp/beeuni.lua')
    H.eq({ 'yaml.beeuni', 'yaml', 'typescript', 'javascript' }, config.filetypes, 'filetypes')
    H.eq('function', type(config.on_attach), 'on_attach (the buffer-local commands)')
    H.eq({ 'beeuni-lsp', 'serve' }, config.cmd, 'cmd')
    H.eq('function', type(config.root_dir), 'root_dir')
    if vim.fs and vim.fs.root then -- 0.10+
      vim.cmd('edit ' .. tmp .. '/mono/apps/shop/tools/a.ts')
      local got
      config.root_dir(vim.api.nvim_get_current_buf(), function(root) got = root end)
      H.eq(tmp .. '/mono/apps/shop', got, 'root inside a project')
      got = 'unset'
      vim.cmd('edit ' .. tmp .. '/outside/y.ts')
      config.root_dir(vim.api.nvim_get_current_buf(), function(root) got = root end)
      H.eq('unset', got, 'no root outside a project')
      vim.cmd('edit ' .. tmp .. '/mono/apps/shop/shared.yaml')
      config.root_dir(vim.api.nvim_get_current_buf(), function(root) got = root end)
      H.eq(tmp .. '/mono/apps/shop', got, 'a file beside the manifest')
      got = 'unset'
      vim.cmd('edit ' .. tmp .. '/mono/.github/workflows/ci.yml')
      config.root_dir(vim.api.nvim_get_current_buf(), function(root) got = root end)
      H.eq('unset', got, 'no root for a CI workflow')
      vim.cmd('edit ' .. tmp .. '/lone/beeuni.yaml')
      config.root_dir(vim.api.nvim_get_current_buf(), function(root) got = root end)
      H.eq(tmp .. '/lone', got, 'a lone manifest')
    end
  end },

  { 'doc/beeuni.txt: help tags for the commands', function()
    -- A copy: helptags writes doc/tags beside the file.
    local copy = tmp .. '/helpcopy'
    vim.fn.mkdir(copy .. '/doc', 'p')
    vim.fn.writefile(vim.fn.readfile(H.plugin_dir .. '/doc/beeuni.txt'), copy .. '/doc/beeuni.txt')
    vim.cmd('helptags ' .. copy .. '/doc')
    vim.opt.runtimepath:prepend(copy)
    for _, tag in ipairs({ 'beeuni', ':BeeuniEject', ':BeeuniTools', ':BeeuniAgentTools', 'beeuni-setup', 'beeuni-health' }) do
      vim.cmd('help ' .. tag)
      H.eq('beeuni.txt', vim.fn.expand('%:t'), ':help ' .. tag)
      vim.cmd('helpclose')
    end
  end },

  { ':checkhealth beeuni reports a missing binary and the root', function()
    vim.cmd('edit ' .. tmp .. '/mono/lib/x.yaml')
    vim.cmd('checkhealth beeuni')
    local text = table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), '\n')
    H.contains(text, 'binary not found: beeuni-lsp-that-does-not-exist', 'health')
    H.contains(text, 'project root: ' .. tmp .. '/mono', 'health')
  end },
})
