-- nvim-dap set-up for atoms-inspect dap: step through a journal's history in Neovim.
-- Copy into your config (or `dofile` this file) after nvim-dap is loaded.
-- See editors/README.md and docs/DEBUG_ADAPTER.md.
local dap = require('dap')

dap.adapters.atoms = {
  type = 'executable',
  command = 'atoms-inspect', -- or an absolute path to .build/release/atoms-inspect
  args = { 'dap' },
}

local configurations = {
  {
    type = 'atoms',
    request = 'launch',
    name = 'atoms: step through a journal',
    journal = function()
      return vim.fn.input('Journal: ', vim.fn.getcwd() .. '/', 'file')
    end,
    sourceRoot = '${workspaceFolder}',
    stopOnEntry = true,
  },
  {
    type = 'atoms',
    request = 'launch',
    name = 'atoms: run a journal to the first breakpoint',
    journal = function()
      return vim.fn.input('Journal: ', vim.fn.getcwd() .. '/', 'file')
    end,
    sourceRoot = '${workspaceFolder}',
  },
  {
    type = 'atoms',
    request = 'attach',
    name = 'atoms: attach to a recording program',
    pid = require('dap.utils').pick_process,
    sourceRoot = '${workspaceFolder}',
  },
}

-- Beside the Swift configurations you already have (lldb-dap's, for instance).
dap.configurations.swift = vim.list_extend(dap.configurations.swift or {}, configurations)
