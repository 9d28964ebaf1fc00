-- For editors-neovim*.test: with docs/editors.md's Neovim 0.7 set-up as the
-- init file, open a kernel file and report what the editor shows: the
-- cuda-bank-lint diagnostics and the clients attached to the buffer.
-- Environment: CBL_FILE (the kernel file), CBL_OUT (one line per fact).
local out = assert(io.open(os.getenv('CBL_OUT'), 'w'))
local function say(fmt, ...)
  out:write(string.format(fmt, ...) .. '\n')
  out:flush()
end
vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('CBL_FILE')))
local bufnr = vim.api.nvim_get_current_buf()
say('filetype %s', vim.bo[bufnr].filetype)
local function ours()
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.source == 'cuda-bank-lint' then table.insert(found, d) end
  end
  return found
end
if not vim.wait(120000, function() return #ours() > 0 end, 100) then
  say('FAIL: no cuda-bank-lint diagnostic within 120 s')
  vim.cmd('cquit 1')
end
for _, d in ipairs(ours()) do
  say('cuda-bank-lint diagnostic line %d code %s', d.lnum, tostring(d.code))
end
local names = {}
for _, c in pairs(vim.lsp.buf_get_clients(bufnr)) do table.insert(names, c.name) end
table.sort(names)
for _, n in ipairs(names) do say('client %s', n) end
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(10000, function() return #vim.lsp.get_active_clients() == 0 end, 50)
out:close()
vim.cmd('qall!')
