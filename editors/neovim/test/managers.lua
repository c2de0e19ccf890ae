-- The one-step installs of docs/editors.md, as written, from a local clone
-- of this repository (no network), with beeuni-lsp on PATH:
--   BEEUNI_MANAGER=lazy  what lazy.nvim does for `{ 'beeuni/beeuni-lsp' }`
--                        (lazy.nvim itself is not packaged anywhere this
--                        test can install from): clone into its folder, put
--                        the clone on the runtimepath, source its plugin/
--                        scripts, make help tags for its doc/
--   BEEUNI_MANAGER=pack  Neovim 0.12's own vim.pack.add(), for real
-- each with `vim.lsp.enable('beeuni')`; checks the filetype, the client attached
-- to beeuni.yaml, the buffer-local commands and `:help beeuni`.
--   XDG_DATA_HOME=<tmp> XDG_CONFIG_HOME=<tmp> PATH=<dir of beeuni-lsp>:$PATH \
--     BEEUNI_MANAGER=pack nvim --headless -u NONE -i NONE -n -c 'luafile editors/neovim/test/managers.lua'
local H = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':p:h') .. '/helpers.lua')
H.stop_on_failure = true

-- helpers.lua put editors/neovim on the runtimepath: a user's Neovim does not have it.
vim.opt.runtimepath:remove(H.plugin_dir)
local repo = vim.fn.fnamemodify(H.plugin_dir, ':h:h')
local manager = os.getenv('BEEUNI_MANAGER')
local tmp = vim.fn.resolve(vim.fn.tempname())

local function sh(cmd, cwd)
  local out = vim.fn.system(cwd and { 'sh', '-c', 'cd "$0" && ' .. cmd, cwd } or { 'sh', '-c', cmd })
  if vim.v.shell_error ~= 0 then
    error(cmd .. ': ' .. out)
  end
  return out
end

--- A git repository holding this work tree's files as a clone of it would
--- (tracked and new files, not ignored ones): what a plugin manager clones.
local function source_repo()
  local src = tmp .. '/beeuni-lsp.git'
  vim.fn.mkdir(src, 'p')
  sh('git ls-files -co --exclude-standard -z | xargs -0 cp --parents -t "' .. src .. '"', repo)
  sh('git init -q && git add -A && git -c user.name=test -c user.email=test@example.invalid commit -qm snapshot', src)
  return src
end

local function open_manifest()
  local project = H.copy_fixture('project')
  vim.cmd('edit ' .. project .. '/beeuni.yaml')
  return vim.api.nvim_get_current_buf(), project
end

H.run({
  { 'install: ' .. tostring(manager), function()
    H.truthy(vim.fn.executable('beeuni-lsp') == 1, 'beeuni-lsp on PATH')
    local src = source_repo()
    vim.cmd('filetype plugin on') -- startup does it before plugins load
    if manager == 'lazy' then
      -- lazy.nvim: git clone into stdpath('data')/lazy/<name>, then, for a
      -- plugin that is not lazy-loaded, at startup: the folder on the
      -- runtimepath and its plugin/**/*.{vim,lua} sourced; help tags for
      -- its doc/ if there is one.
      -- docs/editors.md's spec. Its build step (go install) is run by
      -- TestLazyNvimSpecBuildsTheServer (cmd/beeuni-lsp); here beeuni-lsp is
      -- on PATH already.
      local spec = { 'beeuni/beeuni-lsp', build = 'go install ./cmd/beeuni-lsp', config = function() vim.lsp.enable('beeuni') end }
      local dir = vim.fn.stdpath('data') .. '/lazy/' .. spec[1]:match('[^/]+$')
      sh('git clone -q "' .. src .. '" "' .. dir .. '"')
      vim.opt.runtimepath:prepend(dir)
      for _, f in ipairs(vim.fn.glob(dir .. '/plugin/**/*.{vim,lua}', false, true)) do
        vim.cmd('source ' .. vim.fn.fnameescape(f))
      end
      if vim.fn.isdirectory(dir .. '/doc') == 1 then
        vim.cmd('helptags ' .. dir .. '/doc')
      end
      spec.config()
    elseif manager == 'pack' then
      -- docs/editors.md: vim.pack.add({ 'https://github.com/beeuni/beeuni-lsp' }), here from the local clone.
      vim.pack.add({ { src = 'file://' .. src, name = 'beeuni-lsp' } }, { confirm = false })
      H.truthy(vim.fn.isdirectory(vim.fn.stdpath('data') .. '/site/pack/core/opt/beeuni-lsp') == 1, 'vim.pack cloned the plugin')
      vim.lsp.enable('beeuni')
    else
      H.fail('BEEUNI_MANAGER must be lazy or pack')
    end
  end },

  { 'beeuni.yaml: filetype yaml.beeuni, the client attached, buffer-local commands', function()
    local bufnr, project = open_manifest()
    H.eq('yaml.beeuni', vim.bo[bufnr].filetype, 'filetype')
    local client = H.wait_for(10000, function()
      return vim.lsp.get_clients({ bufnr = bufnr, name = 'beeuni' })[1]
    end, 'the beeuni client to attach')
    H.eq(project, client.config.root_dir, 'root_dir')
    H.wait_for(5000, function() return vim.api.nvim_buf_get_commands(bufnr, {}).BeeuniTools end, ':BeeuniTools on the buffer')
  end },

  { ':help beeuni', function()
    -- The help ftplugin of 0.12 wants the vimdoc parser, a Debian package of its own.
    vim.cmd('filetype plugin off')
    vim.cmd('help beeuni')
    H.eq('beeuni.txt', vim.fn.expand('%:t'), ':help beeuni')
    vim.cmd('helpclose')
  end },
})
